import { z } from "zod";
import { payloadField, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import { describeMediaEvent, mediaPayloadSchemas } from "@/lib/tasks/shared/media/events";
import type { KindEvents } from "@/lib/tasks/types";

const optionId = z.string().min(1).max(64);

const payloadSchemas = {
  ...mediaPayloadSchemas,
  /** choice: the options in the order shown (option ids, top to bottom), and whether they were shuffled for this person */
  choice_options_shown: z.strictObject({ order: z.array(optionId).min(2).max(9), shuffled: z.boolean() }),
  /** choice: an option chosen (again: a change of mind); `position` is where it was shown (0 = first), `previous` the option before */
  choice_option_chosen: z.strictObject({ option: optionId, position: z.number().int().min(0).max(8), previous: optionId.nullable(), via: pointerVia }),
} as const;

/** choice: the answer is { choice: <option id> }. */
export const events = {
  payloadSchemas,
  reduce(_state, event) {
    if (event.type === "choice_options_shown") return {};
    if (event.type !== "choice_option_chosen") return null;
    const option = payloadField(event.payload, "option");
    return typeof option === "string" && option !== "" ? { answer: { choice: option } } : {};
  },
  describe(event) {
    const media = describeMediaEvent(event);
    if (media !== null) return media;
    if (event.type === "choice_options_shown") {
      const order = payloadField(event.payload, "order");
      const shown = Array.isArray(order) ? order.map(String).join(", ") : "?";
      return `Options shown${payloadField(event.payload, "shuffled") === true ? " (shuffled)" : ""}: ${shown}`;
    }
    if (event.type !== "choice_option_chosen") return null;
    const previous = payloadField(event.payload, "previous");
    const position = payloadField(event.payload, "position");
    const place = typeof position === "number" ? ` (shown ${String.fromCharCode(65 + position)})` : "";
    return `Chose option ${String(payloadField(event.payload, "option") ?? "?")}${place}${typeof previous === "string" ? `, was ${previous}` : ""}${viaSuffix(event.payload)}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
