import type { ModelRunEntry, ModelRunFormat, ModelRunIssue } from "@/lib/tasks/types";

/**
 * OpenEQA's model predictions (facebookresearch/open-eqa, evaluate-predictions.py reads them): one
 * JSON list of {"question_id", "answer"}, the model's answer text for the question of that id (the
 * free-text items lib/tasks/free-text/import.ts makes from the release, id = question_id).
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const MAX_ID = 200;

export const openEqaResultsFormat: ModelRunFormat = {
  shape: "document",
  id: "openeqa-results",
  benchmark: "OpenEQA",
  detect: (value) => Array.isArray(value) && value.length > 0 && isPlainObject(value[0]) && "question_id" in value[0] && "answer" in value[0],
  read(value) {
    const entries: ModelRunEntry[] = [];
    const issues: ModelRunIssue[] = [];
    (value as unknown[]).forEach((entry, index) => {
      const at = [index];
      if (!isPlainObject(entry)) return issues.push({ at, message: "expected {question_id, answer}" });
      const id = entry.question_id;
      if (typeof id !== "string" || id === "" || id.length > MAX_ID) return issues.push({ at, field: "question_id", message: "expected the question's id" });
      if (entry.answer === undefined || entry.answer === null) return issues.push({ at, field: "answer", message: "expected the model's answer" });
      entries.push({ at, id, answer: entry.answer });
    });
    return { entries, issues };
  },
};

export const freeTextRunFormats: ModelRunFormat[] = [openEqaResultsFormat];
