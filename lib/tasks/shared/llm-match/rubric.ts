/**
 * OpenEQA's LLM-Match, the parts shared by the free-text kind (the LLM judge) and its grading kind
 * (people grading with the same rubric): the 1-5 scale and the score. Browser-safe.
 *
 * OpenEQA (Majumdar et al., CVPR 2024, Sec. 4 "LLM-Match"; facebookresearch/open-eqa
 * evaluate-predictions.py): an answer is graded 1-5 against the reference answer (and the extra
 * reference answers when the question has them); the benchmark's score is the mean over questions
 * of 100 (s - 1) / 4, with s clipped to [1, 5]. The rubric's wording below is Yardstick's own.
 */

export const GRADES = [1, 2, 3, 4, 5] as const;
export type Grade = (typeof GRADES)[number];

/** The rubric, shown to the judge (in its prompt) and to human graders, word for word. */
export const GRADE_RUBRIC: Readonly<Record<Grade, string>> = {
  5: "same meaning as a reference answer (the wording may differ)",
  4: "matches a reference answer but for a small omission or imprecision",
  3: "partly right: some of what a reference answer says, some missing or wrong",
  2: "mostly wrong, with only a small right part",
  1: "wrong, unrelated, or no answer",
};

/** Largest text of a question, a reference answer or an answer (characters). */
export const TEXT_CAPS = { question: 2_000, reference: 2_000, answer: 2_000, extraReferences: 10 } as const;

export function isGrade(value: unknown): value is Grade {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 5;
}

/** LLM-Match score of one grade: 100 (clip(s, 1, 5) - 1) / 4 (open-eqa evaluate-predictions.py). */
export function llmMatchScore(grade: number): number {
  return (100 * (Math.min(5, Math.max(1, grade)) - 1)) / 4;
}

/** The mean LLM-Match score of grades (OpenEQA's final score), null for none. */
export function meanLlmMatch(grades: readonly number[]): number | null {
  if (grades.length === 0) return null;
  return grades.reduce((sum, grade) => sum + llmMatchScore(grade), 0) / grades.length;
}

/** The reference answers of a key: the answer, then the extra answers. */
export function referencesOf(key: { answer: string; extraAnswers?: readonly string[] }): string[] {
  return [key.answer, ...(key.extraAnswers ?? [])];
}
