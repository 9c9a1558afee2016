/**
 * A small MiniGrid-compatible grid world (Chevalier-Boisvert et al., "Minigrid & Miniworld",
 * NeurIPS 2023 Datasets and Benchmarks; package `minigrid`, `minigrid/core/world_object.py`,
 * `grid.py`, `minigrid_env.py`), enough to make GridWM-Judge demo data without MiniGrid:
 *
 * - objects: wall, floor, door (open / closed / locked), key, ball, box (with contents), goal, lava,
 *   with MiniGrid's can_overlap / can_pickup / see_behind / toggle rules;
 * - the agent: position, direction (MiniGrid's agent_dir: 0 east, 1 south, 2 west, 3 north), the
 *   carried object; actions left, right, forward, pickup, drop, toggle, done as `MiniGridEnv.step`
 *   (forward onto the goal ends with reward 1 - 0.9 * steps / max_steps, onto lava ends with 0);
 * - the 7x7 egocentric view of `gen_obs_grid`: the slice in front of the agent (out-of-grid cells
 *   are walls), rotated so that the agent faces up at (3, 6), `Grid.process_vis` occlusion, and the
 *   carried object at the agent's cell;
 * - three environments with MiniGrid's layouts: DoorKey (`DoorKeyEnv`), LavaGap (`LavaGapEnv`) and
 *   Memory (`MemoryEnv`, whose pickup acts as toggle and which ends at the success or failure cell).
 *
 * Worlds are plain values: `step` returns a new world and never changes its argument.
 */
import { mulberry32, type Rng } from "@/lib/stats/rng";
import type { GridwmAction, GridwmColor } from "@/lib/tasks/shared/gridwm/common";

export type Dir = 0 | 1 | 2 | 3;
export type Vec = [number, number];

/** MiniGrid's DIR_TO_VEC: 0 east (+x), 1 south (+y), 2 west, 3 north. */
export const DIR_TO_VEC: readonly Vec[] = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
];

export const VIEW_SIZE = 7;
/** Where the agent stands in its own view: bottom row, middle column, facing up. */
export const VIEW_AGENT: Vec = [3, 6];

export type WorldObject =
  | { type: "wall"; color: GridwmColor }
  | { type: "floor"; color: GridwmColor }
  | { type: "door"; color: GridwmColor; isOpen: boolean; isLocked: boolean }
  | { type: "key"; color: GridwmColor }
  | { type: "ball"; color: GridwmColor }
  | { type: "box"; color: GridwmColor; contains: WorldObject | null }
  | { type: "goal"; color: GridwmColor }
  | { type: "lava"; color: GridwmColor };

export type Cell = WorldObject | null;
export type EnvName = "doorkey" | "lavagap" | "memory";

export interface World {
  env: EnvName;
  width: number;
  height: number;
  /** row-major: cells[y * width + x] */
  cells: Cell[];
  agentPos: Vec;
  agentDir: Dir;
  carrying: WorldObject | null;
  mission: string;
  stepCount: number;
  maxSteps: number;
  /** Memory: reaching successPos wins, failurePos loses */
  memory?: { successPos: Vec; failurePos: Vec };
}

export interface StepResult {
  world: World;
  reward: number;
  terminated: boolean;
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// Objects

export const wall = (): WorldObject => ({ type: "wall", color: "grey" });
export const goal = (): WorldObject => ({ type: "goal", color: "green" });
export const lava = (): WorldObject => ({ type: "lava", color: "red" });
export const key = (color: GridwmColor): WorldObject => ({ type: "key", color });
export const ball = (color: GridwmColor): WorldObject => ({ type: "ball", color });
export const box = (color: GridwmColor, contains: WorldObject | null = null): WorldObject => ({ type: "box", color, contains });
export const door = (color: GridwmColor, state: "open" | "closed" | "locked"): WorldObject => ({
  type: "door",
  color,
  isOpen: state === "open",
  isLocked: state === "locked",
});

/** `WorldObj.can_overlap`: floor, goal, lava and open doors. */
export function canOverlap(cell: Cell): boolean {
  if (cell === null) return true;
  if (cell.type === "door") return cell.isOpen;
  return cell.type === "floor" || cell.type === "goal" || cell.type === "lava";
}

/** `WorldObj.can_pickup`: keys, balls and boxes. */
export function canPickup(cell: Cell): boolean {
  return cell !== null && (cell.type === "key" || cell.type === "ball" || cell.type === "box");
}

/** `WorldObj.see_behind`: everything but walls and doors that are not open. */
export function seeBehind(cell: Cell): boolean {
  if (cell === null) return true;
  if (cell.type === "wall") return false;
  if (cell.type === "door") return cell.isOpen;
  return true;
}

/** MiniGrid's door state encoding: 0 open, 1 closed, 2 locked; 0 for every other object. */
export function objectState(object: WorldObject): number {
  if (object.type !== "door") return 0;
  return object.isLocked ? 2 : object.isOpen ? 0 : 1;
}

function cloneObject(object: WorldObject): WorldObject {
  return object.type === "box" ? { ...object, contains: object.contains && cloneObject(object.contains) } : { ...object };
}

// ---------------------------------------------------------------------------------------------
// Grid access

export function emptyWorld(env: EnvName, width: number, height: number, mission: string): World {
  return {
    env,
    width,
    height,
    cells: new Array<Cell>(width * height).fill(null),
    agentPos: [1, 1],
    agentDir: 0,
    carrying: null,
    mission,
    stepCount: 0,
    maxSteps: 10 * width * height,
  };
}

export function inBounds(world: Pick<World, "width" | "height">, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < world.width && y < world.height;
}

export function getCell(world: World, x: number, y: number): Cell {
  return inBounds(world, x, y) ? world.cells[y * world.width + x] : null;
}

/** Sets a cell in place (for building worlds; `step` copies first). */
export function setCell(world: World, x: number, y: number, cell: Cell): void {
  if (!inBounds(world, x, y)) throw new Error(`setCell requires a position inside the ${world.width}x${world.height} grid (got ${x}, ${y})`);
  world.cells[y * world.width + x] = cell;
}

/** `Grid.wall_rect`: walls around the rectangle. */
export function wallRect(world: World, x: number, y: number, w: number, h: number): void {
  for (let i = 0; i < w; i++) {
    setCell(world, x + i, y, wall());
    setCell(world, x + i, y + h - 1, wall());
  }
  for (let j = 0; j < h; j++) {
    setCell(world, x, y + j, wall());
    setCell(world, x + w - 1, y + j, wall());
  }
}

export function cloneWorld(world: World): World {
  return {
    ...world,
    cells: world.cells.map((cell) => cell && cloneObject(cell)),
    agentPos: [...world.agentPos],
    carrying: world.carrying && cloneObject(world.carrying),
    memory: world.memory && { successPos: [...world.memory.successPos], failurePos: [...world.memory.failurePos] },
  };
}

/** `MiniGridEnv.front_pos`. */
export function frontPos(world: World): Vec {
  const [dx, dy] = DIR_TO_VEC[world.agentDir];
  return [world.agentPos[0] + dx, world.agentPos[1] + dy];
}

// ---------------------------------------------------------------------------------------------
// Dynamics

/**
 * One step, as `MiniGridEnv.step` (and `MemoryEnv.step`): returns the next world and what the
 * environment reports. A world that has ended is not stepped further by callers.
 */
export function step(world: World, action: GridwmAction): StepResult {
  const next = cloneWorld(world);
  next.stepCount += 1;
  let reward = 0;
  let terminated = false;
  // MemoryEnv: "pickup" acts as "toggle"
  const act: GridwmAction = world.env === "memory" && action === "pickup" ? "toggle" : action;
  const [fx, fy] = frontPos(next);
  const front = getCell(next, fx, fy);
  switch (act) {
    case "left":
      next.agentDir = ((next.agentDir + 3) % 4) as Dir;
      break;
    case "right":
      next.agentDir = ((next.agentDir + 1) % 4) as Dir;
      break;
    case "forward":
      if (canOverlap(front)) next.agentPos = [fx, fy];
      if (front?.type === "goal") {
        terminated = true;
        reward = 1 - 0.9 * (next.stepCount / next.maxSteps);
      }
      if (front?.type === "lava") terminated = true;
      break;
    case "pickup":
      if (front !== null && canPickup(front) && next.carrying === null) {
        next.carrying = front;
        setCell(next, fx, fy, null);
      }
      break;
    case "drop":
      if (front === null && next.carrying !== null) {
        setCell(next, fx, fy, next.carrying);
        next.carrying = null;
      }
      break;
    case "toggle":
      if (front?.type === "door") {
        if (front.isLocked) {
          if (next.carrying?.type === "key" && next.carrying.color === front.color) {
            front.isLocked = false;
            front.isOpen = true;
          }
        } else {
          front.isOpen = !front.isOpen;
        }
      } else if (front?.type === "box") {
        setCell(next, fx, fy, front.contains);
      }
      break;
    case "done":
      break;
  }
  if (next.memory) {
    const at = (pos: Vec) => next.agentPos[0] === pos[0] && next.agentPos[1] === pos[1];
    if (at(next.memory.successPos)) {
      reward = 1 - 0.9 * (next.stepCount / next.maxSteps);
      terminated = true;
    } else if (at(next.memory.failurePos)) {
      reward = 0;
      terminated = true;
    }
  }
  return { world: next, reward, terminated, truncated: next.stepCount >= next.maxSteps };
}

// ---------------------------------------------------------------------------------------------
// The egocentric view

export interface View {
  /** VIEW_SIZE x VIEW_SIZE cells, row-major, the agent at VIEW_AGENT facing up; hidden cells null */
  cells: Cell[];
  /** which cells the agent sees (`process_vis`) */
  visible: boolean[];
}

/** `Grid.rotate_left`: new (j, width - 1 - i) = old (i, j), for a square grid. */
function rotateLeft(cells: Cell[], size: number): Cell[] {
  const out = new Array<Cell>(size * size).fill(null);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) out[(size - 1 - i) * size + j] = cells[j * size + i];
  }
  return out;
}

/** `Grid.process_vis`: what the agent at `agent` (facing up) sees; cells behind walls and closed doors are hidden. */
export function processVis(cells: Cell[], size: number, agent: Vec): boolean[] {
  const mask = new Array<boolean>(size * size).fill(false);
  const at = (i: number, j: number) => j * size + i;
  mask[at(agent[0], agent[1])] = true;
  for (let j = size - 1; j >= 0; j--) {
    for (let i = 0; i < size - 1; i++) {
      if (!mask[at(i, j)] || !seeBehind(cells[at(i, j)])) continue;
      mask[at(i + 1, j)] = true;
      if (j > 0) {
        mask[at(i + 1, j - 1)] = true;
        mask[at(i, j - 1)] = true;
      }
    }
    for (let i = size - 1; i > 0; i--) {
      if (!mask[at(i, j)] || !seeBehind(cells[at(i, j)])) continue;
      mask[at(i - 1, j)] = true;
      if (j > 0) {
        mask[at(i - 1, j - 1)] = true;
        mask[at(i, j - 1)] = true;
      }
    }
  }
  return mask;
}

/** `MiniGridEnv.get_view_exts`: the top-left world cell of the slice the view is cut from. */
function viewTopLeft(world: World): Vec {
  const [ax, ay] = world.agentPos;
  const half = Math.floor(VIEW_SIZE / 2);
  switch (world.agentDir) {
    case 0:
      return [ax, ay - half];
    case 1:
      return [ax - half, ay];
    case 2:
      return [ax - VIEW_SIZE + 1, ay - half];
    default:
      return [ax - half, ay - VIEW_SIZE + 1];
  }
}

/** `MiniGridEnv.gen_obs_grid`: the 7x7 view with occlusion, the carried object at the agent's cell. */
export function egocentricView(world: World): View {
  const [topX, topY] = viewTopLeft(world);
  let cells = new Array<Cell>(VIEW_SIZE * VIEW_SIZE).fill(null);
  for (let j = 0; j < VIEW_SIZE; j++) {
    for (let i = 0; i < VIEW_SIZE; i++) {
      const x = topX + i;
      const y = topY + j;
      cells[j * VIEW_SIZE + i] = inBounds(world, x, y) ? getCell(world, x, y) : wall();
    }
  }
  for (let k = 0; k < world.agentDir + 1; k++) cells = rotateLeft(cells, VIEW_SIZE);
  const visible = processVis(cells, VIEW_SIZE, VIEW_AGENT);
  cells = cells.map((cell, index) => (visible[index] ? cell && cloneObject(cell) : null));
  cells[VIEW_AGENT[1] * VIEW_SIZE + VIEW_AGENT[0]] = world.carrying && cloneObject(world.carrying);
  return { cells, visible };
}

/**
 * The world cell a view cell shows: forward distance 6 - vy along the agent's direction, lateral
 * offset vx - 3 to its right (MiniGrid's right_vec = (-dy, dx)).
 */
export function viewToWorld(world: World, vx: number, vy: number): Vec {
  const [dx, dy] = DIR_TO_VEC[world.agentDir];
  const forward = VIEW_AGENT[1] - vy;
  const right = vx - VIEW_AGENT[0];
  return [world.agentPos[0] + forward * dx - right * dy, world.agentPos[1] + forward * dy + right * dx];
}

/** `WorldObj.encode` / `Grid.encode`: one text per view, equal for views that look the same. */
export function viewSignature(view: View): string {
  return view.cells
    .map((cell, i) => (!view.visible[i] && cell === null ? "?" : cell === null ? "." : `${cell.type}:${cell.color}:${objectState(cell)}`))
    .join(",");
}

/** The object types in a view (as build_exam's visible_types_gt: no unseen, empty, wall, floor). */
export function visibleTypes(view: View): Set<string> {
  const types = new Set<string>();
  for (const cell of view.cells) if (cell && !["wall", "floor"].includes(cell.type)) types.add(cell.type);
  return types;
}

// ---------------------------------------------------------------------------------------------
// Environments (MiniGrid's layouts; `_rand_int(low, high)` draws from low..high-1)

function randInt(rng: Rng, low: number, high: number): number {
  return low + Math.floor(rng() * (high - low));
}

const DOORKEY_MISSION = "use the key to open the door and then get to the goal";
const LAVAGAP_MISSION = "avoid the lava and get to the green goal square";
const MEMORY_MISSION = "go to the matching object at the end of the hallway";

/** `DoorKeyEnv._gen_grid`: a wall splits the room; a locked yellow door; the yellow key and the agent on the left; the goal bottom right. */
export function makeDoorKey(seed: number, size = 7): World {
  const rng = mulberry32(seed);
  const world = emptyWorld("doorkey", size, size, DOORKEY_MISSION);
  wallRect(world, 0, 0, size, size);
  setCell(world, size - 2, size - 2, goal());
  const split = randInt(rng, 2, size - 2);
  for (let y = 0; y < size; y++) setCell(world, split, y, wall());
  // place_agent(size=(split, height)): a random free cell left of the wall, a random direction
  const free = (x0: number, x1: number) => {
    const cells: Vec[] = [];
    for (let y = 1; y < size - 1; y++) for (let x = x0; x < x1; x++) if (getCell(world, x, y) === null) cells.push([x, y]);
    return cells;
  };
  const agentCells = free(1, split);
  world.agentPos = agentCells[randInt(rng, 0, agentCells.length)];
  world.agentDir = randInt(rng, 0, 4) as Dir;
  const doorY = randInt(rng, 1, size - 2);
  setCell(world, split, doorY, door("yellow", "locked"));
  const keyCells = free(1, split).filter(([x, y]) => x !== world.agentPos[0] || y !== world.agentPos[1]);
  const [kx, ky] = keyCells[randInt(rng, 0, keyCells.length)];
  setCell(world, kx, ky, key("yellow"));
  return world;
}

/** `LavaGapEnv._gen_grid`: a lava column with one gap between the agent (top left, facing east) and the goal (bottom right). */
export function makeLavaGap(seed: number, size = 7): World {
  const rng = mulberry32(seed);
  const world = emptyWorld("lavagap", size, size, LAVAGAP_MISSION);
  wallRect(world, 0, 0, size, size);
  world.agentPos = [1, 1];
  world.agentDir = 0;
  setCell(world, size - 2, size - 2, goal());
  const gapX = randInt(rng, 2, size - 2);
  const gapY = randInt(rng, 1, size - 1);
  for (let y = 1; y < size - 1; y++) setCell(world, gapX, y, y === gapY ? null : lava());
  return world;
}

/** The lava column's x and its gap's y in a LavaGap world. */
export function lavaGap(world: World): { x: number; gapY: number } {
  for (let x = 1; x < world.width - 1; x++) {
    const column = Array.from({ length: world.height - 2 }, (_, i) => getCell(world, x, i + 1));
    if (column.some((cell) => cell?.type === "lava")) return { x, gapY: column.findIndex((cell) => cell === null) + 1 };
  }
  throw new Error("lavaGap requires a LavaGap world");
}

/**
 * `MemoryEnv._gen_grid` (size 7: width 7, height 7): a start room with a green key or ball (the
 * cue), a hallway to a vertical corridor with a green key and a green ball; reaching the cell next
 * to the object that matches the cue wins, the other loses.
 */
export function makeMemory(seed: number, size = 7): World {
  const rng = mulberry32(seed);
  const height = 7;
  const world = emptyWorld("memory", size, height, MEMORY_MISSION);
  wallRect(world, 0, 0, size, height);
  const mid = Math.floor(height / 2);
  const upperRoomWall = mid - 2;
  const lowerRoomWall = mid + 2;
  const hallwayEnd = size - 3;
  for (let i = 1; i < 5; i++) {
    setCell(world, i, upperRoomWall, wall());
    setCell(world, i, lowerRoomWall, wall());
  }
  setCell(world, 4, upperRoomWall + 1, wall());
  setCell(world, 4, lowerRoomWall - 1, wall());
  for (let i = 5; i < hallwayEnd; i++) {
    setCell(world, i, upperRoomWall + 1, wall());
    setCell(world, i, lowerRoomWall - 1, wall());
  }
  for (let j = 0; j < height; j++) {
    if (j !== mid) setCell(world, hallwayEnd, j, wall());
    setCell(world, hallwayEnd + 2, j, wall());
  }
  world.agentPos = [randInt(rng, 1, hallwayEnd + 1), mid];
  world.agentDir = 0;
  const cue: "key" | "ball" = rng() < 0.5 ? "key" : "ball";
  setCell(world, 1, mid - 1, cue === "key" ? key("green") : ball("green"));
  const others: ["key" | "ball", "key" | "ball"] = rng() < 0.5 ? ["ball", "key"] : ["key", "ball"];
  const pos0: Vec = [hallwayEnd + 1, mid - 2];
  const pos1: Vec = [hallwayEnd + 1, mid + 2];
  const make = (type: "key" | "ball") => (type === "key" ? key("green") : ball("green"));
  setCell(world, pos0[0], pos0[1], make(others[0]));
  setCell(world, pos1[0], pos1[1], make(others[1]));
  world.memory =
    cue === others[0]
      ? { successPos: [pos0[0], pos0[1] + 1], failurePos: [pos1[0], pos1[1] - 1] }
      : { successPos: [pos1[0], pos1[1] - 1], failurePos: [pos0[0], pos0[1] + 1] };
  return world;
}

export function makeWorld(env: EnvName, seed: number): World {
  return env === "doorkey" ? makeDoorKey(seed) : env === "lavagap" ? makeLavaGap(seed) : makeMemory(seed);
}

// ---------------------------------------------------------------------------------------------
// Planning and rollouts

function stateKey(world: World): string {
  const cells = world.cells.map((cell) => (cell ? `${cell.type}${cell.color}${objectState(cell)}` : "")).join(",");
  const carrying = world.carrying ? `${world.carrying.type}${world.carrying.color}` : "";
  return `${world.agentPos.join(":")}|${world.agentDir}|${carrying}|${cells}`;
}

const PLAN_ACTIONS: GridwmAction[] = ["left", "right", "forward", "pickup", "toggle"];

/**
 * The shortest action sequence that ends with a reward (breadth-first over whole world states,
 * actions tried in the order left, right, forward, pickup, toggle; episodes that end without a
 * reward are dead ends). Null when there is none within `maxNodes` states.
 */
export function planShortest(world: World, maxNodes = 200_000): GridwmAction[] | null {
  const start = stateKey(world);
  const parent = new Map<string, { previous: string | null; action: GridwmAction | null }>([[start, { previous: null, action: null }]]);
  let frontier: World[] = [world];
  while (frontier.length > 0 && parent.size < maxNodes) {
    const next: World[] = [];
    for (const current of frontier) {
      const currentKey = stateKey(current);
      for (const action of PLAN_ACTIONS) {
        const result = step(current, action);
        const resultKey = stateKey(result.world);
        if (parent.has(resultKey)) continue;
        parent.set(resultKey, { previous: currentKey, action });
        if (result.terminated && result.reward > 0) {
          const actions: GridwmAction[] = [];
          for (let key = resultKey; ;) {
            const entry = parent.get(key)!;
            if (entry.previous === null) break;
            actions.push(entry.action!);
            key = entry.previous;
          }
          return actions.reverse();
        }
        if (!result.terminated && !result.truncated) next.push(result.world);
      }
    }
    frontier = next;
  }
  return null;
}

export interface Rollout {
  /** worlds[0] is the start; worlds[t + 1] follows actions[t]; stops when the episode ends */
  worlds: World[];
  /** the actions taken (fewer than asked when the episode ended early) */
  actions: GridwmAction[];
  reward: number;
  terminated: boolean;
  truncated: boolean;
  /** ended with a reward, as the release's `success = terminated and reward > 0` */
  success: boolean;
}

export function rollout(world: World, actions: readonly GridwmAction[]): Rollout {
  const worlds = [world];
  const taken: GridwmAction[] = [];
  let reward = 0;
  let terminated = false;
  let truncated = false;
  for (const action of actions) {
    const result = step(worlds[worlds.length - 1], action);
    worlds.push(result.world);
    taken.push(action);
    reward += result.reward;
    terminated ||= result.terminated;
    truncated ||= result.truncated;
    if (result.terminated || result.truncated) break;
  }
  return { worlds, actions: taken, reward, terminated, truncated, success: terminated && reward > 0 };
}
