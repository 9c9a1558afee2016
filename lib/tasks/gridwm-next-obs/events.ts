import { z } from "zod";
import { LETTERS } from "@/lib/tasks/shared/gridwm/common";
import { payloadField, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import type { KindEvents } from "@/lib/tasks/types";

const payloadSchemas = {
  /** GridWM Task A: a candidate letter chosen (again: a change of mind; `previous` the one before) */
  choice_made: z.strictObject({ choice: z.enum(LETTERS), previous: z.enum(LETTERS).nullable(), via: pointerVia }),
} as const;

/** GridWM Task A: the answer is { choice }. */
export const events = {
  payloadSchemas,
  reduce(_state, event) {
    if (event.type !== "choice_made") return null;
    const choice = payloadField(event.payload, "choice");
    return (LETTERS as readonly unknown[]).includes(choice) ? { answer: { choice } } : {};
  },
  describe(event) {
    if (event.type !== "choice_made") return null;
    const previous = payloadField(event.payload, "previous");
    return `Chose ${String(payloadField(event.payload, "choice") ?? "?")}${typeof previous === "string" ? ` (was ${previous})` : ""}${viaSuffix(event.payload)}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
