/**
 * The items and interactions of the load benchmark (bench/load/run.ts): ENACT forward items with
 * small public payloads, and the trajectory events a person's browser sends while ordering them.
 * Kept with the demo data: the benchmark names no task kind of its own.
 */

export const LOAD_ITEM_KIND = "enact-forward";

/** The public part of load item i whose key order is `order` (a permutation of 0..steps-1). */
export function loadItemPublic(i: number, order: readonly number[]): unknown {
  return { initialImage: `i${i}.png`, actions: order.map((_, j) => `action ${j}`), candidates: order.map((_, j) => `c${i}-${j}.png`) };
}

/** The first event of every item. */
export const ITEM_SHOWN_PAYLOAD = { kind: LOAD_ITEM_KIND, resumed: false } as const;

/** Event types sent between `item_shown` and `submitted`, in proportion. */
export const LOAD_FILLER_EVENTS = [
  "candidate_picked",
  "slot_filled",
  "slot_filled",
  "slot_cleared",
  "confidence_changed",
  "image_zoomed",
  "page_hidden",
  "page_visible",
];

/** A valid payload of a filler event for an item of `steps` steps (i varies it). */
export function loadEventPayload(type: string, i: number, steps: number): unknown {
  switch (type) {
    case "candidate_picked":
      return { candidate: i % steps, fromSlot: null, via: "drag" };
    case "slot_filled":
      return { slot: i % steps, candidate: (i + 1) % steps, fromSlot: null, replaced: null, via: "drag" };
    case "slot_cleared":
      return { slot: i % steps, candidate: i % steps, via: "click" };
    case "confidence_changed":
      return { value: 1 + (i % 5), previous: null };
    case "image_zoomed":
      return { image: `/api/assets/${"0".repeat(64)}`, role: "candidate", index: i % steps };
    default:
      return {};
  }
}
