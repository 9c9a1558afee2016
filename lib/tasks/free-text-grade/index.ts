import { z } from "zod";
import { GRADE_RUBRIC, GRADES, isGrade, meanLlmMatch, TEXT_CAPS } from "@/lib/tasks/shared/llm-match/rubric";
import type { Json, TaskModule } from "@/lib/tasks/types";

/**
 * `free-text-grade`: people grade answers of a free-text study with the LLM judge's rubric
 * (lib/tasks/shared/llm-match/rubric.ts), 1-5, so that the judge itself is measured. An item is one
 * answer with its question and reference answers; it is built from a sample of a free-text study's
 * answers (the "grading batch" of that study's dashboard section, lib/tasks/free-text/grading.ts)
 * and imported into a study of its own, the grading study. The key says which answer it is
 * (study, response or model prediction) and never holds the judge's grade: graders do not see it.
 * The free-text study's dashboard joins the graders' grades with the judge's (judge-human alpha).
 */

export const FREE_TEXT_GRADE_KIND = "free-text-grade";

export const gradePublicSchema = z.strictObject({
  question: z.string().min(1).max(TEXT_CAPS.question),
  references: z
    .array(z.string().min(1).max(TEXT_CAPS.reference))
    .min(1)
    .max(TEXT_CAPS.extraReferences + 1),
  /** the answer to grade */
  answer: z.string().max(TEXT_CAPS.answer),
});

/** The answer graded: the free-text study's id and the response's or model prediction's id. */
export const gradeKeySchema = z.strictObject({
  source: z
    .strictObject({ study: z.string().min(1).max(64), response: z.string().min(1).max(64).optional(), prediction: z.string().min(1).max(64).optional() })
    .refine((source) => (source.response === undefined) !== (source.prediction === undefined), {
      message: "give either response or prediction",
      path: ["response"],
    }),
});

export const gradeAnswerSchema = z.strictObject({ grade: z.number().int().min(1).max(5) });

export type GradePublic = z.infer<typeof gradePublicSchema>;
export type GradeKey = z.infer<typeof gradeKeySchema>;
export type GradeAnswer = z.infer<typeof gradeAnswerSchema>;

export interface GradeView {
  question: string;
  references: string[];
  answer: string;
}

export const freeTextGradeModule: TaskModule<GradePublic, GradeKey, GradeAnswer, { grade: number }> = {
  kind: FREE_TEXT_GRADE_KIND,
  title: "Grade a free-text answer (LLM-Match rubric)",
  benchmark: "OpenEQA",
  publicSchema: gradePublicSchema,
  keySchema: gradeKeySchema,
  answerSchema: gradeAnswerSchema,
  mapImages: (item) => item,
  publicView: (item) => {
    const view: GradeView = { question: item.public.question, references: item.public.references, answer: item.public.answer };
    return view as unknown as Json;
  },
  agent: {
    answerInstructions:
      "The view holds a question (question), its reference answers (references) and an answer to grade (answer). Grade the answer against the references: " +
      `${GRADES.map((grade) => `${grade} ${GRADE_RUBRIC[grade]}`)
        .reverse()
        .join("; ")}. Answer {"grade": <1-5>}.`,
    exampleAnswer: () => ({ grade: 1 }),
  },
  score: (answer) => ({ grade: answer.grade }),
  // a grade has no right value: no grade is right or wrong, so figures about correctness leave grades out
  correct: () => null,
  aggregate: (scores) => ({ score: meanLlmMatch(scores.map((score) => score.grade)) }),
  metrics: [
    {
      id: "score",
      label: "LLM-Match (people)",
      type: "ratio",
      scale: "points",
      range: [0, 100],
      description: "mean of 100 (grade - 1) / 4 over the graders' grades",
    },
  ],
  headlineMetric: "score",
  agreementEncodings: [{ id: "grade-interval", label: "grade 1-5 (interval)", level: "interval", units: (answer) => [{ unit: "", value: answer.grade }] }],
  reviewView: (item) => ({ source: item.key.source }),
  parseModelAnswer: (raw) => {
    const grade = typeof raw === "number" ? raw : raw !== null && typeof raw === "object" ? (raw as { grade?: unknown }).grade : undefined;
    return isGrade(grade) ? { grade } : null;
  },
};
