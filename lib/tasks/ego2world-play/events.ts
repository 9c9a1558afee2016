import { z } from "zod";
import { applyEgoEvent, isEgoDraft, NOTE_CONFIDENCES, NOTE_FIELDS, NOTE_SOURCES } from "@/lib/tasks/ego2world-play/notes";
import { numberField, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import type { KindEvents } from "@/lib/tasks/types";

const payloadSchemas = {
  /**
   * Ego2World (lib/tasks/ego2world-play/notes.ts): one row of the person's notes (their belief graph) added,
   * one field edited, a row removed; `via` "auto" for rows pre-filled from what the person saw.
   * `episode_finished`: the server said every task is done.
   */
  note_added: z.strictObject({
    object: z.string().trim().min(1).max(100),
    area: z.string().max(100).nullable(),
    state: z.string().max(500),
    confidence: z.enum(NOTE_CONFIDENCES),
    source: z.enum(NOTE_SOURCES),
    via: z.enum(["auto", "click", "keyboard", "touch"]),
  }),
  note_edited: z.strictObject({ object: z.string().min(1).max(100), field: z.enum(NOTE_FIELDS), value: z.string().max(500).nullable(), via: pointerVia }),
  note_removed: z.strictObject({ object: z.string().min(1).max(100), via: pointerVia }),
  episode_finished: z.strictObject({ tasks: z.number().int().min(0).max(1000) }),
} as const;

const isEgoEvent = (type: string) => Object.hasOwn(payloadSchemas, type);

/** Ego2World: the notes draft after each notes event. */
export const events = {
  payloadSchemas,
  reduce(state, event) {
    if (!isEgoEvent(event.type)) return null;
    if (!isEgoDraft(state.answer)) return {};
    return { answer: applyEgoEvent(state.answer, event.type, event.payload) };
  },
  describe(event) {
    const p = (event.payload ?? {}) as Record<string, unknown>;
    const via = viaSuffix(p);
    switch (event.type) {
      case "note_added":
        return `Noted ${String(p.object ?? "?")}${typeof p.area === "string" ? ` in ${p.area}` : ""}${p.via === "auto" ? " (seen, filled in)" : ` (${String(p.source ?? "guess")})${via}`}`;
      case "note_edited":
        return `Note on ${String(p.object ?? "?")}: ${String(p.field ?? "?")} = ${JSON.stringify(p.value ?? null)}${via}`;
      case "note_removed":
        return `Removed the note on ${String(p.object ?? "?")}${via}`;
      case "episode_finished":
        return `Every task done (${numberField(p, "tasks") ?? "?"} tasks)`;
      default:
        return null;
    }
  },
} satisfies KindEvents<typeof payloadSchemas>;
