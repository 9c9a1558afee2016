import type { TrajectoryEventType } from "@/lib/validations/annotate";

/**
 * The state of a slot-filling (ordering) task as a pure function of its trajectory: the browser's
 * store applies each event it logs through `applyOrderingEvent`, the server replays stored events
 * with `replayOrderingEvents` to resume an item on another device, and the researcher's replay
 * steps through the same function. So what was recorded is, by construction, what was shown.
 *
 * No React, no database: imported by browser and server code alike.
 */

export interface OrderingState {
  /** slots[i] = candidate index placed in slot i, or null */
  slots: Array<number | null>;
  confidence: number | null;
  /** a candidate being dragged (from the library when fromSlot is null) */
  picked: { candidate: number; fromSlot: number | null } | null;
  /** image shown large, if any */
  zoomed: string | null;
  hidden: boolean;
  idle: boolean;
  submitted: boolean;
}

export interface OrderingEventLike {
  type: TrajectoryEventType | string;
  payload: unknown;
}

export function initialOrderingState(length: number): OrderingState {
  return { slots: Array.from({ length }, () => null), confidence: null, picked: null, zoomed: null, hidden: false, idle: false, submitted: false };
}

function inRange(value: unknown, length: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;
}

function field(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
}

/** The state after one event; unknown or out-of-range events leave it unchanged. */
export function applyOrderingEvent(state: OrderingState, event: OrderingEventLike): OrderingState {
  const length = state.slots.length;
  const p = event.payload;
  switch (event.type) {
    case "candidate_picked": {
      const candidate = field(p, "candidate");
      const fromSlot = field(p, "fromSlot");
      if (!inRange(candidate, length)) return state;
      return { ...state, picked: { candidate, fromSlot: inRange(fromSlot, length) ? fromSlot : null } };
    }
    case "pick_cancelled":
      return { ...state, picked: null };
    case "slot_filled": {
      const slot = field(p, "slot");
      const candidate = field(p, "candidate");
      if (!inRange(slot, length) || !inRange(candidate, length)) return state;
      // a candidate sits in one slot at most: wherever it was, it leaves
      const slots = state.slots.map((value) => (value === candidate ? null : value));
      slots[slot] = candidate;
      return { ...state, slots, picked: null };
    }
    case "slots_swapped": {
      const from = field(p, "from");
      const to = field(p, "to");
      if (!inRange(from, length) || !inRange(to, length)) return state;
      const slots = [...state.slots];
      [slots[from], slots[to]] = [slots[to], slots[from]];
      return { ...state, slots, picked: null };
    }
    case "slot_cleared": {
      const slot = field(p, "slot");
      if (!inRange(slot, length)) return state;
      const slots = [...state.slots];
      slots[slot] = null;
      return { ...state, slots, picked: null };
    }
    case "confidence_changed": {
      const value = field(p, "value");
      return typeof value === "number" ? { ...state, confidence: value } : state;
    }
    case "image_zoomed": {
      const image = field(p, "image");
      return typeof image === "string" ? { ...state, zoomed: image } : state;
    }
    case "image_closed":
      return { ...state, zoomed: null };
    case "page_hidden":
      return { ...state, hidden: true };
    case "page_visible":
      return { ...state, hidden: false };
    case "idle_shown":
      return { ...state, idle: true };
    case "idle_dismissed":
      return { ...state, idle: false };
    case "submitted":
      return { ...state, submitted: true, picked: null };
    case "submission_reopened":
      // a submission whose answer never reached the server: answering again (lib/annotate/assignment-view.ts)
      return { ...state, submitted: false };
    case "item_shown":
      // a fresh render: nothing is being dragged, no lightbox, the page is visible
      return { ...state, picked: null, zoomed: null, hidden: false, idle: false };
    default:
      return state;
  }
}

export function replayOrderingEvents(length: number, events: readonly OrderingEventLike[], from: OrderingState = initialOrderingState(length)): OrderingState {
  return events.reduce(applyOrderingEvent, from);
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
