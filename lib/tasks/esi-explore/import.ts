import { isPlainObject } from "@/lib/tasks/shared/gridwm/common";
import type { ImportIssue, ItemLine, ItemsFile } from "@/lib/import/types";
import type { ReleaseFolderFormat } from "@/lib/tasks/types";
import { jsonEntryLines } from "@/lib/import/json-positions";

/**
 * ESI-Bench's released question files read as they are (../shared/data/esi-bench/dataset/json_clean/
 * <category>/<subcategory>/<scene>/<room>/<name>.json; docs/esi.md): one question per file (a file
 * holding a list of questions is read too), with `id, big_task, small_task, scene, room,
 * question, answer, answer_type, options_json, image_paths_json, metadata_json, gt_camera_poses`,
 * the `*_json` fields (and `answer` when it is a JSON object, and `gt_camera_poses` when it is
 * text) JSON-encoded.
 *
 * Converted to an `esi-explore` item:
 * - public: the question; the options (a list, or a map of parts: `{"A": [...], "C": [...]}`
 *   with the answer's `answer_A`, `answer_C` becoming `{"A": ..., "C": ...}`); the parts' object
 *   categories from the metadata's hierarchy (`obj_A_cat`) as their labels; `image_paths_json[0]`
 *   as the initial view; the budget of 30 steps;
 * - key: the answer; the `gt_camera_poses` views of role `gt` or `gt_outcome` as the reference
 *   views (the passive-gt condition) when their images are present; the initial camera pose
 *   (the pose the metadata gives for the initial image) with scene and room, for a live simulator;
 *   the decoded metadata for reviewers. The release has no exploration graph: such items are
 *   played through a simulator (study setting simulatorUrl) or in the passive conditions;
 * - tags: category (big_task), subcategory (small_task), scene, room, answerType, runner,
 *   source "esi-release".
 *
 * Images are looked for beside the question file: in its folder, in a folder named after the
 * file, or in an `images/` folder of either (the release keeps them apart; a missing initial view
 * is reported by the import as a missing image, naming the file and field).
 */

export const ESI_RELEASE_SOURCE = "esi-release";

const REQUIRED_FIELDS = ["id", "big_task", "small_task", "question", "answer", "options_json", "image_paths_json"] as const;

/** True for a parsed JSON value that is one release question (or a list of them). Loose, so that a broken one is reported field by field. */
export function isEsiReleaseQuestion(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return isPlainObject(first) && !("kind" in first) && "big_task" in first && "question" in first && "options_json" in first;
}

class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function decoded(question: Record<string, unknown>, field: string): unknown {
  const value = question[field];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new FieldProblem(field, `is not valid JSON text (${error instanceof Error ? error.message : String(error)})`);
  }
}

function text(question: Record<string, unknown>, field: string, required = true): string | null {
  const value = question[field];
  if (value === undefined || value === null) {
    if (required) throw new FieldProblem(field, "is missing");
    return null;
  }
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") throw new FieldProblem(field, `expected text, got ${JSON.stringify(value).slice(0, 80)}`);
  return value;
}

/** Where an image named in a question file is in the batch, or null; `files` are the batch's paths. */
export function findBesideQuestion(questionFile: string, name: string, files: ReadonlySet<string>): string | null {
  const slash = questionFile.lastIndexOf("/");
  const dir = slash >= 0 ? questionFile.slice(0, slash + 1) : "";
  const stem = questionFile.slice(slash + 1).replace(/\.json$/i, "");
  const clean = name.replace(/^\.\//, "");
  for (const base of [dir, `${dir}${stem}/`, `${dir}images/`, `${dir}${stem}/images/`]) {
    if (files.has(`${base}${clean}`)) return `${base}${clean}`;
  }
  return null;
}

/** The pose the metadata gives for an image name: an object naming it (filename, image_path, _key, image, view_file) with a pose. */
export function poseOfImage(metadata: unknown, image: string, depth = 0): unknown {
  if (depth > 10) return undefined;
  if (Array.isArray(metadata)) {
    for (const entry of metadata) {
      const found = poseOfImage(entry, image, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(metadata)) return undefined;
  const names = ["filename", "image_path", "_key", "image", "view_file"].map((key) => metadata[key]);
  if (names.includes(image)) {
    if (metadata.pose !== undefined) return metadata.pose;
    if (metadata.camera_pose !== undefined) return metadata.camera_pose;
    if (Array.isArray(metadata.position) && Array.isArray(metadata.quaternion_xyzw))
      return { position: metadata.position, quaternion_xyzw: metadata.quaternion_xyzw };
  }
  for (const value of Object.values(metadata)) {
    const found = poseOfImage(value, image, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function optionsOf(question: Record<string, unknown>): string[] | Record<string, string[]> {
  const options = decoded(question, "options_json");
  const list = (value: unknown, where: string): string[] => {
    if (!Array.isArray(value) || value.length < 2) throw new FieldProblem("options_json", `${where}expected a list of at least two options`);
    return value.map((option) => {
      if (typeof option !== "string" && typeof option !== "number")
        throw new FieldProblem("options_json", `${where}an option must be text, got ${JSON.stringify(option)}`);
      return String(option);
    });
  };
  if (Array.isArray(options)) return list(options, "");
  if (isPlainObject(options)) return Object.fromEntries(Object.entries(options).map(([part, value]) => [part, list(value, `part ${part}: `)]));
  throw new FieldProblem("options_json", "expected a list of options or a map of parts to lists");
}

function answerOf(question: Record<string, unknown>, options: string[] | Record<string, string[]>): string | Record<string, string> {
  const raw = question.answer;
  if (Array.isArray(options)) {
    if (typeof raw !== "string" && typeof raw !== "number") throw new FieldProblem("answer", `expected one of the options, got ${JSON.stringify(raw)}`);
    return String(raw);
  }
  const value = typeof raw === "string" ? decoded(question, "answer") : raw;
  if (!isPlainObject(value)) throw new FieldProblem("answer", "expected a JSON object of answer_<part> fields for a question with parts");
  const answer: Record<string, string> = {};
  for (const part of Object.keys(options)) {
    const given = value[`answer_${part}`] ?? value[part];
    if (typeof given !== "string") throw new FieldProblem("answer", `no answer_${part}`);
    answer[part] = given;
  }
  return answer;
}

interface ReferenceView {
  role?: unknown;
  view_id?: unknown;
  original_image_path?: unknown;
}

export interface EsiReleaseConversion {
  items: Array<{ line: number; item: ItemLine }>;
  issues: ImportIssue[];
  /** reference views named by the questions but not found beside them (not an error: passive-gt falls back) */
  missingViews: number;
}

/** One question to a native item line; throws FieldProblem. */
function convertQuestion(question: Record<string, unknown>, file: string, files: ReadonlySet<string>): { item: ItemLine; missingViews: number } {
  for (const field of REQUIRED_FIELDS) if (question[field] === undefined || question[field] === null) throw new FieldProblem(field, "is missing");
  const id = text(question, "id")!;
  const options = optionsOf(question);
  const answer = answerOf(question, options);
  const images = decoded(question, "image_paths_json");
  if (!Array.isArray(images) || images.length === 0 || typeof images[0] !== "string")
    throw new FieldProblem("image_paths_json", "expected a list of image names, the first the initial view");
  const initialName = images[0];
  const metadataValue = question.metadata_json === undefined || question.metadata_json === null ? null : decoded(question, "metadata_json");
  const poses = question.gt_camera_poses === undefined || question.gt_camera_poses === null ? [] : decoded(question, "gt_camera_poses");
  if (!Array.isArray(poses)) throw new FieldProblem("gt_camera_poses", "expected a list of views");

  let missingViews = 0;
  const gt: string[] = [];
  for (const view of poses as ReferenceView[]) {
    if (!isPlainObject(view) || (view.role !== "gt" && view.role !== "gt_outcome")) continue;
    const names = [view.view_id, view.original_image_path].filter((name): name is string => typeof name === "string" && name !== "");
    const found = names.map((name) => findBesideQuestion(file, name, files)).find((path) => path !== null) ?? null;
    if (found === null) missingViews += 1;
    else if (!gt.includes(found)) gt.push(found);
  }

  const scene = text(question, "scene", false);
  const room = text(question, "room", false);
  const hierarchy = isPlainObject(metadataValue) && isPlainObject(metadataValue.hierarchy) ? metadataValue.hierarchy : null;
  const parts =
    !Array.isArray(options) && hierarchy
      ? Object.fromEntries(
          Object.keys(options).flatMap((part) =>
            typeof hierarchy[`obj_${part}_cat`] === "string" ? [[part, `the ${hierarchy[`obj_${part}_cat`] as string}`]] : [],
          ),
        )
      : {};
  const pose = metadataValue === null ? undefined : poseOfImage(metadataValue, initialName);
  const tags: Record<string, string> = { category: text(question, "big_task")!, subcategory: text(question, "small_task")!, source: ESI_RELEASE_SOURCE };
  if (scene) tags.scene = scene;
  if (room) tags.room = room;
  const answerType = text(question, "answer_type", false);
  if (answerType) tags.answerType = answerType;
  const runner = text(question, "runner_task", false);
  if (runner) tags.runner = runner;

  return {
    item: {
      id,
      kind: "esi-explore",
      public: {
        question: text(question, "question")!,
        options,
        ...(Object.keys(parts).length > 0 ? { parts } : {}),
        // a missing initial view keeps its expected place, so that the import names it as a missing image
        initialImage: findBesideQuestion(file, initialName, files) ?? `${file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : ""}${initialName}`,
        maxSteps: 30,
      },
      key: {
        answer,
        ...(gt.length > 0 ? { views: { gt } } : {}),
        start: { ...(scene ? { scene } : {}), ...(room ? { room } : {}), ...(pose !== undefined ? { pose } : {}) },
        ...(metadataValue !== null ? { metadata: metadataValue } : {}),
      },
      tags,
      practice: false,
      gold: false,
    },
    missingViews,
  };
}

/**
 * A release question file (its text) to native item lines. `files` are the batch's file paths
 * (for finding images). Each question's problems name the file, the question (a list's: its entry
 * and the line it starts on) and the field.
 */
export function convertEsiReleaseFile(contents: string, file: string, files: ReadonlySet<string>): EsiReleaseConversion {
  const out: EsiReleaseConversion = { items: [], issues: [], missingViews: 0 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(contents);
  } catch (error) {
    out.issues.push({ file, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    return out;
  }
  const questions = Array.isArray(parsed) ? parsed : [parsed];
  // a list's questions are its entries, named "entry N (line L)"; a file of one question is its line 1
  const lines = Array.isArray(parsed) ? jsonEntryLines(contents, 1) : null;
  questions.forEach((question, index) => {
    const place = lines ? { line: lines[index]?.line ?? 1, entry: index + 1 } : { line: 1 };
    if (!isPlainObject(question)) {
      out.issues.push({ file, ...place, message: "expected a question object" });
      return;
    }
    try {
      const { item, missingViews } = convertQuestion(question, file, files);
      out.items.push({ line: place.line, item });
      out.missingViews += missingViews;
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      out.issues.push({ file, ...place, field: error.field, message: error.message });
    }
  });
  return out;
}

/** True when the bytes are one ESI-Bench release question file (JSON, not JSON lines). */
function looksLikeEsiRelease(bytes: Buffer): boolean {
  try {
    return isEsiReleaseQuestion(JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, "")));
  } catch {
    return false;
  }
}

/**
 * ESI-Bench's release: every `.json` file, at any depth, that holds a release question (or a list
 * of them). Each gets the batch's files under its folder, where its images are looked for.
 */
async function esiReleaseFiles(files: string[], read: (relPath: string) => Promise<Buffer>): Promise<ItemsFile[]> {
  const found: ItemsFile[] = [];
  for (const file of [...files].sort()) {
    if (!/\.json$/i.test(file) || /\.actions\.json$/i.test(file)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse((await read(file)).toString("utf8").replace(/^\uFEFF/, ""));
    } catch {
      continue;
    }
    if (!isEsiReleaseQuestion(parsed)) continue;
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
    found.push({ path: file, format: ESI_RELEASE_SOURCE, files: files.filter((other) => other.startsWith(dir)) });
  }
  return found;
}

export const esiReleaseFormat: ReleaseFolderFormat = {
  id: ESI_RELEASE_SOURCE,
  benchmark: "ESI-Bench",
  find: esiReleaseFiles,
  isSingleFile: looksLikeEsiRelease,
  // one question (or a list) per JSON file; `line` is the question's place in the file
  convert: (text, file) => Promise.resolve(convertEsiReleaseFile(text, file.path, new Set(file.files ?? []))),
};
