import { z } from "zod";
import { SCENE_EDIT_PATH } from "@/lib/annotate/scene-form";
import { NOTE_CONFIDENCES, NOTE_FIELDS, NOTE_SOURCES } from "@/lib/ego2world/notes";

/**
 * What the annotator's browser sends: trajectory events and responses. Shared by the route
 * handlers (server) and the browser code that builds the requests (lib/client), so both sides
 * agree on every event type and its payload.
 */

const index = z.number().int().min(0).max(999);
const slotIndex = index;
const candidateIndex = index;
const inputVia = z.enum(["drag", "keyboard", "click", "touch"]);
/** an image URL as shown ("/api/assets/<sha256>") */
const imageRef = z.string().min(1).max(2048);

/** Every trajectory event type and its payload. */
export const trajectoryPayloadSchemas = {
  /** the item was rendered (again, when `resumed`: after a reload or on another device) */
  item_shown: z.strictObject({
    kind: z.string().max(60),
    resumed: z.boolean(),
    viewport: z.strictObject({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) }).optional(),
  }),
  /** an image opened large (lightbox) */
  image_zoomed: z.strictObject({
    image: imageRef,
    role: z.enum(["initial", "candidate", "observation", "slot", "storyboard", "composite"]),
    index: index,
  }),
  image_closed: z.strictObject({ image: imageRef, via: z.enum(["escape", "backdrop", "button"]) }),
  /** a drag started: from the library (`fromSlot` null) or from a filled slot */
  candidate_picked: z.strictObject({ candidate: candidateIndex, fromSlot: slotIndex.nullable(), via: inputVia }),
  /** a drag ended without a drop on a slot */
  pick_cancelled: z.strictObject({ candidate: candidateIndex }),
  /**
   * a candidate put into a slot: from the library (`fromSlot` null) or moved from another slot
   * (which is left empty); `replaced` is the candidate that was in the slot (back to the library)
   */
  slot_filled: z.strictObject({ slot: slotIndex, candidate: candidateIndex, fromSlot: slotIndex.nullable(), replaced: candidateIndex.nullable(), via: inputVia }),
  /** the candidates of two filled slots swapped */
  slots_swapped: z.strictObject({ from: slotIndex, to: slotIndex, fromCandidate: candidateIndex, toCandidate: candidateIndex, via: inputVia }),
  /** a slot emptied; its candidate goes back to the library */
  slot_cleared: z.strictObject({ slot: slotIndex, candidate: candidateIndex, via: inputVia }),
  /** a storyboard frame (0-based, left to right, top to bottom) shown large, cut from `image` */
  frame_zoomed: z.strictObject({ image: imageRef, frame: z.number().int().min(0).max(63), via: z.enum(["click", "keyboard"]) }),
  /** GridWM Task A: a candidate letter chosen (again: a change of mind; `previous` the one before) */
  choice_made: z.strictObject({ choice: z.enum(["A", "B", "C", "D"]), previous: z.enum(["A", "B", "C", "D"]).nullable(), via: z.enum(["click", "keyboard", "touch"]) }),
  /** GridWM Task C: the verdict chosen */
  verdict_made: z.strictObject({ verdict: z.enum(["Success", "Fail"]), previous: z.enum(["Success", "Fail"]).nullable(), via: z.enum(["click", "keyboard", "touch"]) }),
  /**
   * GridWM Task B: one edit of the scene form (lib/annotate/scene-form.ts): `set` a field
   * ("agent.pos" [x, y], "agent.dir", "agent.carrying", "front_cell.type", "front_cell.state",
   * "objects.<i>.type|color|state"), `add` an object ("objects"), `remove` one ("objects.<i>").
   */
  scene_edited: z.strictObject({
    op: z.enum(["set", "add", "remove"]),
    path: z.string().max(40).regex(SCENE_EDIT_PATH, "a scene form path"),
    value: z.json(),
    via: z.enum(["click", "keyboard", "touch"]),
  }),
  /**
   * EXPLORE-Bench (`explore-scene`, lib/annotate/item-state.ts applyExploreEvent): an object added
   * to the scene draft with a new stable id (`object`), removed (with the relations pointing at
   * it), or one of its fields edited; attributes are the free-text `description`.
   */
  scene_object_added: z.strictObject({ object: z.number().int().min(0).max(100_000), category: z.string().max(200), description: z.string().max(2000), via: z.enum(["click", "keyboard", "touch"]) }),
  scene_object_removed: z.strictObject({ object: z.number().int().min(0).max(100_000), via: z.enum(["click", "keyboard", "touch"]) }),
  scene_object_edited: z.strictObject({ object: z.number().int().min(0).max(100_000), field: z.enum(["category", "description"]), value: z.string().max(2000), via: z.enum(["click", "keyboard", "touch"]) }),
  /** EXPLORE: "<subject> <relation> <object>" added to the subject's relations (objects by id) */
  relation_added: z.strictObject({ subject: z.number().int().min(0).max(100_000), relation: z.string().trim().min(1).max(100), object: z.number().int().min(0).max(100_000), via: z.enum(["click", "keyboard", "touch"]) }),
  /** EXPLORE: the subject's relation at `index` removed */
  relation_removed: z.strictObject({ subject: z.number().int().min(0).max(100_000), index: z.number().int().min(0).max(999), via: z.enum(["click", "keyboard", "touch"]) }),
  /** EXPLORE: the reading position in the action list (0-based first and last visible action; at most one a second while scrolling) */
  actions_scrolled: z.strictObject({ first: z.number().int().min(0).max(100_000), last: z.number().int().min(0).max(100_000) }),
  /** EXPLORE: the action list's filter text (debounced) */
  actions_searched: z.strictObject({ query: z.string().max(200) }),
  /** EXPLORE free-text mode: the description as typed so far (debounced, and when the box loses focus) */
  scene_text_edited: z.strictObject({ value: z.string().max(20_000) }),
  /** an interactive item (lib/play.ts): the server acknowledged step `seq` (the action as sent; `valid` false when refused) */
  play_step: z.strictObject({ seq: z.number().int().min(1).max(100_000), action: z.json(), valid: z.boolean() }),
  /**
   * Ego2World (`ego2world-play`, lib/ego2world/notes.ts): one row of the person's notes (their
   * belief graph) added, one field edited, a row removed; `via` "auto" for rows pre-filled from
   * what the person saw. `episode_finished`: the server said every task is done.
   */
  note_added: z.strictObject({
    object: z.string().trim().min(1).max(100),
    area: z.string().max(100).nullable(),
    state: z.string().max(500),
    confidence: z.enum(NOTE_CONFIDENCES),
    source: z.enum(NOTE_SOURCES),
    via: z.enum(["auto", "click", "keyboard", "touch"]),
  }),
  note_edited: z.strictObject({ object: z.string().min(1).max(100), field: z.enum(NOTE_FIELDS), value: z.string().max(500).nullable(), via: z.enum(["click", "keyboard", "touch"]) }),
  note_removed: z.strictObject({ object: z.string().min(1).max(100), via: z.enum(["click", "keyboard", "touch"]) }),
  episode_finished: z.strictObject({ tasks: z.number().int().min(0).max(1000) }),
  /**
   * ESI-Bench (lib/esi/belief.ts): "my current answer" or its confidence changed while exploring;
   * the whole belief (the answer so far: an option, a map of the parts answered so far, or null;
   * the confidence on the study's scale or null) and the play step it was made at
   */
  belief_changed: z.strictObject({
    choice: z.union([z.string().max(200), z.record(z.string().max(20), z.string().max(200)).refine((parts) => Object.keys(parts).length <= 10, "at most 10 parts")]).nullable(),
    confidence: z.number().min(0).max(100).nullable(),
    step: z.number().int().min(0).max(100_000),
    via: z.enum(["click", "keyboard", "touch", "slider"]),
  }),
  confidence_changed: z.strictObject({ value: z.number().min(0).max(100), previous: z.number().min(0).max(100).nullable() }),
  /**
   * the answer as submitted (also in Response.answer): ordering kinds send `order` (as before),
   * every other kind its answer object in `answer` (checked by the kind on the server)
   */
  submitted: z
    .strictObject({ order: z.array(candidateIndex).max(1000).optional(), answer: z.record(z.string(), z.json()).optional(), confidence: z.number().min(0).max(100), clientId: z.uuid() })
    .refine((payload) => (payload.order === undefined) !== (payload.answer === undefined), "submitted carries either order or answer"),
  /**
   * the item was submitted (`submittedSeq`) but the answer never reached the server (the tab was
   * closed, or its browser is gone), so the page that shows it again reopens it for answering:
   * the events so far are kept, and the person submits again (lib/annotate/assignment-view.ts)
   */
  submission_reopened: z.strictObject({ submittedSeq: z.number().int().min(0).max(1_000_000), reason: z.string().max(500) }),
  /** the page was hidden (tab switched, window minimised, page left): focus loss */
  page_hidden: z.strictObject({}),
  page_visible: z.strictObject({}),
  /** the "are you still working?" overlay appeared after `idleMs` without an interaction */
  idle_shown: z.strictObject({ idleMs: z.number().int().min(0) }),
  idle_dismissed: z.strictObject({}),
} as const;

export type TrajectoryEventType = keyof typeof trajectoryPayloadSchemas;
export type TrajectoryPayload<T extends TrajectoryEventType> = z.infer<(typeof trajectoryPayloadSchemas)[T]>;
export const trajectoryEventTypes = Object.keys(trajectoryPayloadSchemas) as TrajectoryEventType[];

/**
 * Events one assignment may store: seq runs from 0 below this, and (assignment, seq) is stored once,
 * so no assignment holds more (with payloads of at most about 20 KB each). An item with this many
 * interactions is far beyond any task's need (the load benchmark sends about 180 per item).
 */
export const MAX_EVENTS_PER_ASSIGNMENT = 20_000;

const assignmentId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "an assignment id");

const envelope = {
  assignmentId,
  /** per-assignment sequence number: 0, 1, 2, ... without gaps; below the cap of events per assignment ((assignment, seq) is unique) */
  seq: z.number().int().min(0).max(MAX_EVENTS_PER_ASSIGNMENT - 1, `seq must be below ${MAX_EVENTS_PER_ASSIGNMENT}: at most ${MAX_EVENTS_PER_ASSIGNMENT} events per item`),
  /** milliseconds since the epoch, by the browser's clock */
  clientTime: z.number().int().min(0).max(8_640_000_000_000),
};

function eventOf<T extends TrajectoryEventType>(type: T) {
  return z.strictObject({ ...envelope, type: z.literal(type), payload: trajectoryPayloadSchemas[type] });
}

/** One trajectory event as the browser sends it. */
export const trajectoryEventSchema = z.discriminatedUnion("type", [
  eventOf("item_shown"),
  eventOf("image_zoomed"),
  eventOf("image_closed"),
  eventOf("candidate_picked"),
  eventOf("pick_cancelled"),
  eventOf("slot_filled"),
  eventOf("slots_swapped"),
  eventOf("slot_cleared"),
  eventOf("frame_zoomed"),
  eventOf("choice_made"),
  eventOf("verdict_made"),
  eventOf("scene_edited"),
  eventOf("scene_object_added"),
  eventOf("scene_object_removed"),
  eventOf("scene_object_edited"),
  eventOf("relation_added"),
  eventOf("relation_removed"),
  eventOf("actions_scrolled"),
  eventOf("actions_searched"),
  eventOf("scene_text_edited"),
  eventOf("play_step"),
  eventOf("note_added"),
  eventOf("note_edited"),
  eventOf("note_removed"),
  eventOf("episode_finished"),
  eventOf("belief_changed"),
  eventOf("confidence_changed"),
  eventOf("submitted"),
  eventOf("submission_reopened"),
  eventOf("page_hidden"),
  eventOf("page_visible"),
  eventOf("idle_shown"),
  eventOf("idle_dismissed"),
]);

/** A typed trajectory event (the union of every type with its payload). */
export type TrajectoryEvent = z.infer<typeof trajectoryEventSchema>;

export const MAX_EVENTS_PER_BATCH = 500;

/** POST /api/annotate/events (JSON or a sendBeacon text/plain body). */
export const trajectoryCreateSchema = z.strictObject({
  events: z.array(trajectoryEventSchema).min(1).max(MAX_EVENTS_PER_BATCH),
});
export type TrajectoryCreateInput = z.infer<typeof trajectoryCreateSchema>;

/**
 * The envelope only: each event is then checked on its own, so that one malformed event (a
 * browser running older code after a deploy, say) does not hold back the valid ones of its batch.
 */
export const trajectoryBatchSchema = z.strictObject({
  events: z.array(z.unknown()).min(1).max(MAX_EVENTS_PER_BATCH),
});

/** Reply of POST /api/annotate/events: the stored (or already stored) seqs by assignment, and the refused events. */
export interface TrajectoryAck {
  acked: Record<string, number[]>;
  /** events that failed validation (not stored); `assignmentId`/`seq` when they could be read */
  rejected?: Array<{ index: number; assignmentId: string | null; seq: number | null; issues: string[] }>;
}

/** Splits a batch into valid events and rejections. */
export function parseTrajectoryBatch(events: readonly unknown[]): { valid: TrajectoryEvent[]; validIndexes: number[]; rejected: NonNullable<TrajectoryAck["rejected"]> } {
  const valid: TrajectoryEvent[] = [];
  /** each valid event's index in `events` */
  const validIndexes: number[] = [];
  const rejected: NonNullable<TrajectoryAck["rejected"]> = [];
  events.forEach((raw, index) => {
    const parsed = trajectoryEventSchema.safeParse(raw);
    if (parsed.success) {
      valid.push(parsed.data);
      validIndexes.push(index);
      return;
    }
    const record = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
    rejected.push({
      index,
      assignmentId: typeof record.assignmentId === "string" ? record.assignmentId.slice(0, 64) : null,
      seq: typeof record.seq === "number" && Number.isInteger(record.seq) ? record.seq : null,
      issues: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || "(event)"}: ${issue.message}`),
    });
  });
  return { valid, validIndexes, rejected };
}

/** POST /api/annotate/responses. `answer` is checked by the item's kind (answerSchemaFor). */
export const responseCreateSchema = z.strictObject({
  assignmentId,
  /** crypto.randomUUID() in the browser, persisted before the first send */
  clientId: z.uuid(),
  answer: z.unknown(),
  /** on the study's scale: 1..5 (LIKERT_5) or 0..100 (PERCENT) */
  confidence: z.number().min(0).max(100),
  wallMs: z.number().int().min(0).max(2_147_483_647),
  activeMs: z.number().int().min(0).max(2_147_483_647),
  /** seq of the `submitted` event: the server recomputes the times from events 0..submitSeq */
  submitSeq: z.number().int().min(0).max(1_000_000),
});
export type ResponseCreateInput = z.infer<typeof responseCreateSchema>;

/** Reply of POST /api/annotate/responses (the same for a retried submission). */
export interface ResponseAck {
  responseId: string;
  assignmentId: string;
  clientId: string;
  /** true when this clientId was stored before (a retry) */
  duplicate: boolean;
  purpose: "MAIN" | "PRACTICE" | "AGREEMENT";
  /** practice items only: whether the answer was right, and the right order (ordering kinds) or answer (the key as an answer; other kinds) */
  feedback?: { correct: boolean; order: number[]; answer?: unknown };
}

/** GET /api/annotate/studies/[slug]/next?exclude=a,b */
export const nextAssignmentQuerySchema = z.object({
  exclude: z
    .string()
    .max(2000)
    .optional()
    .transform((value) => (value ? value.split(",").filter(Boolean) : []))
    .pipe(z.array(assignmentId).max(20)),
});

/** Route params. */
export const assignmentParamSchema = z.object({ id: assignmentId });

/** POST /api/annotate/assignments/[id]/play: one action of an interactive item (the kind's actionSchema checks `action`). */
export const playStepSchema = z.strictObject({
  /** the step's number: the last acknowledged seq + 1 (a retry sends the same seq) */
  seq: z.number().int().min(1).max(100_000),
  action: z.json(),
});
export type PlayStepInput = z.infer<typeof playStepSchema>;
export const studySlugParamSchema = z.object({ slug: z.string().min(1).max(60) });
export const assetParamSchema = z.object({ hash: z.string().min(1).max(128) });

/** Largest accepted body of the events endpoint (a beacon is at most 64 KiB; fetch batches of 500 events stay well below). */
export const MAX_EVENTS_BODY_BYTES = 1024 * 1024;
