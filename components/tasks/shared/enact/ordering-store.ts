import type { AnnotationState, AnnotationStore } from "@/lib/client/annotation-store";
import {
  cancelPickEvent,
  clearSlotEvent,
  moveSlotEvent,
  pickEvent,
  placeEvent,
  type InputVia,
  type OrderingContext,
  type OrderingEvent,
} from "@/lib/tasks/shared/enact/actions";
import { emptyOrderingDraft, isOrderingDraft, type OrderingDraft } from "@/lib/tasks/shared/enact/ordering-draft";

/**
 * The ordering kinds' draft in the annotation store (its `answer`), and their interactions bound
 * to the store: each one dispatches the event lib/tasks/shared/enact/actions.ts gives for it.
 */

const EMPTY: OrderingDraft = emptyOrderingDraft(0);

/** The store's answer as an ordering draft (an empty one before the store has one). */
export function orderingDraftOfState(state: Pick<AnnotationState, "answer">): OrderingDraft {
  return isOrderingDraft(state.answer) ? state.answer : EMPTY;
}

export function slotsOf(state: Pick<AnnotationState, "answer">): Array<number | null> {
  return orderingDraftOfState(state).slots;
}

export function pickedOf(state: Pick<AnnotationState, "answer">): OrderingDraft["picked"] {
  return orderingDraftOfState(state).picked;
}

export interface OrderingActions {
  pick(candidate: number, fromSlot: number | null, via: InputVia): void;
  cancelPick(): void;
  /** put a candidate into a slot (from the library, or moved from another slot) */
  place(candidate: number, slot: number, via: InputVia): void;
  /** move a slot's candidate to another slot: a swap when that one is filled */
  moveSlot(from: number, to: number, via: InputVia): void;
  clearSlot(slot: number, via: InputVia): void;
}

/** The interactions of the slots and the library, each recorded as its one event (none when it changes nothing). */
export function orderingActions(store: AnnotationStore): OrderingActions {
  const run = (build: (context: OrderingContext) => OrderingEvent | null) => {
    const state = store.getState();
    const event = build({ draft: orderingDraftOfState(state), submitted: state.submitted });
    if (event) state.dispatch(event);
  };
  return {
    pick: (candidate, fromSlot, via) => run((context) => pickEvent(context, candidate, fromSlot, via)),
    cancelPick: () => run((context) => cancelPickEvent(context)),
    place: (candidate, slot, via) => run((context) => placeEvent(context, candidate, slot, via)),
    moveSlot: (from, to, via) => run((context) => moveSlotEvent(context, from, to, via)),
    clearSlot: (slot, via) => run((context) => clearSlotEvent(context, slot, via)),
  };
}
