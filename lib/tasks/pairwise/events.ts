import { z } from "zod";
import { payloadField, viaSuffix } from "@/lib/tasks/shared/event-fields";
import { describeMediaEvent, mediaPayloadSchemas } from "@/lib/tasks/shared/media/events";
import type { KindEvents } from "@/lib/tasks/types";

const preference = z.enum(["a", "b", "tie"]);

const payloadSchemas = {
  ...mediaPayloadSchemas,
  /**
   * a preference for one dimension: `value` in the item's terms (a, b, tie), `shown` where it was
   * on the screen (1 = left / top, 2 = right / bottom, tie), for position-bias checks
   */
  preference_set: z.strictObject({
    dimension: z.string().min(1).max(40),
    value: preference,
    previous: preference.nullable(),
    shown: z.enum(["1", "2", "tie"]),
    via: z.enum(["click", "keyboard", "touch"]),
  }),
} as const;

function prefsOf(answer: unknown): Record<string, unknown> {
  const prefs = payloadField(answer, "prefs");
  return prefs && typeof prefs === "object" ? (prefs as Record<string, unknown>) : {};
}

/** Pairwise preference: the answer is { prefs: { <dimension>: "a" | "b" | "tie" } }; the players' events are the media ones. */
export const events = {
  payloadSchemas,
  reduce(state, event) {
    if (event.type !== "preference_set") return null;
    const dimension = payloadField(event.payload, "dimension");
    const parsed = preference.safeParse(payloadField(event.payload, "value"));
    if (typeof dimension !== "string" || !parsed.success) return {};
    return { answer: { prefs: { ...prefsOf(state.answer), [dimension]: parsed.data } } };
  },
  describe(event) {
    const media = describeMediaEvent(event);
    if (media !== null) return media;
    if (event.type !== "preference_set") return null;
    const p = event.payload;
    const value = payloadField(p, "value");
    const shown = payloadField(p, "shown");
    const what = value === "tie" ? "tie" : `${String(value).toUpperCase()} (video ${String(shown)})`;
    return `${String(payloadField(p, "dimension"))}: ${what}${viaSuffix(p)}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
