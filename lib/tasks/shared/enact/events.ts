import { z } from "zod";
import { eventIndex, numberField, oneBased, viaSuffix } from "@/lib/tasks/shared/event-fields";
import { applyOrderingEvent, isOrderingDraft, isOrderingEventType } from "@/lib/tasks/shared/enact/ordering-draft";
import type { KindEvents } from "@/lib/tasks/types";

/**
 * The slot-filling events of the ordering kinds (ENACT forward and inverse). Their reducer is the
 * ordering draft (lib/tasks/shared/enact/ordering-draft.ts), the item state's answer for these kinds.
 */

const slotIndex = eventIndex;
const candidateIndex = eventIndex;
const inputVia = z.enum(["drag", "keyboard", "click", "touch"]);

export const orderingPayloadSchemas = {
  /** a drag started: from the library (`fromSlot` null) or from a filled slot */
  candidate_picked: z.strictObject({ candidate: candidateIndex, fromSlot: slotIndex.nullable(), via: inputVia }),
  /** a drag ended without a drop on a slot */
  pick_cancelled: z.strictObject({ candidate: candidateIndex }),
  /**
   * a candidate put into a slot: from the library (`fromSlot` null) or moved from another slot
   * (which is left empty); `replaced` is the candidate that was in the slot (back to the library)
   */
  slot_filled: z.strictObject({
    slot: slotIndex,
    candidate: candidateIndex,
    fromSlot: slotIndex.nullable(),
    replaced: candidateIndex.nullable(),
    via: inputVia,
  }),
  /** the candidates of two filled slots swapped */
  slots_swapped: z.strictObject({ from: slotIndex, to: slotIndex, fromCandidate: candidateIndex, toCandidate: candidateIndex, via: inputVia }),
  /** a slot emptied; its candidate goes back to the library */
  slot_cleared: z.strictObject({ slot: slotIndex, candidate: candidateIndex, via: inputVia }),
} as const;

export const orderingEvents = {
  payloadSchemas: orderingPayloadSchemas,
  reduce(state, event) {
    if (!isOrderingDraft(state.answer)) return null;
    const next = applyOrderingEvent(state.answer, event);
    if (next === null) return null;
    if (next !== state.answer) return { answer: next };
    // an out-of-range slot-filling event changes nothing; an event of every kind is left to the others
    return isOrderingEventType(event.type) ? {} : null;
  },
  describe(event, { name }) {
    const p = event.payload;
    const via = viaSuffix(p);
    const cand = (key: string) => {
      const value = numberField(p, key);
      return value === null ? "?" : name(value);
    };
    switch (event.type) {
      case "candidate_picked":
        return `Picked up ${cand("candidate")}${numberField(p, "fromSlot") !== null ? ` from step ${oneBased(p, "fromSlot")}` : ""}${via}`;
      case "pick_cancelled":
        return `Let go of ${cand("candidate")} outside the steps`;
      case "slot_filled": {
        const from = numberField(p, "fromSlot") !== null ? ` (moved from step ${oneBased(p, "fromSlot")})` : "";
        const replaced = numberField(p, "replaced") !== null ? `, replacing ${cand("replaced")}` : "";
        return `${cand("candidate")} → step ${oneBased(p, "slot")}${from}${replaced}${via}`;
      }
      case "slots_swapped":
        return `Swapped steps ${oneBased(p, "from")} and ${oneBased(p, "to")}${via}`;
      case "slot_cleared":
        return `Cleared step ${oneBased(p, "slot")} (${cand("candidate")})${via}`;
      default:
        return null;
    }
  },
} satisfies KindEvents<typeof orderingPayloadSchemas>;
