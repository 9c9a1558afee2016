import { z } from "zod";
import type { Json, TaskItem, TaskModule } from "@/lib/tasks/types";
import {
  aggregateEnact,
  candidateIndex,
  contradicts,
  enactAgentContract,
  enactAgreementEncodings,
  enactDashboardWords,
  enactMetrics,
  enactOrderAnswerSchema,
  enactOrderAnswerSchemaFor,
  factSchema,
  isSubset,
  keyOrderSchema,
  parseEnactModelAnswer,
  scoreByIndex,
  scoreOrder,
  sortedChanges,
  stateDiff,
  visibleChanges,
  type EnactOrderAnswer,
  type EnactScore,
} from "@/lib/tasks/shared/enact/common";

/**
 * ENACT forward world modeling (../shared/benchmarks/enact.md): given the first observation and
 * the ordered actions, put the shuffled later observations in order.
 */

export const enactForwardPublicSchema = z.strictObject({
  /** the observation before the first action (path relative to the batch folder) */
  initialImage: z.string().min(1),
  /** the actions in order, as shown to models and people */
  actions: z.array(z.string().min(1)).min(1, "an item needs at least one action"),
  /** the later observations, shuffled */
  candidates: z.array(z.string().min(1)).min(1, "an item needs at least one candidate image"),
});
export type EnactForwardPublic = z.infer<typeof enactForwardPublicSchema>;

export const enactForwardKeySchema = z
  .strictObject({
    /** order[i] = index in candidates of the observation after action i */
    order: keyOrderSchema,
    /** symbolic facts true in each image (optional: without them only exact order counts) */
    states: z
      .strictObject({
        initial: z.array(factSchema),
        candidates: z.array(z.array(factSchema)),
      })
      .optional(),
    /** facts that are not visible: left out of the reference changes C_i */
    hidden: z.array(factSchema).optional(),
  })
  .superRefine((key, ctx) => {
    // order is a permutation of the candidates, so its length is the candidate count
    if (key.states && key.states.candidates.length !== key.order.length) {
      ctx.addIssue({
        code: "custom",
        path: ["states", "candidates"],
        message: `key.states.candidates has ${key.states.candidates.length} states but key.order has ${key.order.length} entries (one state per candidate image)`,
      });
    }
  });
export type EnactForwardKey = z.infer<typeof enactForwardKeySchema>;

export const enactForwardItemSchema = z.object({ public: enactForwardPublicSchema, key: enactForwardKeySchema }).superRefine((item, ctx) => {
  const { actions, candidates } = item.public;
  const { order } = item.key;
  if (candidates.length !== actions.length) {
    ctx.addIssue({
      code: "custom",
      path: ["public", "candidates"],
      message: `public.candidates has ${candidates.length} images but public.actions has ${actions.length} actions (one observation per action)`,
    });
  }
  if (order.length !== actions.length) {
    ctx.addIssue({
      code: "custom",
      path: ["key", "order"],
      message: `key.order has ${order.length} entries but public.actions has ${actions.length} actions`,
    });
  }
});

type ForwardItem = TaskItem<EnactForwardPublic, EnactForwardKey>;

/** C_i for every reference step: the diff of reference states i-1 and i, without hidden facts. */
export function referenceVisibleChanges(key: EnactForwardKey): Set<string>[] | null {
  if (!key.states) return null;
  const { initial, candidates } = key.states;
  const hidden = new Set(key.hidden ?? []);
  const sequence = [initial, ...key.order.map((index) => candidates[index])];
  return key.order.map((_, i) => visibleChanges(stateDiff(sequence[i], sequence[i + 1]), hidden));
}

/**
 * The forward verifier. Predicted state i = states.candidates[answer.order[i]], predicted state
 * -1 = states.initial; the predicted change C~_i is their full diff (hidden facts included, as
 * the authors' `partial_diff=False`). Step i passes when C_i is a subset of C~_i and C~_i does
 * not contradict C_i. Hidden facts are out of both checks: the person cannot see them.
 *
 * Model outputs as the released verify_forward reads them: its storyboard holds the initial
 * observation at label 0 and the candidates at labels 1..n, so an index -1 (a label 0) puts the
 * initial observation there; an index past the candidates raises IndexError inside the release's
 * try around every per-step check, which leaves the item no pair (either length).
 */
export function scoreEnactForward(answer: EnactOrderAnswer, key: EnactForwardKey): EnactScore {
  const reference = referenceVisibleChanges(key);
  if (!key.states || !reference) return scoreByIndex(key.order, answer.order);
  const { initial, candidates } = key.states;
  if (answer.order.some((value) => value !== -1 && candidateIndex(value, candidates.length) === null)) {
    return { accepted: false, exact: false, correctPairs: 0, L: key.order.length, semanticAvailable: true };
  }
  const predictedStates = [initial, ...answer.order.map((value) => (value === -1 ? initial : candidates[value]))];
  const predictedSteps = answer.order.map((_, k) => stateDiff(predictedStates[k], predictedStates[k + 1]));
  return scoreOrder<Set<string>>({
    referenceOrder: key.order,
    answerOrder: answer.order,
    predictedSteps,
    passes: (i, predicted) => predicted !== null && isSubset(reference[i], predicted) && !contradicts(predicted, reference[i]),
    semanticAvailable: true,
  });
}

export const enactForwardModule: TaskModule<EnactForwardPublic, EnactForwardKey, EnactOrderAnswer, EnactScore> = {
  kind: "enact-forward",
  title: "ENACT forward world modeling",
  benchmark: "ENACT",
  publicSchema: enactForwardPublicSchema,
  keySchema: enactForwardKeySchema,
  itemSchema: enactForwardItemSchema,
  answerSchema: enactOrderAnswerSchema,
  answerSchemaFor: (item) => enactOrderAnswerSchemaFor(item.key.order.length),

  mapImages(item, replace) {
    return {
      public: {
        ...item.public,
        initialImage: replace(item.public.initialImage),
        candidates: item.public.candidates.map(replace),
      },
      key: item.key,
    };
  },

  publicView(item: ForwardItem): Json {
    return {
      initialImage: item.public.initialImage,
      actions: [...item.public.actions],
      candidates: [...item.public.candidates],
    };
  },

  agent: enactAgentContract(
    "The view shows the observation before the first action (initialImage), the actions in the order they are done (actions) and the later observations shuffled (candidates). " +
      'Answer {"order": [...]}: order[i] is the 0-based index in candidates of the observation right after action i, each candidate exactly once (a permutation of 0..n-1).',
  ),
  score: (answer, key) => scoreEnactForward(answer, key),
  correct: (score) => score.accepted,
  aggregate: aggregateEnact,
  metrics: enactMetrics,
  dashboardWords: enactDashboardWords,
  // the overall figures of both ENACT tasks pooled (one section for the family, computed once)
  headlineMetric: "TA",
  agreementEncodings: enactAgreementEncodings,

  reviewView(item: ForwardItem): Json {
    const { key } = item;
    const reference = referenceVisibleChanges(key);
    return {
      semanticAvailable: key.states !== undefined,
      initialImage: item.public.initialImage,
      initialFacts: key.states ? [...key.states.initial] : null,
      hidden: [...(key.hidden ?? [])],
      steps: key.order.map((candidate, i) => ({
        step: i,
        action: item.public.actions[i] ?? null,
        candidateIndex: candidate,
        image: item.public.candidates[candidate] ?? null,
        facts: key.states ? [...(key.states.candidates[candidate] ?? [])] : null,
        visibleChange: reference ? sortedChanges(reference[i]) : null,
      })),
    };
  },

  keyAnswer: (key) => ({ order: [...key.order] }),
  parseModelAnswer: (raw, item) => parseEnactModelAnswer(raw, item?.key.order.length),
};
