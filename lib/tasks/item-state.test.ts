import { describe, expect, it } from "vitest";
import { applyItemEvent, initialItemState, replayItemEvents } from "@/lib/tasks/item-state";
import { emptyExploreDraft, type ExploreDraft } from "@/lib/tasks/explore-scene/events";
import { initialSceneDraft } from "@/lib/tasks/shared/gridwm/scene-form";

describe("item state", () => {
  it("applies the common events to every item", () => {
    let state = replayItemEvents([
      { type: "image_zoomed", payload: { image: "/api/assets/x" } },
      { type: "page_hidden", payload: {} },
      { type: "idle_shown", payload: { idleMs: 60_000 } },
    ]);
    expect(state).toMatchObject({ zoomed: "/api/assets/x", hidden: true, idle: true });
    state = applyItemEvent(state, { type: "item_shown", payload: { resumed: true } });
    expect(state).toMatchObject({ hidden: false, idle: false, zoomed: null });
    state = applyItemEvent(state, { type: "confidence_changed", payload: { value: 4, previous: null } });
    state = applyItemEvent(state, { type: "submitted", payload: {} });
    expect(state).toMatchObject({ confidence: 4, submitted: true, answer: null });
    expect(applyItemEvent(state, { type: "something_new", payload: {} })).toBe(state);
  });
  it("leaves a kind's events to the kind's draft: another draft is unchanged", () => {
    const start = initialItemState({ text: "" });
    expect(applyItemEvent(start, { type: "slot_filled", payload: { slot: 0, candidate: 1 } })).toBe(start);
  });
  it("applies choices, verdicts and frame zooms; ignores malformed ones", () => {
    let state = initialItemState();
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
      [
        { type: "scene_edited", payload: { op: "set", path: "agent.pos", value: [2, 5] } },
        { type: "scene_edited", payload: { op: "add", path: "objects", value: { type: "goal", pos: [5, 5], color: "green", state: 0 } } },
      ],
      initialSceneDraft(),
    );
    expect(state.answer).toMatchObject({ agent: { pos: [2, 5] }, objects: [{ type: "goal", pos: [5, 5] }] });
  });
});

describe("explore-scene draft events", () => {
  const add = (object: number, category: string, description = "") => ({
    type: "scene_object_added",
    payload: { object, category, description, via: "keyboard" },
  });
  it("adds, edits, relates and removes objects; removal drops the relations pointing at it", () => {
    let state = replayItemEvents(
      [
        add(0, "bowl", "white"),
        add(1, "kitchen counter"),
        add(2, "bowl"),
        { type: "relation_added", payload: { subject: 0, relation: "on", object: 1 } },
        { type: "relation_added", payload: { subject: 2, relation: "next to", object: 0 } },
      ],
      emptyExploreDraft(),
    );
    const draft = state.answer as ExploreDraft;
    expect(draft.objects.map((o) => [o.id, o.category, o.relations])).toEqual([
      [0, "bowl", [{ relation: "on", target: 1 }]],
      [1, "kitchen counter", []],
      [2, "bowl", [{ relation: "next to", target: 0 }]],
    ]);
    expect(draft.nextId).toBe(3);
    state = applyItemEvent(state, { type: "scene_object_edited", payload: { object: 1, field: "description", value: "grey stone" } });
    expect((state.answer as ExploreDraft).objects[1].description).toBe("grey stone");
    state = applyItemEvent(state, { type: "scene_object_removed", payload: { object: 0 } });
    expect((state.answer as ExploreDraft).objects.map((o) => [o.id, o.relations.length])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    state = applyItemEvent(state, { type: "relation_added", payload: { subject: 2, relation: "on", object: 1 } });
    state = applyItemEvent(state, { type: "relation_removed", payload: { subject: 2, index: 0 } });
    expect((state.answer as ExploreDraft).objects[1].relations).toEqual([]);
  });
  it("refuses malformed, dangling, self and duplicate changes (the same state)", () => {
    const state = replayItemEvents(
      [add(0, "bowl"), add(1, "sink"), { type: "relation_added", payload: { subject: 0, relation: "in", object: 1 } }],
      emptyExploreDraft(),
    );
    for (const event of [
      add(1, "cup"),
      { type: "relation_added", payload: { subject: 0, relation: "in", object: 1 } },
      { type: "relation_added", payload: { subject: 0, relation: "on", object: 0 } },
      { type: "relation_added", payload: { subject: 0, relation: "on", object: 7 } },
      { type: "relation_added", payload: { subject: 0, relation: " ", object: 1 } },
      { type: "relation_removed", payload: { subject: 1, index: 0 } },
      { type: "scene_object_removed", payload: { object: 9 } },
      { type: "scene_object_edited", payload: { object: 0, field: "relation", value: "x" } },
      { type: "actions_scrolled", payload: { first: 5, last: 2 } },
    ]) {
      expect(applyItemEvent(state, event)).toBe(state);
    }
    expect(applyItemEvent(initialItemState(), add(0, "bowl")).answer).toBeNull();
  });
  it("keeps the reading position and the filter", () => {
    const state = replayItemEvents(
      [
        { type: "actions_scrolled", payload: { first: 40, last: 62 } },
        { type: "actions_searched", payload: { query: "bowl" } },
      ],
      emptyExploreDraft(),
    );
    expect(state.answer).toMatchObject({ reading: { first: 40, last: 62 }, query: "bowl", objects: [] });
  });
});
