import "server-only";
import { AppError } from "@/lib/errors";
import { signedOutError } from "@/lib/db/enabled-user";
import { isForeignKeyViolation } from "@/lib/db/errors";
import { insertEventBatch, isAccountEnabled, listAssignmentEvents } from "@/lib/repos/responses";
import type { TrajectoryAck, TrajectoryEvent } from "@/lib/validations/annotate";

/**
 * Stores trajectory events (append-only). Each (assignment, writer, seq) is stored once: a retried
 * or beaconed batch is acknowledged again without writing anything (INSERT ... ON CONFLICT DO
 * NOTHING on the unique index), and the first copy of a seq wins. The writer is the tab (or
 * device) that recorded the event (lib/responses/writer.ts): each numbers its own events, so two
 * tabs' events with the same seq are both kept, never one dropped as the other's copy.
 *
 * Only the assignment's writer is taken: the first writer to send events becomes it when there is
 * none, and the events of any other are refused one by one (the reply lists the assignment in
 * `notWriter`, and the route answers 409), while the writer's own events of the batch are stored.
 * That tab shows "open in another tab" and offers to take the item over (claimWriter).
 *
 * Every event must belong to an assignment of `userId` (FORBIDDEN otherwise, NOT_FOUND for an
 * unknown assignment, and nothing of the batch is stored), and `userId` must be an enabled
 * account (UNAUTHORIZED otherwise: the route takes the id from the session token and leaves this
 * check to this statement). Events after the submission are stored for a grace window of
 * EVENT_GRACE_AFTER_SUBMIT_SECONDS (the outbox's late ones: a beacon, a page_hidden queued offline);
 * they do not change the stored response. Later ones, and any for an assignment of a CLOSED study,
 * are refused one by one in `rejected` (the browser puts them aside and never resends them), the
 * rest of the batch is stored. The number of events per assignment is capped by the seq bound
 * (MAX_EVENTS_PER_ASSIGNMENT, lib/validations/annotate.ts). All of this is in the same statement:
 * no extra round trip per batch.
 *
 * One SQL statement per batch (one round trip, atomic): the ownership check, a multi-row insert
 * of the whole batch, and the assignments' bookkeeping: the first stored event marks an
 * assignment STARTED (a prefetched item is not started until shown) with startedAt, and activity
 * extends the lease of an assignment that holds a place (lib/assignment), at most about once a
 * minute per assignment so that a busy annotator does not rewrite the row on every batch.
 */
/** How long after its submission an assignment still takes events (the outbox's late deliveries). */
export const EVENT_GRACE_AFTER_SUBMIT_SECONDS = 600;

export async function recordEvents(userId: string, events: readonly TrajectoryEvent[]): Promise<TrajectoryAck> {
  if (events.length === 0) {
    if (!(await isAccountEnabled(userId))) throw signedOutError();
    return { acked: {} };
  }
  const ids = [...new Set(events.map((event) => event.assignmentId))];
  const batch = JSON.stringify(
    events.map((event) => ({
      a: event.assignmentId,
      w: event.writer ?? "",
      s: event.seq,
      t: event.type,
      p: event.payload ?? {},
      c: new Date(event.clientTime).toISOString(),
    })),
  );
  // an assignment deleted while the statement ran (a withdrawal, a study removed) fails the
  // events' foreign key: the statement is run once more, and then finds no such assignment (404)
  const rows = await writeBatch(userId, ids, batch).catch((error: unknown) => {
    if (isForeignKeyViolation(error)) return writeBatch(userId, ids, batch);
    throw error;
  });
  if (!rows[0]?.enabled) throw signedOutError();
  const found = new Map(rows.filter((row) => row.id !== null).map((row) => [row.id, row]));
  const refusal = new Map<string, string>();
  for (const id of ids) {
    const owner = found.get(id);
    if (owner === undefined) throw new AppError("NOT_FOUND", `No assignment ${id}`);
    if (owner.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${id} belongs to another annotator`);
    if (owner.closed) refusal.set(id, "the study is closed: it takes no more events");
    else if (owner.late) refusal.set(id, `the item was submitted more than ${EVENT_GRACE_AFTER_SUBMIT_SECONDS / 60} minutes ago: it takes no more events`);
  }
  const acked: Record<string, number[]> = {};
  const rejected: NonNullable<TrajectoryAck["rejected"]> = [];
  const notWriter = new Set<string>();
  events.forEach((event, index) => {
    const reason = refusal.get(event.assignmentId);
    const writer = found.get(event.assignmentId)?.writer ?? null;
    if (reason) rejected.push({ index, assignmentId: event.assignmentId, seq: event.seq, issues: [reason] });
    else if (writer !== null && writer !== (event.writer ?? "")) {
      notWriter.add(event.assignmentId);
      rejected.push({ index, assignmentId: event.assignmentId, seq: event.seq, issues: [NOT_WRITER_MESSAGE] });
    } else (acked[event.assignmentId] ??= []).push(event.seq);
  });
  for (const [id, seqs] of Object.entries(acked)) acked[id] = [...new Set(seqs)].sort((a, b) => a - b);
  return { acked, ...(rejected.length > 0 ? { rejected } : {}), ...(notWriter.size > 0 ? { notWriter: [...notWriter] } : {}) };
}

export const NOT_WRITER_MESSAGE = "this item is open in another tab or on another device, which is writing it: take it over here to go on";

/**
 * The batch's one statement (see recordEvents): the owners of its assignments as read, with what
 * it stored. `writer` is the assignment's writer after the statement: the one it had, or the
 * batch's first writer when it had none (that writer's events are stored; any other's refused).
 */
function writeBatch(userId: string, ids: string[], batch: string) {
  return insertEventBatch(userId, ids, batch, EVENT_GRACE_AFTER_SUBMIT_SECONDS);
}

/** Stored events of an assignment in seq order (the replay, the time recomputation). */
export async function listEvents(assignmentId: string, upToSeq?: number) {
  return listAssignmentEvents(assignmentId, upToSeq);
}
