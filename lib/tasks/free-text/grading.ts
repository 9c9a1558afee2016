import { mulberry32 } from "@/lib/stats/rng";
import { sampleWithoutReplacement } from "@/lib/stats/sample-without-replacement";
import { seedFromString } from "@/lib/stats/seed-from-string";
import type { ItemLine } from "@/lib/import/types";

/**
 * The grading batch of a free-text study: a sample of its answers (people's and model runs') as
 * items of the grading kind (lib/tasks/free-text-grade), one JSON line each, to import into a
 * grading study. The sample is drawn without replacement, seeded by the study's id, so the same
 * answers are drawn each time while the study's answers do not change; each line's key names the
 * answer it grades and never the judge's grade.
 */

export const GRADING_KIND = "free-text-grade";
/** answers in a grading batch at most */
export const GRADING_SAMPLE = 100;

export interface GradableAnswer {
  type: "response" | "prediction";
  id: string;
  itemExternalId: string;
  question: string;
  references: string[];
  text: string;
  category: string | null;
}

/** The sampled answers, in a stable order (by item, then id). */
export function sampleGradable(studyId: string, answers: readonly GradableAnswer[], size = GRADING_SAMPLE): GradableAnswer[] {
  const sorted = [...answers].sort((a, b) => (a.itemExternalId === b.itemExternalId ? (a.id < b.id ? -1 : 1) : a.itemExternalId < b.itemExternalId ? -1 : 1));
  const sample = sorted.length <= size ? sorted : sampleWithoutReplacement(sorted, size, mulberry32(seedFromString(`grading|${studyId}`)));
  return sample.sort((a, b) => sorted.indexOf(a) - sorted.indexOf(b));
}

/** The grading kind's item lines of the sampled answers. */
export function gradingBatchLines(studyId: string, sample: readonly GradableAnswer[]): ItemLine[] {
  return sample.map((answer, index) => ({
    id: `grade-${String(index + 1).padStart(4, "0")}-${answer.itemExternalId}`.slice(0, 128),
    kind: GRADING_KIND,
    public: { question: answer.question, references: answer.references, answer: answer.text },
    key: { source: { study: studyId, [answer.type]: answer.id } },
    tags: { ...(answer.category ? { category: answer.category } : {}), answerBy: answer.type === "response" ? "person" : "model" },
  }));
}

export function gradingBatchJsonl(studyId: string, sample: readonly GradableAnswer[]): string {
  return (
    gradingBatchLines(studyId, sample)
      .map((line) => JSON.stringify(line))
      .join("\n") + (sample.length > 0 ? "\n" : "")
  );
}
