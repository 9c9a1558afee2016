import { z } from "zod";
import { applyEsiEvent, isEsiDraft } from "@/lib/tasks/esi-explore/belief";
import { numberField, viaSuffix } from "@/lib/tasks/shared/event-fields";
import type { EventDescribeContext, KindEvents, RecordedEvent } from "@/lib/tasks/types";

const payloadSchemas = {
  /**
   * ESI-Bench (lib/tasks/esi-explore/belief.ts): "my current answer" or its confidence changed while exploring;
   * the whole belief (the answer so far: an option, a map of the parts answered so far, or null;
   * the confidence on the study's scale or null) and the play step it was made at
   */
  belief_changed: z.strictObject({
    choice: z
      .union([z.string().max(200), z.record(z.string().max(20), z.string().max(200)).refine((parts) => Object.keys(parts).length <= 10, "at most 10 parts")])
      .nullable(),
    confidence: z.number().min(0).max(100).nullable(),
    step: z.number().int().min(0).max(100_000),
    via: z.enum(["click", "keyboard", "touch", "slider"]),
  }),
} as const;

function describeBelief(event: RecordedEvent, { percent }: EventDescribeContext): string | null {
  if (event.type !== "belief_changed") return null;
  const p = (event.payload ?? {}) as Record<string, unknown>;
  const choice = p.choice;
  const answer =
    typeof choice === "string"
      ? choice
      : choice && typeof choice === "object"
        ? Object.entries(choice as Record<string, unknown>)
            .map(([part, value]) => `${part}=${String(value)}`)
            .join(", ")
        : "none";
  const sure = typeof p.confidence === "number" ? `, ${p.confidence}${percent ? "%" : " of 5"} sure` : "";
  return `Current answer: ${answer}${sure} (at step ${numberField(p, "step") ?? "?"})${viaSuffix(p)}`;
}

/** ESI-Bench: the belief panel's draft and confidence; `play_step` moves the draft's step on. */
export const events = {
  payloadSchemas,
  reduce(state, event) {
    if (!isEsiDraft(state.answer)) return null;
    return applyEsiEvent(state.answer, state.confidence, event);
  },
  describe: describeBelief,
} satisfies KindEvents<typeof payloadSchemas>;
