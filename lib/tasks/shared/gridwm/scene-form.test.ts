import { describe, expect, it } from "vitest";
import {
  applySceneEdit,
  frontCellPos,
  initialSceneDraft,
  sceneAnswerOf,
  sceneDraftFromAnswer,
  sceneDraftProblem,
  type SceneEdit,
} from "@/lib/tasks/shared/gridwm/scene-form";
import { gridwmSceneJsonAnswerSchema, scoreSceneJson } from "@/lib/tasks/gridwm-scene-json";

const apply = (edits: SceneEdit[], draft = initialSceneDraft()) => edits.reduce(applySceneEdit, draft);

describe("scene form", () => {
  it("has no answer until the agent is placed, then always a schema-valid canonical one", () => {
    const empty = initialSceneDraft({ gridSize: [7, 7], directions: ["north", "east", "south", "west"] });
    expect(sceneAnswerOf(empty)).toBeNull();
    expect(sceneDraftProblem(empty)).toBe("Click the agent's cell");
    const draft = apply(
      [
        { op: "set", path: "agent.pos", value: [3, 4] },
        { op: "set", path: "agent.dir", value: 1 },
        { op: "add", path: "objects", value: { type: "key", pos: [5, 2], color: "purple", state: 0 } },
        { op: "add", path: "objects", value: { type: "door", pos: [4, 4], color: "yellow", state: 2 } },
        { op: "add", path: "objects", value: { type: "ball", pos: [1, 1], color: "blue", state: 0 } },
        { op: "set", path: "front_cell.type", value: "door" },
        { op: "set", path: "front_cell.state", value: 2 },
      ],
      empty,
    );
    const answer = sceneAnswerOf(draft);
    expect(answer).toEqual({
      agent: { pos: [3, 4], dir: 1, carrying: null },
      front_cell: { pos: [4, 4], type: "door", state: 2 },
      objects: [
        { type: "ball", pos: [1, 1], color: "blue", state: 0 },
        { type: "door", pos: [4, 4], color: "yellow", state: 2 },
        { type: "key", pos: [5, 2], color: "purple", state: 0 },
      ],
    });
    expect(gridwmSceneJsonAnswerSchema.safeParse(answer).success).toBe(true);
  });

  it("follows the item's direction encoding for the front cell", () => {
    const minigrid = initialSceneDraft({ directions: ["east", "south", "west", "north"] });
    const draft = apply(
      [
        { op: "set", path: "agent.pos", value: [2, 2] },
        { op: "set", path: "agent.dir", value: 3 },
      ],
      minigrid,
    );
    expect(frontCellPos(draft)).toEqual([2, 1]);
  });

  it("refuses values the answer schema would refuse (the same draft comes back)", () => {
    const draft = apply([{ op: "set", path: "agent.pos", value: [1, 1] }]);
    for (const edit of [
      { op: "set", path: "agent.pos", value: [7, 0] },
      { op: "set", path: "agent.dir", value: 4 },
      { op: "set", path: "agent.carrying", value: { type: "door", color: "red" } },
      { op: "set", path: "front_cell.type", value: "agent" },
      { op: "set", path: "front_cell.state", value: 1 }, // not a door
      { op: "add", path: "objects", value: { type: "wall", pos: [0, 0], color: "grey" } },
      { op: "remove", path: "objects.0", value: null },
      { op: "set", path: "objects.0.color", value: "red" },
      { op: "set", path: "agent.name", value: "x" },
    ] satisfies SceneEdit[])
      expect(applySceneEdit(draft, edit), JSON.stringify(edit)).toBe(draft);
  });

  it("keeps one object a cell, non-doors at state 0, and reads the key back", () => {
    const draft = apply([
      { op: "set", path: "agent.pos", value: [3, 3] },
      { op: "add", path: "objects", value: { type: "door", pos: [2, 2], color: "red", state: 1 } },
      { op: "add", path: "objects", value: { type: "ball", pos: [2, 2], color: "green", state: 2 } },
      { op: "set", path: "objects.0.type", value: "door" },
      { op: "set", path: "objects.0.state", value: 2 },
      { op: "set", path: "objects.0.type", value: "key" },
    ]);
    expect(draft.objects).toEqual([{ type: "key", pos: [2, 2], color: "green", state: 0 }]);
    const key = {
      agent: { pos: [6, 3], dir: 0, carrying: null },
      front_cell: { pos: [6, 2], type: "key", state: 0 },
      objects: [{ type: "key", pos: [6, 2], color: "purple", state: 0 }],
    };
    const shown = sceneAnswerOf(sceneDraftFromAnswer(key, { gridSize: [7, 7] }))!;
    expect(scoreSceneJson(shown, { answer_json: key as never }).exact).toBe(true);
  });
});
