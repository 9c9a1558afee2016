import { z } from "zod";
import { payloadField, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import { isGrade } from "@/lib/tasks/shared/llm-match/rubric";
import type { KindEvents } from "@/lib/tasks/types";

const payloadSchemas = {
  /** a grade 1-5 chosen */
  answer_graded: z.strictObject({ grade: z.number().int().min(1).max(5), previous: z.number().int().min(1).max(5).nullable(), via: pointerVia }),
} as const;

/** free-text-grade: the answer is { grade }. */
export const events = {
  payloadSchemas,
  reduce(_state, event) {
    if (event.type !== "answer_graded") return null;
    const grade = payloadField(event.payload, "grade");
    return isGrade(grade) ? { answer: { grade } } : {};
  },
  describe(event) {
    if (event.type !== "answer_graded") return null;
    const previous = payloadField(event.payload, "previous");
    return `Grade ${String(payloadField(event.payload, "grade") ?? "?")}${typeof previous === "number" ? ` (was ${previous})` : ""}${viaSuffix(event.payload)}`;
  },
} satisfies KindEvents<typeof payloadSchemas>;
