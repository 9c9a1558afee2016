import { z } from "zod";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, TaskItem, TaskModule } from "@/lib/tasks/types";
import {
  GRIDWM_ACTION_WORDS,
  GRIDWM_BENCHMARK,
  LETTERS,
  chooseSchema,
  gridwmActionSchema,
  imagePathSchema,
  isPlainObject,
  letterSchema,
  missionSchema,
  modelPromptSchema,
  pyStrip,
  pythonWordBounded,
  share,
  type Letter,
} from "@/lib/tasks/shared/gridwm/common";

/**
 * GridWM-Judge Task A, atomic transition (`gridwm-next-obs`; ../shared/benchmarks/gridwm-judge.md):
 * given the observation o_t and the action a_t, pick the true next observation among four
 * candidates A-D. Negatives come from the same environment and action type in other states.
 */

/** Four candidate images, shown as a 2x2 grid in letter order (A top left, B top right, C, D). */
export const nextObsCandidatesPublicSchema = z.strictObject({
  observation: imagePathSchema,
  action: gridwmActionSchema,
  candidates: z.array(imagePathSchema).length(4, "a Task A item has exactly four candidates (A-D)"),
  mission: missionSchema.optional(),
});

/** The release's composite image: o_t on the left, the 2x2 candidates with letters A-D drawn in. */
export const nextObsCompositePublicSchema = z.strictObject({
  image: imagePathSchema,
  action: gridwmActionSchema,
  mission: missionSchema.optional(),
});

export type NextObsCandidatesPublic = z.infer<typeof nextObsCandidatesPublicSchema>;
export type NextObsCompositePublic = z.infer<typeof nextObsCompositePublicSchema>;
export type GridwmNextObsPublic = NextObsCandidatesPublic | NextObsCompositePublic;

/** `{"image": ...}` is the composite form; anything else is checked as the candidates form. */
export const gridwmNextObsPublicSchema: z.ZodType<GridwmNextObsPublic> = chooseSchema<GridwmNextObsPublic>((value) =>
  isPlainObject(value) && "image" in value ? nextObsCompositePublicSchema : nextObsCandidatesPublicSchema,
);

export const gridwmNextObsKeySchema = z.strictObject({
  /** the letter of the true next observation */
  answer: letterSchema,
  /** the prompt the authors gave models (imported exams), for reviewers */
  modelPrompt: modelPromptSchema.optional(),
});
export type GridwmNextObsKey = z.infer<typeof gridwmNextObsKeySchema>;

export const gridwmNextObsAnswerSchema = z.strictObject({ choice: letterSchema });
export type GridwmNextObsAnswer = z.infer<typeof gridwmNextObsAnswerSchema>;

export interface GridwmNextObsScore {
  correct: boolean;
}

type NextObsItem = TaskItem<GridwmNextObsPublic, GridwmNextObsKey>;

export function isCompositeNextObs(pub: GridwmNextObsPublic): pub is NextObsCompositePublic {
  return "image" in pub;
}

export function scoreNextObs(answer: GridwmNextObsAnswer, key: GridwmNextObsKey): GridwmNextObsScore {
  return { correct: answer.choice === key.answer };
}

export const nextObsMetrics: MetricSpec[] = [
  {
    id: "Acc_A",
    label: "Acc_A (next-observation accuracy)",
    type: "proportion",
    description: "Share of Task A answers that pick the true next observation among the four candidates (chance 0.25).",
  },
];

// ---------------------------------------------------------------------------------------------
// Model answers, as score_exam.py's parse_task_a_answer

/** score_exam.py `_A_LETTER_RE = re.compile(r"\b([ABCD])\b", re.IGNORECASE)`. */
const standaloneLetter = new RegExp(pythonWordBounded("[ABCD]"), "iu");

/**
 * The authors' Task A parser: the stripped text is exactly one letter A-D (either case): strict;
 * else the first standalone A-D anywhere (either case, so "a" in "pick a cell" counts, as in
 * theirs): recoverable. Yardstick answers (`{"choice": "C"}`) are strict.
 */
export function parseNextObsModelAnswer(raw: unknown): ModelAnswerParse<GridwmNextObsAnswer> {
  if (isPlainObject(raw)) {
    const parsed = gridwmNextObsAnswerSchema.safeParse(raw);
    return parsed.success ? { answer: parsed.data, mode: "strict" } : { answer: null, mode: "fail", reason: "not a {choice} answer" };
  }
  if (typeof raw !== "string") return { answer: null, mode: "fail", reason: "not text" };
  const text = pyStrip(raw);
  if (text === "") return { answer: null, mode: "fail", reason: "empty" };
  const upper = text.toUpperCase();
  if ([...text].length === 1 && (LETTERS as readonly string[]).includes(upper)) {
    return { answer: { choice: upper as Letter }, mode: "strict" };
  }
  const match = standaloneLetter.exec(text);
  if (match) return { answer: { choice: match[0].toUpperCase() as Letter }, mode: "recoverable" };
  return { answer: null, mode: "fail", reason: "no standalone letter A-D" };
}

export const nextObsAgreementEncodings: AgreementEncoding<GridwmNextObsAnswer>[] = [
  {
    id: "choice-nominal",
    label: "Each item a unit, nominal on the chosen letter",
    level: "nominal",
    units: (answer) => [{ unit: "", value: answer.choice }],
  },
];

export const gridwmNextObsModule: TaskModule<GridwmNextObsPublic, GridwmNextObsKey, GridwmNextObsAnswer, GridwmNextObsScore> = {
  kind: "gridwm-next-obs",
  title: "GridWM-Judge Task A: next observation",
  benchmark: GRIDWM_BENCHMARK,
  publicSchema: gridwmNextObsPublicSchema,
  keySchema: gridwmNextObsKeySchema,
  answerSchema: gridwmNextObsAnswerSchema,

  mapImages(item, replace) {
    const pub = item.public;
    if (isCompositeNextObs(pub)) return { public: { ...pub, image: replace(pub.image) }, key: item.key };
    return {
      public: { ...pub, observation: replace(pub.observation), candidates: pub.candidates.map(replace) },
      key: item.key,
    };
  },

  publicView(item: NextObsItem): Json {
    const pub = item.public;
    const shared = { action: pub.action, actionText: GRIDWM_ACTION_WORDS[pub.action], ...(pub.mission !== undefined ? { mission: pub.mission } : {}) };
    if (isCompositeNextObs(pub)) return { image: pub.image, ...shared };
    return { observation: pub.observation, candidates: [...pub.candidates], ...shared };
  },

  agent: {
    answerInstructions:
      "The view shows an observation of a grid world (observation) and the action taken in it (action, in words actionText), with the mission when given. " +
      "Which of the four candidate images A-D (candidates, in letter order; or one composite image with the letters drawn in) is the observation right after the action? " +
      'Answer {"choice": "A"}, "B", "C" or "D".',
    exampleAnswer: () => ({ choice: "A" }),
  },
  keyAnswer: (key) => ({ choice: key.answer }),
  score: (answer, key) => scoreNextObs(answer, key),
  correct: (score) => score.correct,
  aggregate: (scores) => ({ Acc_A: share(scores.map((score) => score.correct)) }),
  metrics: nextObsMetrics,
  headlineMetric: "Acc_A",
  agreementEncodings: nextObsAgreementEncodings,

  reviewView(item: NextObsItem): Json {
    const pub = item.public;
    const index = LETTERS.indexOf(item.key.answer);
    return {
      answer: item.key.answer,
      answerImage: isCompositeNextObs(pub) ? null : (pub.candidates[index] ?? null),
      action: pub.action,
      actionText: GRIDWM_ACTION_WORDS[pub.action],
      modelPrompt: item.key.modelPrompt ?? null,
    };
  },

  parseModelAnswer: (raw) => parseNextObsModelAnswer(raw).answer,
  parseModelAnswerWithMode: parseNextObsModelAnswer,
};
