import type { ModelRunFormat } from "@/lib/tasks/types";

/**
 * VSI-Bench's rows with the model's output (lmms_eval/tasks/vsibench/utils.py: process_results
 * sets `doc["prediction"]` on the release's row and scores it), one a line: the row's `id` is the
 * item's (lib/tasks/shared/vsi/release.ts), `prediction` the raw output, read by VSI-Bench's own
 * parser through the item's source tag.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

export const vsiRunFormat: ModelRunFormat = {
  shape: "lines",
  id: "vsi-bench",
  benchmark: "VSI-Bench",
  detect: (line) => isPlainObject(line) && "prediction" in line && "question_type" in line && !("answer" in line),
  readLine(line) {
    if (!isPlainObject(line)) return { field: "(line)", message: "expected a VSI-Bench row" };
    const id = line.id;
    if (!(typeof id === "string" && id !== "" && id.length <= 200) && !(typeof id === "number" && Number.isInteger(id)))
      return { field: "id", message: "expected the row id (a number or text)" };
    if (line.prediction === undefined || line.prediction === null) return { field: "prediction", message: "expected the model's prediction" };
    return { id: String(id), answer: line.prediction };
  },
};
