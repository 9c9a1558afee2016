import { describe, expect, it } from "vitest";
import {
  allSlotsFilled,
  applyOrderingEvent,
  emptyOrderingDraft,
  orderingAnswerOf,
  orderingDraftOf,
  replayOrderingEvents,
  slotOfCandidate,
} from "@/lib/tasks/shared/enact/ordering-draft";
import { applyItemEvent, initialItemState, replayItemEvents } from "@/lib/tasks/item-state";

const fill = (slot: number, candidate: number) => ({ type: "slot_filled", payload: { slot, candidate } });

describe("ordering draft", () => {
  it("fills, moves, swaps and clears slots", () => {
    const draft = replayOrderingEvents(3, [
      fill(0, 2),
      fill(1, 0),
      fill(2, 2), // moves candidate 2 from slot 0 to slot 2
      { type: "slots_swapped", payload: { from: 1, to: 2 } },
      { type: "slot_cleared", payload: { slot: 1 } },
      fill(0, 1),
    ]);
    expect(draft.slots).toEqual([1, null, 0]);
    expect(slotOfCandidate(draft.slots)).toEqual([2, 0, null]);
    expect(allSlotsFilled(draft.slots)).toBe(false);
    expect(orderingAnswerOf(draft)).toBeNull();
    expect(orderingAnswerOf(replayOrderingEvents(2, [fill(0, 1), fill(1, 0)]))).toEqual({ order: [1, 0] });
    expect(orderingDraftOf({ order: [2, 0, 1] })).toEqual({ slots: [2, 0, 1], picked: null });
  });

  it("tracks the pick; a submission and a fresh render let go of it", () => {
    let draft = emptyOrderingDraft(2);
    draft = applyOrderingEvent(draft, { type: "candidate_picked", payload: { candidate: 1, fromSlot: null } })!;
    expect(draft.picked).toEqual({ candidate: 1, fromSlot: null });
    draft = applyOrderingEvent(draft, fill(0, 1))!;
    expect(draft.picked).toBeNull();
    draft = applyOrderingEvent(draft, { type: "candidate_picked", payload: { candidate: 0, fromSlot: null } })!;
    expect(applyOrderingEvent(draft, { type: "item_shown", payload: { resumed: true } })).toEqual({ slots: [1, null], picked: null });
    expect(applyOrderingEvent(draft, { type: "submitted", payload: {} })?.picked).toBeNull();
  });

  it("ignores out-of-range indices (the same draft), and is not asked for other events", () => {
    const start = emptyOrderingDraft(2);
    expect(applyOrderingEvent(start, { type: "something_new", payload: {} })).toBeNull();
    expect(applyOrderingEvent(start, fill(5, 0))).toBe(start);
    expect(applyOrderingEvent(start, fill(0, -1))).toBe(start);
    expect(applyOrderingEvent(start, { type: "slot_filled", payload: null })).toBe(start);
  });

  it("is the item state's answer: the kind's reducer through applyItemEvent, beside the common events", () => {
    let state = replayItemEvents(
      [
        { type: "candidate_picked", payload: { candidate: 1, fromSlot: null } },
        { type: "image_zoomed", payload: { image: "/api/assets/x" } },
      ],
      emptyOrderingDraft(2),
    );
    expect(state).toMatchObject({ answer: { slots: [null, null], picked: { candidate: 1, fromSlot: null } }, zoomed: "/api/assets/x" });
    state = applyItemEvent(state, { type: "item_shown", payload: { resumed: true } });
    expect(state).toMatchObject({ answer: { picked: null }, zoomed: null });
    state = applyItemEvent(state, fill(0, 1));
    state = applyItemEvent(state, { type: "candidate_picked", payload: { candidate: 0, fromSlot: null } });
    state = applyItemEvent(state, { type: "submitted", payload: {} });
    expect(state).toMatchObject({ answer: { slots: [1, null], picked: null }, submitted: true });
    const unchanged = initialItemState(emptyOrderingDraft(2));
    expect(applyItemEvent(unchanged, fill(4, 0))).toBe(unchanged);
  });
});
