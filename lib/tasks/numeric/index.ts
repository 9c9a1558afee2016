import { z } from "zod";
import { mapMedia, mediaSchema } from "@/lib/tasks/shared/media/schema";
import { playbackOf, playbackSettingsFields } from "@/lib/tasks/shared/media/events";
import { fuzzyMatching, pythonFloat } from "@/lib/tasks/shared/vsi/parse";
import { VSI_SOURCE } from "@/lib/tasks/shared/vsi/release";
import { meanRelativeAccuracy } from "@/lib/tasks/numeric/mra";
import { NUMERIC_ABS_MAX } from "@/lib/tasks/numeric/input";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, TaskItem, TaskModule } from "@/lib/tasks/types";

/**
 * `numeric`: a number about text, images or a video, its unit shown. Scored per item by
 * the key's metric: "exact" (1 when equal), "abs" (1 when |value - answer| <= tolerance) or "mra",
 * VSI-Bench's mean relative accuracy (lib/tasks/numeric/mra.ts, bit for bit as its released code).
 * The aggregate is the mean of the rows' scores; values that are not numbers (model outputs, an
 * answers file's lines) score 0 and are counted in `invalid`, as VSI-Bench scores them.
 */

export const NUMERIC_CAPS = { question: 8_000, unit: 40 } as const;
export const NUMERIC_METRICS = ["mra", "exact", "abs"] as const;
export type NumericMetric = (typeof NUMERIC_METRICS)[number];

const finite = z
  .number()
  .refine(Number.isFinite, "expected a finite number")
  .refine((v) => Math.abs(v) <= NUMERIC_ABS_MAX, `at most ${NUMERIC_ABS_MAX} in size`);

export const numericPublicSchema = z.strictObject({
  question: z.string().min(1, "a question is needed").max(NUMERIC_CAPS.question),
  /** shown beside the box, e.g. "meters", "square meters" */
  unit: z.string().min(1).max(NUMERIC_CAPS.unit).optional(),
  media: mediaSchema.optional(),
});
export type NumericPublic = z.infer<typeof numericPublicSchema>;

export const numericKeySchema = z
  .strictObject({
    answer: finite,
    metric: z.enum(NUMERIC_METRICS, { error: `expected a metric: ${NUMERIC_METRICS.join(", ")}` }),
    tolerance: z.number().min(0).max(NUMERIC_ABS_MAX).optional(),
    /** for reviewers: how the answer was measured */
    note: z.string().max(2_000).optional(),
  })
  .superRefine((key, ctx) => {
    if (key.metric === "abs" && key.tolerance === undefined)
      ctx.addIssue({ code: "custom", path: ["tolerance"], message: 'the "abs" metric needs a tolerance' });
    if (key.metric !== "abs" && key.tolerance !== undefined)
      ctx.addIssue({ code: "custom", path: ["tolerance"], message: 'a tolerance is used by the "abs" metric only' });
    if (key.metric === "mra" && !(key.answer > 0)) ctx.addIssue({ code: "custom", path: ["answer"], message: "MRA divides by the answer: it must be above 0" });
  });
export type NumericKey = z.infer<typeof numericKeySchema>;

export const numericAnswerSchema = z.strictObject({ value: finite });
/** `value` null: a model output or answers-file value that is not a number (scores 0, counted as invalid). */
export interface NumericReadAnswer {
  value: number | null;
}

/** Stored per answer; `yardstick score` prints {score} (scoreRow). */
export interface NumericScore {
  score: number;
  invalid: boolean;
}

type NumericItem = TaskItem<NumericPublic, NumericKey>;

export function scoreNumeric(answer: NumericReadAnswer, key: NumericKey): NumericScore {
  const value = answer.value;
  if (value === null || !Number.isFinite(value)) return { score: 0, invalid: true };
  switch (key.metric) {
    case "exact":
      return { score: value === key.answer ? 1 : 0, invalid: false };
    case "abs":
      return { score: Math.abs(value - key.answer) <= (key.tolerance ?? 0) ? 1 : 0, invalid: false };
    case "mra":
      return { score: meanRelativeAccuracy(value, key.answer), invalid: false };
  }
}

/** { score: mean of the rows' scores, invalid: rows whose value was not a number }; score null without rows. */
export function aggregateNumeric(scores: ReadonlyArray<NumericScore>): { score: number | null; invalid: number } {
  const invalid = scores.filter((score) => score.invalid).length;
  if (scores.length === 0) return { score: null, invalid };
  return { score: scores.reduce((sum, score) => sum + score.score, 0) / scores.length, invalid };
}

export const numericMetrics: MetricSpec[] = [
  { id: "score", label: "Score", type: "ratio", description: "Mean per-answer score: MRA in [0, 1] for mra items, 1 or 0 for exact and abs items." },
  { id: "invalid", label: "Invalid", type: "ratio", scale: "points", description: "Answers whose value was not a number (each scored 0): a count." },
];

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const asValue = (value: number | null): NumericReadAnswer => ({ value: value !== null && Number.isFinite(value) ? value : null });

/**
 * Model outputs as VSI-Bench reads them: `to_float(fuzzy_matching(pred))` (the text before the first
 * space, trailing dots removed, read by Python's float()). The whole text a number is strict; a
 * number read that way from longer text ("3.5 meters") recoverable; anything else `{value: null}`
 * in mode "fail" (scored 0 and counted invalid, never refused). Yardstick answers ({"value": n})
 * and bare JSON numbers are strict. On VSI-Bench's items (tag source "vsi-bench") only the released
 * reading counts: the whole text is not tried first, so " 11" (nothing before the first space) is
 * no number and scores 0, as there.
 */
export function parseNumericModelAnswer(raw: unknown, item?: { tags?: Record<string, unknown> }): ModelAnswerParse<NumericReadAnswer> {
  if (typeof raw === "number")
    return Number.isFinite(raw) ? { answer: { value: raw }, mode: "strict" } : { answer: { value: null }, mode: "fail", reason: "not a finite number" };
  if (isPlainObject(raw)) {
    const parsed = numericAnswerSchema.safeParse(raw);
    return parsed.success ? { answer: parsed.data, mode: "strict" } : { answer: { value: null }, mode: "fail", reason: "no finite number in {value}" };
  }
  if (typeof raw !== "string") return { answer: { value: null }, mode: "fail", reason: "not text" };
  const released = item?.tags?.source === VSI_SOURCE;
  const whole = pythonFloat(raw);
  if (!released && whole !== null && Number.isFinite(whole)) return { answer: { value: whole }, mode: "strict" };
  const first = fuzzyMatching(raw);
  const token = pythonFloat(first);
  if (token !== null && Number.isFinite(token)) return { answer: { value: token }, mode: released && first === raw ? "strict" : "recoverable" };
  return { answer: asValue(null), mode: "fail", reason: "no number before the first space" };
}

const agreementEncodings: AgreementEncoding<NumericReadAnswer>[] = [
  {
    id: "value-interval",
    label: "Each item a unit, interval on the value",
    level: "interval",
    units: (answer) => (answer.value === null ? [] : [{ unit: "", value: answer.value }]),
  },
];

export const numericModule: TaskModule<NumericPublic, NumericKey, NumericReadAnswer, NumericScore> = {
  kind: "numeric",
  title: "Number",
  benchmark: "Generic (VSI-Bench numeric answers ...)",
  publicSchema: numericPublicSchema,
  keySchema: numericKeySchema,
  answerSchema: numericAnswerSchema as z.ZodType<NumericReadAnswer>,

  mapImages: (item, replace) => ({ public: { ...item.public, ...(item.public.media ? { media: mapMedia(item.public.media, replace) } : {}) }, key: item.key }),

  settingsSchema: z.strictObject(playbackSettingsFields) as z.ZodType<Record<string, unknown>>,
  publicView: (item: NumericItem, settings): Json => ({
    question: item.public.question,
    ...(item.public.unit !== undefined ? { unit: item.public.unit } : {}),
    ...(item.public.media ? { media: item.public.media as Json } : {}),
    playback: playbackOf(settings),
  }),

  agent: {
    answerInstructions:
      'The view holds a question (question) about a stimulus (media: text, images, a video, or frames at fps) when given, and the unit of the answer (unit) when given. Answer {"value": <a number in that unit>}.',
    exampleAnswer: () => ({ value: 0 }),
  },
  score: (answer, key) => scoreNumeric(answer, key),
  scoreRow: (score) => ({ score: score.score }),
  correct: (score) => score.score === 1,
  aggregate: (scores) => aggregateNumeric(scores),
  metrics: numericMetrics,
  headlineMetric: "score",
  agreementEncodings,
  keyAnswer: (key) => ({ value: key.answer }),
  reviewView: (item: NumericItem): Json => ({
    question: item.public.question,
    answer: item.key.answer,
    unit: item.public.unit ?? null,
    metric: item.key.metric,
    tolerance: item.key.tolerance ?? null,
    note: item.key.note ?? null,
  }),

  parseModelAnswer: (raw, item) => parseNumericModelAnswer(raw, item).answer,
  parseModelAnswerWithMode: parseNumericModelAnswer,
};
