import { describe, expect, it } from "vitest";
import {
  VIEW_SIZE,
  ball,
  box,
  door,
  egocentricView,
  emptyWorld,
  frontPos,
  getCell,
  goal,
  key,
  lava,
  makeDoorKey,
  makeLavaGap,
  makeMemory,
  planShortest,
  processVis,
  rollout,
  setCell,
  step,
  viewSignature,
  viewToWorld,
  wall,
  wallRect,
  type Cell,
  type Dir,
  type World,
} from "@/scripts/demo-data/gridwm/world";

/** A 9x9 room with walls around, the agent at (4, 4) facing `dir`. */
function room(dir: Dir = 0, size = 9): World {
  const world = emptyWorld("doorkey", size, size, "test");
  wallRect(world, 0, 0, size, size);
  world.agentPos = [4, 4];
  world.agentDir = dir;
  return world;
}

const viewCell = (world: World, x: number, y: number): Cell => egocentricView(world).cells[y * VIEW_SIZE + x];

describe("MiniGrid rules", () => {
  it("turns left counter-clockwise and right clockwise (0 east, 1 south, 2 west, 3 north)", () => {
    expect(step(room(0), "left").world.agentDir).toBe(3);
    expect(step(room(3), "right").world.agentDir).toBe(0);
    expect(step(room(1), "right").world.agentDir).toBe(2);
    expect(frontPos(room(3))).toEqual([4, 3]);
  });

  it("moves forward onto empty cells but not through walls, closed or locked doors, keys or balls", () => {
    expect(step(room(0), "forward").world.agentPos).toEqual([5, 4]);
    for (const blocker of [wall(), door("red", "closed"), door("red", "locked"), key("red"), ball("blue"), box("green")]) {
      const world = room(0);
      setCell(world, 5, 4, blocker);
      expect(step(world, "forward").world.agentPos).toEqual([4, 4]);
    }
    const open = room(0);
    setCell(open, 5, 4, door("red", "open"));
    expect(step(open, "forward").world.agentPos).toEqual([5, 4]);
  });

  it("ends on lava without reward and on the goal with MiniGrid's reward", () => {
    const lavaWorld = room(0);
    setCell(lavaWorld, 5, 4, lava());
    expect(step(lavaWorld, "forward")).toMatchObject({ reward: 0, terminated: true, world: { agentPos: [5, 4] } });
    const goalWorld = room(0);
    setCell(goalWorld, 5, 4, goal());
    const result = step(goalWorld, "forward");
    expect(result.terminated).toBe(true);
    expect(result.reward).toBeCloseTo(1 - 0.9 * (1 / goalWorld.maxSteps), 12);
    expect(rollout(lavaWorld, ["forward", "left", "left"]).actions).toEqual(["forward"]);
  });

  it("toggles a closed door open and shut, and unlocks a locked one only with a key of its colour", () => {
    const closed = room(0);
    setCell(closed, 5, 4, door("yellow", "closed"));
    const opened = step(closed, "toggle").world;
    expect(getCell(opened, 5, 4)).toMatchObject({ isOpen: true, isLocked: false });
    expect(getCell(step(opened, "toggle").world, 5, 4)).toMatchObject({ isOpen: false });
    expect(getCell(closed, 5, 4)).toMatchObject({ isOpen: false }); // step never changes its argument

    const locked = room(0);
    setCell(locked, 5, 4, door("yellow", "locked"));
    expect(getCell(step(locked, "toggle").world, 5, 4)).toMatchObject({ isLocked: true, isOpen: false });
    expect(getCell(step({ ...locked, carrying: key("red") }, "toggle").world, 5, 4)).toMatchObject({ isLocked: true });
    expect(getCell(step({ ...locked, carrying: ball("yellow") }, "toggle").world, 5, 4)).toMatchObject({ isLocked: true });
    expect(getCell(step({ ...locked, carrying: key("yellow") }, "toggle").world, 5, 4)).toMatchObject({ isLocked: false, isOpen: true });
  });

  it("picks up only with empty hands, drops only onto an empty cell, and a toggled box leaves its contents", () => {
    const world = room(0);
    setCell(world, 5, 4, key("blue"));
    const holding = step(world, "pickup").world;
    expect(holding.carrying).toEqual(key("blue"));
    expect(getCell(holding, 5, 4)).toBeNull();
    setCell(holding, 5, 4, ball("red"));
    expect(step(holding, "pickup").world.carrying).toEqual(key("blue"));
    expect(step(holding, "drop").world.carrying).toEqual(key("blue"));
    const cleared = { ...holding, cells: holding.cells.map((cell, i) => (i === 4 * 9 + 5 ? null : cell)) };
    const dropped = step(cleared, "drop").world;
    expect(dropped.carrying).toBeNull();
    expect(getCell(dropped, 5, 4)).toEqual(key("blue"));
    const boxed = room(0);
    setCell(boxed, 5, 4, box("purple", ball("green")));
    expect(getCell(step(boxed, "toggle").world, 5, 4)).toEqual(ball("green"));
    expect(step(room(0), "done").world).toMatchObject({ agentPos: [4, 4], agentDir: 0, stepCount: 1 });
  });

  it("Memory: pickup acts as toggle; the cell by the matching object wins, the other loses", () => {
    const world = makeMemory(5);
    const { successPos, failurePos } = world.memory!;
    const at = (pos: [number, number], dir: Dir): World => ({ ...world, agentPos: [pos[0], 3], agentDir: dir });
    // from the corridor cell (5, 3), step north or south onto the success / failure cell
    const towards = (pos: [number, number]): Dir => (pos[1] < 3 ? 3 : 1);
    expect(step(at(successPos, towards(successPos)), "forward")).toMatchObject({ terminated: true });
    expect(step(at(successPos, towards(successPos)), "forward").reward).toBeGreaterThan(0);
    expect(step(at(failurePos, towards(failurePos)), "forward")).toMatchObject({ terminated: true, reward: 0 });
    const cue = getCell(world, 1, 2);
    expect(cue?.type === "key" || cue?.type === "ball").toBe(true);
    const objectBySuccess = getCell(world, successPos[0], successPos[1] + (successPos[1] < 3 ? -1 : 1));
    expect(objectBySuccess?.type).toBe(cue?.type);
  });

  it("plans shortest successful episodes in DoorKey, LavaGap and Memory", () => {
    for (const world of [makeDoorKey(1), makeLavaGap(2), makeMemory(3)]) {
      const plan = planShortest(world);
      expect(plan).not.toBeNull();
      const run = rollout(world, plan!);
      expect(run.success).toBe(true);
      // one action fewer never suffices (breadth-first)
      expect(rollout(world, plan!.slice(0, -1)).success).toBe(false);
    }
    expect(makeDoorKey(1).cells.some((cell) => cell?.type === "door" && cell.isLocked && cell.color === "yellow")).toBe(true);
  });
});

describe("the egocentric 7x7 view (gen_obs_grid)", () => {
  it("puts what is in front of the agent straight above it, whatever its direction", () => {
    for (const dir of [0, 1, 2, 3] as Dir[]) {
      const world = room(dir);
      const [fx, fy] = frontPos(world);
      setCell(world, fx, fy, ball("blue"));
      expect(viewCell(world, 3, 5)).toEqual(ball("blue"));
    }
  });

  it("puts the agent's right on the right of the view (facing north, east is right; facing east, south is right)", () => {
    const north = room(3);
    setCell(north, 5, 4, key("red"));
    expect(viewCell(north, 4, 6)).toEqual(key("red"));
    const east = room(0);
    setCell(east, 4, 5, key("red"));
    expect(viewCell(east, 4, 6)).toEqual(key("red"));
    const west = room(2);
    setCell(west, 4, 3, key("red"));
    expect(viewCell(west, 4, 6)).toEqual(key("red"));
  });

  it("agrees with the direction-vector mapping for every visible cell", () => {
    for (const dir of [0, 1, 2, 3] as Dir[]) {
      const world = room(dir, 11);
      world.agentPos = [5, 5];
      setCell(world, 6, 5, ball("red"));
      setCell(world, 5, 7, key("blue"));
      setCell(world, 3, 4, box("grey"));
      const view = egocentricView(world);
      for (let y = 0; y < VIEW_SIZE; y++) {
        for (let x = 0; x < VIEW_SIZE; x++) {
          if (!view.visible[y * VIEW_SIZE + x] || (x === 3 && y === 6)) continue;
          const [wx, wy] = viewToWorld(world, x, y);
          const expected = wx < 0 || wy < 0 || wx >= world.width || wy >= world.height ? wall() : getCell(world, wx, wy);
          expect(view.cells[y * VIEW_SIZE + x]).toEqual(expected);
        }
      }
    }
  });

  it("shows cells outside the grid as walls and the carried object at the agent's cell", () => {
    const world = room(3);
    world.agentPos = [1, 1];
    world.carrying = key("purple");
    const view = egocentricView(world);
    expect(view.cells[6 * VIEW_SIZE + 3]).toEqual(key("purple"));
    expect(view.cells[5 * VIEW_SIZE + 3]).toEqual(wall());
  });

  it("hides what is behind a wall row or a closed door, and shows it through an open door", () => {
    const world = room(3, 11);
    world.agentPos = [5, 8];
    for (let x = 1; x < 10; x++) setCell(world, x, 6, wall());
    setCell(world, 5, 6, door("red", "closed"));
    setCell(world, 5, 4, ball("green"));
    const closedView = egocentricView(world);
    // the wall row is view row 4 (two cells ahead); everything above it is hidden
    for (let y = 0; y < 4; y++) for (let x = 0; x < VIEW_SIZE; x++) expect(closedView.visible[y * VIEW_SIZE + x]).toBe(false);
    expect(closedView.cells[4 * VIEW_SIZE + 3]).toEqual(door("red", "closed"));
    setCell(world, 5, 6, door("red", "open"));
    const openView = egocentricView(world);
    expect(openView.visible[2 * VIEW_SIZE + 3]).toBe(true);
    expect(openView.cells[2 * VIEW_SIZE + 3]).toEqual(ball("green"));
    expect(viewSignature(openView)).not.toBe(viewSignature(closedView));
  });

  it("process_vis: a lone wall beside the agent's line still lets light past diagonally, as MiniGrid", () => {
    const cells = new Array<Cell>(49).fill(null);
    cells[5 * 7 + 3] = wall();
    const mask = processVis(cells, 7, [3, 6]);
    expect(mask[5 * 7 + 3]).toBe(true);
    expect(mask[4 * 7 + 3]).toBe(true);
  });
});

describe("environments are deterministic for a seed", () => {
  it("builds the same worlds from the same seeds and different ones from others", () => {
    expect(makeDoorKey(42)).toEqual(makeDoorKey(42));
    expect(makeLavaGap(42)).toEqual(makeLavaGap(42));
    expect(makeMemory(42)).toEqual(makeMemory(42));
    const layouts = new Set(Array.from({ length: 12 }, (_, seed) => JSON.stringify(makeDoorKey(seed).cells)));
    expect(layouts.size).toBeGreaterThan(3);
  });
});
