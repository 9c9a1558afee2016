import { z } from "zod";
import { CHECKLIST_CHOICES } from "@/lib/report/checklist";

/**
 * The report's entries only a person can answer (Study.reportingAnswers), asked once on the
 * study's Settings tab and carried into the report (lib/report/facts.ts): each a choice of the
 * checklist's own (Yes / Partial / No / Unknown-Unreported / N/A) where the entry offers one, and
 * words; and what the baseliners were paid, until the recruitment platform's records say it
 * (lib/report/compensation.ts). Browser-safe: the form checks with the schema the server uses.
 */

/** Checklist entries the Reporting section asks, by the authors' numbering, with what each asks and whether it is a choice. */
export const ASKED_ENTRIES = [
  { number: "0.1", hint: "the paper's title", choice: false },
  { number: "0.2", hint: "a link to the paper (arXiv, DOI)", choice: false },
  { number: "0.3", hint: "e.g. 2026", choice: false },
  { number: "0.4", hint: "e.g. NeurIPS, a preprint", choice: false },
  { number: "0.5", hint: "e.g. capability evaluation, world-model prediction", choice: false },
  { number: "0.6", hint: "e.g. multiple choice, interactive, free text", choice: false },
  { number: "0.7", hint: "e.g. English", choice: false },
  { number: "0.8", hint: "the full benchmark's size when the study took a part of it (the imported items are reported by themselves)", choice: false },
  { number: "1.2.1", hint: "how the study's items were drawn from the benchmark (random, stratified by a tag, all)", choice: false },
  { number: "1.5", hint: "any adjustment made to the task for people or for models", choice: true },
  { number: "1.6", hint: "were instruments refined by pilots", choice: true },
  { number: "1.7", hint: "was people's effort (time, cost) comparable to the models'", choice: true },
  { number: "1.8", hint: "was the number of people chosen by a power analysis (the Plan panel computes one from a pilot)", choice: true },
  { number: "1.8.1", hint: "the minimum detectable effect and power, e.g. 5 points at 80% power", choice: false },
  { number: "1.9", hint: "ethics review (IRB) and its reference", choice: true },
  { number: "1.10", hint: "pre-registration and its link", choice: true },
  { number: "2.1", hint: "was a population of interest named", choice: true },
  { number: "2.1.1", hint: "the population and its criteria", choice: false },
  { number: "2.2", hint: "e.g. Prolific, convenience sample, experts", choice: false },
  { number: "2.3", hint: "was recruitment screened", choice: true },
  { number: "2.3.1", hint: "the screening criteria (e.g. approval rate, language)", choice: false },
  { number: "2.3.2", hint: "share of recruits excluded before the test", choice: false },
  { number: "2.4", hint: "were any baseliners the authors", choice: true },
  { number: "2.5", hint: "could baseliners have seen the test items before", choice: true },
  { number: "2.6.2", hint: "were baseliners paid for training", choice: true },
  { number: "2.6.2.1", hint: "the training pay", choice: false },
  { number: "2.7.3", hint: "was the pay structure reported (fixed, per item, bonus)", choice: true },
  { number: "2.7.3.1", hint: "details of the pay structure", choice: false },
  { number: "3.3.2", hint: "any adjustment made to the interface for people or for models", choice: true },
  { number: "3.4.1", hint: "any adjustment made to the instructions for people or for models", choice: true },
  { number: "3.5", hint: "did people and models have the same tools (internet, calculators, AI)", choice: true },
  { number: "3.5.1", hint: "how tool access was enforced", choice: false },
  { number: "4.6", hint: "are the results robust to the quality-control choices (the dashboard shows them with and without exclusions)", choice: true },
  { number: "5.1.1", hint: "demographics collected and reported outside Yardstick", choice: true },
  { number: "5.2.2", hint: "why the baseline data are not released, if not", choice: false },
] as const;

export type AskedNumber = (typeof ASKED_ENTRIES)[number]["number"];
const askedNumbers = ASKED_ENTRIES.map((entry) => entry.number) as [AskedNumber, ...AskedNumber[]];

export const REPORTING_DETAIL_MAX = 2000;

const detail = z
  .string()
  .trim()
  .max(REPORTING_DETAIL_MAX, `at most ${REPORTING_DETAIL_MAX} characters`)
  .transform((text) => (text === "" ? undefined : text))
  .optional();

export const reportingAnswerSchema = z.strictObject({ choice: z.enum(CHECKLIST_CHOICES).optional(), detail });

const amount = z.number().finite().min(0, "not negative").max(1_000_000, "at most 1,000,000");

/** What the baseliners were paid, as the researcher states it (lib/report/compensation.ts reads it). */
export const reportingCompensationSchema = z.strictObject({
  rewardPerPerson: amount.optional(),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/u, "a three-letter currency code, e.g. GBP")
    .optional(),
  bonusRule: z.string().trim().max(500, "at most 500 characters").optional(),
  bonusTotal: amount.optional(),
  estimatedMinutes: z.number().finite().min(0, "not negative").max(10_000, "at most 10,000 minutes").optional(),
});

/** PATCH /api/studies/<slug>/reporting and Study.reportingAnswers: every part optional; an empty answer is dropped. */
export const reportingAnswersSchema = z.strictObject({
  answers: z.partialRecord(z.enum(askedNumbers), reportingAnswerSchema).default({}),
  compensation: reportingCompensationSchema.default({}),
});

export type ReportingAnswers = z.output<typeof reportingAnswersSchema>;
export type ReportingAnswer = z.output<typeof reportingAnswerSchema>;
export type ReportingCompensation = z.output<typeof reportingCompensationSchema>;

/** The stored answers, read leniently: a value that no longer parses reads as not answered (the report then says "not reported"). */
export function reportingAnswersOf(value: unknown): ReportingAnswers {
  const parsed = reportingAnswersSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : { answers: {}, compensation: {} };
}

export const REPORT_FORMATS = ["md", "tex"] as const;

/** GET /api/studies/<slug>/report?format=md|tex (Markdown by default). */
export const reportQuerySchema = z.strictObject({ format: z.enum(REPORT_FORMATS).default("md") });
