import { AppError, isAppError } from "@/lib/errors";
import type { ItemsFile } from "@/lib/import/types";
import { exploreSceneKeySchema } from "@/lib/tasks/explore-scene";
import type { ReleaseFolderFormat } from "@/lib/tasks/types";

/**
 * EXPLORE-Bench's own layout converted to explore-scene item lines: per instance an image and its
 * final-scene annotation JSON with the same file name (`0001.jpg` + `0001.json`). explore.md does
 * not say where a folder keeps the actions, so Yardstick's layout (documented in
 * docs/task-kinds.md) is: the JSON is either the paper's object list, with the actions in
 * `0001.actions.txt` beside it (one action a line, or one `|`-separated line as the release's
 * `atomic_actions`), or an object `{"atomic_actions": "a|b|..." or [...], "end_frame_info": [...],
 * "key_state"?: "..." or [...]}`. Key states are read where the paper puts them, inside each object
 * (`end_frame_info[i].key_state`, Listings 13-14: kept as `{state, object: i}`), and at the top
 * level (the scene's, kept as strings). An item with key states is an abnormal case: tagged
 * `abnormal: true` and reported apart from Full. Tags: `subset` by action count (Short 11-99,
 * Medium 100-199, Long 200+, the paper's ranges; "Other" below 11), `actions`,
 * `source: "explore-layout"`.
 */

export interface ExploreLayoutInstance {
  /** the image's path in the batch, e.g. "0001.jpg" */
  image: string;
  /** the annotation file's path, e.g. "0001.json", and its parsed JSON */
  annotationFile: string;
  annotation: unknown;
  /** the actions file's path and text, when there is one */
  actionsFile?: string;
  actionsText?: string;
}

export function subsetOf(actionCount: number): "Short" | "Medium" | "Long" | "Other" {
  if (actionCount >= 200) return "Long";
  if (actionCount >= 100) return "Medium";
  if (actionCount >= 11) return "Short";
  return "Other";
}

function fail(file: string, field: string, message: string): never {
  throw new AppError("INVALID", `${file}: ${field}: ${message}`, { file, field });
}

export function splitActions(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const parts = lines.length === 1 ? lines[0].split("|") : lines;
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** A key_state value: a string or a list of strings (empty strings dropped). */
function statesOf(value: unknown, file: string, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.trim() === "" ? [] : [value.trim()];
  if (Array.isArray(value) && value.every((state) => typeof state === "string")) return value.map((state: string) => state.trim()).filter(Boolean);
  fail(file, field, "expected a string or a list of strings");
}

export function convertExploreInstance(instance: ExploreLayoutInstance) {
  const { annotation, annotationFile } = instance;
  let objects: unknown;
  let actions: string[] | null = null;
  let keyStates: Array<string | { state: string; object: number }> = [];
  if (Array.isArray(annotation)) {
    objects = annotation;
  } else if (typeof annotation === "object" && annotation !== null) {
    const record = annotation as Record<string, unknown>;
    objects = record.end_frame_info;
    if (objects === undefined) fail(annotationFile, "end_frame_info", "expected the final-scene object list");
    const atomic = record.atomic_actions;
    if (typeof atomic === "string") actions = splitActions(atomic);
    else if (Array.isArray(atomic) && atomic.every((action) => typeof action === "string")) actions = atomic.map((action) => action.trim()).filter(Boolean);
    else if (atomic !== undefined) fail(annotationFile, "atomic_actions", "expected a |-separated string or a list of strings");
    keyStates = statesOf(record.key_state, annotationFile, "key_state");
  } else {
    fail(annotationFile, "(file)", "expected the paper's object list or an object with end_frame_info");
  }
  // per-object key states (the paper's place): read, then dropped from the object before the schema sees it
  if (Array.isArray(objects)) {
    objects = objects.map((object: unknown, i) => {
      if (typeof object !== "object" || object === null || !("key_state" in object)) return object;
      const { key_state: state, ...rest } = object as Record<string, unknown>;
      for (const text of statesOf(state, annotationFile, `end_frame_info[${i}].key_state`)) keyStates.push({ state: text, object: i });
      return rest;
    });
  }
  if (actions === null) {
    if (instance.actionsText === undefined)
      fail(annotationFile, "atomic_actions", `no actions: add ${instance.annotationFile.replace(/\.json$/i, ".actions.txt")} or atomic_actions`);
    actions = splitActions(instance.actionsText);
  }
  if (actions.length === 0) fail(instance.actionsFile ?? annotationFile, "atomic_actions", "holds no actions");
  const key = exploreSceneKeySchema.safeParse({ objects, ...(keyStates.length > 0 ? { keyStates } : {}) });
  if (!key.success) {
    const issue = key.error.issues[0];
    const path = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
    fail(annotationFile, `end_frame_info${path.replace(/^\.objects/, "")}`, issue.message);
  }
  const id = instance.image.replace(/\.[^./]+$/, "");
  return {
    id,
    kind: "explore-scene" as const,
    public: { initialImage: instance.image, actions },
    key: key.data,
    tags: { subset: subsetOf(actions.length), actions: actions.length, source: "explore-layout", ...(keyStates.length > 0 ? { abnormal: true } : {}) },
    practice: false,
    gold: false,
  };
}

const EXPLORE_IMAGE_EXTENSIONS = [".jpg", ".jpeg", ".png", ".webp"];

/**
 * EXPLORE-Bench's own layout: at the top level, each `<stem>.json` with an image of the same stem
 * (`<stem>.jpg`/.jpeg/.png/.webp, any case) is one item; its actions are in `<stem>.actions.txt`
 * when that exists (else in the JSON's `atomic_actions`).
 */
export function exploreLayoutFiles(files: string[]): ItemsFile[] {
  const topLevel = files.filter((file) => !file.includes("/"));
  const byLower = new Map(topLevel.map((file) => [file.toLowerCase(), file]));
  const found: ItemsFile[] = [];
  for (const file of topLevel.sort()) {
    if (!/\.json$/i.test(file) || /\.actions\.json$/i.test(file)) continue;
    const stem = file.slice(0, -".json".length);
    const image = EXPLORE_IMAGE_EXTENSIONS.map((ext) => byLower.get(`${stem}${ext}`.toLowerCase())).find((name) => name !== undefined);
    if (image === undefined) continue;
    const actionsFile = byLower.get(`${stem}.actions.txt`.toLowerCase());
    found.push({ path: file, format: "explore-layout", image, ...(actionsFile !== undefined ? { actionsFile } : {}) });
  }
  return found;
}

export const exploreLayoutFormat: ReleaseFolderFormat = {
  id: "explore-layout",
  benchmark: "EXPLORE-Bench",
  find: (files) => Promise.resolve(exploreLayoutFiles(files)),
  async convert(text, file, readText) {
    let annotation: unknown;
    try {
      annotation = JSON.parse(text);
    } catch (error) {
      return { items: [], issues: [{ file: file.path, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
    }
    let actionsText: string | undefined;
    if (file.actionsFile !== undefined) {
      const read = await readText(file.actionsFile, "actions file");
      if (read === null) return { items: [], issues: [] };
      actionsText = read;
    }
    try {
      const item = convertExploreInstance({
        image: file.image ?? file.path.replace(/\.json$/i, ".jpg"),
        annotationFile: file.path,
        annotation,
        ...(file.actionsFile !== undefined ? { actionsFile: file.actionsFile, actionsText } : {}),
      });
      return { items: [{ line: 1, item }], issues: [] };
    } catch (error) {
      if (!isAppError(error)) throw error;
      const details = (error.details ?? {}) as { file?: unknown; field?: unknown };
      const where = typeof details.file === "string" ? details.file : file.path;
      const field = typeof details.field === "string" && details.field !== "(file)" ? details.field : undefined;
      const prefix = `${where}: ${typeof details.field === "string" ? `${details.field}: ` : ""}`;
      return { items: [], issues: [{ file: where, field, message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message }] };
    }
  },
};
