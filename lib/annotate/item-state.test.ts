import { describe, expect, it } from "vitest";
import { applyItemEvent, initialItemState, replayItemEvents } from "@/lib/annotate/item-state";
import { initialSceneDraft } from "@/lib/annotate/scene-form";

describe("item state", () => {
  it("keeps the ordering reducer for ENACT events", () => {
    const state = replayItemEvents(2, [{ type: "slot_filled", payload: { slot: 0, candidate: 1 } }]);
    expect(state.slots).toEqual([1, null]);
    expect(state.answer).toBeNull();
  });
  it("applies choices, verdicts and frame zooms; ignores malformed ones", () => {
    let state = initialItemState(0);
    state = applyItemEvent(state, { type: "choice_made", payload: { choice: "B" } });
    expect(state.answer).toEqual({ choice: "B" });
    expect(applyItemEvent(state, { type: "choice_made", payload: { choice: "E" } })).toBe(state);
    state = applyItemEvent(state, { type: "verdict_made", payload: { verdict: "Fail" } });
    expect(state.answer).toEqual({ verdict: "Fail" });
    state = applyItemEvent(state, { type: "frame_zoomed", payload: { image: "/s.png", frame: 4 } });
    expect([state.zoomed, state.frame]).toEqual(["/s.png", 4]);
    state = applyItemEvent(state, { type: "image_closed", payload: {} });
    expect([state.zoomed, state.frame]).toEqual([null, null]);
  });
  it("replays scene edits from the initial draft", () => {
    const state = replayItemEvents(
      0,
      [
        { type: "scene_edited", payload: { op: "set", path: "agent.pos", value: [2, 5] } },
        { type: "scene_edited", payload: { op: "add", path: "objects", value: { type: "goal", pos: [5, 5], color: "green", state: 0 } } },
      ],
      initialSceneDraft(),
    );
    expect(state.answer).toMatchObject({ agent: { pos: [2, 5] }, objects: [{ type: "goal", pos: [5, 5] }] });
  });
});
