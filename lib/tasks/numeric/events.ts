import { z } from "zod";
import { payloadField } from "@/lib/tasks/shared/event-fields";
import { describeMediaEvent, mediaPayloadSchemas } from "@/lib/tasks/shared/media/events";
import type { KindEvents } from "@/lib/tasks/types";

export const NUMERIC_TEXT_MAX = 32;

const payloadSchemas = {
  ...mediaPayloadSchemas,
  /** numeric: the text of the number box after an edit (typed, pasted or cleared) */
  numeric_value_typed: z.strictObject({ text: z.string().max(NUMERIC_TEXT_MAX) }),
} as const;

/** numeric: the draft is { text }; the answer submitted is { value } read from it (components/tasks/numeric). */
export const events = {
  payloadSchemas,
  reduce(_state, event) {
    if (event.type !== "numeric_value_typed") return null;
    const text = payloadField(event.payload, "text");
    return typeof text === "string" ? { answer: { text } } : {};
  },
  describe(event) {
    const media = describeMediaEvent(event);
    if (media !== null) return media;
    if (event.type !== "numeric_value_typed") return null;
    const text = payloadField(event.payload, "text");
    return typeof text === "string" && text !== "" ? `Typed ${text}` : "Cleared the number";
  },
} satisfies KindEvents<typeof payloadSchemas>;
