import { AppError } from "@/lib/errors";
import type { ReleaseLineFormat, SourcePosition } from "@/lib/tasks/types";
import { GRIDWM_ACTIONS, LETTERS, isPlainObject, pyStrip, transitionOf, type GridwmAction, type Letter, type Verdict } from "@/lib/tasks/shared/gridwm/common";
import { sceneKeyJsonSchema, type SceneKeyJson } from "@/lib/tasks/gridwm-scene-json";

/**
 * GridWM-Judge's exam files (Lucas-Jin-Qh/GridWM_Judge, `scripts/build_exam.py`) converted to
 * Yardstick's native item lines, read as the authors write them:
 *
 * - task_a_exam.jsonl `{exam_id, task, env_task, action, image, prompt, answer, label}`: the
 *   composite image (o_t left, candidates A-D right), `answer` the gold letter, `label` its index;
 * - task_b_exam.jsonl `{exam_id, task, image, answer_json, answer}`: one frame and the gold scene
 *   (`answer` is answer_json as a JSON string);
 * - task_c_exam.jsonl `{exam_id, task, variant, visual, image, prompt, answer, label}`: the
 *   storyboard, `answer` Success / Fail and `label` 1 / 0.
 *
 * Tags come from the exam id as score_exam.py's parse_exam_id reads it: `A.<env>.<group>.t<step>`,
 * `B.<env>.<group>.t<frame>`, `C.<env>.<group>.<variant>.<temporal>[.<visual>]`, plus `source:
 * "gridwm-exam"` (Task A also `action` and `transition`). The model prompt is kept in the key as
 * `modelPrompt` (reviewers see it; annotators never do). The exams carry no mission and no action
 * list, so those public fields are left out. Task B's gold direction is MiniGrid's agent_dir, so
 * those items say `dirEncoding: "minigrid"`; their frames are the agent's own view (`frame:
 * "egocentric"`), and they carry their environment's grid size (GRIDWM_ENV_GRID_SIZES), so that
 * the annotator's form can hold every world cell.
 */

export type GridwmExamKind = "gridwm-next-obs" | "gridwm-scene-json" | "gridwm-judge";

export interface GridwmExamItemLine {
  id: string;
  kind: GridwmExamKind;
  public: Record<string, unknown>;
  key: Record<string, unknown>;
  tags: Record<string, string | number>;
  practice: false;
  gold: false;
}

export const GRIDWM_EXAM_SOURCE = "gridwm-exam";

/**
 * True for a parsed JSON line in the exam format rather than a native item line: an object with
 * `exam_id` and no `kind`. Loose on purpose, so that a broken exam line is reported by the
 * converter, field by field.
 */
export function isGridwmExamLine(obj: unknown): boolean {
  return isPlainObject(obj) && !("kind" in obj) && "exam_id" in obj;
}

function fail(position: SourcePosition, field: string, message: string): never {
  throw new AppError("INVALID", `${position.file} line ${position.line}: ${field}: ${message}`, { ...position, field });
}

export type ParsedExamId =
  | { task: "A"; env: string; group: string; step: number }
  | { task: "B"; env: string; group: string; frame: number }
  | { task: "C"; env: string; group: string; variant: string; temporal: string; visual?: string };

/** Reads an exam id; returns a message saying what is wrong instead when it is not one. */
export function parseExamId(examId: string): ParsedExamId | string {
  const parts = examId.split(".");
  if (parts.some((part) => part === "")) return `expected dot-separated parts without empty ones, got ${JSON.stringify(examId)}`;
  const [task, env, group] = parts;
  if (task === "A" || task === "B") {
    const what = task === "A" ? "step" : "frame";
    if (parts.length !== 4) return `expected "${task}.<env>.<group>.t<${what}>", got ${JSON.stringify(examId)}`;
    const match = /^t(\d+)$/.exec(parts[3]);
    if (!match) return `expected the last part to be t<${what}> (e.g. "t12"), got ${JSON.stringify(parts[3])}`;
    return task === "A" ? { task, env, group, step: Number(match[1]) } : { task, env, group, frame: Number(match[1]) };
  }
  if (task === "C") {
    if (parts.length !== 5 && parts.length !== 6) return `expected "C.<env>.<group>.<variant>.<temporal>[.<visual>]", got ${JSON.stringify(examId)}`;
    return { task, env, group, variant: parts[3], temporal: parts[4], ...(parts.length === 6 ? { visual: parts[5] } : {}) };
  }
  return `expected an id starting with "A.", "B." or "C.", got ${JSON.stringify(examId)}`;
}

function optionalString(line: Record<string, unknown>, field: string, position: SourcePosition): string | undefined {
  const value = line[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") fail(position, field, `expected text, got ${JSON.stringify(value)}`);
  return value;
}

function requiredString(line: Record<string, unknown>, field: string, position: SourcePosition, what: string): string {
  const value = line[field];
  if (typeof value !== "string" || pyStrip(value) === "") fail(position, field, `expected ${what}`);
  return value;
}

function checkTask(line: Record<string, unknown>, task: "A" | "B" | "C", position: SourcePosition): void {
  if (line.task !== undefined && line.task !== task) {
    fail(position, "task", `exam_id names task ${task} but task is ${JSON.stringify(line.task)}`);
  }
}

/** "forward (id=2)" -> forward; a bare action name is taken too. */
export function parseExamAction(text: string): GridwmAction | string {
  const match = /^(.*?)\s*\(id=(\d+)\)\s*$/.exec(text);
  const name = pyStrip(match ? match[1] : text).toLowerCase();
  if (match) {
    const id = Number(match[2]);
    if (id >= GRIDWM_ACTIONS.length) return `action id ${id} is not a MiniGrid action (0 left ... 6 done)`;
    const action = GRIDWM_ACTIONS[id];
    if (name !== "" && (GRIDWM_ACTIONS as readonly string[]).includes(name) && name !== action) {
      return `${JSON.stringify(text)} names ${name} but id ${id} is ${action}`;
    }
    return action;
  }
  if ((GRIDWM_ACTIONS as readonly string[]).includes(name)) return name as GridwmAction;
  return `expected "<name> (id=<0-6>)" or a MiniGrid action name (${GRIDWM_ACTIONS.join(", ")}), got ${JSON.stringify(text)}`;
}

function convertTaskA(line: Record<string, unknown>, id: ParsedExamId & { task: "A" }, examId: string, position: SourcePosition): GridwmExamItemLine {
  checkTask(line, "A", position);
  if (line.env_task !== undefined && line.env_task !== id.env) {
    fail(position, "env_task", `exam_id names environment ${JSON.stringify(id.env)} but env_task is ${JSON.stringify(line.env_task)}`);
  }
  const image = requiredString(line, "image", position, "the path of the composite image");
  const actionText = requiredString(line, "action", position, 'the action, e.g. "forward (id=2)"');
  const action = parseExamAction(actionText);
  if (!(GRIDWM_ACTIONS as readonly string[]).includes(action)) fail(position, "action", action);

  // as score_exam.py: the answer letter (trimmed, upper-cased), else the letter of `label`
  const answerText = typeof line.answer === "string" ? pyStrip(line.answer).toUpperCase() : null;
  const fromAnswer = answerText !== null && (LETTERS as readonly string[]).includes(answerText) ? (answerText as Letter) : null;
  const label = line.label;
  const fromLabel = typeof label === "number" && Number.isInteger(label) && label >= 0 && label < 4 ? LETTERS[label] : null;
  if (label !== undefined && label !== null && fromLabel === null)
    fail(position, "label", `expected 0..3 (the index of the answer letter), got ${JSON.stringify(label)}`);
  if (fromAnswer === null && fromLabel === null) fail(position, "answer", `expected a letter A-D (or a label 0..3), got ${JSON.stringify(line.answer)}`);
  if (fromAnswer !== null && fromLabel !== null && fromAnswer !== fromLabel) {
    fail(position, "label", `label ${String(label)} is letter ${fromLabel} but answer is ${fromAnswer}`);
  }
  const modelPrompt = optionalString(line, "prompt", position);
  const gridwmAction = action as GridwmAction;
  return {
    id: examId,
    kind: "gridwm-next-obs",
    public: { image, action: gridwmAction },
    key: { answer: (fromAnswer ?? fromLabel)!, ...(modelPrompt !== undefined ? { modelPrompt } : {}) },
    tags: { env: id.env, group: id.group, step: id.step, action: gridwmAction, transition: transitionOf(gridwmAction), source: GRIDWM_EXAM_SOURCE },
    practice: false,
    gold: false,
  };
}

/**
 * The world's size, [width, height], of each environment the release's generators run
 * (scripts/tasks/<env>/gen_<env>_triplets.py; MiniGrid's constructors): DoorKey-8x8 8x8,
 * LavaGapS7 7x7, MultiRoom-N6 25x25, RedBlueDoors-8x8 16x8 (twice as wide as high),
 * KeyCorridorS6R3 16x16 (the largest of the S4R3 / S5R3 / S6R3 the generator cycles through),
 * Memory S17Random 17x17 (the generator's default; its usage line says S13). The exams do not
 * carry the size; positions in the gold are world cells of this grid.
 */
export const GRIDWM_ENV_GRID_SIZES: Readonly<Record<string, readonly [number, number]>> = {
  doorkey: [8, 8],
  lavagap: [7, 7],
  multiroom: [25, 25],
  redblue: [16, 8],
  keycorridor: [16, 16],
  memory: [17, 17],
};

/** The environment's grid, grown to hold every gold position (a gold past it would otherwise be refused as outside the grid). */
function gridSizeOf(env: string, scene: SceneKeyJson): [number, number] | undefined {
  const size = GRIDWM_ENV_GRID_SIZES[env];
  if (!size) return undefined;
  const positions = [scene.agent.pos, scene.front_cell.pos, ...scene.objects.map((object) => object.pos)];
  return [Math.max(size[0], ...positions.map((pos) => pos[0] + 1)), Math.max(size[1], ...positions.map((pos) => pos[1] + 1))];
}

function convertTaskB(line: Record<string, unknown>, id: ParsedExamId & { task: "B" }, examId: string, position: SourcePosition): GridwmExamItemLine {
  checkTask(line, "B", position);
  const image = requiredString(line, "image", position, "the path of the frame image");
  let raw: unknown = line.answer_json;
  let field = "answer_json";
  if (raw === undefined || raw === null) {
    // answer_json missing: `answer` holds the same object as JSON text
    field = "answer";
    if (typeof line.answer !== "string") fail(position, "answer_json", "expected the gold scene object");
    try {
      raw = JSON.parse(line.answer);
    } catch {
      fail(position, "answer", "answer_json is missing and answer is not JSON text");
    }
  }
  const checked = sceneKeyJsonSchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
    fail(position, `${field}${path}`, issue.message);
  }
  const answerJson: SceneKeyJson = checked.data;
  const gridSize = gridSizeOf(id.env, answerJson);
  return {
    id: examId,
    kind: "gridwm-scene-json",
    public: { image, frame: "egocentric", dirEncoding: "minigrid", ...(gridSize ? { gridSize } : {}) },
    key: { answer_json: answerJson },
    tags: { env: id.env, group: id.group, frame: id.frame, source: GRIDWM_EXAM_SOURCE },
    practice: false,
    gold: false,
  };
}

function convertTaskC(line: Record<string, unknown>, id: ParsedExamId & { task: "C" }, examId: string, position: SourcePosition): GridwmExamItemLine {
  checkTask(line, "C", position);
  const image = requiredString(line, "image", position, "the path of the storyboard image");
  const variant = optionalString(line, "variant", position);
  if (variant !== undefined && variant !== id.variant) {
    fail(position, "variant", `exam_id names variant ${JSON.stringify(id.variant)} but variant is ${JSON.stringify(variant)}`);
  }
  const visualField = optionalString(line, "visual", position);
  if (visualField !== undefined && id.visual !== undefined && visualField !== id.visual) {
    fail(position, "visual", `exam_id names visual ${JSON.stringify(id.visual)} but visual is ${JSON.stringify(visualField)}`);
  }
  // as score_exam.py: the record's visual, else the id's
  const visual = visualField ?? id.visual;

  // as score_exam.py: answer trimmed and lower-cased is "success" or "fail"
  const answerText = typeof line.answer === "string" ? pyStrip(line.answer).toLowerCase() : undefined;
  let verdict: Verdict | null = answerText === "success" ? "Success" : answerText === "fail" ? "Fail" : null;
  if (line.answer !== undefined && line.answer !== null && verdict === null)
    fail(position, "answer", `expected "Success" or "Fail", got ${JSON.stringify(line.answer)}`);
  const label = line.label;
  const fromLabel: Verdict | null = label === 1 || label === true ? "Success" : label === 0 || label === false ? "Fail" : null;
  if (label !== undefined && label !== null && fromLabel === null) fail(position, "label", `expected 1 (success) or 0 (fail), got ${JSON.stringify(label)}`);
  if (verdict !== null && fromLabel !== null && verdict !== fromLabel)
    fail(position, "label", `label ${String(label)} means ${fromLabel} but answer is ${verdict}`);
  verdict ??= fromLabel;
  if (verdict === null) fail(position, "answer", 'expected "Success" or "Fail" (or a label 1 / 0)');

  const modelPrompt = optionalString(line, "prompt", position);
  return {
    id: examId,
    kind: "gridwm-judge",
    public: { storyboard: image },
    key: { answer: verdict, ...(modelPrompt !== undefined ? { modelPrompt } : {}) },
    tags: {
      env: id.env,
      group: id.group,
      variant: id.variant,
      temporal: id.temporal,
      ...(visual !== undefined ? { visual } : {}),
      source: GRIDWM_EXAM_SOURCE,
    },
    practice: false,
    gold: false,
  };
}

/**
 * One exam line to a native item line; the kind follows the exam id's first part. Checks that
 * the id is well formed and agrees with `task`, `env_task`, `variant` and `visual` where the line
 * has them, that the gold answer is readable (and agrees with `label`), and that Task B's gold
 * scene has the canonical shape. Throws AppError("INVALID") naming file, line and field.
 */
export function convertGridwmExamLine(obj: unknown, position: SourcePosition): GridwmExamItemLine {
  if (!isPlainObject(obj)) fail(position, "(line)", "expected a JSON object");
  const examId = obj.exam_id;
  if (typeof examId !== "string" || examId === "") fail(position, "exam_id", "expected a non-empty string");
  const id = parseExamId(examId);
  if (typeof id === "string") fail(position, "exam_id", id);
  if (id.task === "A") return convertTaskA(obj, id, examId, position);
  if (id.task === "B") return convertTaskB(obj, id, examId, position);
  return convertTaskC(obj, id, examId, position);
}

/** GridWM-Judge's exam files, converted to the three GridWM kinds' items. */
export const gridwmExamFormat: ReleaseLineFormat = {
  id: GRIDWM_EXAM_SOURCE,
  benchmark: "GridWM-Judge",
  detect: isGridwmExamLine,
  convert: convertGridwmExamLine,
};
