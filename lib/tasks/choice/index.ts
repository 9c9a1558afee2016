import { z } from "zod";
import { mapMedia, mediaSchema } from "@/lib/tasks/shared/media/schema";
import { playbackOf, playbackSettingsFields } from "@/lib/tasks/shared/media/events";
import { fuzzyMatching } from "@/lib/tasks/shared/vsi/parse";
import { VSI_SOURCE } from "@/lib/tasks/shared/vsi/release";
import { viewArray, viewField } from "@/lib/tasks/shared/view-fields";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, TaskItem, TaskModule } from "@/lib/tasks/types";

/**
 * `choice`: a question about text, images or a video with 2-9 text or image options.
 * Options carry ids; the answer is the chosen option's id, so the order shown may be shuffled per
 * person (where the item allows it: `shuffle`, default true) and logged as an event
 * (lib/tasks/choice/events.ts). Items may come without a key (benchmarks whose test answers are
 * private): they are answered and exported in the benchmark's submission format, never scored.
 * Accuracy is reported with chance beside it: the mean of 1/n over the answers scored.
 */

export const CHOICE_LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I"] as const;
export const CHOICE_CAPS = { question: 8_000, optionText: 2_000, optionId: 64 } as const;

const mediaRef = z.string().min(1).max(512);

export const choiceOptionSchema = z
  .strictObject({
    id: z.string().min(1, "an option needs an id").max(CHOICE_CAPS.optionId),
    text: z.string().min(1).max(CHOICE_CAPS.optionText).optional(),
    image: mediaRef.optional(),
  })
  .refine((option) => option.text !== undefined || option.image !== undefined, { message: "an option needs text or an image" });

export const choicePublicSchema = z
  .strictObject({
    question: z.string().min(1, "a question is needed").max(CHOICE_CAPS.question),
    options: z.array(choiceOptionSchema).min(2, "at least 2 options").max(9, "at most 9 options (keys 1-9 / A-I)"),
    media: mediaSchema.optional(),
    /** false keeps the options in the given order for everyone (e.g. ordered numbers, "none of the above" last) */
    shuffle: z.boolean().optional(),
  })
  .superRefine((pub, ctx) => {
    const seen = new Map<string, number>();
    pub.options.forEach((option, index) => {
      const first = seen.get(option.id);
      if (first !== undefined)
        ctx.addIssue({ code: "custom", path: ["options", index, "id"], message: `option id ${JSON.stringify(option.id)} repeats option ${first + 1}'s` });
      else seen.set(option.id, index);
    });
  });
export type ChoicePublic = z.infer<typeof choicePublicSchema>;
export type ChoiceOption = z.infer<typeof choiceOptionSchema>;

/** `answer` absent: the benchmark withholds it (the item is answered and exported, never scored). */
export const choiceKeySchema = z.strictObject({
  answer: z.string().min(1).max(CHOICE_CAPS.optionId).optional(),
  /** for reviewers: why the answer is right, or where it comes from */
  note: z.string().max(CHOICE_CAPS.optionText).optional(),
});
export type ChoiceKey = z.infer<typeof choiceKeySchema>;

export const choiceItemSchema = z.object({ public: choicePublicSchema, key: choiceKeySchema }).superRefine((item, ctx) => {
  const answer = item.key.answer;
  if (answer !== undefined && !item.public.options.some((option) => option.id === answer)) {
    ctx.addIssue({
      code: "custom",
      path: ["key", "answer"],
      message: `${JSON.stringify(answer)} is not an option id (${item.public.options.map((o) => o.id).join(", ")})`,
    });
  }
});

export const choiceAnswerSchema = z.strictObject({ choice: z.string().min(1).max(CHOICE_CAPS.optionId) });
export type ChoiceAnswer = z.infer<typeof choiceAnswerSchema>;
/** A model's letter (A = the first option in the item's own order), read by the benchmark's parser. */
export interface ChoiceLetterAnswer {
  letter: string;
}
export type ChoiceReadAnswer = ChoiceAnswer | ChoiceLetterAnswer;

/**
 * Stored per answer: `correct` and `score` (1 or 0; null on an item without a key) and `options`,
 * the number of options (chance is 1/options). `yardstick score` prints {correct, score} (scoreRow).
 */
export interface ChoiceScore {
  correct: boolean | null;
  score: 0 | 1 | null;
  options: number;
}

type ChoiceItem = TaskItem<ChoicePublic, ChoiceKey>;

export const choiceMetrics: MetricSpec[] = [
  { id: "accuracy", label: "Accuracy", type: "proportion", description: "Share of answers that chose the keyed option (items without a key are not scored)." },
  {
    id: "chance",
    label: "Chance",
    type: "ratio",
    description: "What guessing would score on the same answers: the mean of 1/options (shown beside accuracy).",
  },
];

/** The option id an answer names: its own id, or the letter's option in the item's order (null when out of range). */
export function chosenOptionId(answer: ChoiceReadAnswer, pub: ChoicePublic): string | null {
  if ("choice" in answer) return answer.choice;
  const index = (CHOICE_LETTERS as readonly string[]).indexOf(answer.letter.toUpperCase());
  return index >= 0 && index < pub.options.length ? pub.options[index].id : null;
}

export function scoreChoice(answer: ChoiceReadAnswer, key: ChoiceKey, item: Pick<ChoiceItem, "public">): ChoiceScore {
  const options = item.public.options.length;
  if (key.answer === undefined) return { correct: null, score: null, options };
  const correct = chosenOptionId(answer, item.public) === key.answer;
  return { correct, score: correct ? 1 : 0, options };
}

/** Accuracy over the scored answers and chance beside it (mean of 1/n over the same answers); null without any. */
export function aggregateChoice(scores: ReadonlyArray<ChoiceScore>): { accuracy: number | null; chance: number | null } {
  const scored = scores.filter((score) => score.score !== null);
  if (scored.length === 0) return { accuracy: null, chance: null };
  const right = scored.reduce((sum, score) => sum + (score.score ?? 0), 0);
  const chance = scored.reduce((sum, score) => sum + 1 / score.options, 0);
  return { accuracy: right / scored.length, chance: chance / scored.length };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The `source` tag of BLINK's items (lib/tasks/choice/submission.ts writes their submission file). */
export const BLINK_SOURCE = "blink";

const isLetter = (text: string) => text.length === 1 && (CHOICE_LETTERS as readonly string[]).includes(text.toUpperCase());

/**
 * VSI-Bench's released reading (lmms_eval/tasks/vsibench/utils.py): `exact_match(fuzzy_matching(pred),
 * ground_truth)`, the text before the first space with trailing dots removed. The whole text one
 * letter is strict, a letter read that way from longer text ("B. chair") recoverable; anything
 * else (" B": a leading space leaves nothing before the first space) is read as that text and
 * scores 0, as there, counted as a failure.
 */
function parseVsiChoice(raw: string): ModelAnswerParse<ChoiceReadAnswer> {
  const token = fuzzyMatching(raw);
  if (isLetter(token)) return { answer: { letter: token.toUpperCase() }, mode: token === raw ? "strict" : "recoverable" };
  return {
    answer: { letter: token.slice(0, CHOICE_CAPS.optionId) },
    mode: "fail",
    reason: "no option letter before the first space (scored 0, as VSI-Bench's split(' ')[0] does)",
  };
}

/**
 * BLINK's released reading (zeyofu/BLINK_Benchmark, eval/test_benchmark.py `analyze_answer`): the
 * text exactly "A".."E" or "(A)".."(E)" is strict; else the one "(X)" token, among the item's
 * options, of the whole text split on whitespace or, when that holds one, of its last paragraph
 * (after the last blank line) is recoverable. Where BLINK asks GPT-3.5-turbo to match the output
 * to an option (no such token, or several), the output is refused: give the prediction BLINK's
 * matcher wrote.
 */
function parseBlinkChoice(raw: string, options: number): ModelAnswerParse<ChoiceReadAnswer> {
  if (["A", "B", "C", "D", "E"].includes(raw)) return { answer: { letter: raw }, mode: "strict" };
  if (/^\([A-E]\)$/u.test(raw)) return { answer: { letter: raw[1] }, mode: "strict" };
  const choices = CHOICE_LETTERS.slice(0, Math.min(options, 5)).map((letter) => `(${letter})`);
  const among = (text: string) => [...new Set(text.split(/\s+/u).filter((token) => choices.includes(token)))];
  const all = among(raw);
  const paragraphs = raw.split("\n\n");
  const last = among(paragraphs[paragraphs.length - 1]);
  if (all.length >= 1 && (all.length === 1 || last.length === 1)) {
    const token = last.length === 1 ? last[0] : all[0];
    return { answer: { letter: token[1] }, mode: "recoverable" };
  }
  return {
    answer: null,
    mode: "fail",
    reason: "no single (A)-style option in the output: BLINK asks GPT-3.5-turbo to match it (eval/multiple_choice.py); import the prediction its matcher wrote",
  };
}

/**
 * Model outputs, read by the released parser of the item's benchmark when the item is given and
 * tagged with its source: VSI-Bench's (parseVsiChoice) and BLINK's (parseBlinkChoice). Other items:
 * the whole text one letter A-I (trimmed) or one "(X)" is strict, a letter before the first
 * space, trailing dots removed ("B. chair", "b"), recoverable, anything else unreadable (a model
 * run scores it wrong: unparsedAnswer). Yardstick answers ({"choice": "<option id>"}) and an
 * option id given as a number (EgoSchema's 0-4) are strict.
 */
export function parseChoiceModelAnswer(raw: unknown, item?: { public: ChoicePublic; tags?: Record<string, unknown> }): ModelAnswerParse<ChoiceReadAnswer> {
  if (isPlainObject(raw)) {
    const parsed = choiceAnswerSchema.safeParse(raw);
    return parsed.success ? { answer: parsed.data, mode: "strict" } : { answer: null, mode: "fail", reason: "not a {choice} answer" };
  }
  // an option's id as a number: EgoSchema's {q_uid: 0-4} and Perception Test's answer_id name options "0", "1" ...
  if (typeof raw === "number") {
    const id = String(raw);
    if (Number.isInteger(raw) && item?.public.options.some((option) => option.id === id)) return { answer: { choice: id }, mode: "strict" };
    return { answer: null, mode: "fail", reason: item ? "a number that is no option id of the item" : "a number, with no item to read it against" };
  }
  if (typeof raw !== "string") return { answer: null, mode: "fail", reason: "not text" };
  const source = item?.tags?.source;
  if (source === VSI_SOURCE) return parseVsiChoice(raw);
  if (source === BLINK_SOURCE && item) return parseBlinkChoice(raw, item.public.options.length);
  const whole = raw.trim();
  if (isLetter(whole)) return { answer: { letter: whole.toUpperCase() }, mode: "strict" };
  const bracketed = /^\(([A-Ia-i])\)$/u.exec(whole);
  if (bracketed) return { answer: { letter: bracketed[1].toUpperCase() }, mode: "strict" };
  const token = fuzzyMatching(raw);
  if (isLetter(token)) return { answer: { letter: token.toUpperCase() }, mode: "recoverable" };
  return { answer: null, mode: "fail", reason: "no option letter A-I before the first space" };
}

const agreementEncodings: AgreementEncoding<ChoiceReadAnswer>[] = [
  {
    id: "choice-nominal",
    label: "Each item a unit, nominal on the chosen option",
    level: "nominal",
    units: (answer) => ("choice" in answer ? [{ unit: "", value: answer.choice }] : []),
  },
];

function optionView(option: ChoiceOption): Json {
  return { id: option.id, ...(option.text !== undefined ? { text: option.text } : {}), ...(option.image !== undefined ? { image: option.image } : {}) };
}

export const choiceModule: TaskModule<ChoicePublic, ChoiceKey, ChoiceReadAnswer, ChoiceScore> = {
  kind: "choice",
  title: "Multiple choice",
  benchmark: "Generic (VSI-Bench, EgoSchema, Perception Test, BLINK ...)",
  publicSchema: choicePublicSchema,
  keySchema: choiceKeySchema,
  answerSchema: choiceAnswerSchema as z.ZodType<ChoiceReadAnswer>,
  itemSchema: choiceItemSchema,
  answerSchemaFor: (item) =>
    z.strictObject({
      choice: z.enum(item.public.options.map((option) => option.id) as [string, ...string[]], { error: "not one of the item's option ids" }),
    }) as z.ZodType<ChoiceReadAnswer>,

  mapImages: (item, replace) => ({
    public: {
      ...item.public,
      options: item.public.options.map((option) => (option.image !== undefined ? { ...option, image: replace(option.image) } : option)),
      ...(item.public.media ? { media: mapMedia(item.public.media, replace) } : {}),
    },
    key: item.key,
  }),

  settingsSchema: z.strictObject(playbackSettingsFields) as z.ZodType<Record<string, unknown>>,
  publicView: (item: ChoiceItem, settings): Json => ({
    question: item.public.question,
    options: item.public.options.map(optionView),
    ...(item.public.media ? { media: item.public.media as Json } : {}),
    shuffle: item.public.shuffle ?? true,
    playback: playbackOf(settings),
  }),

  agent: {
    answerInstructions:
      'The view holds a question (question), its options (options: each an id with text and/or an image) and a stimulus (media: text, images, a video, or frames at fps) when given. Answer {"choice": "<the id of one option>"}.',
    /** the first option */
    exampleAnswer: (view) => {
      const id = viewField(viewArray(view, "options")?.[0], "id");
      return typeof id === "string" ? { choice: id } : null;
    },
  },
  score: (answer, key, item) => scoreChoice(answer, key, item),
  scoreRow: (score) => ({ correct: score.correct, score: score.score }),
  correct: (score) => score.correct,
  chance: (score) => (score.options > 0 ? 1 / score.options : null),
  aggregate: (scores) => aggregateChoice(scores),
  metrics: choiceMetrics,
  headlineMetric: "accuracy",
  agreementEncodings,
  keyAnswer: (key) => ({ choice: key.answer ?? "" }),

  reviewView: (item: ChoiceItem): Json => {
    const keyed = item.public.options.find((option) => option.id === item.key.answer);
    return {
      question: item.public.question,
      answer: item.key.answer ?? null,
      answerText: keyed?.text ?? null,
      answerImage: keyed?.image ?? null,
      options: item.public.options.map(optionView),
      withheld: item.key.answer === undefined,
      note: item.key.note ?? null,
    };
  },

  parseModelAnswer: (raw, item) => parseChoiceModelAnswer(raw, item).answer,
  parseModelAnswerWithMode: parseChoiceModelAnswer,
  // no option: scoreChoice finds no option for an empty letter, so it is wrong against every key
  unparsedAnswer: () => ({ letter: "" }),
  submissions: () => import("@/lib/tasks/choice/submission").then((loaded) => loaded.submissionFormats),
};
