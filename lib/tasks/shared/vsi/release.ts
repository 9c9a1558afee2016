import { AppError } from "@/lib/errors";
import { pythonFloat } from "@/lib/tasks/shared/vsi/parse";
import type { ReleaseImportOptions, ReleaseLineFormat, SourcePosition } from "@/lib/tasks/types";

/**
 * VSI-Bench's rows (nyu-visionx/VSI-Bench, as lmms_eval/tasks/vsibench/utils.py reads them), one a
 * line: `id, dataset, scene_name, question_type, question, options, ground_truth`. Multiple-choice
 * rows (`options` a list like ["A. chair", "B. table", ...], `ground_truth` the letter) become
 * `choice` items whose option ids are the letters; numerical-answer rows (`options` null,
 * `ground_truth` a number as text) become `numeric` items scored by MRA, as the release scores all
 * of them. The video is `<dataset>/<scene_name>.mp4` (the release's `vsibench_doc_to_visual`), a
 * path in the batch; with "text only" chosen the items have no video (a missing one refuses the
 * batch otherwise, as every kind's). Tags: question_type, dataset, scene_name, source "vsi-bench".
 */

export const VSI_SOURCE = "vsi-bench";

/** The release's question types (utils.py MCA_QUESTION_TYPES and NA_QUESTION_TYPES). */
export const VSI_MCA_QUESTION_TYPES = [
  "object_rel_direction_easy",
  "object_rel_direction_medium",
  "object_rel_direction_hard",
  "object_rel_distance",
  "route_planning",
  "obj_appearance_order",
] as const;
export const VSI_NA_QUESTION_TYPES = ["object_abs_distance", "object_counting", "object_size_estimation", "room_size_estimation"] as const;

/** The unit each numerical question asks for (the release's question texts: meters, centimeters, square meters). */
const UNITS: Record<string, string | undefined> = {
  object_abs_distance: "meters",
  object_size_estimation: "centimeters",
  room_size_estimation: "square meters",
};

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A VSI-Bench row rather than a native line: no `kind`, and the release's own fields. */
export function isVsiRow(line: unknown): boolean {
  return isPlainObject(line) && !("kind" in line) && "question_type" in line && "scene_name" in line && "ground_truth" in line;
}

function fail(position: SourcePosition, field: string, message: string): never {
  // the release formats' one prefix: the importer takes it off and names the place once (lib/import/validate.ts converterIssue)
  throw new AppError("INVALID", `${position.file} line ${position.line}: ${field}: ${message}`, { file: position.file, line: position.line, field });
}

function text(row: Record<string, unknown>, field: string, position: SourcePosition, max = 8_000): string {
  const value = row[field];
  if (typeof value !== "string" || value.trim() === "") fail(position, field, "expected non-empty text");
  if (value.length > max) fail(position, field, `longer than ${max} characters`);
  return value;
}

/** "A. chair" -> { id: "A", text: "chair" }; text without a letter prefix keeps its position's letter. */
export function splitVsiOption(option: string, index: number): { id: string; text: string } {
  const match = /^([A-Z])\.\s*(.*)$/su.exec(option.trim());
  return match && match[2] !== "" ? { id: match[1], text: match[2] } : { id: String.fromCharCode(65 + index), text: option.trim() };
}

export function convertVsiRow(line: unknown, position: SourcePosition, importOptions?: ReleaseImportOptions) {
  if (!isPlainObject(line)) fail(position, "(line)", "expected a JSON object");
  const rawId = line.id;
  if (!(typeof rawId === "string" && rawId !== "") && !(typeof rawId === "number" && Number.isInteger(rawId)))
    fail(position, "id", "expected the row id (a number or text)");
  const id = String(rawId);
  const dataset = text(line, "dataset", position, 64);
  const scene = text(line, "scene_name", position, 200);
  const questionType = text(line, "question_type", position, 64);
  const question = text(line, "question", position);
  const truth = line.ground_truth;
  if (typeof truth !== "string" && typeof truth !== "number") fail(position, "ground_truth", "expected the answer (text or a number)");
  // text only (chosen): no video, so none is looked for
  const media = importOptions?.textOnly ? undefined : { video: `${dataset}/${scene}.mp4` };
  const tags = { question_type: questionType, dataset, scene_name: scene, source: VSI_SOURCE };
  const options = line.options;
  if (Array.isArray(options) && options.length > 0) {
    if (options.length > 9) fail(position, "options", "at most 9 options");
    const parsed = options.map((option, index) => {
      if (typeof option !== "string" || option.trim() === "") fail(position, `options[${index}]`, "expected option text");
      return splitVsiOption(option, index);
    });
    const answer = String(truth).trim();
    if (!parsed.some((option) => option.id === answer))
      fail(position, "ground_truth", `${JSON.stringify(answer)} is not one of the option letters ${parsed.map((o) => o.id).join(", ")}`);
    return { id, kind: "choice", public: { question, options: parsed, ...(media ? { media } : {}) }, key: { answer }, tags };
  }
  if (options !== null && options !== undefined && !(Array.isArray(options) && options.length === 0))
    fail(position, "options", "expected a list of options, or null for a numerical answer");
  const value = typeof truth === "number" ? truth : pythonFloat(truth);
  if (value === null || !Number.isFinite(value)) fail(position, "ground_truth", `a numerical answer must be a number, got ${JSON.stringify(truth)}`);
  const unit = UNITS[questionType];
  return { id, kind: "numeric", public: { question, ...(unit ? { unit } : {}), ...(media ? { media } : {}) }, key: { answer: value, metric: "mra" }, tags };
}

export const vsiReleaseFormat: ReleaseLineFormat = {
  id: "vsi-bench",
  benchmark: "VSI-Bench",
  offersTextOnly: true,
  detect: isVsiRow,
  convert: convertVsiRow,
};
