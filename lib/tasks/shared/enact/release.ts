import { AppError } from "@/lib/errors";
import type { ReleaseLineFormat, SourcePosition } from "@/lib/tasks/types";

/**
 * ENACT's released QA format (mll-lab-nu/ENACT; ../shared/data/README.md) converted to
 * Yardstick's native item lines (kinds enact-forward / enact-inverse). A release line holds `id`,
 * `type` ("forward_world_modeling_ordering_10_steps"), `task_name`, `key_frame_ids`, `images`,
 * `question` (the whole prompt, with the actions as "[Action n] ..." lines), `options` and
 * `gt_answer` (the correct order as 1-based labels). The release has no scene graphs, so the
 * converted items are scored by exact order only.
 */

export interface NativeItemLine {
  id: string;
  kind: "enact-forward" | "enact-inverse";
  public: { initialImage: string; actions: string[]; candidates: string[] } | { observations: string[]; candidates: string[] };
  key: { order: number[] };
  tags: { steps: number; activity: string; source: "enact-release" };
  practice: false;
  gold: false;
}

export type { SourcePosition };

const typePattern = /^(forward|inverse)_world_modeling_ordering_(\d+)_steps$/;

const sectionHeading = {
  forward: "## Actions in Order",
  inverse: "## Shuffled Actions",
} as const;

/**
 * True for a parsed JSON line in ENACT's release format rather than a native item line. Loose on
 * purpose (a native line has `kind`; a release line has `gt_answer`, or `type` and `question`),
 * so that a broken release line is reported by the converter, field by field.
 */
export function isEnactReleaseLine(obj: unknown): boolean {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return false;
  if ("kind" in obj) return false;
  return "gt_answer" in obj || ("type" in obj && "question" in obj);
}

function fail(position: SourcePosition, field: string, message: string): never {
  throw new AppError("INVALID", `${position.file} line ${position.line}: ${field}: ${message}`, { ...position, field });
}

/**
 * The "[Action n] text" entries under `heading` in an ENACT prompt, in label order. Entries may
 * wrap over several lines; the section ends at the next "## " heading or at the closing "Now
 * please provide your answer" sentence.
 */
export function parseActionList(question: string, heading: string): string[] | string {
  // the heading on a line of its own (the task description mentions "Shuffled Actions" too)
  const lines = question.split(/\r?\n/);
  const headingLine = lines.findIndex((text) => text.trim() === heading);
  if (headingLine < 0) return `no "${heading}" section`;
  let section = "\n" + lines.slice(headingLine + 1).join("\n");
  const end = section.search(/\n##\s|\n\s*Now please provide your answer/);
  if (end >= 0) section = section.slice(0, end);
  const markers = [...section.matchAll(/\[Action (\d+)\]/g)];
  if (markers.length === 0) return `no "[Action n]" entries under "${heading}"`;
  const actions: string[] = [];
  for (let i = 0; i < markers.length; i++) {
    const marker = markers[i];
    const label = Number(marker[1]);
    if (label !== i + 1) return `"[Action ${label}]" found where "[Action ${i + 1}]" was expected under "${heading}"`;
    const from = (marker.index ?? 0) + marker[0].length;
    const to = i + 1 < markers.length ? (markers[i + 1].index ?? section.length) : section.length;
    const text = section.slice(from, to).replace(/\s+/g, " ").trim();
    if (text === "") return `"[Action ${label}]" has no text under "${heading}"`;
    actions.push(text);
  }
  return actions;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === "string" && entry !== "");
}

/**
 * One release line to a native item line. Checks: `type` names a known task and a step count;
 * `images` has that many paths; the prompt lists steps - 1 actions; `gt_answer` is a permutation
 * of 1..L with L = the number of actions. Throws AppError("INVALID") naming file, line and field.
 */
export function convertEnactReleaseLine(obj: unknown, position: SourcePosition): NativeItemLine {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) fail(position, "(line)", "expected a JSON object");
  const line = obj as Record<string, unknown>;

  const id = line.id;
  if (typeof id !== "string" || id === "") fail(position, "id", "expected a non-empty string");

  const type = line.type;
  const typeMatch = typeof type === "string" ? typePattern.exec(type) : null;
  if (!typeMatch) {
    fail(position, "type", `expected "forward_world_modeling_ordering_<n>_steps" or "inverse_world_modeling_ordering_<n>_steps", got ${JSON.stringify(type)}`);
  }
  const direction = typeMatch[1] as "forward" | "inverse";
  const steps = Number(typeMatch[2]);
  if (steps < 2) fail(position, "type", `a trajectory needs at least 2 steps, got ${steps}`);

  const taskName = line.task_name;
  if (typeof taskName !== "string" || taskName === "") fail(position, "task_name", "expected a non-empty string");
  // "preparing_lunch_box_1748410854863188" -> "preparing_lunch_box": the suffix identifies the recording
  const activity = taskName.replace(/_\d+$/, "");

  const images = line.images;
  if (!isStringArray(images)) fail(position, "images", "expected an array of image paths");
  if (images.length !== steps) {
    fail(position, "images", `${type} needs ${steps} images, got ${images.length}`);
  }

  const question = line.question;
  if (typeof question !== "string") fail(position, "question", "expected the prompt text");
  const actions = parseActionList(question, sectionHeading[direction]);
  if (typeof actions === "string") fail(position, "question", actions);

  const gtAnswer = line.gt_answer;
  if (!Array.isArray(gtAnswer) || !gtAnswer.every((label) => Number.isInteger(label))) {
    fail(position, "gt_answer", "expected an array of integer labels");
  }
  const labels = gtAnswer as number[];
  if (actions.length !== labels.length) {
    fail(position, "gt_answer", `has ${labels.length} labels but the question lists ${actions.length} actions`);
  }
  if (actions.length !== steps - 1) {
    fail(position, "question", `${type} needs ${steps - 1} actions, the question lists ${actions.length}`);
  }
  const sorted = [...labels].sort((a, b) => a - b);
  if (!sorted.every((label, i) => label === i + 1)) {
    fail(position, "gt_answer", `expected a permutation of 1..${labels.length}, got [${labels.join(", ")}]`);
  }
  const order = labels.map((label) => label - 1);
  const tags = { steps, activity, source: "enact-release" as const };

  if (direction === "forward") {
    return {
      id,
      kind: "enact-forward",
      public: { initialImage: images[0], actions, candidates: images.slice(1) },
      key: { order },
      tags,
      practice: false,
      gold: false,
    };
  }
  return {
    id,
    kind: "enact-inverse",
    public: { observations: [...images], candidates: actions },
    key: { order },
    tags,
    practice: false,
    gold: false,
  };
}

/** ENACT's release (QA/*.jsonl), converted to enact-forward and enact-inverse items. */
export const enactReleaseFormat: ReleaseLineFormat = { id: "enact-release", benchmark: "ENACT", detect: isEnactReleaseLine, convert: convertEnactReleaseLine };
