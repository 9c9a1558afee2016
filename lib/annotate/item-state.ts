import { applyOrderingEvent, initialOrderingState, type OrderingEventLike, type OrderingState } from "@/lib/annotate/ordering-state";
import { reduceKindEvent } from "@/lib/tasks/event-registry";

/**
 * The state of any item as a pure function of its trajectory: the ordering state of slot-filling
 * kinds (ENACT; lib/annotate/ordering-state.ts, unchanged) plus `answer`, the answer (or draft) of
 * every other kind, changed only by the kind's answer events (each kind's reducer, in
 * lib/tasks/<kind>/events.ts), and `frame`, the storyboard frame shown large.
 *
 * The browser's store applies each event it logs through `applyItemEvent`, resume and replay run
 * `replayItemEvents` over the stored events: what was recorded is what was shown.
 */

export interface ItemState extends OrderingState {
  /** the kind's answer (or draft) for non-ordering kinds; null before the first answer event */
  answer: unknown;
  /** the frame of a storyboard shown large (with `zoomed` = the storyboard), or null */
  frame: number | null;
}

export function initialItemState(length: number, answer: unknown = null): ItemState {
  return { ...initialOrderingState(length), answer, frame: null };
}

/**
 * The state after one event; unknown or malformed events leave it unchanged. A kind's own events
 * go through the kind's reducer (lib/tasks/<kind>/events.ts); the rest are the ordering state's.
 */
export function applyItemEvent(state: ItemState, event: OrderingEventLike): ItemState {
  const reduced = reduceKindEvent(state, event);
  if (reduced) return reduced;
  switch (event.type) {
    case "image_zoomed":
    case "image_closed":
    case "item_shown":
      return { ...(applyOrderingEvent(state, event) as ItemState), frame: null };
    default:
      return applyOrderingEvent(state, event) as ItemState;
  }
}

export function replayItemEvents(length: number, events: readonly OrderingEventLike[], initialAnswer: unknown = null, from: ItemState = initialItemState(length, initialAnswer)): ItemState {
  return events.reduce(applyItemEvent, from);
}
