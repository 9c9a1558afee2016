import { z } from "zod";
import { VERDICTS } from "@/lib/tasks/shared/gridwm/common";
import { eventImageRef, oneBased, payloadField, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import type { KindEvents } from "@/lib/tasks/types";

const payloadSchemas = {
  /** a storyboard frame (0-based, left to right, top to bottom) shown large, cut from `image` */
  frame_zoomed: z.strictObject({ image: eventImageRef, frame: z.number().int().min(0).max(63), via: z.enum(["click", "keyboard"]) }),
  /** GridWM Task C: the verdict chosen */
  verdict_made: z.strictObject({ verdict: z.enum(VERDICTS), previous: z.enum(VERDICTS).nullable(), via: pointerVia }),
} as const;

/** GridWM Task C: the answer is { verdict }; a storyboard frame may be shown large. */
export const events = {
  payloadSchemas,
  reduce(_state, event) {
    const p = event.payload;
    if (event.type === "verdict_made") {
      const verdict = payloadField(p, "verdict");
      return (VERDICTS as readonly unknown[]).includes(verdict) ? { answer: { verdict } } : {};
    }
    if (event.type === "frame_zoomed") {
      const image = payloadField(p, "image");
      const frame = payloadField(p, "frame");
      return typeof image === "string" && Number.isInteger(frame) ? { zoomed: image, frame: frame as number } : {};
    }
    return null;
  },
  describe(event) {
    const p = event.payload;
    if (event.type === "frame_zoomed") return `Opened frame ${oneBased(p, "frame")} of the storyboard large${viaSuffix(p)}`;
    if (event.type !== "verdict_made") return null;
    const previous = payloadField(p, "previous");
    return `Verdict ${String(payloadField(p, "verdict") ?? "?")}${typeof previous === "string" ? ` (was ${previous})` : ""}${viaSuffix(p)}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
