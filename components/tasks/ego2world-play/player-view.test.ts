import { describe, expect, it } from "vitest";
import { emptyEgoDraft } from "@/lib/tasks/ego2world-play/notes";
import {
  areaName,
  composeAction,
  ego2worldAnswerOf,
  ego2worldMissing,
  notesToPrefill,
  pickerOptions,
  type PlayView,
} from "@/components/tasks/ego2world-play/player-view";

const view: PlayView = {
  area: "coffee_station",
  image: "/api/assets/x",
  objects: [{ id: "machine_01", label: "coffee_machine" }],
  hand: { id: "cup_01", label: "cup" },
  changes: [],
  feedback: null,
  task: 0,
  taskCount: 2,
  instruction: "Make coffee.",
  finished: false,
  steps: 0,
  lastTask: null,
};

describe("the player's helpers", () => {
  it("offers the held object, the objects here and the areas, nothing else", () => {
    expect(pickerOptions(view, ["counter", "coffee_station"]).map((option) => [option.value, option.group])).toEqual([
      ["cup_01", "hand"],
      ["machine_01", "here"],
      ["counter", "area"],
      ["coffee_station", "area"],
    ]);
    expect(areaName("coffee_station")).toBe("Coffee station");
  });

  it("composes an action once every argument is chosen", () => {
    expect(composeAction("brew", ["machine_01", "cup_01"])).toBe("brew(machine_01, cup_01)");
    expect(composeAction("brew", ["machine_01", null])).toBeNull();
    expect(composeAction("wait", [])).toBe("wait()");
  });

  it("pre-fills notes for what is seen and not yet noted", () => {
    expect(notesToPrefill(view, [{ object: "machine_01", area: "counter", state: "", confidence: "low", source: "guess" }])).toEqual([
      { object: "cup_01", area: "hand" },
    ]);
  });

  it("submits only once the server said every task is done; the answer's actions come from the server", () => {
    expect(ego2worldAnswerOf(emptyEgoDraft())).toBeNull();
    expect(ego2worldMissing(emptyEgoDraft())).toBe("Finish every task first");
    expect(ego2worldAnswerOf({ ...emptyEgoDraft(), finished: true })).toEqual({ tasks: [] });
    expect(ego2worldMissing({ ...emptyEgoDraft(), finished: true })).toBe("");
  });
});
