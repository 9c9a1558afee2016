import { z } from "zod";
import type { AgreementEncoding, Json, MetricSpec, ModelAnswerParse, TaskItem, TaskModule } from "@/lib/tasks/types";
import {
  DIRECTION_ENCODINGS,
  GRIDWM_BENCHMARK,
  GRIDWM_COLORS,
  GRIDWM_OBJECT_TYPES,
  PY_SPACE,
  imagePathSchema,
  isPlainObject,
  mean,
  missionSchema,
  modelPromptSchema,
  pyStrip,
  share,
} from "@/lib/tasks/shared/gridwm/common";

/**
 * GridWM-Judge Task B, structured perception (`gridwm-scene-json`;
 * ../shared/benchmarks/gridwm-judge.md): from one egocentric frame, give the canonical scene
 * `{"agent": {"pos", "dir", "carrying"}, "front_cell": {"pos", "type", "state"}, "objects": [...]}`.
 *
 * Scored two ways, both reported: `exact` (every component right: the paper's Acc_B) and the
 * authors' released component score (GridWM_Judge `scripts/score_exam.py`, `score_task_b`, matched
 * field by field below): agent_pos 0.30, agent_dir 0.10, carrying 0.15, front_cell 0.25 and the
 * Jaccard index of the object sets 0.20, correct at >= 0.90. Beside them, what the frame allows
 * (sceneFieldReadability): the share of readable fields right and the ceiling of both scores.
 */

// ---------------------------------------------------------------------------------------------
// Item format

const gridPosSchema = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()], {
  error: "a position is [x, y]: two non-negative integers",
});
/** A state as the release writes it: MiniGrid's door state 0/1/2, 0 or null for other objects. */
const keyStateSchema = z.union([z.number().int(), z.string(), z.null()], { error: "a state is an integer, a string or null" });

/**
 * The gold scene (`answer_json`), as build_exam.py's canon_taskb_answer writes it. `color` and
 * `state` may be left out (read as null, like the scorer's `dict.get`).
 */
export const sceneKeyJsonSchema = z.strictObject({
  agent: z.strictObject({
    pos: gridPosSchema,
    dir: z.number().int().min(0, "dir is 0..3").max(3, "dir is 0..3"),
    carrying: z.strictObject({ type: z.string().min(1), color: z.string().nullable().optional() }).nullable(),
  }),
  front_cell: z.strictObject({ pos: gridPosSchema, type: z.string().min(1), state: keyStateSchema.optional() }),
  objects: z.array(z.strictObject({ type: z.string().min(1), pos: gridPosSchema, color: z.string().nullable().optional(), state: keyStateSchema.optional() })),
});
export type SceneKeyJson = z.infer<typeof sceneKeyJsonSchema>;

/** MiniGrid worlds run from 3 x 3 (walls around one cell) to 25 x 25 (MultiRoom); the form draws width x height cells. */
const gridSide = z.number().int().min(3, "a grid side is 3 to 64 cells").max(64, "a grid side is 3 to 64 cells");

export const gridwmSceneJsonPublicSchema = z.strictObject({
  /** one frame: the whole grid with its axes (`frame: "full-grid"`), or MiniGrid's 7x7 agent view */
  image: imagePathSchema,
  mission: missionSchema.optional(),
  /** the world's size in cells, [width, height], when known: the annotator form's grid (7 x 7 when absent) */
  gridSize: z.tuple([gridSide, gridSide]).optional(),
  /**
   * what the image shows: "full-grid" (the whole world top-down with its axes labelled, so that
   * world coordinates can be read off it) or "egocentric" (the agent's own 7x7 view, facing up;
   * the released exams' frames), the default
   */
  frame: z.enum(["full-grid", "egocentric"]).optional(),
  /** what dir 0..3 mean in the key (default "spec": 0 north); see DIRECTION_ENCODINGS */
  dirEncoding: z.enum(["spec", "minigrid"]).optional(),
});
export type GridwmSceneJsonPublic = z.infer<typeof gridwmSceneJsonPublicSchema>;

export const gridwmSceneJsonKeySchema = z.strictObject({
  answer_json: sceneKeyJsonSchema,
  modelPrompt: modelPromptSchema.optional(),
});
export type GridwmSceneJsonKey = z.infer<typeof gridwmSceneJsonKeySchema>;

export const gridwmSceneJsonItemSchema = z.object({ public: gridwmSceneJsonPublicSchema, key: gridwmSceneJsonKeySchema }).superRefine((item, ctx) => {
  const size = item.public.gridSize;
  if (!size) return;
  const { answer_json: scene } = item.key;
  const check = (pos: [number, number], path: Array<string | number>) => {
    if (pos[0] >= size[0] || pos[1] >= size[1]) {
      ctx.addIssue({
        code: "custom",
        path: ["key", "answer_json", ...path],
        message: `position [${pos.join(", ")}] is outside the ${size[0]}x${size[1]} grid of public.gridSize`,
      });
    }
  };
  check(scene.agent.pos, ["agent", "pos"]);
  check(scene.front_cell.pos, ["front_cell", "pos"]);
  scene.objects.forEach((object, i) => check(object.pos, ["objects", i, "pos"]));
});

/** Door state 0 open, 1 closed, 2 locked; null for objects without one. */
const answerStateSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.null()], {
  error: "state is 0 (open), 1 (closed), 2 (locked) or null",
});
const objectTypes = GRIDWM_OBJECT_TYPES.filter((type) => !["empty", "wall", "floor"].includes(type)) as [string, ...string[]];

/** Objects in a submitted scene: far more than a MiniGrid room holds; counted before the objects are parsed. */
export const GRIDWM_MAX_ANSWER_OBJECTS = 400;

/** What annotators submit: always the complete canonical object (the form cannot produce anything else). */
export const gridwmSceneJsonAnswerSchema = z.strictObject({
  agent: z.strictObject({
    pos: gridPosSchema,
    dir: z.number().int().min(0, "dir is 0..3").max(3, "dir is 0..3"),
    carrying: z.strictObject({ type: z.enum(["key", "ball", "box"]), color: z.enum(GRIDWM_COLORS) }).nullable(),
  }),
  front_cell: z.strictObject({ pos: gridPosSchema, type: z.enum(GRIDWM_OBJECT_TYPES), state: answerStateSchema }),
  objects: z
    .unknown()
    .refine((value) => !Array.isArray(value) || value.length <= GRIDWM_MAX_ANSWER_OBJECTS, {
      message: `at most ${GRIDWM_MAX_ANSWER_OBJECTS} objects`,
      abort: true,
    })
    .pipe(z.array(z.strictObject({ type: z.enum(objectTypes), pos: gridPosSchema, color: z.enum(GRIDWM_COLORS), state: answerStateSchema }))),
});
export type GridwmSceneJsonCanonicalAnswer = z.infer<typeof gridwmSceneJsonAnswerSchema>;

/**
 * An answer as the scorer takes it: any JSON object. Annotators always submit the canonical form
 * (gridwmSceneJsonAnswerSchema); model outputs may be partial or misshapen and are scored as the
 * authors score them (missing parts count as wrong).
 */
export type GridwmSceneJsonAnswer = Record<string, unknown>;

export interface GridwmSceneJsonScore {
  /** every component right (agent pos, dir, carrying, front cell, the object set): the paper's Acc_B */
  exact: boolean;
  /** the authors' weighted component score in [0, 1] */
  componentScore: number;
  /** componentScore >= 0.90 (with a 1e-9 tolerance) */
  correct: boolean;
  /** the fields the item's frame shows (sceneFieldReadability) and how many of them the answer got right; absent in scores stored before */
  readable?: { right: number; of: number };
  /** the best the frame alone allows: every readable field right, every other one wrong (a guess may do better) */
  ceiling?: { exact: boolean; componentScore: number };
}

type SceneItem = TaskItem<GridwmSceneJsonPublic, GridwmSceneJsonKey>;

// ---------------------------------------------------------------------------------------------
// Normalisation (score_exam.py: _to_int, _to_pos, _canon_state, _canon_obj, _canon_front,
// _canon_carry, normalize_task_b)

export type Pos = [number, number];

export interface NormalizedScene {
  agentPos: Pos | null;
  agentDir: number | null;
  /** (type, color) or null */
  carrying: [string, string | null] | null;
  /** (pos, type, state) or null */
  frontCell: [Pos, string, string | null] | null;
  /** the object set: one canonical key per distinct (type, pos, color, state) */
  objects: Set<string>;
}

/**
 * `_to_int`: integers, booleans (as 0/1), integral floats and strings of an optionally negative
 * run of digits (after trimming) are integers; anything else is null. (Python also takes non-ASCII
 * decimal digits and crashes on "--3"; here both are null.)
 */
export function toInt(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isInteger(value) ? value + 0 : null;
  if (typeof value === "string") {
    const text = pyStrip(value);
    return /^-?[0-9]+$/.test(text) ? Number(text) + 0 : null;
  }
  return null;
}

/** `_to_pos`: a two-element list of `_to_int`-readable values. */
export function toPos(value: unknown): Pos | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const x = toInt(value[0]);
  const y = toInt(value[1]);
  return x !== null && y !== null ? [x, y] : null;
}

/** Python's repr() of a float that is not integral (shortest round trip; exponent form below 1e-4). */
function pyFloatRepr(value: number): string {
  if (value !== 0 && Math.abs(value) < 1e-4) {
    const [mantissa, exponent] = value.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    const digits = exponent.replace(/^[+-]/, "");
    return `${mantissa}e${sign}${digits.padStart(2, "0")}`;
  }
  return String(value);
}

/** Python's str() of an integral number (no exponent, however large). */
function pyIntText(value: number): string {
  return Math.abs(value) < 1e21 ? String(value + 0) : BigInt(value).toString();
}

function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === "\\") out += "\\\\";
    else if (char === quote) out += `\\${quote}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return out + quote;
}

/**
 * Python's str() of a JSON value, for `_canon_state`'s last case (a list or an object given as a
 * state). JSON numbers cannot say whether they were written "1" or "1.0": both read as 1 here.
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? pyIntText(value) : pyFloatRepr(value);
  if (typeof value === "string") return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyStringRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  return String(value);
}

/**
 * `_canon_state`: null stays null; booleans and integral numbers become their integer's text
 * ("0", "2"); other numbers Python's float text; strings are trimmed; anything else Python's str().
 * So 2, 2.0, "2" and " 2 " are all "2", and 0 is not null.
 */
export function canonState(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") return Number.isInteger(value) ? pyIntText(value) : pyFloatRepr(value);
  if (typeof value === "string") return pyStrip(value);
  return pyRepr(value);
}

function trimmedOrNull(value: unknown): string | null {
  return typeof value === "string" ? pyStrip(value) : null;
}

/** `_canon_obj`: (type trimmed, pos, color trimmed or null, state); null without a string type and a position. */
export function canonObject(value: unknown): [string, Pos, string | null, string | null] | null {
  if (!isPlainObject(value)) return null;
  const pos = toPos(value.pos);
  if (typeof value.type !== "string" || pos === null) return null;
  return [pyStrip(value.type), pos, trimmedOrNull(value.color), canonState(value.state)];
}

/** `_canon_front`: (pos, type trimmed, state); null without a position and a string type. */
export function canonFront(value: unknown): [Pos, string, string | null] | null {
  if (!isPlainObject(value)) return null;
  const pos = toPos(value.pos);
  if (pos === null || typeof value.type !== "string") return null;
  return [pos, pyStrip(value.type), canonState(value.state)];
}

/**
 * `_canon_carry`: null is null; an object is (type, color) with "<unknown>" for a non-string type;
 * a bare string is (string, null); anything else ("<unknown>", null).
 */
export function canonCarry(value: unknown): [string, string | null] | null {
  if (value === null || value === undefined) return null;
  if (isPlainObject(value)) {
    if (typeof value.type !== "string") return ["<unknown>", null];
    return [pyStrip(value.type), trimmedOrNull(value.color)];
  }
  if (typeof value === "string") return [pyStrip(value), null];
  return ["<unknown>", null];
}

/** `normalize_task_b`. Objects that cannot be read (no string type or no position) are left out. */
export function normalizeScene(scene: unknown): NormalizedScene {
  const obj = isPlainObject(scene) ? scene : {};
  const agent = obj.agent;
  const objects = new Set<string>();
  if (Array.isArray(obj.objects)) {
    for (const entry of obj.objects) {
      const canonical = canonObject(entry);
      if (canonical !== null) objects.add(JSON.stringify(canonical));
    }
  }
  return {
    agentPos: isPlainObject(agent) ? toPos(agent.pos) : null,
    agentDir: isPlainObject(agent) ? toInt(agent.dir) : null,
    carrying: isPlainObject(agent) ? canonCarry(agent.carrying) : null,
    frontCell: canonFront(obj.front_cell),
    objects,
  };
}

function sameTuple(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `jaccard`: 1 when both sets are empty, 0 when one is, else |A n B| / |A u B|. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const value of a) if (b.has(value)) inter++;
  return inter / (a.size + b.size - inter);
}

export interface SceneComponents {
  agent_pos: number;
  agent_dir: number;
  carrying: number;
  front_cell: number;
  objects_jaccard: number;
}

/**
 * The component scores of `score_task_b`: agent_pos, agent_dir and front_cell are 1 when both
 * sides are readable and equal; carrying is 1 when equal, so two nulls (or an answer without an
 * agent against a gold of null) count as right; objects_jaccard is the Jaccard index of the sets.
 */
export function sceneComponents(predicted: unknown, gold: unknown): SceneComponents {
  const p = normalizeScene(predicted);
  const g = normalizeScene(gold);
  return {
    agent_pos: p.agentPos !== null && g.agentPos !== null && sameTuple(p.agentPos, g.agentPos) ? 1 : 0,
    agent_dir: p.agentDir !== null && g.agentDir !== null && p.agentDir === g.agentDir ? 1 : 0,
    carrying: sameTuple(p.carrying, g.carrying) ? 1 : 0,
    front_cell: p.frontCell !== null && g.frontCell !== null && sameTuple(p.frontCell, g.frontCell) ? 1 : 0,
    objects_jaccard: jaccard(p.objects, g.objects),
  };
}

/** The released default weights, in hundredths (0.30, 0.10, 0.15, 0.25, 0.20). */
export const SCENE_WEIGHTS_HUNDREDTHS: Readonly<SceneComponents> = {
  agent_pos: 30,
  agent_dir: 10,
  carrying: 15,
  front_cell: 25,
  objects_jaccard: 20,
};

export const SCENE_CORRECT_THRESHOLD = 0.9;
/** `correct` tolerance: the paper counts 0.9 as correct whatever the float rounding of the sum. */
export const SCENE_THRESHOLD_TOLERANCE = 1e-9;

/**
 * The weighted component score, summed in integer hundredths and divided once, so that sums of
 * the weights come out as the nearest double to the decimal (a wrong direction alone: 90 / 100 =
 * 0.9). Equal to the released script's float sum up to rounding (|difference| < 1e-15).
 */
export function componentScoreOf(components: SceneComponents): number {
  const w = SCENE_WEIGHTS_HUNDREDTHS;
  return (
    (w.agent_pos * components.agent_pos +
      w.agent_dir * components.agent_dir +
      w.carrying * components.carrying +
      w.front_cell * components.front_cell +
      w.objects_jaccard * components.objects_jaccard) /
    100
  );
}

/**
 * The released script's own arithmetic, step by step in its order (weights as floats, the weight
 * sum 0.30 + 0.10 + 0.15 + 0.25 + 0.20 accumulated first): kept to document the discrepancy. A
 * wrong direction alone gives 0.8999999999999999 here, which `score >= 0.90` counts wrong.
 */
export function releasedScriptScore(components: SceneComponents): number {
  const weights = { agent_pos: 0.3, agent_dir: 0.1, carrying: 0.15, front_cell: 0.25, objects_jaccard: 0.2 };
  let weightSum = 0;
  for (const value of Object.values(weights)) weightSum += Math.max(0, value);
  return (
    (weights.agent_pos * components.agent_pos +
      weights.agent_dir * components.agent_dir +
      weights.carrying * components.carrying +
      weights.front_cell * components.front_cell +
      weights.objects_jaccard * components.objects_jaccard) /
    weightSum
  );
}

/** `pub`: the item's public part, for what its frame shows (readable fields and the ceiling). */
export function scoreSceneJson(answer: unknown, key: GridwmSceneJsonKey, pub?: GridwmSceneJsonPublic): GridwmSceneJsonScore {
  const components = sceneComponents(answer, key.answer_json);
  const componentScore = componentScoreOf(components);
  const exact = Object.values(components).every((value) => value === 1);
  const score: GridwmSceneJsonScore = { exact, componentScore, correct: componentScore >= SCENE_CORRECT_THRESHOLD - SCENE_THRESHOLD_TOLERANCE };
  if (!pub) return score;
  const readability = sceneFieldReadability({ public: pub, key });
  const right = fieldsRight(answer, key.answer_json);
  const readable = readability.filter((field) => field.readable);
  return { ...score, readable: { right: readable.filter((field) => right[field.field]).length, of: readable.length }, ceiling: frameCeiling(readability) };
}

// ---------------------------------------------------------------------------------------------
// What the frame shows

/**
 * The fields of the canonical scene, as the form and the scorer split them (front_cell's pos,
 * type and state are one component of the released score, three fields here).
 */
export const SCENE_FIELDS = ["agent.pos", "agent.dir", "agent.carrying", "front_cell.pos", "front_cell.type", "front_cell.state", "objects"] as const;
export type SceneField = (typeof SCENE_FIELDS)[number];

export interface FieldReadability {
  field: SceneField;
  /** whether a reader of the frame alone can give the gold's value */
  readable: boolean;
  why: string;
}

/** MiniGrid's agent view: VIEW x VIEW cells in front of the agent (`agent_view_size`, 7). */
const AGENT_VIEW = 7;
const COMPASS_VEC: Record<string, Pos> = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };

/**
 * Whether a world cell lies in the agent's 7x7 view square (`MiniGridEnv.get_view_exts`): 0 to 6
 * cells ahead, at most 3 to either side. Walls may still hide it (`process_vis`); the gold holds
 * no walls, so this is the most the frame can show.
 */
function inViewSquare(agent: Pos, heading: Pos, cell: Pos): boolean {
  const rel: Pos = [cell[0] - agent[0], cell[1] - agent[1]];
  const forward = rel[0] * heading[0] + rel[1] * heading[1];
  // MiniGrid's right_vec = (-dy, dx) in its y-down grid
  const lateral = rel[0] * -heading[1] + rel[1] * heading[0];
  return forward >= 0 && forward < AGENT_VIEW && Math.abs(lateral) <= Math.floor(AGENT_VIEW / 2);
}

/**
 * Which fields of an item's gold scene its frame shows. A `full-grid` frame (the whole world from
 * above, axes labelled, what is carried written under it) shows every field. The agent's own
 * view (`egocentric`, the released exams' frames: MiniGrid's `get_frame(agent_pov=True)`) shows
 * the agent at its bottom centre facing up wherever it stands and whatever its heading, so its
 * world position and direction cannot be read, nor the world position of any cell; it shows what
 * the agent carries (drawn in the agent's cell, `gen_obs_grid`) and what is in front of it (the
 * cell above the agent, always visible). The gold's objects are every object of the grid (the
 * generators' `extract_state`), at world positions, some outside the view: not readable.
 */
export function sceneFieldReadability(item: { public: GridwmSceneJsonPublic; key: GridwmSceneJsonKey }): FieldReadability[] {
  if ((item.public.frame ?? "egocentric") === "full-grid") {
    return SCENE_FIELDS.map((field) => ({
      field,
      readable: true,
      why: "the frame is the whole grid with its axes: every cell's position and contents can be read off it",
    }));
  }
  const scene = item.key.answer_json;
  const encoding = DIRECTION_ENCODINGS[item.public.dirEncoding ?? "spec"];
  const heading = COMPASS_VEC[encoding[scene.agent.dir] ?? "north"];
  const outside = scene.objects.filter((object) => !inViewSquare(scene.agent.pos, heading, object.pos)).length;
  const n = scene.objects.length;
  return [
    { field: "agent.pos", readable: false, why: "a world cell: the agent's own view shows the agent at its bottom centre wherever it stands" },
    { field: "agent.dir", readable: false, why: "the agent's own view always faces up, whatever the agent's heading" },
    { field: "agent.carrying", readable: true, why: "what the agent carries is drawn in its own cell of the view" },
    { field: "front_cell.pos", readable: false, why: "a world cell, which the agent's own view does not show" },
    { field: "front_cell.type", readable: true, why: "the cell just above the agent in its view, always visible" },
    { field: "front_cell.state", readable: true, why: "the cell just above the agent in its view, always visible" },
    {
      field: "objects",
      readable: false,
      why: `positions are world cells, which the agent's own view does not show${outside > 0 ? `; ${outside} of the ${n} objects lie outside the agent's 7x7 view` : n > 0 ? `; all ${n} objects lie in the agent's 7x7 view square (walls may hide some)` : ""}`,
    },
  ];
}

/** Per field, whether the answer gives the gold's value (after the released scorer's normalisation). */
function fieldsRight(answer: unknown, gold: unknown): Record<SceneField, boolean> {
  const p = normalizeScene(answer);
  const g = normalizeScene(gold);
  const same = (a: unknown, b: unknown) => a !== null && a !== undefined && b !== null && b !== undefined && sameTuple(a, b);
  return {
    "agent.pos": same(p.agentPos, g.agentPos),
    "agent.dir": same(p.agentDir, g.agentDir),
    "agent.carrying": sameTuple(p.carrying, g.carrying),
    "front_cell.pos": same(p.frontCell?.[0], g.frontCell?.[0]),
    "front_cell.type": same(p.frontCell?.[1], g.frontCell?.[1]),
    "front_cell.state": p.frontCell !== null && g.frontCell !== null && sameTuple(p.frontCell[2], g.frontCell[2]),
    objects: jaccard(p.objects, g.objects) === 1,
  };
}

/** Which fields each released component needs right. */
const COMPONENT_FIELDS: Record<keyof SceneComponents, readonly SceneField[]> = {
  agent_pos: ["agent.pos"],
  agent_dir: ["agent.dir"],
  carrying: ["agent.carrying"],
  front_cell: ["front_cell.pos", "front_cell.type", "front_cell.state"],
  objects_jaccard: ["objects"],
};

/**
 * The best the frame alone allows: the scores of an answer with every readable field right and
 * every other one wrong. Acc_B (exact) needs every field, so only a frame that shows them all can
 * reach it; the component score is the weight of the components whose fields are all readable.
 */
export function frameCeiling(readability: readonly FieldReadability[]): { exact: boolean; componentScore: number } {
  const readable = new Set(readability.filter((field) => field.readable).map((field) => field.field));
  const components = Object.fromEntries(
    Object.entries(COMPONENT_FIELDS).map(([component, fields]) => [component, fields.every((field) => readable.has(field)) ? 1 : 0]),
  ) as unknown as SceneComponents;
  return { exact: SCENE_FIELDS.every((field) => readable.has(field)), componentScore: componentScoreOf(components) };
}

/**
 * The canonical text of a scene after normalisation: equal for two answers exactly when they
 * describe the same scene for the scorer (object order and repeated rows do not matter). Objects
 * are sorted by type, then position, as build_exam.py sorts them.
 */
export function canonicalSceneString(scene: unknown): string {
  const n = normalizeScene(scene);
  const objects = [...n.objects]
    .map((text) => JSON.parse(text) as [string, Pos, string | null, string | null])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1][0] - b[1][0] || a[1][1] - b[1][1] || (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)))
    .map(([type, pos, color, state]) => ({ type, pos, color, state }));
  return JSON.stringify({
    agent: { pos: n.agentPos, dir: n.agentDir, carrying: n.carrying && { type: n.carrying[0], color: n.carrying[1] } },
    front_cell: n.frontCell && { pos: n.frontCell[0], type: n.frontCell[1], state: n.frontCell[2] },
    objects,
  });
}

export const sceneJsonMetrics: MetricSpec[] = [
  {
    id: "Acc_B",
    label: "Acc_B (exact scene)",
    type: "proportion",
    description:
      "Share of Task B answers with every component right: agent position, direction, carried object, front cell and the set of objects (the paper's Acc_B, exact match of the canonical JSON).",
  },
  {
    id: "Acc_B_component",
    label: "Acc_B, component score >= 0.90",
    type: "proportion",
    description:
      "Share of Task B answers whose weighted component score (the authors' released scorer: agent_pos 0.30, agent_dir 0.10, carrying 0.15, front_cell 0.25, objects Jaccard 0.20) is at least 0.90.",
  },
  {
    id: "meanComponentScore",
    label: "Mean component score",
    type: "ratio",
    description: "Mean of the weighted component score over Task B answers.",
  },
  {
    id: "readableFieldScore",
    label: "Readable fields right",
    type: "ratio",
    description:
      "Share of the fields the item's frame shows that the answer got right (the agent's own view shows what it carries and the front cell's type and state, not the world position, the direction or the world's objects; a whole-grid frame shows every field), pooled over answers. Beside Acc_B: what can be judged from the picture given.",
  },
  {
    id: "Acc_B_ceiling",
    label: "Acc_B ceiling from the frame",
    type: "proportion",
    description:
      "Share of answered items whose frame shows every field of the gold: the best Acc_B reachable from the frame alone, without guessing (0 on the released exams' egocentric frames).",
  },
  {
    id: "componentCeiling",
    label: "Component score ceiling from the frame",
    type: "ratio",
    description:
      "Mean over answers of the component score an answer reaches with every readable field right and every other wrong (0.15 on an egocentric frame: only carrying is a component whose fields can all be read).",
  },
];

// ---------------------------------------------------------------------------------------------
// Model answers, as score_exam.py's parse_task_b_json

/** `_strip_code_fence`: the text between the first two ``` fences, else the text without fences. */
function stripCodeFence(text: string): string {
  const t = pyStrip(text);
  if (!t.includes("```")) return t;
  const parts = t.split("```");
  if (parts.length >= 3) return pyStrip(parts[1]);
  return pyStrip(t.replaceAll("```", ""));
}

/** `_extract_json_object`: the whole text when it is {...}, else from the first "{" to the last "}". */
function extractJsonObject(text: string): string | null {
  let t = pyStrip(text);
  if (t === "") return null;
  t = stripCodeFence(t);
  if (t.startsWith("{") && t.endsWith("}")) return t;
  const left = t.indexOf("{");
  const right = t.lastIndexOf("}");
  return left >= 0 && left < right ? t.slice(left, right + 1) : null;
}

/** `_min_fix_json_commas`: drop a comma before "}" or "]" (anywhere, strings included, as theirs). */
const trailingComma = new RegExp(`,(${PY_SPACE}*[}\\]])`, "gu");

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The authors' Task B parser: the JSON object from a code fence or between the outermost braces;
 * strict when that is the whole (trimmed) text, recoverable when it had to be cut out or its
 * trailing commas repaired; fail when it is not JSON or not an object. A JSON object given as the
 * answer (Yardstick's own answers) is strict. (Python's json also reads NaN and Infinity; this one
 * does not.)
 */
export function parseSceneJsonModelAnswer(raw: unknown): ModelAnswerParse<GridwmSceneJsonAnswer> {
  if (isPlainObject(raw)) return { answer: raw, mode: "strict" };
  if (typeof raw !== "string") return { answer: null, mode: "fail", reason: "not text" };
  const text = pyStrip(raw);
  if (text === "") return { answer: null, mode: "fail", reason: "empty" };
  const candidate = extractJsonObject(text);
  if (candidate === null) return { answer: null, mode: "fail", reason: "no JSON object" };
  const first = parseJson(candidate);
  if (first.ok) {
    if (!isPlainObject(first.value)) return { answer: null, mode: "fail", reason: "JSON but not an object" };
    return { answer: first.value, mode: pyStrip(candidate) === text ? "strict" : "recoverable" };
  }
  const repaired = parseJson(candidate.replace(trailingComma, "$1"));
  if (!repaired.ok) return { answer: null, mode: "fail", reason: "not JSON" };
  if (!isPlainObject(repaired.value)) return { answer: null, mode: "fail", reason: "JSON but not an object" };
  return { answer: repaired.value, mode: "recoverable" };
}

function isSceneScore(value: unknown): value is GridwmSceneJsonScore {
  return isPlainObject(value) && typeof value.componentScore === "number";
}

export const sceneJsonAgreementEncodings: AgreementEncoding<GridwmSceneJsonAnswer>[] = [
  {
    id: "exact-nominal",
    label: "Each item a unit, nominal on the canonical scene (exact match after normalisation)",
    level: "nominal",
    units: (answer) => [{ unit: "", value: canonicalSceneString(answer) }],
  },
  {
    id: "component-interval",
    label: "Each item a unit, interval on the component score",
    level: "interval",
    needsContext: true,
    units: (_answer, context) => (context && isSceneScore(context.score) ? [{ unit: "", value: context.score.componentScore }] : []),
  },
];

export const gridwmSceneJsonModule: TaskModule<GridwmSceneJsonPublic, GridwmSceneJsonKey, GridwmSceneJsonAnswer, GridwmSceneJsonScore> = {
  kind: "gridwm-scene-json",
  title: "GridWM-Judge Task B: scene JSON",
  benchmark: GRIDWM_BENCHMARK,
  publicSchema: gridwmSceneJsonPublicSchema,
  keySchema: gridwmSceneJsonKeySchema,
  itemSchema: gridwmSceneJsonItemSchema,
  answerSchema: gridwmSceneJsonAnswerSchema,
  answerSchemaFor(item) {
    const size = item.public.gridSize;
    if (!size) return gridwmSceneJsonAnswerSchema;
    return gridwmSceneJsonAnswerSchema.superRefine((answer, ctx) => {
      const check = (pos: [number, number], path: Array<string | number>) => {
        if (pos[0] >= size[0] || pos[1] >= size[1])
          ctx.addIssue({ code: "custom", path, message: `position [${pos.join(", ")}] is outside the ${size[0]}x${size[1]} grid` });
      };
      check(answer.agent.pos, ["agent", "pos"]);
      check(answer.front_cell.pos, ["front_cell", "pos"]);
      answer.objects.forEach((object, i) => check(object.pos, ["objects", i, "pos"]));
    });
  },

  mapImages: (item, replace) => ({ public: { ...item.public, image: replace(item.public.image) }, key: item.key }),

  publicView(item: SceneItem): Json {
    const pub = item.public;
    const dirEncoding = pub.dirEncoding ?? "spec";
    return {
      image: pub.image,
      ...(pub.mission !== undefined ? { mission: pub.mission } : {}),
      ...(pub.gridSize !== undefined ? { gridSize: [...pub.gridSize] } : {}),
      frame: pub.frame ?? "egocentric",
      dirEncoding,
      directions: [...DIRECTION_ENCODINGS[dirEncoding]],
    };
  },

  agent: {
    answerInstructions:
      'The view shows one frame of a grid world (image): the whole grid with its axes ("full-grid") or the agent\'s own 7x7 view facing up ("egocentric"), as `frame` says. ' +
      "Answer the scene as JSON: agent {pos [x, y], dir 0-3 (directions[dir] names the heading), carrying {type, color} or null}, front_cell (the cell the agent faces) {pos, type, state}, " +
      "and objects [{type, pos, color, state}] (every door, key, ball, box, goal and lava cell). state: 0 open, 1 closed, 2 locked (doors), null otherwise. Positions are cells [x, y], within gridSize when given.",
    exampleAnswer: () => ({ agent: { pos: [1, 1], dir: 0, carrying: null }, front_cell: { pos: [1, 0], type: "wall", state: null }, objects: [] }),
  },
  keyAnswer: (key) => JSON.parse(JSON.stringify(key.answer_json)) as GridwmSceneJsonAnswer,
  score: (answer, key, item) => scoreSceneJson(answer, key, item?.public),
  correct: (score) => score.correct,
  aggregate: (scores) => {
    const classified = scores.filter((score) => score.readable && score.ceiling);
    const readableOf = classified.reduce((sum, score) => sum + score.readable!.of, 0);
    return {
      Acc_B: share(scores.map((score) => score.exact)),
      Acc_B_component: share(scores.map((score) => score.correct)),
      meanComponentScore: mean(scores.map((score) => score.componentScore)),
      readableFieldScore: readableOf === 0 ? null : classified.reduce((sum, score) => sum + score.readable!.right, 0) / readableOf,
      Acc_B_ceiling: share(classified.map((score) => score.ceiling!.exact)),
      componentCeiling: mean(classified.map((score) => score.ceiling!.componentScore)),
    };
  },
  metrics: sceneJsonMetrics,
  headlineMetric: "Acc_B",
  agreementEncodings: sceneJsonAgreementEncodings,

  reviewView(item: SceneItem): Json {
    const dirEncoding = item.public.dirEncoding ?? "spec";
    return {
      answer_json: JSON.parse(JSON.stringify(item.key.answer_json)) as Json,
      canonical: canonicalSceneString(item.key.answer_json),
      dirEncoding,
      directions: [...DIRECTION_ENCODINGS[dirEncoding]],
      modelPrompt: item.key.modelPrompt ?? null,
      // which gold fields the frame shows, and why (reviewers only: the reasons count the key's objects)
      readable: sceneFieldReadability(item).map((field) => ({ ...field })) as unknown as Json,
    };
  },

  parseModelAnswer: (raw) => parseSceneJsonModelAnswer(raw).answer,
  parseModelAnswerWithMode: parseSceneJsonModelAnswer,
};
