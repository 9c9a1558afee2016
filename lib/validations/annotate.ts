import { z } from "zod";
import { kindEventsVersion, kindPayloadSchemas, staticKindPayloadSchemas } from "@/lib/tasks/event-registry";

/**
 * What the annotator's browser sends: trajectory events and responses. Shared by the route
 * handlers (server) and the browser code that builds the requests (lib/client), so both sides
 * agree on every event type and its payload.
 */

const index = z.number().int().min(0).max(999);
const candidateIndex = index;
/** an image URL as shown ("/api/assets/<sha256>") */
const imageRef = z.string().min(1).max(2048);

/** The event types every kind records (each kind's own are in lib/tasks/<kind>/events.ts). */
const commonPayloadSchemas = {
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
  /** an interactive item (lib/annotate/play.ts): the server acknowledged step `seq` (the action as sent; `valid` false when refused) */
  play_step: z.strictObject({ seq: z.number().int().min(1).max(100_000), action: z.json(), valid: z.boolean() }),
  confidence_changed: z.strictObject({ value: z.number().min(0).max(100), previous: z.number().min(0).max(100).nullable() }),
  /**
   * the answer as submitted (also in Response.answer), checked by the kind on the server: its answer
   * object in `answer`, or in the form a kind's UI records it in (TaskUi.submittedFields: the
   * ordering kinds' `order`, the form of their stored trajectories)
   */
  submitted: z
    .strictObject({
      order: z.array(candidateIndex).max(1000).optional(),
      answer: z.record(z.string(), z.json()).optional(),
      confidence: z.number().min(0).max(100),
      clientId: z.uuid(),
    })
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

/** Every trajectory event type and its payload: the common ones and those of the registered kinds. */
export const trajectoryPayloadSchemas = { ...commonPayloadSchemas, ...staticKindPayloadSchemas };

export type TrajectoryEventType = keyof typeof trajectoryPayloadSchemas;
export type TrajectoryPayload<T extends TrajectoryEventType> = z.infer<(typeof trajectoryPayloadSchemas)[T]>;
export const trajectoryEventTypes = Object.keys(trajectoryPayloadSchemas) as TrajectoryEventType[];

/** An event as the annotation store's `dispatch` takes it: a type with its payload. */
export type TrajectoryEventInput = { [T in TrajectoryEventType]: { type: T; payload: TrajectoryPayload<T> } }[TrajectoryEventType];

/** Whether a payload is one its event type's schema accepts (kinds registered at run time included). */
export function isValidPayload(type: string, payload: unknown): boolean {
  const schema = Object.hasOwn(commonPayloadSchemas, type) ? commonPayloadSchemas[type as keyof typeof commonPayloadSchemas] : kindPayloadSchemas()[type];
  return schema !== undefined && schema.safeParse(payload).success;
}

/**
 * Events one assignment may store: seq runs from 0 below this, and (assignment, seq) is stored once,
 * so no assignment holds more (with payloads of at most about 20 KB each). An item with this many
 * interactions is far beyond any task's need (the load benchmark sends about 180 per item).
 */
export const MAX_EVENTS_PER_ASSIGNMENT = 20_000;

const assignmentId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "an assignment id");

/**
 * The tab (or device) that records and submits (lib/responses/writer.ts): a random id the page
 * keeps for the life of its tab. Optional: a client that names none (an API agent) is the writer ''.
 */
export const writerIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "a writer id");

const envelope = {
  assignmentId,
  writer: writerIdSchema.optional(),
  /** per-assignment (and writer) sequence number: 0, 1, 2, ... without gaps; below the cap of events per assignment ((assignment, seq) is unique) */
  seq: z
    .number()
    .int()
    .min(0)
    .max(MAX_EVENTS_PER_ASSIGNMENT - 1, `seq must be below ${MAX_EVENTS_PER_ASSIGNMENT}: at most ${MAX_EVENTS_PER_ASSIGNMENT} events per item`),
  /** milliseconds since the epoch, by the browser's clock */
  clientTime: z.number().int().min(0).max(8_640_000_000_000),
};

function eventOf(type: string, payload: z.ZodType) {
  return z.strictObject({ ...envelope, type: z.literal(type), payload });
}

/** A typed trajectory event (the union of every type with its payload). */
export type TrajectoryEvent = {
  [T in TrajectoryEventType]: { assignmentId: string; writer?: string; seq: number; clientTime: number; type: T; payload: TrajectoryPayload<T> };
}[TrajectoryEventType];

let eventSchemaCache: { version: number; schema: z.ZodType } | null = null;

/** The union over the event types of this moment's registry (a kind registered at run time adds its own). */
function currentEventSchema(): z.ZodType {
  const version = kindEventsVersion();
  if (eventSchemaCache?.version !== version) {
    const options = Object.entries({ ...kindPayloadSchemas(), ...commonPayloadSchemas }).map(([type, payload]) => eventOf(type, payload));
    eventSchemaCache = { version, schema: z.discriminatedUnion("type", options as [(typeof options)[number], ...(typeof options)[number][]]) };
  }
  return eventSchemaCache.schema;
}

/** One trajectory event as the browser sends it. */
export const trajectoryEventSchema: z.ZodType<TrajectoryEvent> = z.lazy(() => currentEventSchema() as z.ZodType<TrajectoryEvent>);

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
  /** assignments written by another tab or device: their events of this batch were refused (the reply is a 409) */
  notWriter?: string[];
}

/** Splits a batch into valid events and rejections. */
export function parseTrajectoryBatch(events: readonly unknown[]): {
  valid: TrajectoryEvent[];
  validIndexes: number[];
  rejected: NonNullable<TrajectoryAck["rejected"]>;
} {
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
  /** the submitting tab (lib/responses/writer.ts); refused (409) when another tab writes the item */
  writer: writerIdSchema.optional(),
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
  /** practice items only: whether the answer was right, and the key as an answer of the kind (its module's keyAnswer), which the kind's UI lays out */
  feedback?: { correct: boolean; answer?: unknown };
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

/** POST /api/annotate/assignments/[id]/writer: this tab takes the item (`takeOver`: even from another tab that is writing it). */
export const writerClaimSchema = z.strictObject({ writer: writerIdSchema, takeOver: z.boolean().default(false) });

/** Reply of POST /api/annotate/assignments/[id]/writer: the seq the stored trajectory reaches (the tab goes on after it). */
export interface WriterClaim {
  writer: string;
  nextSeq: number;
}

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
