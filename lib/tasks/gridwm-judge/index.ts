import { z } from "zod";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, ScoredAnswer, TaskItem, TaskModule } from "@/lib/tasks/types";
import {
  GRIDWM_BENCHMARK,
  gridwmActionSchema,
  imagePathSchema,
  isPlainObject,
  missionSchema,
  modelPromptSchema,
  pyStrip,
  pythonWordBounded,
  tagText,
  verdictSchema,
  type Verdict,
} from "@/lib/tasks/shared/gridwm/common";

/**
 * GridWM-Judge Task C, judge (`gridwm-judge`; ../shared/benchmarks/gridwm-judge.md): a storyboard
 * of 8 key frames (4x2), the mission and the action list; the answer is Success or Fail.
 *
 * Items of one base case (`group` tag) vary along four probe dimensions, given as tags:
 * `variant` (full, nocue, cf), `temporal` (orig, rev), `visual` (clean, noisy, style) and
 * `framing` (neutral, positive, negative: the preamble shown first). An absent tag counts as its
 * neutral value (full, orig, clean, neutral). JAcc_neu is the accuracy on the neutral slice; JCR_D
 * is the share of complete probe families along D whose verdicts all agree (see
 * summarizeJudgeAnswers).
 */

/**
 * The kind's settings in a study (Study.taskSettings["gridwm-judge"]): `probeMinGap`, the probe
 * spacing: members of one probe family (base case) go to the same person, at least this many other
 * items apart in their queue (lib/assignment, "Probe families"; lowered when too few items are left).
 */
export const gridwmJudgeSettingsSchema = z.strictObject({
  probeMinGap: z
    .number()
    .int("a whole number")
    .min(0, "at least 0")
    .max(100, "at most 100")
    .default(5)
    .meta({ title: "Probe spacing", description: "Members of one probe family go to the same person, at least this many other items apart." }),
});
export type GridwmJudgeSettings = z.infer<typeof gridwmJudgeSettingsSchema>;

/** The study's settings of the kind, the defaults where they do not parse. */
export function gridwmJudgeSettingsOf(settings: unknown): GridwmJudgeSettings {
  const parsed = gridwmJudgeSettingsSchema.safeParse(settings ?? {});
  return parsed.success ? parsed.data : gridwmJudgeSettingsSchema.parse({});
}

export const gridwmJudgePublicSchema = z.strictObject({
  /** one composite image of the K = 8 key frames, 4 columns x 2 rows, in the order shown */
  storyboard: imagePathSchema,
  mission: missionSchema.optional(),
  /** the full action sequence (MiniGrid action names), in the order taken */
  actions: z.array(gridwmActionSchema).optional(),
  /** framing text shown before the storyboard (the framing probe) */
  preamble: z.string().min(1, "a preamble cannot be empty; leave it out instead").optional(),
});
export type GridwmJudgePublic = z.infer<typeof gridwmJudgePublicSchema>;

export const gridwmJudgeKeySchema = z.strictObject({
  answer: verdictSchema,
  /** the prompt the authors gave models (imported exams), for reviewers */
  modelPrompt: modelPromptSchema.optional(),
});
export type GridwmJudgeKey = z.infer<typeof gridwmJudgeKeySchema>;

export const gridwmJudgeAnswerSchema = z.strictObject({ verdict: verdictSchema });
export type GridwmJudgeAnswer = z.infer<typeof gridwmJudgeAnswerSchema>;

export interface GridwmJudgeScore {
  correct: boolean;
}

type JudgeItem = TaskItem<GridwmJudgePublic, GridwmJudgeKey>;

export function scoreJudge(answer: GridwmJudgeAnswer, key: GridwmJudgeKey): GridwmJudgeScore {
  return { correct: answer.verdict === key.answer };
}

// ---------------------------------------------------------------------------------------------
// Probe dimensions and metrics

export const PROBE_DIMENSIONS = {
  variant: { neutral: "full", values: ["full", "nocue", "cf"] },
  temporal: { neutral: "orig", values: ["orig", "rev"] },
  visual: { neutral: "clean", values: ["clean", "noisy", "style"] },
  framing: { neutral: "neutral", values: ["neutral", "positive", "negative"] },
} as const;
export type ProbeDimension = keyof typeof PROBE_DIMENSIONS;
const DIMENSIONS = Object.keys(PROBE_DIMENSIONS) as ProbeDimension[];

/** The dimensions JCR is measured along (variant is not: cf is a failure by construction). */
export const CONSISTENCY_DIMENSIONS = ["temporal", "visual", "framing"] as const;
export type ConsistencyDimension = (typeof CONSISTENCY_DIMENSIONS)[number];

/** A probe tag's value, the dimension's neutral value when the tag is absent. */
export function probeValue(tags: Record<string, string | number | boolean> | undefined, dimension: ProbeDimension): string {
  return tagText(tags, dimension) ?? PROBE_DIMENSIONS[dimension].neutral;
}

/** True for an item of the neutral slice: full, orig, clean, neutral (absent tags included). */
export function isNeutralProbe(tags: Record<string, string | number | boolean> | undefined): boolean {
  return DIMENSIONS.every((dimension) => probeValue(tags, dimension) === PROBE_DIMENSIONS[dimension].neutral);
}

export interface FamilyCounts {
  /** families in which every value of the dimension was answered */
  complete: number;
  /** complete families whose verdicts are all equal */
  consistent: number;
}

export interface JudgeSummary {
  answers: number;
  correct: number;
  /** answers to items of the neutral slice, and how many of them are right */
  neutralAnswers: number;
  neutralCorrect: number;
  families: Record<ConsistencyDimension, FamilyCounts>;
}

/** The base case of an item: its environment (when tagged) and `group`; null without a group. */
function baseCase(tags: Record<string, string | number | boolean>): string | null {
  const group = tagText(tags, "group");
  return group === undefined ? null : JSON.stringify([tagText(tags, "env") ?? null, group]);
}

/**
 * Counts behind Task C's metrics, from answers with their item's tags and who answered.
 *
 * A probe family for dimension D is the answers of one annotator (rows without one are one
 * anonymous judge) to items of one base case (`env` and `group` tags) that agree on every other
 * probe dimension; answers to items without a `group`, or whose D value is none of D's values,
 * are in no family. A family is complete when every value of D was answered (temporal: orig and
 * rev; visual: clean, noisy, style; framing: neutral, positive, negative), and consistent when
 * all its verdicts are equal. Temporal families count only with visual clean, as in the paper.
 */
export function summarizeJudgeAnswers(rows: ReadonlyArray<ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>>): JudgeSummary {
  let correct = 0;
  let neutralAnswers = 0;
  let neutralCorrect = 0;
  for (const row of rows) {
    if (row.score.correct) correct++;
    if (isNeutralProbe(row.tags)) {
      neutralAnswers++;
      if (row.score.correct) neutralCorrect++;
    }
  }
  const families = probeFamilies(rows);
  const counts = Object.fromEntries(
    CONSISTENCY_DIMENSIONS.map((dimension) => {
      let complete = 0;
      let consistent = 0;
      for (const family of families.get(dimension)!.values()) {
        if (family.values.size < PROBE_DIMENSIONS[dimension].values.length) continue;
        complete++;
        if (family.verdicts.size === 1) consistent++;
      }
      return [dimension, { complete, consistent }];
    }),
  ) as Record<ConsistencyDimension, FamilyCounts>;
  return { answers: rows.length, correct, neutralAnswers, neutralCorrect, families: counts };
}

interface ProbeFamily {
  /** who answered (null: an anonymous judge) */
  person: string | null;
  /** the base case and the other dimensions' values: the same for every person's family of it */
  probe: string;
  values: Set<string>;
  verdicts: Set<string>;
}

/** The probe families of each consistency dimension (summarizeJudgeAnswers's header), by family key. */
function probeFamilies(rows: ReadonlyArray<ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>>): Map<ConsistencyDimension, Map<string, ProbeFamily>> {
  const families = new Map<ConsistencyDimension, Map<string, ProbeFamily>>(CONSISTENCY_DIMENSIONS.map((dimension) => [dimension, new Map()]));
  for (const row of rows) {
    const base = baseCase(row.tags);
    if (base === null) continue;
    const values = Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, probeValue(row.tags, dimension)])) as Record<ProbeDimension, string>;
    for (const dimension of CONSISTENCY_DIMENSIONS) {
      if (!(PROBE_DIMENSIONS[dimension].values as readonly string[]).includes(values[dimension])) continue;
      if (dimension === "temporal" && values.visual !== PROBE_DIMENSIONS.visual.neutral) continue;
      const others = DIMENSIONS.filter((other) => other !== dimension).map((other) => values[other]);
      const familyKey = JSON.stringify([row.annotator ?? null, base, others]);
      const byKey = families.get(dimension)!;
      let family = byKey.get(familyKey);
      if (!family)
        byKey.set(familyKey, (family = { person: row.annotator ?? null, probe: JSON.stringify([base, others]), values: new Set(), verdicts: new Set() }));
      family.values.add(values[dimension]);
      family.verdicts.add(row.answer.verdict);
    }
  }
  return families;
}

/** One complete probe family: who answered it, the probe it is of (a person's family of the same base case and values as another's), and whether it is consistent. */
export interface CompleteFamily {
  person: string | null;
  probe: string;
  consistent: boolean;
}

/** The complete probe families of each dimension (JCR's units), with who answered and the probe they are of, for intervals over people and probes. */
export function completeJudgeFamilies(rows: ReadonlyArray<ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>>): Record<ConsistencyDimension, CompleteFamily[]> {
  const families = probeFamilies(rows);
  return Object.fromEntries(
    CONSISTENCY_DIMENSIONS.map((dimension) => [
      dimension,
      [...families.get(dimension)!.values()]
        .filter((family) => family.values.size >= PROBE_DIMENSIONS[dimension].values.length)
        .map((family) => ({ person: family.person, probe: family.probe, consistent: family.verdicts.size === 1 })),
    ]),
  ) as Record<ConsistencyDimension, CompleteFamily[]>;
}

const ratioOrNull = (numerator: number, denominator: number): number | null => (denominator > 0 ? numerator / denominator : null);

export function judgeMetricsFromSummary(summary: JudgeSummary): Record<string, number | null> {
  return {
    Acc_C: ratioOrNull(summary.correct, summary.answers),
    JAcc_neu: ratioOrNull(summary.neutralCorrect, summary.neutralAnswers),
    JCR_temp: ratioOrNull(summary.families.temporal.consistent, summary.families.temporal.complete),
    JCR_vis: ratioOrNull(summary.families.visual.consistent, summary.families.visual.complete),
    JCR_frame: ratioOrNull(summary.families.framing.consistent, summary.families.framing.complete),
  };
}

export const judgeMetrics: MetricSpec[] = [
  {
    id: "Acc_C",
    label: "Acc_C (judge accuracy)",
    type: "proportion",
    description: "Share of Task C verdicts (Success / Fail) that match the trajectory's outcome, over every variant.",
  },
  {
    id: "JAcc_neu",
    label: "JAcc_neu (neutral-slice accuracy)",
    type: "proportion",
    description:
      "Accuracy on items of variant full, temporal orig, visual clean and framing neutral (absent tags count as these). Its denominator is those answers only.",
  },
  {
    id: "JCR_temp",
    label: "JCR_temp (orig = rev)",
    type: "proportion",
    description:
      "Share of complete temporal probe families (one annotator, one base case, visual clean, orig and rev both answered) whose verdicts agree. Its denominator is families; flip rate = 1 - JCR.",
  },
  {
    id: "JCR_vis",
    label: "JCR_vis (clean = noisy = style)",
    type: "proportion",
    description:
      "Share of complete visual probe families (one annotator, one base case, clean, noisy and style all answered) whose verdicts agree. Its denominator is families; flip rate = 1 - JCR.",
  },
  {
    id: "JCR_frame",
    label: "JCR_frame (framing has no effect)",
    type: "proportion",
    description:
      "Share of complete framing probe families (one annotator, one base case, neutral, positive and negative preambles all answered) whose verdicts agree. Its denominator is families; flip rate = 1 - JCR.",
  },
];

// ---------------------------------------------------------------------------------------------
// Model answers, as score_exam.py's parse_task_c_answer

/** score_exam.py `_C_RE = re.compile(r"\b(success(?:ful(?:ly)?)?|fail(?:ure|ed)?)\b", re.IGNORECASE)`. */
const verdictWord = new RegExp(pythonWordBounded("success(?:ful(?:ly)?)?|fail(?:ure|ed)?"), "iu");

/**
 * The authors' Task C parser: the stripped text is "success" or "fail" in any case: strict; else
 * the first standalone success / successful / successfully / fail / failure / failed in any case:
 * recoverable (so "not successful" reads as Success, as in theirs). Yardstick answers
 * (`{"verdict": "Fail"}`) are strict.
 */
export function parseJudgeModelAnswer(raw: unknown): ModelAnswerParse<GridwmJudgeAnswer> {
  if (isPlainObject(raw)) {
    const parsed = gridwmJudgeAnswerSchema.safeParse(raw);
    return parsed.success ? { answer: parsed.data, mode: "strict" } : { answer: null, mode: "fail", reason: "not a {verdict} answer" };
  }
  if (typeof raw !== "string") return { answer: null, mode: "fail", reason: "not text" };
  const text = pyStrip(raw);
  if (text === "") return { answer: null, mode: "fail", reason: "empty" };
  const lower = text.toLowerCase();
  if (lower === "success" || lower === "fail") return { answer: { verdict: lower === "success" ? "Success" : "Fail" }, mode: "strict" };
  const match = verdictWord.exec(text);
  if (match) {
    const verdict: Verdict = match[0].toLowerCase().startsWith("success") ? "Success" : "Fail";
    return { answer: { verdict }, mode: "recoverable" };
  }
  return { answer: null, mode: "fail", reason: "no Success / Fail word" };
}

export const judgeAgreementEncodings: AgreementEncoding<GridwmJudgeAnswer>[] = [
  {
    id: "verdict-nominal",
    label: "Each item a unit, nominal on the verdict",
    level: "nominal",
    units: (answer) => [{ unit: "", value: answer.verdict }],
  },
];

export const gridwmJudgeModule: TaskModule<GridwmJudgePublic, GridwmJudgeKey, GridwmJudgeAnswer, GridwmJudgeScore> = {
  kind: "gridwm-judge",
  title: "GridWM-Judge Task C: storyboard judge",
  benchmark: GRIDWM_BENCHMARK,
  publicSchema: gridwmJudgePublicSchema,
  keySchema: gridwmJudgeKeySchema,
  answerSchema: gridwmJudgeAnswerSchema,

  mapImages: (item, replace) => ({ public: { ...item.public, storyboard: replace(item.public.storyboard) }, key: item.key }),

  publicView(item: JudgeItem): Json {
    const pub = item.public;
    return {
      storyboard: pub.storyboard,
      ...(pub.mission !== undefined ? { mission: pub.mission } : {}),
      ...(pub.actions !== undefined ? { actions: [...pub.actions] } : {}),
      ...(pub.preamble !== undefined ? { preamble: pub.preamble } : {}),
    };
  },

  agent: {
    answerInstructions:
      "The view shows a storyboard of 8 key frames of an agent in a grid world (one image, 4 columns x 2 rows, read left to right, top to bottom), with the mission, the actions taken and a preamble when given. " +
      'Did the agent accomplish the mission? Answer {"verdict": "Success"} or {"verdict": "Fail"}.',
    exampleAnswer: () => ({ verdict: "Success" }),
  },
  keyAnswer: (key) => ({ verdict: key.answer }),
  score: (answer, key) => scoreJudge(answer, key),
  correct: (score) => score.correct,
  /**
   * Scores alone carry no tags and no annotator: Acc_C only, the other metrics null. Use
   * aggregateAnswers (through aggregateScoredAnswers in lib/tasks) for all five.
   */
  aggregate: (scores) =>
    judgeMetricsFromSummary({
      answers: scores.length,
      correct: scores.filter((score) => score.correct).length,
      neutralAnswers: 0,
      neutralCorrect: 0,
      families: { temporal: { complete: 0, consistent: 0 }, visual: { complete: 0, consistent: 0 }, framing: { complete: 0, consistent: 0 } },
    }),
  aggregateAnswers: (rows) => judgeMetricsFromSummary(summarizeJudgeAnswers(rows)),
  metrics: judgeMetrics,
  headlineMetric: "Acc_C",
  agreementEncodings: judgeAgreementEncodings,

  reviewView(item: JudgeItem): Json {
    return {
      answer: item.key.answer,
      storyboard: item.public.storyboard,
      probe: Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, probeValue(item.tags, dimension)])),
      modelPrompt: item.key.modelPrompt ?? null,
    };
  },

  parseModelAnswer: (raw) => parseJudgeModelAnswer(raw).answer,
  parseModelAnswerWithMode: parseJudgeModelAnswer,
  settingsSchema: gridwmJudgeSettingsSchema,
  assignment: { family: { tags: ["env", "group"], required: "group", minGap: (settings) => gridwmJudgeSettingsOf(settings).probeMinGap } },
};
