import type { z } from "zod";
import type { orderingPayloadSchemas } from "@/lib/tasks/shared/enact/events";
import type { OrderingDraft } from "@/lib/tasks/shared/enact/ordering-draft";

/**
 * What the slot-filling interactions of the ordering kinds record: each intent (pick, place, move,
 * clear) as the one event to dispatch to the annotation store, or null when it changes nothing
 * (the store records nothing then). Pure: the task's components (components/tasks/shared/enact/)
 * bind them to the store.
 */

type Payloads = typeof orderingPayloadSchemas;
export type OrderingEvent = { [T in keyof Payloads]: { type: T; payload: z.infer<Payloads[T]> } }[keyof Payloads];
export type InputVia = "drag" | "keyboard" | "click" | "touch";

/** What an intent is decided on: the draft, and whether the item was submitted (then nothing changes). */
export interface OrderingContext {
  draft: OrderingDraft;
  submitted: boolean;
}

export function pickEvent({ submitted }: OrderingContext, candidate: number, fromSlot: number | null, via: InputVia): OrderingEvent | null {
  if (submitted) return null;
  return { type: "candidate_picked", payload: { candidate, fromSlot, via } };
}

export function cancelPickEvent({ draft }: OrderingContext): OrderingEvent | null {
  if (!draft.picked) return null;
  return { type: "pick_cancelled", payload: { candidate: draft.picked.candidate } };
}

/** Move a slot's candidate to another slot: a swap when that one is filled. */
export function moveSlotEvent({ draft, submitted }: OrderingContext, from: number, to: number, via: InputVia): OrderingEvent | null {
  if (submitted || from === to) return null;
  const length = draft.slots.length;
  const candidate = draft.slots[from];
  if (candidate === null || candidate === undefined || to < 0 || to >= length) return null;
  const target = draft.slots[to];
  if (target === null) return { type: "slot_filled", payload: { slot: to, candidate, fromSlot: from, replaced: null, via } };
  return { type: "slots_swapped", payload: { from, to, fromCandidate: candidate, toCandidate: target, via } };
}

/** Put a candidate into a slot (from the library, or moved from another slot). */
export function placeEvent(context: OrderingContext, candidate: number, slot: number, via: InputVia): OrderingEvent | null {
  const { draft, submitted } = context;
  const length = draft.slots.length;
  if (submitted || slot < 0 || slot >= length || candidate < 0 || candidate >= length) return null;
  const fromSlot = draft.slots.indexOf(candidate);
  if (fromSlot === slot) {
    // dropped where it already was: the drag ends, nothing changes
    return draft.picked ? { type: "pick_cancelled", payload: { candidate } } : null;
  }
  if (fromSlot >= 0) return moveSlotEvent(context, fromSlot, slot, via);
  return { type: "slot_filled", payload: { slot, candidate, fromSlot: null, replaced: draft.slots[slot] ?? null, via } };
}

export function clearSlotEvent({ draft, submitted }: OrderingContext, slot: number, via: InputVia): OrderingEvent | null {
  const candidate = draft.slots[slot];
  if (submitted || candidate === null || candidate === undefined) return null;
  return { type: "slot_cleared", payload: { slot, candidate, via } };
}
