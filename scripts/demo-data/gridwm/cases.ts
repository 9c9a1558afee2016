/**
 * GridWM-Judge base cases from the MiniGrid-compatible world (world.ts), built the way the authors'
 * generators build them (Lucas-Jin-Qh/GridWM_Judge, `scripts/tasks/<env>/gen_<env>_triplets.py`):
 * a triplet of trajectories sharing one action sequence:
 *
 * - `full`: the shortest successful plan (breadth-first search), success;
 * - `nocue`: the same trajectory with early cues blacked out of the frames (DoorKey: the key
 *   before it is picked up, unless it is right in front; Memory: the cue object in the start room;
 *   LavaGap: the lava before the agent crosses the lava column), at most 5 frames, success;
 * - `cf`: the same actions in a minimally changed world that makes them fail (DoorKey: the goal
 *   moved off the agent's path, as the release's `relocate_goal_cf`; LavaGap: the gap moved, so
 *   the agent walks into lava; Memory: the two end objects swapped, so it reaches the wrong one).
 *
 * Storyboards pick K = 8 key frames with build_exam.py's heuristics (`sb_doorkey`, `sb_lavagap`,
 * `sb_memory`, then `sb_dispatch`'s even spread over the candidates).
 */
import { mulberry32, type Rng } from "@/lib/stats/rng";
import type { GridwmAction } from "@/lib/tasks/shared/gridwm/common";
import { deriveSeed } from "@/scripts/demo-data/kitchen-world";
import {
  DIR_TO_VEC,
  VIEW_SIZE,
  cloneWorld,
  egocentricView,
  getCell,
  goal,
  lava,
  lavaGap,
  makeWorld,
  planShortest,
  rollout,
  setCell,
  viewToWorld,
  visibleTypes,
  type EnvName,
  type Rollout,
  type Vec,
  type View,
  type World,
} from "@/scripts/demo-data/gridwm/world";

export const STORYBOARD_FRAMES = 8;
/** the release masks cues in at most this many frames (`--nocue-max-visible 5`) */
export const NOCUE_MAX_FRAMES = 5;

export type Variant = "full" | "nocue" | "cf";

export interface Trajectory {
  rollout: Rollout;
  views: View[];
  /** per frame, the view cells ("x,y") blacked out (nocue only) */
  masks: Array<Set<string>>;
  success: boolean;
}

export interface BaseCase {
  env: EnvName;
  group: string;
  /** the seed of the world it was made from */
  worldSeed: number;
  mission: string;
  /** the action sequence all three variants share */
  actions: GridwmAction[];
  trajectories: Record<Variant, Trajectory>;
  /** the key frames of each variant, in time order (length STORYBOARD_FRAMES) */
  keyFrames: Record<Variant, number[]>;
}

const same = (a: Vec, b: Vec) => a[0] === b[0] && a[1] === b[1];

function trajectoryOf(run: Rollout, masks?: Array<Set<string>>): Trajectory {
  return { rollout: run, views: run.worlds.map(egocentricView), masks: masks ?? run.worlds.map(() => new Set<string>()), success: run.success };
}

/** The view cells showing world cell `pos` (visible ones only). */
function viewCellsShowing(world: World, view: View, pos: Vec): string[] {
  const cells: string[] = [];
  for (let y = 0; y < VIEW_SIZE; y++) {
    for (let x = 0; x < VIEW_SIZE; x++) {
      if (view.visible[y * VIEW_SIZE + x] && same(viewToWorld(world, x, y), pos)) cells.push(`${x},${y}`);
    }
  }
  return cells;
}

function frontType(world: World): string {
  const [dx, dy] = DIR_TO_VEC[world.agentDir];
  return getCell(world, world.agentPos[0] + dx, world.agentPos[1] + dy)?.type ?? "empty";
}

/** NoCue masks: the view cells of the cue type in the frames `early(t)` selects, at most NOCUE_MAX_FRAMES frames. */
function cueMasks(full: Trajectory, cueType: "key" | "ball" | "lava", early: (t: number) => boolean, at?: Vec): Array<Set<string>> {
  const masks = full.views.map(() => new Set<string>());
  let frames = 0;
  full.rollout.worlds.forEach((world, t) => {
    if (frames >= NOCUE_MAX_FRAMES || !early(t)) return;
    const view = full.views[t];
    const cells: string[] = [];
    for (let y = 0; y < VIEW_SIZE; y++) {
      for (let x = 0; x < VIEW_SIZE; x++) {
        const index = y * VIEW_SIZE + x;
        if (y === 6 && x === 3) continue; // the agent's own cell (what it carries)
        if (view.visible[index] && view.cells[index]?.type === cueType) {
          if (at === undefined || same(viewToWorld(world, x, y), at)) cells.push(`${x},${y}`);
        }
      }
    }
    if (cells.length === 0) return;
    for (const cell of cells) masks[t].add(cell);
    frames++;
  });
  return masks;
}

/** `find_sight`: the first frame from `start` whose view holds `type`, else 0. */
export function findSight(trajectory: Trajectory, type: string, start = 0): number {
  for (let t = Math.max(0, start); t < trajectory.views.length; t++) if (visibleTypes(trajectory.views[t]).has(type)) return t;
  return 0;
}

/** `find_action`: the first step from `start` taking `action`, else 0. */
export function findAction(trajectory: Trajectory, action: GridwmAction, start = 0): number {
  const actions = trajectory.rollout.actions;
  for (let t = Math.max(0, start); t < actions.length; t++) if (actions[t] === action) return t;
  return 0;
}

/** numpy.linspace(start, stop, num). */
export function linspace(start: number, stop: number, num: number): number[] {
  if (num === 1) return [start];
  const step = (stop - start) / (num - 1);
  return Array.from({ length: num }, (_, i) => (i === num - 1 ? stop : start + i * step));
}

const sortedUnique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

/** build_exam.py `sb_dispatch` with `sb_doorkey`, `sb_lavagap` and `sb_memory`. */
export function keyFrameIndices(env: EnvName, trajectory: Trajectory, k = STORYBOARD_FRAMES): number[] {
  const n = trajectory.views.length;
  let raw: number[];
  if (env === "doorkey") {
    const tKey = findSight(trajectory, "key");
    const tPick = findAction(trajectory, "pickup");
    const tDoor = findSight(trajectory, "door", tPick);
    const tToggle = findAction(trajectory, "toggle", tDoor);
    raw = sortedUnique([0, tKey, tPick, Math.min(n - 1, tPick + 1), tDoor, tToggle, Math.min(n - 1, tToggle + 1), n - 1]);
  } else if (env === "memory") {
    const tCue = Math.max(findSight(trajectory, "ball"), findSight(trajectory, "key"));
    const middle = linspace(tCue, n - 1, Math.max(2, k - 2)).map(Math.trunc);
    raw = sortedUnique([0, tCue, ...middle, n - 1]);
  } else {
    const tLava = findSight(trajectory, "lava");
    const tGoal = findSight(trajectory, "goal", tLava);
    raw = sortedUnique([0, tLava, Math.trunc((tLava + tGoal) / 2), tGoal, n - 1]);
  }
  if (raw.length < 2) raw = [0, n - 1];
  const picked = linspace(0, raw.length - 1, k).map((i) => raw[Math.trunc(i)]);
  return picked.map((t) => Math.max(0, Math.min(n - 1, t))).sort((a, b) => a - b);
}

/** DoorKey cf: the goal moved to a free cell the full trajectory never stands on or faces. */
function doorKeyCounterfactual(world: World, full: Trajectory, rng: Rng): World | null {
  const forbidden = new Set<string>();
  for (const w of full.rollout.worlds) {
    forbidden.add(w.agentPos.join(","));
    const [dx, dy] = DIR_TO_VEC[w.agentDir];
    forbidden.add(`${w.agentPos[0] + dx},${w.agentPos[1] + dy}`);
  }
  let goalPos: Vec | null = null;
  const candidates: Vec[] = [];
  for (let y = 0; y < world.height; y++) {
    for (let x = 0; x < world.width; x++) {
      const cell = getCell(world, x, y);
      if (cell?.type === "goal") goalPos = [x, y];
      else if (cell === null && !forbidden.has(`${x},${y}`)) candidates.push([x, y]);
    }
  }
  if (goalPos === null || candidates.length === 0) return null;
  const target = candidates[Math.floor(rng() * candidates.length)];
  const cf = cloneWorld(world);
  setCell(cf, goalPos[0], goalPos[1], null);
  setCell(cf, target[0], target[1], goal());
  return cf;
}

/** LavaGap cf: the gap moved elsewhere in the lava column. */
function lavaGapCounterfactual(world: World, rng: Rng): World {
  const { x, gapY } = lavaGap(world);
  const others = Array.from({ length: world.height - 2 }, (_, i) => i + 1).filter((y) => y !== gapY);
  const newGap = others[Math.floor(rng() * others.length)];
  const cf = cloneWorld(world);
  setCell(cf, x, gapY, lava());
  setCell(cf, x, newGap, null);
  return cf;
}

/** Memory cf: the two objects at the end of the hallway swapped (the success and failure cells swap with them). */
function memoryCounterfactual(world: World): World {
  const cf = cloneWorld(world);
  const { successPos, failurePos } = world.memory!;
  // the objects sit one cell beyond the success / failure cells, away from the hallway
  const objectOf = (pos: Vec): Vec => [pos[0], pos[1] + (pos[1] < Math.floor(world.height / 2) ? -1 : 1)];
  const a = objectOf(successPos);
  const b = objectOf(failurePos);
  const cellA = getCell(world, a[0], a[1]);
  setCell(cf, a[0], a[1], getCell(world, b[0], b[1]));
  setCell(cf, b[0], b[1], cellA);
  cf.memory = { successPos: [...failurePos], failurePos: [...successPos] };
  return cf;
}

/** The Memory cue: the object in the start room (MiniGrid puts it at (1, height // 2 - 1)). */
export function memoryCuePos(world: World): Vec {
  return [1, Math.floor(world.height / 2) - 1];
}

/**
 * One base case, or null when this world does not give one (no plan, no cue to mask, no
 * counterfactual that fails). Memory plans start by turning to face the start room (two lefts), so
 * that the cue is in view: a judge cannot tell the matching object without having seen it.
 */
export function buildBaseCase(env: EnvName, group: string, worldSeed: number): BaseCase | null {
  const world = makeWorld(env, worldSeed);
  const lead: GridwmAction[] = env === "memory" ? ["left", "left"] : [];
  const afterLead = rollout(world, lead).worlds.at(-1)!;
  const plan = planShortest(afterLead);
  if (plan === null) return null;
  const actions = [...lead, ...plan];
  const fullRun = rollout(world, actions);
  if (!fullRun.success || fullRun.actions.length !== actions.length) return null;
  const full = trajectoryOf(fullRun);

  const rng = mulberry32(deriveSeed(worldSeed, group, "cf"));

  let masks: Array<Set<string>>;
  let cfWorld: World | null;
  if (env === "doorkey") {
    const pickup = fullRun.actions.findIndex((action, t) => action === "pickup" && frontType(fullRun.worlds[t]) === "key");
    if (pickup < 0) return null;
    masks = cueMasks(full, "key", (t) => t < pickup && frontType(fullRun.worlds[t]) !== "key");
    cfWorld = doorKeyCounterfactual(world, full, rng);
  } else if (env === "lavagap") {
    const { x } = lavaGap(world);
    masks = cueMasks(full, "lava", (t) => fullRun.worlds[t].agentPos[0] < x);
    cfWorld = lavaGapCounterfactual(world, rng);
  } else {
    const cue = getCell(world, ...memoryCuePos(world));
    if (cue === null || (cue.type !== "key" && cue.type !== "ball")) return null;
    const seen = full.rollout.worlds.some((w, t) => viewCellsShowing(w, full.views[t], memoryCuePos(world)).length > 0);
    if (!seen) return null;
    masks = cueMasks(full, cue.type, () => true, memoryCuePos(world));
    cfWorld = memoryCounterfactual(world);
  }
  if (!masks.some((mask) => mask.size > 0) || cfWorld === null) return null;
  const cfRun = rollout(cfWorld, actions);
  if (cfRun.success || cfRun.truncated) return null;
  const cf = trajectoryOf(cfRun);
  const nocue = trajectoryOf(fullRun, masks);

  const fullFrames = keyFrameIndices(env, full);
  return {
    env,
    group,
    worldSeed,
    mission: world.mission,
    actions,
    trajectories: { full, nocue, cf },
    // as build_exam.py: nocue reuses full's key frames (same length), cf picks its own
    keyFrames: { full: fullFrames, nocue: fullFrames, cf: keyFrameIndices(env, cf) },
  };
}

/** The base cases of one environment: `count` of them, seeds tried in order from the batch seed. */
export function buildBaseCases(seed: number, env: EnvName, count: number, prefix = ""): BaseCase[] {
  const cases: BaseCase[] = [];
  for (let attempt = 0; cases.length < count && attempt < count * 50; attempt++) {
    const worldSeed = deriveSeed(seed, "gridwm", env, prefix, attempt);
    const group = `${env}-${prefix}${String(cases.length + 1).padStart(2, "0")}`;
    const built = buildBaseCase(env, group, worldSeed);
    if (built) cases.push(built);
  }
  if (cases.length < count) throw new Error(`buildBaseCases could make only ${cases.length} of ${count} ${env} base cases`);
  return cases;
}
