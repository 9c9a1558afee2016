import type { Value } from "@/lib/tasks/ego2world-play/syntax";

/**
 * The hidden world of an Ego2World episode: the agent (its area and what it holds) and the objects
 * by id. An object has a label, an area, what it is in or on, an amount and free state words.
 * `gone` lists the ids of destroyed objects, so that `create` never reuses an id that existed.
 */
export interface WorldObject {
  label: Value;
  area: Value;
  in: Value;
  on: Value;
  amount: Value;
  state: Record<string, Value>;
}

export interface World {
  agent: { area: Value; hand: Value };
  objects: Record<string, WorldObject>;
  /** ids of objects destroyed so far (absent from `objects`) */
  gone?: string[];
}

/** The slot names an object has besides its state words. */
export const OBJECT_FIELDS = ["label", "area", "in", "on", "amount"] as const;
export type ObjectField = (typeof OBJECT_FIELDS)[number];

export function isObjectField(attr: string): attr is ObjectField {
  return (OBJECT_FIELDS as readonly string[]).includes(attr);
}

/** What an absent (destroyed, not yet created) object reads as in WSR slots. */
export const ABSENT = "<absent>";

export function cloneWorld(world: World): World {
  return {
    agent: { ...world.agent },
    objects: Object.fromEntries(Object.entries(world.objects).map(([id, object]) => [id, { ...object, state: { ...object.state } }])),
    gone: [...(world.gone ?? [])],
  };
}

export function isPresent(world: World, id: string): boolean {
  return Object.hasOwn(world.objects, id);
}

/** An object's attribute: a field, or a state word (missing: null); undefined when the object is absent. */
export function readAttr(world: World, id: string, attr: string): Value | undefined {
  if (!isPresent(world, id)) return undefined;
  const object = world.objects[id];
  if (isObjectField(attr)) return object[attr];
  return Object.hasOwn(object.state, attr) ? object.state[attr] : null;
}

/** Two values are equal when they are the same JSON value (2 and "2" differ). */
export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  return a === b;
}

/** The id a `create LABEL` makes: LABEL_NN with the smallest NN (01, 02, ...) whose id never existed in this world. */
export function freshId(world: World, label: string): string {
  const existed = new Set([...Object.keys(world.objects), ...(world.gone ?? [])]);
  for (let n = 1; ; n++) {
    const id = `${label}_${String(n).padStart(2, "0")}`;
    if (!existed.has(id)) return id;
  }
}

/** The object slots of WSR: for one object, every field but the label, and each state word. */
export function slotKeys(objects: ReadonlyArray<WorldObject | undefined>): string[] {
  const words = new Set<string>();
  for (const object of objects) for (const word of Object.keys(object?.state ?? {})) words.add(word);
  return ["area", "in", "on", "amount", ...[...words].sort().map((word) => `state.${word}`)];
}

/** One slot's value: `<absent>` for an absent object, null for a missing state word. */
export function slotValue(world: World, id: string, slot: string): Value {
  if (!isPresent(world, id)) return ABSENT;
  const object = world.objects[id];
  if (slot.startsWith("state.")) {
    const word = slot.slice("state.".length);
    return Object.hasOwn(object.state, word) ? object.state[word] : null;
  }
  return object[slot as ObjectField];
}
