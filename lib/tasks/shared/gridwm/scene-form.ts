import { GRIDWM_COLORS, GRIDWM_OBJECT_TYPES, type GridwmColor, type GridwmObjectType } from "@/lib/tasks/shared/gridwm/common";
import type { GridwmSceneJsonCanonicalAnswer } from "@/lib/tasks/gridwm-scene-json";

/**
 * The annotator's scene form of GridWM-Judge Task B (`gridwm-scene-json`) as a pure state: a draft
 * that the form's edits change one at a time (`scene_edited` events: set / add / remove at a path),
 * and the canonical answer it stands for. The draft can only hold values the answer schema takes,
 * so the answer is valid canonical JSON whenever there is one (after the agent is placed).
 *
 * Used by the browser's store, its resume and the researcher's replay: the same edits give the
 * same draft. No React, no database.
 */

export type Pos = [number, number];
export type DoorState = 0 | 1 | 2;
export const CARRY_TYPES = ["key", "ball", "box"] as const;
export type CarryType = (typeof CARRY_TYPES)[number];
/** Objects the form lists (walls and floor are the map, not objects; "empty" is no object). */
export const SCENE_OBJECT_TYPES = ["door", "key", "ball", "box", "goal", "lava"] as const;
export type SceneObjectType = (typeof SCENE_OBJECT_TYPES)[number];
/** What a front cell can be. */
export const FRONT_TYPES = GRIDWM_OBJECT_TYPES;

export interface SceneDraftObject {
  type: SceneObjectType;
  pos: Pos;
  color: GridwmColor;
  state: DoorState;
}

export interface SceneDraft {
  /** the grid's size and what dir 0..3 mean (the item's encoding): fixed for the item */
  grid: { size: Pos; directions: string[] };
  agent: { pos: Pos | null; dir: number; carrying: { type: CarryType; color: GridwmColor } | null };
  /** the front cell's position follows from the agent's; its type and state are picked */
  front_cell: { type: GridwmObjectType; state: DoorState };
  /** in the order added (edits name rows by index); the answer sorts them */
  objects: SceneDraftObject[];
}

export type SceneEditOp = "set" | "add" | "remove";
export interface SceneEdit {
  op: SceneEditOp;
  path: string;
  value: unknown;
}

/** Every path an edit may name. */
export const SCENE_EDIT_PATH = /^(agent\.(pos|dir|carrying)|front_cell\.(type|state)|objects(\.[0-9]{1,3}(\.(type|color|state))?)?)$/;

const COMPASS: Record<string, Pos> = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };

export function initialSceneDraft(view: { gridSize?: Pos | number[]; directions?: string[] } = {}): SceneDraft {
  const size = Array.isArray(view.gridSize) && view.gridSize.length === 2 ? ([view.gridSize[0], view.gridSize[1]] as Pos) : ([7, 7] as Pos);
  const directions = Array.isArray(view.directions) && view.directions.length === 4 ? [...view.directions] : ["north", "east", "south", "west"];
  return { grid: { size, directions }, agent: { pos: null, dir: 0, carrying: null }, front_cell: { type: "empty", state: 0 }, objects: [] };
}

export function isSceneDraft(value: unknown): value is SceneDraft {
  if (value === null || typeof value !== "object") return false;
  const draft = value as Partial<SceneDraft>;
  return !!draft.grid && !!draft.agent && !!draft.front_cell && Array.isArray(draft.objects);
}

function isPos(value: unknown, size: Pos): value is Pos {
  return Array.isArray(value) && value.length === 2 && value.every((v, i) => Number.isInteger(v) && v >= 0 && v < size[i]);
}
const isColor = (value: unknown): value is GridwmColor => (GRIDWM_COLORS as readonly unknown[]).includes(value);
const isDoorState = (value: unknown): value is DoorState => value === 0 || value === 1 || value === 2;
const isObjectType = (value: unknown): value is SceneObjectType => (SCENE_OBJECT_TYPES as readonly unknown[]).includes(value);
const isFrontType = (value: unknown): value is GridwmObjectType => (FRONT_TYPES as readonly unknown[]).includes(value);

/** Only doors have a state (0 open, 1 closed, 2 locked); every other object's is 0, as MiniGrid encodes it. */
function stateFor(type: string, state: DoorState): DoorState {
  return type === "door" ? state : 0;
}

/** The cell in front of the agent (null before the agent is placed). May lie outside the grid. */
export function frontCellPos(draft: SceneDraft): Pos | null {
  const pos = draft.agent.pos;
  if (!pos) return null;
  const step = COMPASS[draft.grid.directions[draft.agent.dir] ?? "north"] ?? COMPASS.north;
  return [pos[0] + step[0], pos[1] + step[1]];
}

/** The dir number (in the item's encoding) of a compass direction. */
export function dirOfCompass(draft: SceneDraft, compass: "north" | "east" | "south" | "west"): number {
  const dir = draft.grid.directions.indexOf(compass);
  return dir >= 0 ? dir : 0;
}

export function objectIndexAt(draft: SceneDraft, pos: Pos): number {
  return draft.objects.findIndex((object) => object.pos[0] === pos[0] && object.pos[1] === pos[1]);
}

/**
 * The draft after one edit; an edit that names no such path or carries a value the answer schema
 * would refuse leaves the draft unchanged (the same object, so callers can tell).
 */
export function applySceneEdit(draft: SceneDraft, edit: SceneEdit): SceneDraft {
  const { op, path, value } = edit;
  if (!SCENE_EDIT_PATH.test(path)) return draft;
  const size = draft.grid.size;
  if (op === "set") {
    switch (path) {
      case "agent.pos":
        return isPos(value, size) ? { ...draft, agent: { ...draft.agent, pos: [value[0], value[1]] } } : draft;
      case "agent.dir":
        return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 3
          ? { ...draft, agent: { ...draft.agent, dir: value as number } }
          : draft;
      case "agent.carrying": {
        if (value === null) return { ...draft, agent: { ...draft.agent, carrying: null } };
        const carry = value as { type?: unknown; color?: unknown };
        if (typeof value !== "object" || !(CARRY_TYPES as readonly unknown[]).includes(carry.type) || !isColor(carry.color)) return draft;
        return { ...draft, agent: { ...draft.agent, carrying: { type: carry.type as CarryType, color: carry.color } } };
      }
      case "front_cell.type":
        return isFrontType(value) ? { ...draft, front_cell: { type: value, state: stateFor(value, draft.front_cell.state) } } : draft;
      case "front_cell.state":
        return isDoorState(value) && draft.front_cell.type === "door" ? { ...draft, front_cell: { ...draft.front_cell, state: value } } : draft;
    }
    const match = /^objects\.([0-9]+)\.(type|color|state)$/.exec(path);
    if (!match) return draft;
    const index = Number(match[1]);
    const object = draft.objects[index];
    if (!object) return draft;
    let next: SceneDraftObject;
    if (match[2] === "type") {
      if (!isObjectType(value)) return draft;
      next = { ...object, type: value, state: stateFor(value, object.state) };
    } else if (match[2] === "color") {
      if (!isColor(value)) return draft;
      next = { ...object, color: value };
    } else {
      if (!isDoorState(value) || object.type !== "door") return draft;
      next = { ...object, state: value };
    }
    return { ...draft, objects: draft.objects.map((o, i) => (i === index ? next : o)) };
  }
  if (op === "add" && path === "objects") {
    const object = value as Partial<SceneDraftObject> | null;
    if (!object || typeof object !== "object" || !isObjectType(object.type) || !isPos(object.pos, size) || !isColor(object.color)) return draft;
    const state = stateFor(object.type, isDoorState(object.state) ? object.state : 0);
    // one object per cell, as in MiniGrid: a new one replaces what was there
    const kept = draft.objects.filter((o) => o.pos[0] !== object.pos![0] || o.pos[1] !== object.pos![1]);
    return { ...draft, objects: [...kept, { type: object.type, pos: [object.pos[0], object.pos[1]], color: object.color, state }] };
  }
  if (op === "remove") {
    const match = /^objects\.([0-9]+)$/.exec(path);
    if (!match || !draft.objects[Number(match[1])]) return draft;
    const index = Number(match[1]);
    return { ...draft, objects: draft.objects.filter((_, i) => i !== index) };
  }
  return draft;
}

/** Objects sorted by type, then x, then y (build_exam.py's order). */
function sortedObjects(objects: readonly SceneDraftObject[]): SceneDraftObject[] {
  return [...objects].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.pos[0] - b.pos[0] || a.pos[1] - b.pos[1]));
}

/** Why the draft is no answer yet, or null when it is one. */
export function sceneDraftProblem(draft: SceneDraft): string | null {
  if (!draft.agent.pos) return "Click the agent's cell";
  const front = frontCellPos(draft)!;
  if (!isPos(front, draft.grid.size)) return "The agent faces out of the grid";
  return null;
}

/** The canonical answer the draft stands for; null until the agent is placed (or when it faces out of the grid). */
export function sceneAnswerOf(draft: SceneDraft): GridwmSceneJsonCanonicalAnswer | null {
  if (sceneDraftProblem(draft) !== null) return null;
  const pos = draft.agent.pos!;
  return {
    agent: { pos: [pos[0], pos[1]], dir: draft.agent.dir, carrying: draft.agent.carrying ? { ...draft.agent.carrying } : null },
    front_cell: { pos: frontCellPos(draft)!, type: draft.front_cell.type, state: draft.front_cell.state },
    objects: sortedObjects(draft.objects).map((o) => ({ type: o.type, pos: [o.pos[0], o.pos[1]], color: o.color, state: o.state })),
  };
}

/**
 * A draft showing a given scene (the answer key after a practice item, or a submitted answer),
 * as far as the form can show it: unknown types, colours and states are left out or read as 0.
 */
export function sceneDraftFromAnswer(answer: unknown, view: { gridSize?: Pos | number[]; directions?: string[] } = {}): SceneDraft {
  const draft = initialSceneDraft(view);
  if (answer === null || typeof answer !== "object") return draft;
  const scene = answer as { agent?: { pos?: unknown; dir?: unknown; carrying?: unknown }; front_cell?: { type?: unknown; state?: unknown }; objects?: unknown };
  let next = draft;
  const edits: SceneEdit[] = [
    { op: "set", path: "agent.pos", value: scene.agent?.pos },
    { op: "set", path: "agent.dir", value: scene.agent?.dir },
    { op: "set", path: "agent.carrying", value: scene.agent?.carrying ?? null },
    { op: "set", path: "front_cell.type", value: scene.front_cell?.type },
    { op: "set", path: "front_cell.state", value: scene.front_cell?.state === null ? 0 : Number(scene.front_cell?.state) },
  ];
  for (const object of Array.isArray(scene.objects) ? scene.objects : []) {
    const o = object as Record<string, unknown>;
    edits.push({ op: "add", path: "objects", value: { ...o, state: o.state === null || o.state === undefined ? 0 : Number(o.state) } });
  }
  for (const edit of edits) next = applySceneEdit(next, edit);
  return next;
}
