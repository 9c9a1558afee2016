import type { ModelRunEntry, ModelRunFormat, ModelRunIssue } from "@/lib/tasks/types";

/**
 * The model-output files of the choice kind's benchmarks, read as model runs (lib/models/run-file.ts);
 * the items are those lib/tasks/choice/import.ts and BLINK's native lines make:
 *
 * - EgoSchema (egoschema/EgoSchema README, "Benchmarking New models"): one object {<q_uid>: <answer
 *   0-4>}, the file its leaderboard takes and lib/tasks/choice/submission.ts writes.
 * - Perception Test multiple-choice video QA: one object {<video_id>: [{"id", "answer_id", ...}]},
 *   the file submission.ts writes; item `<video_id>/<id>`, the answer its answer_id.
 * - BLINK (zeyofu/BLINK_Benchmark eval/): the final prediction file {<idx>: "(D)"} (eval/README.md,
 *   saved_test_predictions/, submission.ts), and the per-task output files test_benchmark.py saves,
 *   {<split>: [{"idx", "prediction", "full_prediction", ...}]}: `prediction` is the answer BLINK's
 *   matcher read (its evaluate script scores it), `full_prediction` the model's whole text, read
 *   when there is no prediction.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const MAX_ID = 200;
const validId = (id: unknown): id is string | number =>
  (typeof id === "string" && id !== "" && id.length <= MAX_ID) || (typeof id === "number" && Number.isInteger(id));

function nonEmptyObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && Object.keys(value).length > 0;
}

/** Each member a list of objects having `field` (the first of each list looked at). */
function listsOf(value: unknown, field: string): boolean {
  if (!nonEmptyObject(value)) return false;
  const lists = Object.values(value);
  return lists.every(Array.isArray) && lists.some((list) => list.length > 0 && isPlainObject(list[0]) && field in list[0]);
}

function readMap(value: unknown): { entries: ModelRunEntry[]; issues: ModelRunIssue[] } {
  const entries: ModelRunEntry[] = [];
  const issues: ModelRunIssue[] = [];
  Object.entries(value as Record<string, unknown>).forEach(([id, answer], index) => {
    if (id === "" || id.length > MAX_ID) issues.push({ at: [index], message: `expected an item id of 1-${MAX_ID} characters` });
    else entries.push({ at: [index], id, answer });
  });
  return { entries, issues };
}

/** EgoSchema's {q_uid: 0-4}: every member an integer. */
export const egoschemaRunFormat: ModelRunFormat = {
  shape: "document",
  id: "egoschema",
  benchmark: "EgoSchema",
  detect: (value) => nonEmptyObject(value) && Object.values(value).every((answer) => Number.isInteger(answer)),
  read: readMap,
};

/** BLINK's final prediction file {idx: "(D)"}: every member text (any {id: text} map reads the same way). */
export const blinkPredictionFileFormat: ModelRunFormat = {
  shape: "document",
  id: "blink",
  benchmark: "BLINK",
  detect: (value) => nonEmptyObject(value) && Object.values(value).every((answer) => typeof answer === "string"),
  read: readMap,
};

/** BLINK's per-task outputs {split: [{idx, prediction, full_prediction}]}. */
export const blinkOutputsFormat: ModelRunFormat = {
  shape: "document",
  id: "blink-outputs",
  benchmark: "BLINK",
  detect: (value) => listsOf(value, "idx") && (listsOf(value, "prediction") || listsOf(value, "full_prediction")),
  read(value) {
    const entries: ModelRunEntry[] = [];
    const issues: ModelRunIssue[] = [];
    Object.values(value as Record<string, unknown[]>).forEach((list, index) => {
      list.forEach((output, inner) => {
        const at = [index, inner];
        if (!isPlainObject(output)) return issues.push({ at, message: "expected an output object {idx, prediction, full_prediction}" });
        if (!validId(output.idx)) return issues.push({ at, field: "idx", message: "expected the sample's idx" });
        const answer = output.prediction ?? output.full_prediction;
        if (answer === undefined || answer === null) return issues.push({ at, field: "prediction", message: "expected a prediction or a full_prediction" });
        entries.push({ at, id: String(output.idx), answer });
      });
    });
    return { entries, issues };
  },
};

/** Perception Test's {video_id: [{id, answer_id}]}. */
export const perceptionTestRunFormat: ModelRunFormat = {
  shape: "document",
  id: "perception-test-mc",
  benchmark: "Perception Test",
  detect: (value) => listsOf(value, "answer_id"),
  read(value) {
    const entries: ModelRunEntry[] = [];
    const issues: ModelRunIssue[] = [];
    Object.entries(value as Record<string, unknown[]>).forEach(([videoId, list], index) => {
      list.forEach((answer, inner) => {
        const at = [index, inner];
        if (!isPlainObject(answer)) return issues.push({ at, message: "expected an answer object {id, answer_id}" });
        if (!validId(answer.id)) return issues.push({ at, field: "id", message: "expected the question id" });
        if (answer.answer_id === undefined || answer.answer_id === null)
          return issues.push({ at, field: "answer_id", message: "expected the chosen option's index" });
        entries.push({ at, id: `${videoId}/${String(answer.id)}`, answer: answer.answer_id });
      });
    });
    return { entries, issues };
  },
};

/** In the order they are tried: the list shapes before the flat maps. */
export const choiceRunFormats: ModelRunFormat[] = [perceptionTestRunFormat, blinkOutputsFormat, egoschemaRunFormat, blinkPredictionFileFormat];
