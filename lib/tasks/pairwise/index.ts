import { z } from "zod";
import { bradleyTerry } from "@/lib/stats/bradley-terry";
import { mapMedia, mediaSchema } from "@/lib/tasks/shared/media/schema";
import { playbackOf, playbackSettingsFields } from "@/lib/tasks/shared/media/events";
import { viewArray, viewField } from "@/lib/tasks/shared/view-fields";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, TaskItem, TaskModule } from "@/lib/tasks/types";

/**
 * Pairwise preference (`pairwise`; docs/generic-kinds.md): two stimuli, A and B (two generated
 * videos, or images), shown side by side in synced players (SyncedPair; which is on the left is
 * randomised per person and logged), and for each dimension (e.g. "visual quality", "physics")
 * the person says A, B or tie. The item names the model behind each side (`models`, never shown)
 * and may carry an automatic metric of each side (`metric`, e.g. a VBench score; never shown):
 * the dashboard ranks the models by win rate and Bradley-Terry strength, and correlates the human
 * strengths with the metric per model.
 */

export const PAIRWISE_CAPS = { dimensions: 10, label: 300, question: 2_000, model: 100 } as const;
export const PREFERENCES = ["a", "b", "tie"] as const;
export type Preference = (typeof PREFERENCES)[number];

const dimensionId = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, "a dimension id is 1-40 lowercase letters, digits, _ - (starting with a letter)");
const modelId = z.string().min(1).max(PAIRWISE_CAPS.model);

export const pairwisePublicSchema = z
  .strictObject({
    question: z.string().max(PAIRWISE_CAPS.question).optional(),
    a: mediaSchema,
    b: mediaSchema,
    dimensions: z
      .array(z.strictObject({ id: dimensionId, label: z.string().min(1).max(PAIRWISE_CAPS.label), hint: z.string().max(PAIRWISE_CAPS.label).optional() }))
      .min(1)
      .max(PAIRWISE_CAPS.dimensions),
    /** the model (generator) behind each side: never shown to annotators */
    models: z
      .strictObject({ a: modelId, b: modelId })
      .refine((models) => models.a !== models.b, { message: "a pair compares two different models", path: ["b"] })
      .optional(),
    /** an automatic metric of each side (e.g. VBench's), higher = better: never shown; correlated with human preference per model */
    metric: z.strictObject({ name: z.string().min(1).max(100), a: z.number().finite(), b: z.number().finite() }).optional(),
  })
  .superRefine((pub, ctx) => {
    const seen = new Set<string>();
    pub.dimensions.forEach((dimension, index) => {
      if (seen.has(dimension.id))
        ctx.addIssue({ code: "custom", message: `duplicate dimension ${JSON.stringify(dimension.id)}`, path: ["dimensions", index, "id"] });
      seen.add(dimension.id);
    });
  });
export type PairwisePublic = z.infer<typeof pairwisePublicSchema>;

const preference = z.enum(PREFERENCES);

function cappedPrefs(what: string) {
  return z.preprocess(
    (input, ctx) => {
      if (input && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length > PAIRWISE_CAPS.dimensions) {
        ctx.addIssue({ code: "custom", message: `at most ${PAIRWISE_CAPS.dimensions} ${what}` });
        return z.NEVER;
      }
      return input;
    },
    z.record(dimensionId, preference),
  );
}

export const pairwiseKeySchema = z.strictObject({
  /** reference preferences by dimension (optional), e.g. the benchmark's own human votes */
  reference: cappedPrefs("reference preferences").optional(),
  source: z.string().max(500).optional(),
});
export type PairwiseKey = z.infer<typeof pairwiseKeySchema>;

export const pairwiseAnswerSchema = z.strictObject({ prefs: cappedPrefs("preferences") });
export type PairwiseAnswer = z.infer<typeof pairwiseAnswerSchema>;

export interface PairwiseScore {
  /** A's share per dimension: 1 preferred, 0.5 tie, 0 B preferred; null when not answered */
  a: Record<string, number | null>;
  /** the models compared (the item's), null when the item names none */
  models: { a: string; b: string } | null;
  /** the share of dimensions answered as the key's reference; null without one */
  agree: number | null;
}

type PairwiseItem = TaskItem<PairwisePublic, PairwiseKey>;

export const pairwiseSettingsSchema = z.strictObject({ ...playbackSettingsFields });

export const shareOfA = (value: Preference): number => (value === "a" ? 1 : value === "b" ? 0 : 0.5);

export function scorePairwise(answer: PairwiseAnswer, key: PairwiseKey, pub: Pick<PairwisePublic, "dimensions" | "models">): PairwiseScore {
  const a: Record<string, number | null> = {};
  let agreeing = 0;
  for (const dimension of pub.dimensions) {
    const value = answer.prefs[dimension.id];
    a[dimension.id] = value === undefined ? null : shareOfA(value);
    if (key.reference && value !== undefined && key.reference[dimension.id] === value) agreeing++;
  }
  return { a, models: pub.models ? { a: pub.models.a, b: pub.models.b } : null, agree: key.reference ? agreeing / pub.dimensions.length : null };
}

/**
 * Win rate per model over every answered dimension of every answer (ties half; `win_<model>`), the
 * Bradley-Terry strength of each model over the same comparisons (`bt_<model>`, sum 1; null when
 * the data do not identify them), and the mean agreement with the references. Source: win rate as
 * in GenAI-Arena / Chatbot Arena tables, ties counted half to each side; strengths by Hunter 2004's
 * MM algorithm (lib/stats/bradley-terry.ts).
 */
export function aggregatePairwise(scores: readonly PairwiseScore[]): Record<string, number | null> {
  const agree = scores.flatMap((score) => (score.agree === null ? [] : [score.agree]));
  const out: Record<string, number | null> = { agree: agree.length ? agree.reduce((sum, value) => sum + value, 0) / agree.length : null };
  const tally = new Map<string, { wins: number; games: number }>();
  for (const score of scores) {
    if (!score.models) continue;
    for (const share of Object.values(score.a)) {
      if (share === null) continue;
      for (const [model, won] of [
        [score.models.a, share],
        [score.models.b, 1 - share],
      ] as const) {
        const entry = tally.get(model) ?? { wins: 0, games: 0 };
        entry.wins += won;
        entry.games += 1;
        tally.set(model, entry);
      }
    }
  }
  const models = [...tally.keys()].sort();
  for (const model of models) out[`win_${model}`] = tally.get(model)!.wins / tally.get(model)!.games;
  // Bradley-Terry strengths over the same comparisons (every answered dimension), normalised to sum 1
  const index = new Map(models.map((model, i) => [model, i]));
  const comparisons = scores.flatMap((score) =>
    score.models
      ? Object.values(score.a).flatMap((share) =>
          share === null ? [] : [{ i: index.get(score.models!.a)!, j: index.get(score.models!.b)!, outcome: share as 0 | 0.5 | 1 }],
        )
      : [],
  );
  const strengths = models.length > 1 ? bradleyTerry(models.length, comparisons).strengths : null;
  for (const model of models) out[`bt_${model}`] = strengths ? strengths[index.get(model)!] : null;
  return out;
}

/** Strict: a {prefs} object; recoverable: the same as JSON text, or one letter A / B / tie applied to every dimension is not guessed. */
export function parsePairwiseModelAnswer(raw: unknown): ModelAnswerParse<PairwiseAnswer> {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return { answer: null, mode: "fail", reason: "not JSON" };
    }
  }
  const parsed = pairwiseAnswerSchema.safeParse(value);
  if (parsed.success) return { answer: parsed.data, mode: typeof raw === "string" ? "recoverable" : "strict" };
  return { answer: null, mode: "fail", reason: "not a {prefs} answer" };
}

export function pairwiseAnswerSchemaFor(dimensions: PairwisePublic["dimensions"]): z.ZodType<PairwiseAnswer> {
  return pairwiseAnswerSchema.superRefine((answer, ctx) => {
    const ids = new Set(dimensions.map((dimension) => dimension.id));
    for (const id of Object.keys(answer.prefs))
      if (!ids.has(id)) ctx.addIssue({ code: "custom", message: `no dimension ${JSON.stringify(id)}`, path: ["prefs", id] });
    for (const dimension of dimensions)
      if (answer.prefs[dimension.id] === undefined)
        ctx.addIssue({ code: "custom", message: `choose A, B or tie for ${JSON.stringify(dimension.label)}`, path: ["prefs", dimension.id] });
  });
}

export const pairwiseMetrics: MetricSpec[] = [
  {
    id: "agree",
    label: "Agreement with the reference",
    type: "ratio",
    description: "Share of dimensions answered as the item's reference preference (items with a reference only).",
  },
];

export const pairwiseAgreementEncodings: AgreementEncoding<PairwiseAnswer>[] = [
  {
    id: "dimension-ordinal",
    label: "Each dimension of an item a unit, ordinal (B < tie < A)",
    level: "ordinal",
    unitNoun: "dimension",
    units: (answer) => Object.entries(answer.prefs).map(([unit, value]) => ({ unit, value: shareOfA(value) })),
  },
];

export const pairwiseModule: TaskModule<PairwisePublic, PairwiseKey, PairwiseAnswer, PairwiseScore> = {
  kind: "pairwise",
  title: "Pairwise preference between two videos or images",
  benchmark: "Generic (arena-style pairwise preference)",
  publicSchema: pairwisePublicSchema,
  keySchema: pairwiseKeySchema,
  answerSchema: pairwiseAnswerSchema,
  answerSchemaFor: (item) => pairwiseAnswerSchemaFor(item.public.dimensions),
  mapImages: (item, replace) => ({ public: { ...item.public, a: mapMedia(item.public.a, replace), b: mapMedia(item.public.b, replace) }, key: item.key }),
  /** the two stimuli and the dimensions; never the models or the metric (they would bias the choice) */
  publicView(item: PairwiseItem, settings?: Record<string, unknown>): Json {
    const pub = item.public;
    return JSON.parse(
      JSON.stringify({
        ...(pub.question !== undefined ? { question: pub.question } : {}),
        a: pub.a,
        b: pub.b,
        dimensions: pub.dimensions,
        playback: playbackOf(settings),
      }),
    ) as Json;
  },
  agent: {
    answerInstructions:
      "The view holds two stimuli, a and b (each media: text, images, a video, or frames at fps), an optional question and the dimensions to compare them on (dimensions: id, label, hint). " +
      'For every dimension say which is better: answer {"prefs": {"<dimension id>": "a" | "b" | "tie", ...}}.',
    /** a tie on every dimension */
    exampleAnswer: (view) => {
      const ids = (viewArray(view, "dimensions") ?? []).map((dimension) => viewField(dimension, "id"));
      if (ids.length === 0 || !ids.every((id): id is string => typeof id === "string")) return null;
      return { prefs: Object.fromEntries(ids.map((id) => [id, "tie" as const])) };
    },
  },
  score: (answer, key, item) => scorePairwise(answer, key, item.public),
  /** every dimension as the reference; false without a reference (a preference has no right answer) */
  // right when every dimension is answered as the reference; an item without a reference gives no correctness
  correct: (score) => (score.agree === null ? null : score.agree === 1),
  aggregate: (scores) => aggregatePairwise(scores),
  metrics: pairwiseMetrics,
  headlineMetric: "agree",
  agreementEncodings: pairwiseAgreementEncodings,
  keyAnswer: (key) => ({ prefs: { ...(key.reference ?? {}) } }),
  reviewView: (item) =>
    JSON.parse(
      JSON.stringify({
        dimensions: item.public.dimensions,
        models: item.public.models ?? null,
        metric: item.public.metric ?? null,
        reference: item.key.reference ?? null,
        source: item.key.source ?? null,
      }),
    ) as Json,
  parseModelAnswer: (raw) => parsePairwiseModelAnswer(raw).answer,
  parseModelAnswerWithMode: parsePairwiseModelAnswer,
  settingsSchema: pairwiseSettingsSchema as unknown as z.ZodType<Record<string, unknown>>,
};
