import type { KindSubmissionFormat, SubmissionItem } from "@/lib/tasks/types";

/**
 * People's answers in the submission formats of benchmarks that keep their test answers private
 *, for the items of this study from that benchmark (tag `source`):
 *
 * - EgoSchema (egoschema/EgoSchema README, "Benchmarking New models"): one JSON object
 *   {<q_uid>: <answer 0-4>}, the file its Kaggle leaderboard and validation server take.
 * - Perception Test multiple-choice video QA: one JSON object {<video_id>: [{"id": <question id>,
 *   "answer_id": <option index>, "answer": <option text>}]}, one entry per question answered. (Our
 *   reading of the challenge's format, from the released annotations' fields; check it against the
 *   challenge page before submitting.)
 * - BLINK (zeyofu/BLINK_Benchmark, eval/README.md, "Evaluation": the "final prediction file" that
 *   is submitted for the test set on EvalAI; the authors' own test files are in
 *   eval/saved_test_predictions/): one JSON object {<idx>: "(<letter>)"}, idx the dataset's sample
 *   id ("test_Art_Style_1"), the letter the chosen option's place among the question's `choices`
 *   (A the first). Items: external id = BLINK's idx, options in the order of `choices`.
 *
 * Whose answer: one annotator's (`who` their user id), or "majority": the option most people chose,
 * a tie going to the option first in the item's own order. Items nobody answered are left out.
 */

interface Option {
  id: string;
  text?: string;
}

function chosen(item: SubmissionItem, who: string): string | null {
  const options = (item.public as { options: Option[] }).options;
  const votes = item.answers
    .filter((a) => who === "majority" || a.annotator === who)
    .map((a) => (a.answer as { choice?: unknown }).choice)
    .filter((c): c is string => typeof c === "string" && options.some((o) => o.id === c));
  if (votes.length === 0) return null;
  let best: string | null = null;
  let bestCount = 0;
  for (const option of options) {
    const count = votes.filter((v) => v === option.id).length;
    if (count > bestCount) [best, bestCount] = [option.id, count];
  }
  return best;
}

export const egoschemaSubmission: KindSubmissionFormat = {
  id: "egoschema",
  benchmark: "EgoSchema",
  source: "egoschema",
  fileName: "egoschema-submission.json",
  build(items, who) {
    const out: Record<string, number> = {};
    for (const item of items) {
      const choice = chosen(item, who);
      if (choice !== null && /^[0-4]$/u.test(choice)) out[item.externalId] = Number(choice);
    }
    return JSON.stringify(out);
  },
};

export const perceptionTestSubmission: KindSubmissionFormat = {
  id: "perception-test-mc",
  benchmark: "Perception Test (multiple-choice video QA)",
  source: "perception-test",
  fileName: "perception-test-mc-submission.json",
  build(items, who) {
    const out: Record<string, Array<{ id: number | string; answer_id: number; answer: string }>> = {};
    for (const item of items) {
      const choice = chosen(item, who);
      const videoId = item.tags.video_id;
      const questionId = item.tags.question_id;
      if (choice === null || typeof videoId !== "string" || questionId === undefined) continue;
      const options = (item.public as { options: Option[] }).options;
      const index = options.findIndex((o) => o.id === choice);
      const numeric = Number(questionId);
      (out[videoId] ??= []).push({ id: Number.isInteger(numeric) ? numeric : String(questionId), answer_id: index, answer: options[index].text ?? "" });
    }
    return JSON.stringify(out);
  },
};

/** BLINK's letters: "(A)" for the first of the question's choices (BLINK has at most 4; a choice item at most 9). */
const BLINK_LETTERS = "ABCDEFGHI";

export const blinkSubmission: KindSubmissionFormat = {
  id: "blink",
  benchmark: "BLINK",
  source: "blink",
  fileName: "blink-submission.json",
  build(items, who) {
    const out: Record<string, string> = {};
    for (const item of items) {
      const choice = chosen(item, who);
      if (choice === null) continue;
      const index = (item.public as { options: Option[] }).options.findIndex((o) => o.id === choice);
      if (index >= 0 && index < BLINK_LETTERS.length) out[item.externalId] = `(${BLINK_LETTERS[index]})`;
    }
    return JSON.stringify(out);
  },
};

export const submissionFormats: KindSubmissionFormat[] = [egoschemaSubmission, perceptionTestSubmission, blinkSubmission];
