import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { enabledUserSql, signedOutError } from "@/lib/db/enabled-user";
import type { TrajectoryAck, TrajectoryEvent } from "@/lib/validations/annotate";

/**
 * Stores trajectory events (append-only). Each (assignment, seq) is stored once: a retried or
 * beaconed batch is acknowledged again without writing anything (INSERT ... ON CONFLICT DO
 * NOTHING on the unique index), and the first copy of a seq wins.
 *
 * Every event must belong to an assignment of `userId` (FORBIDDEN otherwise, NOT_FOUND for an
 * unknown assignment, and nothing of the batch is stored), and `userId` must be an enabled
 * account (UNAUTHORIZED otherwise: the route takes the id from the session token and leaves this
 * check to this statement); events after the submission are still stored (a late beacon), they
 * do not change the stored response.
 *
 * One SQL statement per batch (one round trip, atomic): the ownership check, a multi-row insert
 * of the whole batch, and the assignments' bookkeeping: the first stored event marks an
 * assignment STARTED (a prefetched item is not started until shown) with startedAt, and activity
 * extends the lease of an assignment that holds a place (lib/assignment.ts), at most about once a
 * minute per assignment so that a busy annotator does not rewrite the row on every batch.
 */
export async function recordEvents(userId: string, events: readonly TrajectoryEvent[]): Promise<TrajectoryAck> {
  if (events.length === 0) {
    const [account] = await db.$queryRaw<Array<{ enabled: boolean }>>`SELECT ${enabledUserSql(userId)} AS enabled`;
    if (!account?.enabled) throw signedOutError();
    return { acked: {} };
  }
  const ids = [...new Set(events.map((event) => event.assignmentId))];
  const batch = JSON.stringify(
    events.map((event) => ({ a: event.assignmentId, s: event.seq, t: event.type, p: event.payload ?? {}, c: new Date(event.clientTime).toISOString() })),
  );
  const rows = await db.$queryRaw<Array<{ enabled: boolean; id: string | null; userId: string | null }>>`
    WITH owners AS (
      SELECT a.id, a."userId" FROM "Assignment" a WHERE a.id = ANY(${ids}::text[])
    ),
    account AS (
      SELECT ${enabledUserSql(userId)} AS enabled
    ),
    allowed AS (
      SELECT count(*) = ${ids.length} AND coalesce(bool_and(o."userId" = ${userId}), false) AND (SELECT enabled FROM account) AS ok FROM owners o
    ),
    stored AS (
      INSERT INTO "Event" ("assignmentId", seq, type, payload, "clientTime", "serverTime")
      SELECT e.a, e.s, e.t, e.p, e.c, (now() AT TIME ZONE 'UTC')
      FROM jsonb_to_recordset(${batch}::jsonb) AS e(a text, s int, t text, p jsonb, c timestamp(3))
      WHERE (SELECT ok FROM allowed)
      ON CONFLICT ("assignmentId", seq) DO NOTHING
      RETURNING 1
    ),
    touched AS (
      UPDATE "Assignment" a
      SET status = 'STARTED',
        "startedAt" = coalesce(a."startedAt", (now() AT TIME ZONE 'UTC')),
        "leaseExpiresAt" = CASE WHEN a."leaseExpiresAt" IS NULL THEN NULL ELSE (now() AT TIME ZONE 'UTC') + make_interval(secs => s."leaseSeconds") END
      FROM "Study" s
      WHERE a.id = ANY(${ids}::text[]) AND s.id = a."studyId" AND (SELECT ok FROM allowed)
        AND a.status IN ('ASSIGNED', 'STARTED')
        AND (a.status = 'ASSIGNED'
          OR a."leaseExpiresAt" < (now() AT TIME ZONE 'UTC') + make_interval(secs => s."leaseSeconds" - least(60, s."leaseSeconds" / 2)))
      RETURNING 1
    )
    SELECT account.enabled, o.id, o."userId", (SELECT count(*) FROM stored)::int AS stored, (SELECT count(*) FROM touched)::int AS touched
    FROM account LEFT JOIN owners o ON true`;
  if (!rows[0]?.enabled) throw signedOutError();
  const found = new Map(rows.filter((row) => row.id !== null).map((row) => [row.id, row.userId]));
  for (const id of ids) {
    const owner = found.get(id);
    if (owner === undefined) throw new AppError("NOT_FOUND", `No assignment ${id}`);
    if (owner !== userId) throw new AppError("FORBIDDEN", `Assignment ${id} belongs to another annotator`);
  }
  const acked: Record<string, number[]> = {};
  for (const event of events) (acked[event.assignmentId] ??= []).push(event.seq);
  for (const [id, seqs] of Object.entries(acked)) acked[id] = [...new Set(seqs)].sort((a, b) => a - b);
  return { acked };
}

/** Stored events of an assignment in seq order (the replay, the time recomputation). */
export async function listEvents(assignmentId: string, upToSeq?: number) {
  return db.event.findMany({
    where: { assignmentId, ...(upToSeq !== undefined ? { seq: { lte: upToSeq } } : {}) },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true, clientTime: true, serverTime: true },
  });
}
