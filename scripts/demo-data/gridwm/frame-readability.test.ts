import { describe, expect, it } from "vitest";
import {
  DIR_TO_VEC,
  egocentricView,
  emptyWorld,
  getCell,
  key,
  objectState,
  setCell,
  wallRect,
  type Dir,
  type Vec,
  type World,
} from "@/scripts/demo-data/gridwm/world";
import { svgToPng, viewFrameSvg } from "@/scripts/demo-data/gridwm/render";
import {
  gridwmSceneJsonModule,
  sceneFieldReadability,
  type GridwmSceneJsonKey,
  type GridwmSceneJsonPublic,
  type SceneKeyJson,
} from "@/lib/tasks/gridwm-scene-json";
import type { TaskItem } from "@/lib/tasks/types";

/**
 * The released Task B exams pair the agent's own view (MiniGrid's `get_frame(agent_pov=True)`)
 * with a gold taken from the world (the generators' `extract_state`: world position, MiniGrid's
 * agent_dir, every object of the grid). Built here with the project's MiniGrid code: two worlds
 * whose frames are the same bytes and whose gold answers differ, in exactly the fields that
 * sceneFieldReadability says the frame cannot show.
 */

/** The gold as the release's extract_state writes it: every non-wall object, MiniGrid's direction. */
function releaseGold(world: World): SceneKeyJson {
  const [dx, dy] = DIR_TO_VEC[world.agentDir];
  const front: [number, number] = [world.agentPos[0] + dx, world.agentPos[1] + dy];
  const frontCell = getCell(world, front[0], front[1]);
  const objects: SceneKeyJson["objects"] = [];
  for (let x = 0; x < world.width; x++) {
    for (let y = 0; y < world.height; y++) {
      const cell = getCell(world, x, y);
      if (cell && cell.type !== "wall" && cell.type !== "floor") objects.push({ type: cell.type, pos: [x, y], color: cell.color, state: objectState(cell) });
    }
  }
  return {
    agent: { pos: [...world.agentPos], dir: world.agentDir, carrying: world.carrying && { type: world.carrying.type, color: world.carrying.color } },
    front_cell: { pos: front, type: frontCell?.type ?? "floor", state: frontCell ? objectState(frontCell) : 0 },
    objects,
  };
}

function room(agent: Vec, dir: Dir, keyAt: Vec): World {
  const world = emptyWorld("doorkey", 16, 16, "pick up the key");
  wallRect(world, 0, 0, 16, 16);
  setCell(world, keyAt[0], keyAt[1], key("yellow"));
  return { ...world, agentPos: agent, agentDir: dir };
}

const itemOf = (gold: SceneKeyJson): TaskItem<GridwmSceneJsonPublic, GridwmSceneJsonKey> => ({
  id: "B.doorkey.g.t0",
  kind: "gridwm-scene-json",
  public: { image: "frame.png", frame: "egocentric", dirEncoding: "minigrid", gridSize: [16, 16] },
  key: { answer_json: gold },
  tags: {},
});

describe("Task B on the agent's own view: identical frames, different gold", () => {
  // facing north from (5, 8), the key far behind; facing east from (6, 9), the key in a corner: both views are open floor
  const a = room([5, 8], 3, [10, 13]);
  const b = room([6, 9], 0, [1, 1]);

  it("renders the two worlds' frames as the same bytes, while their gold answers differ", async () => {
    const [frameA, frameB] = await Promise.all([a, b].map((world) => svgToPng(viewFrameSvg(egocentricView(world)))));
    expect(frameA.equals(frameB)).toBe(true);
    const [goldA, goldB] = [releaseGold(a), releaseGold(b)];
    expect(goldA).not.toEqual(goldB);
    expect(goldA.agent).toEqual({ pos: [5, 8], dir: 3, carrying: null });
    expect(goldB.agent).toEqual({ pos: [6, 9], dir: 0, carrying: null });
  });

  it("differs only in fields the item says the frame cannot show, and agrees on every readable one", () => {
    const [itemA, itemB] = [a, b].map((world) => itemOf(releaseGold(world)));
    const readability = sceneFieldReadability(itemA);
    const unreadable = readability.filter((field) => !field.readable).map((field) => field.field);
    expect(unreadable).toEqual(["agent.pos", "agent.dir", "front_cell.pos", "objects"]);
    // the same classification for both items: it depends on the frame, and the frames are the same
    expect(sceneFieldReadability(itemB).map((field) => field.readable)).toEqual(readability.map((field) => field.readable));
    // b's gold as an answer to a: every readable field right, the item still wrong under Acc_B
    const crossed = gridwmSceneJsonModule.score(itemB.key.answer_json, itemA.key, itemA);
    expect(crossed).toMatchObject({ exact: false, readable: { right: 3, of: 3 }, ceiling: { exact: false, componentScore: 0.15 } });
    expect(crossed.componentScore).toBeCloseTo(0.15 + 0, 10);
  });
});
