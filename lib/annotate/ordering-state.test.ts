import { describe, expect, it } from "vitest";
import { allSlotsFilled, applyOrderingEvent, initialOrderingState, replayOrderingEvents, slotOfCandidate } from "@/lib/annotate/ordering-state";

const fill = (slot: number, candidate: number) => ({ type: "slot_filled", payload: { slot, candidate } });

describe("ordering state", () => {
  it("fills, moves, swaps and clears slots", () => {
    const state = replayOrderingEvents(3, [
      fill(0, 2),
      fill(1, 0),
      fill(2, 2), // moves candidate 2 from slot 0 to slot 2
      { type: "slots_swapped", payload: { from: 1, to: 2 } },
      { type: "slot_cleared", payload: { slot: 1 } },
      fill(0, 1),
    ]);
    expect(state.slots).toEqual([1, null, 0]);
    expect(slotOfCandidate(state.slots)).toEqual([2, 0, null]);
    expect(allSlotsFilled(state.slots)).toBe(false);
  });

  it("tracks the pick, the lightbox, visibility, idleness, confidence and submission", () => {
    let state = initialOrderingState(2);
    state = applyOrderingEvent(state, { type: "candidate_picked", payload: { candidate: 1, fromSlot: null } });
    expect(state.picked).toEqual({ candidate: 1, fromSlot: null });
    state = applyOrderingEvent(state, fill(0, 1));
    expect(state.picked).toBeNull();
    state = applyOrderingEvent(state, { type: "image_zoomed", payload: { image: "/api/assets/x" } });
    expect(state.zoomed).toBe("/api/assets/x");
    state = applyOrderingEvent(state, { type: "page_hidden", payload: {} });
    state = applyOrderingEvent(state, { type: "idle_shown", payload: { idleMs: 60_000 } });
    expect(state).toMatchObject({ hidden: true, idle: true });
    state = applyOrderingEvent(state, { type: "item_shown", payload: { resumed: true } });
    expect(state).toMatchObject({ hidden: false, idle: false, zoomed: null, slots: [1, null] });
    state = applyOrderingEvent(state, { type: "confidence_changed", payload: { value: 4, previous: null } });
    state = applyOrderingEvent(state, { type: "submitted", payload: {} });
    expect(state).toMatchObject({ confidence: 4, submitted: true });
  });

  it("ignores unknown events and out-of-range indices", () => {
    const start = initialOrderingState(2);
    expect(applyOrderingEvent(start, { type: "something_new", payload: {} })).toBe(start);
    expect(applyOrderingEvent(start, fill(5, 0))).toBe(start);
    expect(applyOrderingEvent(start, fill(0, -1))).toBe(start);
    expect(applyOrderingEvent(start, { type: "slot_filled", payload: null })).toBe(start);
  });
});
