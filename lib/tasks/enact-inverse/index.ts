import { z } from "zod";
import type { Json, TaskItem, TaskModule } from "@/lib/tasks/types";
import {
  aggregateEnact,
  candidateIndex,
  changeSetSchema,
  contradicts,
  enactAgentContract,
  enactAgreementEncodings,
  enactDashboardWords,
  enactMetrics,
  enactOrderAnswerSchema,
  enactOrderAnswerSchemaFor,
  isSubset,
  keyOrderSchema,
  parseEnactModelAnswer,
  scoreByIndex,
  scoreOrder,
  type EnactOrderAnswer,
  type EnactScore,
} from "@/lib/tasks/shared/enact/common";

/**
 * ENACT inverse world modeling (../shared/benchmarks/enact.md): given the ordered observations,
 * put the shuffled actions in order (which action explains each transition).
 */

export const enactInversePublicSchema = z.strictObject({
  /** the observations in order: L + 1 images (paths relative to the batch folder) */
  observations: z.array(z.string().min(1)).min(2, "an item needs at least two observations"),
  /** the L action texts, shuffled */
  candidates: z.array(z.string().min(1)).min(1, "an item needs at least one candidate action"),
});
export type EnactInversePublic = z.infer<typeof enactInversePublicSchema>;

export const enactInverseKeySchema = z
  .strictObject({
    /** order[i] = index in candidates of the action that explains transition i */
    order: keyOrderSchema,
    /** changes[j] = the change set that candidate action j describes */
    changes: z.array(changeSetSchema).optional(),
    /** stepChanges[i] = the full change set F_i of reference transition i */
    stepChanges: z.array(changeSetSchema).optional(),
  })
  .superRefine((key, ctx) => {
    // the semantic check needs both; one without the other is a half-written key
    if ((key.changes === undefined) !== (key.stepChanges === undefined)) {
      const missing = key.changes === undefined ? "changes" : "stepChanges";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: `key.${missing} is missing: give both key.changes and key.stepChanges, or neither (exact order only)`,
      });
    }
    for (const field of ["changes", "stepChanges"] as const) {
      const sets = key[field];
      if (sets && sets.length !== key.order.length) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `key.${field} has ${sets.length} change sets but key.order has ${key.order.length} entries`,
        });
      }
    }
  });
export type EnactInverseKey = z.infer<typeof enactInverseKeySchema>;

export const enactInverseItemSchema = z.object({ public: enactInversePublicSchema, key: enactInverseKeySchema }).superRefine((item, ctx) => {
  const { observations, candidates } = item.public;
  if (observations.length !== candidates.length + 1) {
    ctx.addIssue({
      code: "custom",
      path: ["public", "observations"],
      message: `public.observations has ${observations.length} images but public.candidates has ${candidates.length} actions (expected ${candidates.length + 1} observations)`,
    });
  }
  if (item.key.order.length !== candidates.length) {
    ctx.addIssue({
      code: "custom",
      path: ["key", "order"],
      message: `key.order has ${item.key.order.length} entries but public.candidates has ${candidates.length} actions`,
    });
  }
});

type InverseItem = TaskItem<EnactInversePublic, EnactInverseKey>;

/**
 * The inverse verifier. The predicted change of step i is the change set of the action placed
 * there, C~_i = changes[answer.order[i]]; step i passes when C~_i is a subset of F_i =
 * stepChanges[i] and does not contradict it (the authors' equal-length check; their code does
 * not force the chosen action to describe the step's visible changes).
 *
 * Model outputs as the released verify_inverse reads them: an index outside the candidates (a
 * label 0, or one past L) names no action and is dropped, the actions after it closing up, while
 * the answer's length is still that of the labels given (so such an answer of L labels is checked
 * step by step and never accepted). Answers of another length align with the release's pair rule:
 * C~_j within F_i, or the reference action's own change set C_i = changes[key.order[i]] within
 * C~_j.
 */
export function scoreEnactInverse(answer: EnactOrderAnswer, key: EnactInverseKey): EnactScore {
  const { changes, stepChanges } = key;
  if (!changes || !stepChanges) return scoreByIndex(key.order, answer.order);
  const full = stepChanges.map((set) => new Set(set));
  const actionSets = changes.map((set) => new Set(set));
  const predictedSteps = answer.order.filter((value) => candidateIndex(value, changes.length) !== null);
  const withinStep = (i: number, predicted: number | null) =>
    predicted !== null && isSubset(changes[predicted], full[i]) && !contradicts(changes[predicted], full[i]);
  return scoreOrder<number>({
    referenceOrder: key.order,
    answerOrder: answer.order,
    predictedSteps,
    passes: withinStep,
    alignPasses: (i, predicted) => predicted !== null && (isSubset(changes[key.order[i]], actionSets[predicted]) || withinStep(i, predicted)),
    semanticAvailable: true,
  });
}

export const enactInverseModule: TaskModule<EnactInversePublic, EnactInverseKey, EnactOrderAnswer, EnactScore> = {
  kind: "enact-inverse",
  title: "ENACT inverse world modeling",
  benchmark: "ENACT",
  publicSchema: enactInversePublicSchema,
  keySchema: enactInverseKeySchema,
  itemSchema: enactInverseItemSchema,
  answerSchema: enactOrderAnswerSchema,
  answerSchemaFor: (item) => enactOrderAnswerSchemaFor(item.key.order.length),

  mapImages(item, replace) {
    return {
      public: { ...item.public, observations: item.public.observations.map(replace) },
      key: item.key,
    };
  },

  publicView(item: InverseItem): Json {
    return {
      observations: [...item.public.observations],
      candidates: [...item.public.candidates],
    };
  },

  agent: enactAgentContract(
    "The view shows the observations in the order they happened (observations, n + 1 images) and the n actions between them shuffled (candidates). " +
      'Answer {"order": [...]}: order[i] is the 0-based index in candidates of the action that turns observation i into observation i + 1, each candidate exactly once (a permutation of 0..n-1).',
  ),
  score: (answer, key) => scoreEnactInverse(answer, key),
  correct: (score) => score.accepted,
  aggregate: aggregateEnact,
  metrics: enactMetrics,
  dashboardWords: enactDashboardWords,
  // the overall figures of both ENACT tasks pooled (one section for the family, computed once)
  headlineMetric: "TA",
  agreementEncodings: enactAgreementEncodings,

  reviewView(item: InverseItem): Json {
    const { key } = item;
    const semanticAvailable = key.changes !== undefined && key.stepChanges !== undefined;
    return {
      semanticAvailable,
      transitions: key.order.map((candidate, i) => ({
        step: i,
        before: item.public.observations[i] ?? null,
        after: item.public.observations[i + 1] ?? null,
        candidateIndex: candidate,
        action: item.public.candidates[candidate] ?? null,
        actionChanges: key.changes ? [...(key.changes[candidate] ?? [])] : null,
        stepChanges: key.stepChanges ? [...(key.stepChanges[i] ?? [])] : null,
      })),
    };
  },

  keyAnswer: (key) => ({ order: [...key.order] }),
  parseModelAnswer: (raw, item) => parseEnactModelAnswer(raw, item?.key.order.length),
};
