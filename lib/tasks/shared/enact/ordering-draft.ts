import { payloadField } from "@/lib/tasks/shared/event-fields";
import type { RecordedEvent } from "@/lib/tasks/types";

/**
 * The draft of a slot-filling (ordering) item, ENACT forward and inverse: which candidate each
 * numbered slot holds and the candidate being dragged. It is the item state's `answer` for these
 * kinds (lib/tasks/item-state.ts), a pure function of the trajectory: the browser's store
 * applies each event it logs, resume and the researcher's replay run the same reducer over the
 * stored events. So what was recorded is, by construction, what was shown.
 *
 * No React, no database: imported by browser and server code alike.
 */

export interface OrderingDraft {
  /** slots[i] = candidate index placed in slot i, or null */
  slots: Array<number | null>;
  /** a candidate being dragged (from the library when fromSlot is null) */
  picked: { candidate: number; fromSlot: number | null } | null;
}

export function emptyOrderingDraft(length: number): OrderingDraft {
  return { slots: Array.from({ length }, () => null), picked: null };
}

export function isOrderingDraft(value: unknown): value is OrderingDraft {
  return value !== null && typeof value === "object" && Array.isArray((value as OrderingDraft).slots) && "picked" in value;
}

function inRange(value: unknown, length: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;
}

/** The slot-filling event types (lib/tasks/shared/enact/events.ts). */
const ORDERING_EVENT_TYPES: ReadonlySet<string> = new Set(["candidate_picked", "pick_cancelled", "slot_filled", "slots_swapped", "slot_cleared"]);

/**
 * The draft after one event; null when the event is none of the slot-filling ones. Out-of-range
 * events leave it unchanged (the same object). `submitted` and `item_shown` (events every kind
 * records) let go of a dragged candidate.
 */
export function applyOrderingEvent(draft: OrderingDraft, event: RecordedEvent): OrderingDraft | null {
  const length = draft.slots.length;
  const p = event.payload;
  switch (event.type) {
    case "candidate_picked": {
      const candidate = payloadField(p, "candidate");
      const fromSlot = payloadField(p, "fromSlot");
      if (!inRange(candidate, length)) return draft;
      return { ...draft, picked: { candidate, fromSlot: inRange(fromSlot, length) ? fromSlot : null } };
    }
    case "pick_cancelled":
      return { ...draft, picked: null };
    case "slot_filled": {
      const slot = payloadField(p, "slot");
      const candidate = payloadField(p, "candidate");
      if (!inRange(slot, length) || !inRange(candidate, length)) return draft;
      // a candidate sits in one slot at most: wherever it was, it leaves
      const slots = draft.slots.map((value) => (value === candidate ? null : value));
      slots[slot] = candidate;
      return { slots, picked: null };
    }
    case "slots_swapped": {
      const from = payloadField(p, "from");
      const to = payloadField(p, "to");
      if (!inRange(from, length) || !inRange(to, length)) return draft;
      const slots = [...draft.slots];
      [slots[from], slots[to]] = [slots[to], slots[from]];
      return { slots, picked: null };
    }
    case "slot_cleared": {
      const slot = payloadField(p, "slot");
      if (!inRange(slot, length)) return draft;
      const slots = [...draft.slots];
      slots[slot] = null;
      return { slots, picked: null };
    }
    case "submitted":
    case "item_shown":
      // a submission, or a fresh render: nothing is being dragged
      return draft.picked === null ? draft : { ...draft, picked: null };
    default:
      return null;
  }
}

export function isOrderingEventType(type: string): boolean {
  return ORDERING_EVENT_TYPES.has(type);
}

export function replayOrderingEvents(length: number, events: readonly RecordedEvent[], from: OrderingDraft = emptyOrderingDraft(length)): OrderingDraft {
  return events.reduce((draft, event) => applyOrderingEvent(draft, event) ?? draft, from);
}

/** Which slot holds each candidate (null when the candidate is still in the library). */
export function slotOfCandidate(slots: ReadonlyArray<number | null>): Array<number | null> {
  const result: Array<number | null> = slots.map(() => null);
  slots.forEach((candidate, slot) => {
    if (candidate !== null && candidate < result.length) result[candidate] = slot;
  });
  return result;
}

export function allSlotsFilled(slots: ReadonlyArray<number | null>): slots is number[] {
  return slots.every((value) => value !== null);
}

/** The answer of a draft, `{ order }`, once every slot is filled; null before. */
export function orderingAnswerOf(draft: unknown): { order: number[] } | null {
  if (!isOrderingDraft(draft)) return null;
  return allSlotsFilled(draft.slots) && draft.slots.length > 0 ? { order: [...draft.slots] } : null;
}

/** The order of an answer (`{ order }`, numbers), or null. */
export function orderOf(answer: unknown): number[] | null {
  const order = payloadField(answer, "order");
  return Array.isArray(order) && order.every((value) => typeof value === "number") ? (order as number[]) : null;
}

/** The draft that shows an answer's order in the slots (the key after a practice item, on the item page). */
export function orderingDraftOf(answer: unknown): OrderingDraft {
  return { slots: [...(orderOf(answer) ?? [])], picked: null };
}
