import { z } from "zod";
import { mapMedia, mediaSchema, type Media } from "@/lib/tasks/shared/media/schema";
import { isGrade, llmMatchScore, meanLlmMatch, referencesOf, TEXT_CAPS } from "@/lib/tasks/shared/llm-match/rubric";
import { playbackOf, playbackSettingsFields, type PlaybackMode } from "@/lib/tasks/shared/media/events";
import type { Json, ModelAnswerParse, TaskModule } from "@/lib/tasks/types";

/**
 * `free-text`: a question about a stimulus (text, images, a video or frames) answered
 * in a text box, graded 1-5 against reference answers by an LLM judge, OpenEQA's LLM-Match
 * (lib/tasks/shared/llm-match/rubric.ts): the grade is given in background jobs
 * (lib/tasks/free-text/scoring.ts through lib/scoring/llm-jobs.ts), cached, and stored with the
 * judge's model, prompt version, temperature and seed (ScorerResult). The module's own `score` is
 * pure and calls no LLM: it reads a grade that comes with the answer (`yardstick score` answers
 * files with stored grades, imported model runs graded elsewhere), else the answer is ungraded
 * ({grade: null, score: null}). docs/generic-kinds.md, "free-text".
 */

export const FREE_TEXT_KIND = "free-text";

export const freeTextPublicSchema = z.strictObject({
  question: z.string().trim().min(1).max(TEXT_CAPS.question),
  media: mediaSchema.optional(),
  /** the text box's limit (characters), at most 2,000 (default) */
  maxChars: z.number().int().min(1).max(TEXT_CAPS.answer).optional(),
});

export const freeTextKeySchema = z.strictObject({
  /** the reference answer */
  answer: z.string().trim().min(1).max(TEXT_CAPS.reference),
  /** further acceptable answers (OpenEQA's extra_answers), shown to the judge with the first */
  extraAnswers: z.array(z.string().trim().min(1).max(TEXT_CAPS.reference)).max(TEXT_CAPS.extraReferences).optional(),
});

/** What an annotator submits: the text, nothing else (a grade never comes from the browser). */
export const freeTextAnswerSchema = z.strictObject({ text: z.string().trim().min(1, "type an answer").max(TEXT_CAPS.answer) });

export type FreeTextPublic = z.infer<typeof freeTextPublicSchema>;
export type FreeTextKey = z.infer<typeof freeTextKeySchema>;
/** An answer; `grade` only on answers read by parseModelAnswer (answers files, model runs) that carry one. */
export interface FreeTextAnswer {
  text: string;
  grade?: number;
}
export interface FreeTextScore {
  /** the LLM-Match grade 1-5, null while ungraded */
  grade: number | null;
  /** 100 (grade - 1) / 4, null while ungraded */
  score: number | null;
}

export interface FreeTextView {
  question: string;
  media: Media | null;
  maxChars: number;
  /** the study's playback rule for a video (settings "playback"; docs/generic-kinds.md) */
  playback: PlaybackMode;
}

/** What `yardstick score` and model-run imports read: OpenEQA's prediction text, or {"text", "grade"?}. */
const gradedAnswerSchema = z.strictObject({ text: z.string().max(TEXT_CAPS.answer), grade: z.number().int().min(1).max(5).nullable().optional() });

/**
 * A raw answer with its parse mode (the model-run import counts them). A string is a model's output
 * and is cut as OpenEQA's evaluate-predictions.py cuts predictions (anything after the last period
 * goes, when the period is not the last character): taken whole it is "strict", cut it is
 * "recoverable" (the answer was read out of longer text). An object {text, grade?} is taken as is
 * (grade 1-5 or null): strict. Anything else, or a text over the cap: "fail" (refused).
 */
export function parseFreeTextModelAnswer(raw: unknown): ModelAnswerParse<FreeTextAnswer> {
  if (typeof raw === "string") {
    const end = raw.lastIndexOf(".");
    const cut = end >= 0 && end + 1 < raw.length;
    const text = cut ? raw.slice(0, end + 1) : raw;
    if (text.length > TEXT_CAPS.answer) return { answer: null, mode: "fail", reason: `longer than ${TEXT_CAPS.answer} characters` };
    return { answer: { text }, mode: cut ? "recoverable" : "strict" };
  }
  const parsed = gradedAnswerSchema.safeParse(raw);
  if (!parsed.success) return { answer: null, mode: "fail", reason: "neither text nor a {text, grade?} answer" };
  const grade = parsed.data.grade;
  return { answer: grade === undefined || grade === null ? { text: parsed.data.text } : { text: parsed.data.text, grade }, mode: "strict" };
}

/** A raw answer read as parseFreeTextModelAnswer reads it (null when it cannot be). */
export function parseFreeTextAnswer(raw: unknown): FreeTextAnswer | null {
  return parseFreeTextModelAnswer(raw).answer;
}

/** The score of a grade (or of none). */
export function freeTextScoreOf(grade: number | null | undefined): FreeTextScore {
  return isGrade(grade) ? { grade, score: llmMatchScore(grade) } : { grade: null, score: null };
}

/** Yardstick's cut for the generic correctness figures (calibration, accuracy tables): a grade of 4 or 5. OpenEQA defines none. */
export const CORRECT_FROM_GRADE = 4;

export const freeTextModule: TaskModule<FreeTextPublic, FreeTextKey, FreeTextAnswer, FreeTextScore> = {
  kind: FREE_TEXT_KIND,
  title: "Free-text answer (LLM-Match)",
  benchmark: "OpenEQA",
  publicSchema: freeTextPublicSchema,
  keySchema: freeTextKeySchema,
  answerSchema: freeTextAnswerSchema,
  answerSchemaFor: (item) =>
    z.strictObject({
      text: z
        .string()
        .trim()
        .min(1, "type an answer")
        .max(item.public.maxChars ?? TEXT_CAPS.answer),
    }),
  mapImages: (item, replace) => ({ public: item.public.media ? { ...item.public, media: mapMedia(item.public.media, replace) } : item.public, key: item.key }),
  settingsSchema: z.strictObject(playbackSettingsFields) as z.ZodType<Record<string, unknown>>,
  publicView: (item, settings) => {
    const view: FreeTextView = {
      question: item.public.question,
      media: item.public.media ?? null,
      maxChars: item.public.maxChars ?? TEXT_CAPS.answer,
      playback: playbackOf(settings),
    };
    return view as unknown as Json;
  },
  agent: {
    answerInstructions:
      'The view holds a question (question) about a stimulus (media: text, images, a video, or frames at fps) when given. Answer {"text": "<your answer>"} in words, briefly, at most maxChars characters: an LLM judge grades it 1-5 against reference answers (OpenEQA\'s LLM-Match).',
    exampleAnswer: () => ({ text: "I do not know." }),
  },
  score: (answer) => freeTextScoreOf(answer.grade),
  correct: (score) => (score.grade === null ? null : score.grade >= CORRECT_FROM_GRADE),
  aggregate: (scores) => ({ score: meanLlmMatch(scores.flatMap((score) => (score.grade === null ? [] : [score.grade]))) }),
  // the same metric, with the counts `yardstick score` prints beside it (counts, not metrics: no MetricSpec, so the dashboard shows none)
  aggregateAnswers: (rows) => {
    const graded = rows.filter((row) => row.score.grade !== null).map((row) => row.score.grade!);
    return { score: meanLlmMatch(graded), graded: graded.length, ungraded: rows.length - graded.length };
  },
  metrics: [
    {
      id: "score",
      label: "LLM-Match",
      type: "ratio",
      scale: "points",
      range: [0, 100],
      description: "mean of 100 (grade - 1) / 4 over graded answers (OpenEQA); grades come with the answer or from the LLM judge's jobs",
    },
  ],
  headlineMetric: "score",
  agreementEncodings: [],
  keyAnswer: (key) => ({ text: key.answer }),
  reviewView: (item) => ({ question: item.public.question, references: referencesOf(item.key) }),
  parseModelAnswer: parseFreeTextAnswer,
  parseModelAnswerWithMode: parseFreeTextModelAnswer,
};
