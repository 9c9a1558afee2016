import { z } from "zod";

/**
 * ESI-Bench's discrete action vocabulary (../shared/benchmarks/esi.md, "The task"): the same for
 * people and models. Pure; imported by the server (graph stepping, the simulator client) and by
 * the player in the browser (buttons, keyboard shortcuts, object pickers).
 *
 * An action is `{ name, args }`; its canonical text, which is also how an exploration graph names
 * its edges, is the bare name for the movement actions ("move_forward") and `name(arg,arg)` for
 * the object actions ("pick_up(mug_1)", "put_on(mug_1,table_2)").
 */

export const MOVE_ACTIONS = ["move_forward", "move_backward", "move_left", "move_right", "move_up", "move_down"] as const;
export const TURN_ACTIONS = ["turn_left", "turn_right", "turn_up", "turn_down"] as const;
export type MoveAction = (typeof MOVE_ACTIONS)[number];
export type TurnAction = (typeof TURN_ACTIONS)[number];

/** Object actions and what each argument is (the player's picker labels, in order). */
export const OBJECT_ACTIONS = {
  pick_up: ["object"],
  put_inside: ["object", "container"],
  put_on: ["object", "surface"],
  fill: ["container"],
  pour: ["what", "from", "to"],
} as const satisfies Record<string, readonly string[]>;
export type ObjectAction = keyof typeof OBJECT_ACTIONS;
export const OBJECT_ACTION_NAMES = Object.keys(OBJECT_ACTIONS) as ObjectAction[];

export const ACTION_NAMES = [...MOVE_ACTIONS, ...TURN_ACTIONS, ...OBJECT_ACTION_NAMES] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** How each action reads on its button and in the replay. */
export const ACTION_WORDS: Record<ActionName, string> = {
  move_forward: "Forward",
  move_backward: "Back",
  move_left: "Step left",
  move_right: "Step right",
  move_up: "Up",
  move_down: "Down",
  turn_left: "Turn left",
  turn_right: "Turn right",
  turn_up: "Look up",
  turn_down: "Look down",
  pick_up: "Pick up",
  put_inside: "Put … inside …",
  put_on: "Put … on …",
  fill: "Fill … with water",
  pour: "Pour … from … to …",
};

/** Keyboard shortcuts of the movement actions (KeyboardEvent.key, lower-cased for letters). */
export const ACTION_KEYS: Partial<Record<ActionName, { key: string; label: string }>> = {
  move_forward: { key: "w", label: "W" },
  move_backward: { key: "s", label: "S" },
  move_left: { key: "a", label: "A" },
  move_right: { key: "d", label: "D" },
  move_up: { key: "r", label: "R" },
  move_down: { key: "f", label: "F" },
  turn_left: { key: "ArrowLeft", label: "←" },
  turn_right: { key: "ArrowRight", label: "→" },
  turn_up: { key: "ArrowUp", label: "↑" },
  turn_down: { key: "ArrowDown", label: "↓" },
};

/** The movement action a key stands for, or null. */
export function actionOfKey(key: string): MoveAction | TurnAction | null {
  const normalised = key.length === 1 ? key.toLowerCase() : key;
  for (const [name, shortcut] of Object.entries(ACTION_KEYS)) {
    if (shortcut?.key === normalised) return name as MoveAction | TurnAction;
  }
  return null;
}

export function arityOf(name: ActionName): number {
  return (OBJECT_ACTIONS as Record<string, readonly string[]>)[name]?.length ?? 0;
}

/** An object name as items use it: letters, digits, "_", "-", "." (no commas or brackets). */
const objectNameSchema = z
  .string()
  .min(1, "an object name cannot be empty")
  .max(120, "an object name has at most 120 characters")
  .regex(/^[A-Za-z0-9_.\-]+$/, "an object name holds only letters, digits, _ - and .");
export { objectNameSchema as esiObjectNameSchema };

export const esiActionSchema = z
  .strictObject({
    name: z.enum(ACTION_NAMES, { error: `expected an action: ${ACTION_NAMES.join(", ")}` }),
    args: z.array(objectNameSchema).max(3).default([]),
  })
  .superRefine((action, ctx) => {
    const arity = arityOf(action.name);
    if (action.args.length !== arity) {
      ctx.addIssue({ code: "custom", path: ["args"], message: `${action.name} takes ${arity} object${arity === 1 ? "" : "s"}, got ${action.args.length}` });
    }
  });
export type EsiAction = z.infer<typeof esiActionSchema>;

/** "move_forward", "pick_up(mug_1)", "put_on(mug_1,table_2)". */
export function actionKey(action: { name: string; args?: readonly string[] }): string {
  const args = action.args ?? [];
  return args.length === 0 ? action.name : `${action.name}(${args.join(",")})`;
}

/**
 * Reads an action's canonical text (as graphs name edges; spaces allowed around the commas), or
 * returns a message saying what is wrong.
 */
export function parseActionKey(text: string): EsiAction | string {
  const match = /^\s*([a-z_]+)\s*(?:\(([^()]*)\))?\s*$/.exec(text);
  if (!match) return `expected an action such as "move_forward" or "pick_up(mug_1)", got ${JSON.stringify(text)}`;
  const args = match[2] === undefined ? [] : match[2].split(",").map((arg) => arg.trim());
  const parsed = esiActionSchema.safeParse({ name: match[1], args });
  if (!parsed.success) return `${JSON.stringify(text)}: ${parsed.error.issues[0]?.message ?? "not an action"}`;
  return parsed.data;
}

/** "Pick up mug_1", "Put mug_1 on table_2", "Forward" (the replay and the step list). */
export function describeAction(action: { name: string; args?: readonly string[] }): string {
  const args = action.args ?? [];
  switch (action.name) {
    case "pick_up":
      return `Pick up ${args[0] ?? "?"}`;
    case "put_inside":
      return `Put ${args[0] ?? "?"} inside ${args[1] ?? "?"}`;
    case "put_on":
      return `Put ${args[0] ?? "?"} on ${args[1] ?? "?"}`;
    case "fill":
      return `Fill ${args[0] ?? "?"} with water`;
    case "pour":
      return `Pour ${args[0] ?? "?"} from ${args[1] ?? "?"} to ${args[2] ?? "?"}`;
    default:
      return (ACTION_WORDS as Record<string, string>)[action.name] ?? action.name;
  }
}
