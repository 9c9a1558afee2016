import { z } from "zod";
import { payloadField, viaSuffix } from "@/lib/tasks/shared/event-fields";
import { describeMediaEvent, mediaPayloadSchemas } from "@/lib/tasks/shared/media/events";
import type { KindEvents } from "@/lib/tasks/types";

const value = z.union([z.number().int().min(0).max(20), z.enum(["yes", "no"])]);

const payloadSchemas = {
  ...mediaPayloadSchemas,
  /** one rubric entry rated (`id`: the rubric id): a Likert value or yes / no */
  rating_set: z.strictObject({ id: z.string().min(1).max(40), value, previous: value.nullable(), via: z.enum(["click", "keyboard", "touch"]) }),
} as const;

function ratingsOf(answer: unknown): Record<string, unknown> {
  const ratings = payloadField(answer, "ratings");
  return ratings && typeof ratings === "object" ? (ratings as Record<string, unknown>) : {};
}

/** Rubric rating: the answer is { ratings: { <rubric id>: value } }; the player's events are the media ones. */
export const events = {
  payloadSchemas,
  reduce(state, event) {
    if (event.type !== "rating_set") return null;
    const id = payloadField(event.payload, "id");
    const parsed = value.safeParse(payloadField(event.payload, "value"));
    if (typeof id !== "string" || !parsed.success) return {};
    return { answer: { ratings: { ...ratingsOf(state.answer), [id]: parsed.data } } };
  },
  describe(event) {
    const media = describeMediaEvent(event);
    if (media !== null) return media;
    if (event.type !== "rating_set") return null;
    const p = event.payload;
    const previous = payloadField(p, "previous");
    return `Rated ${String(payloadField(p, "id"))}: ${String(payloadField(p, "value"))}${previous !== null && previous !== undefined ? ` (was ${String(previous)})` : ""}${viaSuffix(p)}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
