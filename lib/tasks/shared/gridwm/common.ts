import { z } from "zod";

/**
 * What the three GridWM-Judge kinds share (../shared/benchmarks/gridwm-judge.md; the authors'
 * repository Lucas-Jin-Qh/GridWM_Judge, `scripts/build_exam.py` and `scripts/score_exam.py`):
 * MiniGrid's action set, object types and colours, and the helpers their parsers and metrics use.
 * Pure functions only.
 */

export const GRIDWM_BENCHMARK = "GridWM-Judge";

// ---------------------------------------------------------------------------------------------
// MiniGrid vocabulary

/** MiniGrid's actions in id order (`MiniGridEnv.Actions`: 0 left ... 6 done). */
export const GRIDWM_ACTIONS = ["left", "right", "forward", "pickup", "drop", "toggle", "done"] as const;
export type GridwmAction = (typeof GRIDWM_ACTIONS)[number];
export const gridwmActionSchema = z.enum(GRIDWM_ACTIONS, {
  error: `expected a MiniGrid action: ${GRIDWM_ACTIONS.join(", ")}`,
});

/**
 * The transition types the paper recomputes every metric for. The paper names four: move, turn,
 * interact, pickup. left / right turn, forward moves, pickup picks up; toggle (doors, boxes), drop
 * and done (MiniGrid's no-op) are counted as interact.
 */
export const GRIDWM_TRANSITIONS = ["move", "turn", "interact", "pickup"] as const;
export type GridwmTransition = (typeof GRIDWM_TRANSITIONS)[number];

export function transitionOf(action: GridwmAction): GridwmTransition {
  switch (action) {
    case "left":
    case "right":
      return "turn";
    case "forward":
      return "move";
    case "pickup":
      return "pickup";
    default:
      return "interact";
  }
}

/** How the action reads for people (the annotator page shows it in words). */
export const GRIDWM_ACTION_WORDS: Record<GridwmAction, string> = {
  left: "turn left: 90 degrees counter-clockwise",
  right: "turn right: 90 degrees clockwise",
  forward: "move forward one cell",
  pickup: "pick up the object in front",
  drop: "drop the carried object in front",
  toggle: "toggle (open, close or unlock) what is in front",
  done: "done (does nothing)",
};

/** MiniGrid's object types (`OBJECT_TO_IDX` without "unseen" and "agent"). */
export const GRIDWM_OBJECT_TYPES = ["empty", "wall", "floor", "door", "key", "ball", "box", "goal", "lava"] as const;
export type GridwmObjectType = (typeof GRIDWM_OBJECT_TYPES)[number];

/** MiniGrid's colours (`COLOR_NAMES`). */
export const GRIDWM_COLORS = ["red", "green", "blue", "purple", "yellow", "grey"] as const;
export type GridwmColor = (typeof GRIDWM_COLORS)[number];

/** MiniGrid's door states as its observations encode them: 0 open, 1 closed, 2 locked. */
export const DOOR_STATES = { open: 0, closed: 1, locked: 2 } as const;

/**
 * What `agent.dir` 0..3 means. `spec` is the benchmark description's canonical form (0 north,
 * 1 east, 2 south, 3 west; the front cell of dir 0 is [x, y-1]); `minigrid` is MiniGrid's
 * `agent_dir` (0 east, 1 south, 2 west, 3 north), which is what the released exams' answer_json
 * holds (build_exam.py copies `env.unwrapped.agent_dir`). Scoring compares numbers as given; the
 * annotator form needs to know which one the key uses.
 */
export const DIRECTION_ENCODINGS = {
  spec: ["north", "east", "south", "west"],
  minigrid: ["east", "south", "west", "north"],
} as const;
export type DirectionEncoding = keyof typeof DIRECTION_ENCODINGS;

// ---------------------------------------------------------------------------------------------
// Schemas shared by the kinds

export const imagePathSchema = z.string().min(1, "an image path cannot be empty");
export const missionSchema = z.string().min(1, "a mission cannot be empty");
/** The prompt the benchmark's authors gave models, kept with the key (never shown to annotators). */
export const modelPromptSchema = z.string();

export const LETTERS = ["A", "B", "C", "D"] as const;
export type Letter = (typeof LETTERS)[number];
export const letterSchema = z.enum(LETTERS, { error: "expected one of the letters A, B, C, D" });

export const VERDICTS = ["Success", "Fail"] as const;
export type Verdict = (typeof VERDICTS)[number];
export const verdictSchema = z.enum(VERDICTS, { error: 'expected "Success" or "Fail"' });

// ---------------------------------------------------------------------------------------------
// Python-compatible text helpers (the authors' parsers are Python `re` with str patterns)

/**
 * Python's `\w` on str patterns: Unicode letters and numbers, and "_". JavaScript's `\b` knows
 * only ASCII word characters, so the parsers spell out Python's word boundary with lookarounds.
 */
export const PY_WORD = "[\\p{L}\\p{N}_]";

/** A pattern wrapped in Python's `\b ... \b` (Unicode word characters), for a RegExp with the "u" flag. */
export function pythonWordBounded(pattern: string): string {
  return `(?<!${PY_WORD})(?:${pattern})(?!${PY_WORD})`;
}

/** The characters for which Python's str.isspace() is true (JavaScript's \s adds U+FEFF, Python's adds U+001C-U+001F and U+0085). */
export const PY_SPACE = "[\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const pyStripPattern = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu");

/** Python's str.strip() with no arguments. */
export function pyStrip(text: string): string {
  return text.replace(pyStripPattern, "");
}

// ---------------------------------------------------------------------------------------------
// Aggregation helpers

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function share(flags: readonly boolean[]): number | null {
  return mean(flags.map((flag) => (flag ? 1 : 0)));
}

/** A tag as text, or undefined when absent (numbers and booleans as JSON text). */
export function tagText(tags: Record<string, string | number | boolean> | undefined, name: string): string | undefined {
  const value = tags?.[name];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : String(value);
}

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A schema that picks one of several schemas by looking at the value, so that errors name the
 * fields of the form the value is in (a zod union reports only "no option matched").
 */
export function chooseSchema<T>(choose: (value: unknown) => z.ZodType<T>): z.ZodType<T> {
  return z.unknown().transform((value, ctx) => {
    const result = choose(value).safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
}
