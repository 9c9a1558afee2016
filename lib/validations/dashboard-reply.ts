import { z } from "zod";

/**
 * What GET /api/studies/<slug>/dashboard answers, for its OpenAPI document (docs/api.md): the
 * interval method and the people-vs-model comparison in full, the other figures as open objects
 * (their fields: lib/dashboard/study-dashboard.ts StudyDashboard). A large study's view not
 * computed yet is `{ pending: true, ... }` with 202.
 */

const interval = z.tuple([z.number(), z.number()]).nullable();

const figure = z.object({
  estimate: z.number().nullable(),
  ci: interval.describe("95% interval, null with `reason`"),
  reason: z.string().optional().describe('why there is no interval: "one item", "one person", "no spread", "computing", ...'),
});

export const comparisonRowSchema = z.object({
  kind: z.string(),
  metric: z.string().describe("the kind's headline metric (its task module's headlineMetric, else its first metric)"),
  tag: z.string().describe('"__all__" for every item, else a value of the tag the view is sliced by'),
  model: z.object({ id: z.string(), name: z.string(), agent: z.boolean().describe("an agent that played through the interface") }),
  items: z.number().int().describe("items both people and the model answered"),
  people: z.number().int(),
  answers: z.number().int().describe("people's answers on those items"),
  humans: figure.describe("people's figure on the shared items"),
  humansAll: figure.extend({ items: z.number().int() }).describe("people's figure on every item they answered"),
  modelEstimate: z.number().nullable().describe("the model's figure on the shared items, weighted as people's answers are"),
  difference: figure.extend({ p: z.number().nullable().describe("two-sided p-value") }).describe("people minus model"),
  method: z.enum(["paired two-way", "ratio two-way", "pigeonhole bootstrap"]),
});

export const comparisonSchema = z.object({
  over: z.enum(["people+items", "items"]),
  metrics: z.array(z.object({ kind: z.string(), metric: z.string(), label: z.string(), scale: z.enum(["fraction", "points"]), proportion: z.boolean() })),
  rows: z.array(comparisonRowSchema).describe("by kind, all items first, then by difference ascending"),
});

export const intervalMethodSchema = z.object({
  over: z.enum(["people+items", "items"]).describe("the study setting: what intervals generalise over"),
  line: z.string().describe("the method in one line, as the page shows it"),
  proportions: z.string(),
  means: z.string(),
  nonLinear: z.string(),
  differences: z.string(),
});

export const dashboardReplySchema = z.looseObject({
  study: z.looseObject({ id: z.string(), slug: z.string(), title: z.string() }),
  method: intervalMethodSchema,
  comparison: comparisonSchema,
  intervals: z.looseObject({ state: z.enum(["inline", "ready", "computing"]) }),
  accuracy: z.looseObject({ rows: z.array(z.looseObject({})), modelRows: z.array(z.looseObject({})) }),
  sections: z.record(z.string(), z.unknown()),
});
