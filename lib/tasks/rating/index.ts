import { z } from "zod";
import { mapMedia, mediaSchema } from "@/lib/tasks/shared/media/schema";
import { playbackOf, playbackSettingsFields } from "@/lib/tasks/shared/media/events";
import { viewArray, viewField } from "@/lib/tasks/shared/view-fields";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, TaskItem, TaskModule } from "@/lib/tasks/types";

/**
 * Rubric rating of a stimulus (`rating`; docs/generic-kinds.md): a generated video (or images,
 * text) rated on a rubric of Likert items with anchor text and yes / no checks, each in a
 * dimension, WorldModelBench-style (instruction following 0-3; physics and common-sense checks,
 * one point each when passed). No right answer: the score is the points given, per rubric entry,
 * per dimension and in total; a key may hold reference ratings (e.g. the benchmark's own human
 * labels), and then `agree` is the share of rubric entries rated as the reference.
 */

export const RATING_CAPS = { rubric: 30, anchorText: 300, label: 300, question: 2_000, likertSpan: 10 } as const;

const rubricId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, "a rubric id is 1-40 letters, digits, _ . - (starting with a letter or digit)");
const dimension = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, "a dimension is 1-40 lowercase letters, digits, _ - (starting with a letter)")
  .refine((name) => name !== "total" && name !== "agree", "a dimension cannot be called total or agree");
export const CHECK_VALUES = ["yes", "no"] as const;
export type CheckValue = (typeof CHECK_VALUES)[number];

const likertSchema = z
  .strictObject({
    id: rubricId,
    type: z.literal("likert"),
    dimension,
    label: z.string().min(1).max(RATING_CAPS.label),
    min: z.number().int().min(0).max(10),
    max: z.number().int().min(1).max(20),
    /** anchor text by value ("0": "does not follow the instruction", "3": "follows it fully") */
    anchors: z.record(z.string().regex(/^\d{1,2}$/, "an anchor key is a value of the scale"), z.string().min(1).max(RATING_CAPS.anchorText)).optional(),
  })
  .refine((entry) => entry.max > entry.min && entry.max - entry.min <= RATING_CAPS.likertSpan, {
    message: `max must exceed min, by at most ${RATING_CAPS.likertSpan}`,
    path: ["max"],
  })
  .refine((entry) => Object.keys(entry.anchors ?? {}).every((key) => Number(key) >= entry.min && Number(key) <= entry.max), {
    message: "every anchor is a value between min and max",
    path: ["anchors"],
  });

const checkSchema = z.strictObject({
  id: rubricId,
  type: z.literal("check"),
  dimension,
  /** the question, e.g. "Do objects fall as gravity would make them?" */
  label: z.string().min(1).max(RATING_CAPS.label),
  hint: z.string().max(RATING_CAPS.anchorText).optional(),
  /** the answer that earns the point (default yes) */
  pass: z.enum(CHECK_VALUES).default("yes"),
});

export const rubricEntrySchema = z.discriminatedUnion("type", [likertSchema, checkSchema]);
export type RubricEntry = z.infer<typeof rubricEntrySchema>;

export const ratingPublicSchema = z
  .strictObject({
    /** shown above the rubric, e.g. "Rate the generated video" */
    question: z.string().max(RATING_CAPS.question).optional(),
    media: mediaSchema,
    rubric: z.array(rubricEntrySchema).min(1).max(RATING_CAPS.rubric),
  })
  .superRefine((pub, ctx) => {
    const seen = new Set<string>();
    const types = new Map<string, string>();
    pub.rubric.forEach((entry, index) => {
      if (seen.has(entry.id)) ctx.addIssue({ code: "custom", message: `duplicate rubric id ${JSON.stringify(entry.id)}`, path: ["rubric", index, "id"] });
      seen.add(entry.id);
      const type = types.get(entry.dimension);
      if (type !== undefined && type !== entry.type)
        ctx.addIssue({
          code: "custom",
          message: `dimension ${JSON.stringify(entry.dimension)} holds Likert items or checks, not both (its alpha has one level)`,
          path: ["rubric", index, "dimension"],
        });
      types.set(entry.dimension, entry.type);
    });
  });
export type RatingPublic = z.infer<typeof ratingPublicSchema>;

const ratingValue = z.union([z.number().int().min(0).max(20), z.enum(CHECK_VALUES)]);
export type RatingValue = z.infer<typeof ratingValue>;

/** A record of at most `cap` keys, counted before its entries are parsed (an oversized answer costs no parsing). */
function cappedRecord<T extends z.ZodType>(value: T, cap: number, what: string) {
  return z.preprocess(
    (input, ctx) => {
      if (input && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length > cap) {
        ctx.addIssue({ code: "custom", message: `at most ${cap} ${what}` });
        return z.NEVER;
      }
      return input;
    },
    z.record(rubricId, value),
  );
}

export const ratingKeySchema = z.strictObject({
  /** reference ratings by rubric id (optional): `agree` compares with them */
  reference: cappedRecord(ratingValue, RATING_CAPS.rubric, "reference ratings").optional(),
  /** where the reference comes from (reviewers see it), e.g. "WorldModelBench human labels" */
  source: z.string().max(500).optional(),
});
export type RatingKey = z.infer<typeof ratingKeySchema>;

export const ratingAnswerSchema = z.strictObject({
  ratings: cappedRecord(ratingValue, RATING_CAPS.rubric, "ratings"),
});
export type RatingAnswer = z.infer<typeof ratingAnswerSchema>;

export interface RatingScore {
  /** points per rubric id: a Likert value as given, a check 1 when it passed, else 0; null when not rated */
  items: Record<string, number | null>;
  /** points per dimension (sum of its entries) */
  dimensions: Record<string, number>;
  total: number;
  /** rubric entries not rated (model answers may leave some out; people cannot) */
  missing: number;
  /** share of rubric entries rated as the key's reference; null without one */
  agree: number | null;
}

type RatingItem = TaskItem<RatingPublic, RatingKey>;

export const ratingSettingsSchema = z.strictObject({ ...playbackSettingsFields });

/** Whether a value suits a rubric entry: an integer in [min, max] for Likert, yes / no for a check. */
export function validRating(entry: RubricEntry, value: unknown): value is RatingValue {
  if (entry.type === "likert") return typeof value === "number" && Number.isInteger(value) && value >= entry.min && value <= entry.max;
  return value === "yes" || value === "no";
}

/** Points of one rating: the Likert value, or 1 for a check answered as its `pass`, 0 otherwise. */
export function ratingPoints(entry: RubricEntry, value: RatingValue): number {
  return entry.type === "likert" ? (value as number) : value === entry.pass ? 1 : 0;
}

/**
 * The score of one answer. Source: WorldModelBench's rubric (instruction following 0-3, each
 * physics / common-sense check one point when passed; a dimension's score is the sum of its points).
 */
export function scoreRating(answer: RatingAnswer, key: RatingKey, rubric: readonly RubricEntry[]): RatingScore {
  const items: Record<string, number | null> = {};
  const dimensions: Record<string, number> = {};
  let total = 0;
  let missing = 0;
  let agreeing = 0;
  for (const entry of rubric) {
    dimensions[entry.dimension] ??= 0;
    const value = answer.ratings[entry.id];
    if (!validRating(entry, value)) {
      items[entry.id] = null;
      missing++;
      continue;
    }
    const points = ratingPoints(entry, value);
    items[entry.id] = points;
    dimensions[entry.dimension] += points;
    total += points;
    if (key.reference && key.reference[entry.id] === value) agreeing++;
  }
  return { items, dimensions, total, missing, agree: key.reference ? agreeing / rubric.length : null };
}

const meanOrNull = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Mean total, mean points per dimension (over answers to items that have it), and mean agreement with the references. */
export function aggregateRatings(scores: readonly RatingScore[]): Record<string, number | null> {
  const byDimension = new Map<string, number[]>();
  for (const score of scores)
    for (const [name, points] of Object.entries(score.dimensions)) (byDimension.get(name) ?? byDimension.set(name, []).get(name)!).push(points);
  const out: Record<string, number | null> = {
    total: meanOrNull(scores.map((score) => score.total)),
    agree: meanOrNull(scores.flatMap((score) => (score.agree === null ? [] : [score.agree]))),
  };
  for (const name of [...byDimension.keys()].sort()) out[name] = meanOrNull(byDimension.get(name)!);
  return out;
}

/** Strict: a {ratings} object of valid values; the kind takes no free-text model output. */
export function parseRatingModelAnswer(raw: unknown): ModelAnswerParse<RatingAnswer> {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return { answer: null, mode: "fail", reason: "not JSON" };
    }
  }
  const parsed = ratingAnswerSchema.safeParse(value);
  if (parsed.success) return { answer: parsed.data, mode: typeof raw === "string" ? "recoverable" : "strict" };
  return { answer: null, mode: "fail", reason: "not a {ratings} answer" };
}

/** The answer schema for one item: every rubric entry rated with a value it takes, nothing else. */
export function ratingAnswerSchemaFor(rubric: readonly RubricEntry[]): z.ZodType<RatingAnswer> {
  return ratingAnswerSchema.superRefine((answer, ctx) => {
    const ids = new Set(rubric.map((entry) => entry.id));
    for (const id of Object.keys(answer.ratings))
      if (!ids.has(id)) ctx.addIssue({ code: "custom", message: `no rubric entry ${JSON.stringify(id)}`, path: ["ratings", id] });
    for (const entry of rubric) {
      const value = answer.ratings[entry.id];
      if (value === undefined) ctx.addIssue({ code: "custom", message: `rate ${JSON.stringify(entry.label)}`, path: ["ratings", entry.id] });
      else if (!validRating(entry, value))
        ctx.addIssue({
          code: "custom",
          message: entry.type === "likert" ? `a whole number from ${entry.min} to ${entry.max}` : "yes or no",
          path: ["ratings", entry.id],
        });
    }
  });
}

export const ratingMetrics: MetricSpec[] = [
  {
    id: "total",
    label: "Mean total points",
    type: "ratio",
    scale: "points",
    description: "Mean over answers of the points given: Likert values plus one per check passed (WorldModelBench's total).",
  },
  {
    id: "agree",
    label: "Agreement with the reference",
    type: "ratio",
    description: "Share of rubric entries rated as the item's reference ratings (items with a reference only).",
  },
];

/** Likert entries as ordinal units and checks as nominal units, one unit per (item, rubric id). */
export const ratingAgreementEncodings: AgreementEncoding<RatingAnswer>[] = [
  {
    id: "likert-ordinal",
    label: "Each Likert entry of an item a unit, ordinal",
    level: "ordinal",
    unitNoun: "Likert rating",
    units: (answer) => Object.entries(answer.ratings).flatMap(([id, value]) => (typeof value === "number" ? [{ unit: id, value }] : [])),
  },
  {
    id: "check-nominal",
    label: "Each yes / no check of an item a unit, nominal",
    level: "nominal",
    unitNoun: "check",
    units: (answer) => Object.entries(answer.ratings).flatMap(([id, value]) => (typeof value === "string" ? [{ unit: id, value }] : [])),
  },
];

export const ratingModule: TaskModule<RatingPublic, RatingKey, RatingAnswer, RatingScore> = {
  kind: "rating",
  title: "Rubric rating of a video or images",
  benchmark: "Generic (WorldModelBench-style rubric)",
  publicSchema: ratingPublicSchema,
  keySchema: ratingKeySchema,
  answerSchema: ratingAnswerSchema,
  answerSchemaFor: (item) => ratingAnswerSchemaFor(item.public.rubric),
  mapImages: (item, replace) => ({ public: { ...item.public, media: mapMedia(item.public.media, replace) }, key: item.key }),
  publicView(item: RatingItem, settings?: Record<string, unknown>): Json {
    const pub = item.public;
    return JSON.parse(
      JSON.stringify({
        ...(pub.question !== undefined ? { question: pub.question } : {}),
        media: pub.media,
        rubric: pub.rubric,
        playback: playbackOf(settings),
      }),
    ) as Json;
  },
  agent: {
    answerInstructions:
      "The view holds a stimulus (media: text, images, a video, or frames at fps), an optional question and a rubric: Likert entries (type likert: an integer from min to max; anchors say what some values mean) and yes / no checks (type check: label is the question, hint helps). " +
      'Rate every rubric entry: answer {"ratings": {"<rubric id>": <integer or "yes" / "no">, ...}}.',
    /** the lowest value of every scale, "no" to every check */
    exampleAnswer: (view) => {
      const rubric = viewArray(view, "rubric");
      if (!rubric || rubric.length === 0) return null;
      const ratings: Record<string, RatingValue> = {};
      for (const entry of rubric) {
        const id = viewField(entry, "id");
        const min = viewField(entry, "min");
        if (typeof id !== "string") return null;
        if (viewField(entry, "type") === "likert" && typeof min === "number") ratings[id] = min;
        else if (viewField(entry, "type") === "check") ratings[id] = "no";
        else return null;
      }
      return { ratings };
    },
  },
  score: (answer, key, item) => scoreRating(answer, key, item.public.rubric),
  /** all of the reference matched; false for items without a reference (a rating has no right answer) */
  // right when every entry is rated as the reference; an item without reference ratings gives no correctness
  correct: (score) => (score.agree === null ? null : score.agree === 1),
  aggregate: (scores) => aggregateRatings(scores),
  metrics: ratingMetrics,
  headlineMetric: "total",
  agreementEncodings: ratingAgreementEncodings,
  keyAnswer: (key) => ({ ratings: { ...(key.reference ?? {}) } }),
  reviewView: (item) =>
    JSON.parse(JSON.stringify({ rubric: item.public.rubric, reference: item.key.reference ?? null, source: item.key.source ?? null })) as Json,
  parseModelAnswer: (raw) => parseRatingModelAnswer(raw).answer,
  parseModelAnswerWithMode: parseRatingModelAnswer,
  settingsSchema: ratingSettingsSchema as unknown as z.ZodType<Record<string, unknown>>,
};
