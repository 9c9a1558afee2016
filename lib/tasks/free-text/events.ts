import { z } from "zod";
import { payloadField } from "@/lib/tasks/shared/event-fields";
import { TEXT_CAPS } from "@/lib/tasks/shared/llm-match/rubric";
import { describeMediaEvent, mediaPayloadSchemas } from "@/lib/tasks/shared/media/events";
import type { KindEvents } from "@/lib/tasks/types";

/** The draft answer of a free-text item: the text as typed. */
export interface FreeTextDraft {
  text: string;
}

export function isFreeTextDraft(value: unknown): value is FreeTextDraft {
  return value !== null && typeof value === "object" && typeof (value as { text?: unknown }).text === "string";
}

const payloadSchemas = {
  ...mediaPayloadSchemas,
  /** the text box's content, recorded once typing pauses and when the box loses focus */
  free_text_edited: z.strictObject({ value: z.string().max(TEXT_CAPS.answer), via: z.enum(["keyboard", "touch"]).optional() }),
} as const;

/** free-text: the answer is { text } as last recorded; the player's events (lib/tasks/shared/media/events.ts) change no answer. */
export const events = {
  payloadSchemas,
  reduce(_state, event) {
    if (event.type !== "free_text_edited") return null;
    const value = payloadField(event.payload, "value");
    return typeof value === "string" ? { answer: { text: value } } : {};
  },
  describe(event) {
    const media = describeMediaEvent(event);
    if (media !== null) return media;
    if (event.type !== "free_text_edited") return null;
    const value = payloadField(event.payload, "value");
    const text = typeof value === "string" ? value : "";
    const words = text.trim() === "" ? 0 : text.trim().split(/\s+/).length;
    return `Typed ${words} word${words === 1 ? "" : "s"}: “${text.length > 80 ? `${text.slice(0, 80)}…` : text}”`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
