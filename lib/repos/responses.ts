import "server-only";
import { db } from "@/lib/db";
import type { DbClient } from "@/lib/db/client-types";
import { enabledUserSql } from "@/lib/db/enabled-user";
import { newRowId, sqlNow } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AssignmentPurpose, AssignmentStatus, ConfidenceScale } from "@/lib/generated/prisma/enums";

/**
 * Data access for answering: responses (Response), the trajectory events of their assignments
 * (Event) and the assignment's writer (Assignment.writer). The rules (exactly once, one writer,
 * the scores, the times) are lib/responses's; the statements of the write path are each one round
 * trip, as those rules need.
 */

/** A stored answer (or prediction) with its item's key, for rescoring. */
export interface AnswerWithKey {
  id: string;
  answer: unknown;
  key: unknown;
}

/** The next `limit` responses, by id after `after`, to items of `kind` (in `studyId`, or every study) whose score is not of `version`. */
export async function listResponsesScoredOtherwise(
  kind: string,
  version: string,
  studyId: string | null,
  after: string,
  limit: number,
): Promise<AnswerWithKey[]> {
  return db.$queryRaw<AnswerWithKey[]>`
              SELECT r.id, r.answer, i.key FROM "Response" r
              JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
              WHERE i.kind = ${kind} AND (r.score->>'version') IS DISTINCT FROM ${version}
                AND (${studyId}::text IS NULL OR i."studyId" = ${studyId}) AND r.id > ${after}
              ORDER BY r.id LIMIT ${limit}`;
}

export async function setResponseScore(id: string, score: Prisma.InputJsonValue, correct: boolean | null): Promise<void> {
  await db.response.update({ where: { id }, data: { score, correct }, select: { id: true } });
}

/** Responses stored in the study (any purpose, practice included). */
export async function countResponsesOfStudy(studyId: string, client: DbClient = db): Promise<number> {
  const [row] = await client.$queryRaw<Array<{ n: bigint }>>`
    SELECT count(*) AS n FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId}`;
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// The writer of an assignment (lib/responses/writer.ts)

export interface WriterClaimRow {
  enabled: boolean;
  id: string | null;
  userId: string | null;
  writer: string | null;
  submitted: boolean | null;
  claimed: boolean | null;
  nextSeq: number | null;
}

/**
 * One statement: the account, the assignment as read, and the claim when it is granted (the item
 * has no writer, is this writer's, `takeOver`, its writer's last event is `submitted`, or its
 * writer has been silent for `idleSeconds`); nextSeq is where the stored trajectory ends.
 */
export async function claimAssignmentWriter(
  userId: string,
  assignmentId: string,
  writer: string,
  takeOver: boolean,
  idleSeconds: number,
): Promise<WriterClaimRow | undefined> {
  const [row] = await db.$queryRaw<WriterClaimRow[]>`
    WITH target AS (
      SELECT a.id, a."userId", a.writer,
        EXISTS (SELECT 1 FROM "Response" r WHERE r."assignmentId" = a.id) AS submitted,
        greatest(a."writerSince", (SELECT max(e."serverTime") FROM "Event" e WHERE e."assignmentId" = a.id AND e.writer = a.writer)) AS "lastSeen",
        (SELECT e.type FROM "Event" e WHERE e."assignmentId" = a.id AND e.writer = a.writer ORDER BY e.seq DESC, e.id DESC LIMIT 1) = 'submitted' AS "writerSubmitted"
      FROM "Assignment" a WHERE a.id = ${assignmentId}
    ),
    claimed AS (
      UPDATE "Assignment" a
      SET writer = ${writer}, "writerSince" = (now() AT TIME ZONE 'UTC')
      FROM target t
      WHERE a.id = t.id AND t."userId" = ${userId} AND NOT t.submitted AND ${enabledUserSql(userId)}
        AND (t.writer IS NULL OR t.writer = ${writer} OR ${takeOver} OR t."writerSubmitted"
          OR t."lastSeen" IS NULL OR t."lastSeen" < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${idleSeconds}))
      RETURNING a.id
    )
    SELECT ${enabledUserSql(userId)} AS enabled, t.id, t."userId", t.writer, t.submitted, EXISTS (SELECT 1 FROM claimed) AS claimed,
      coalesce((SELECT max(e.seq) + 1 FROM "Event" e WHERE e."assignmentId" = t.id), 0)::int AS "nextSeq"
    FROM (SELECT 1) one LEFT JOIN target t ON true`;
  return row;
}

// ---------------------------------------------------------------------------------------------
// Trajectory events (lib/responses/events.ts)

/** Whether the account is enabled (false for an unknown one). */
export async function isAccountEnabled(userId: string): Promise<boolean> {
  const [account] = await db.$queryRaw<Array<{ enabled: boolean }>>`SELECT ${enabledUserSql(userId)} AS enabled`;
  return Boolean(account?.enabled);
}

export interface EventBatchOwnerRow {
  enabled: boolean;
  id: string | null;
  userId: string | null;
  closed: boolean | null;
  late: boolean | null;
  writer: string | null;
}

/**
 * A batch of events in one statement (one round trip, atomic): the owners of its assignments as
 * read; the batch stored when every assignment is the enabled user's (each (assignment, writer,
 * seq) once, the writer's events only, none for a closed study or past `graceSeconds` after the
 * submission); the assignments' bookkeeping (STARTED, the lease, the writer). `writer` in a row
 * is the assignment's writer after the statement: the one it had, or the batch's first writer.
 * `batch`: JSON of [{ a: assignment, w: writer, s: seq, t: type, p: payload, c: client time }].
 */
export async function insertEventBatch(userId: string, ids: string[], batch: string, graceSeconds: number): Promise<EventBatchOwnerRow[]> {
  return db.$queryRaw<Array<EventBatchOwnerRow>>`
    WITH incoming AS (
      SELECT e.*, row_number() OVER () AS n FROM jsonb_to_recordset(${batch}::jsonb) AS e(a text, w text, s int, t text, p jsonb, c timestamp(3))
    ),
    owners AS (
      SELECT a.id, a."userId", s.status = 'CLOSED' AS closed,
        (a.status = 'SUBMITTED' AND a."submittedAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${graceSeconds})) AS late,
        a.writer AS held,
        coalesce(a.writer, (SELECT i.w FROM incoming i WHERE i.a = a.id ORDER BY i.n LIMIT 1)) AS writer
      FROM "Assignment" a JOIN "Study" s ON s.id = a."studyId"
      WHERE a.id = ANY(${ids}::text[])
    ),
    writable AS (
      SELECT o.id, o.writer, o.held FROM owners o WHERE NOT o.closed AND NOT coalesce(o.late, false)
    ),
    account AS (
      SELECT ${enabledUserSql(userId)} AS enabled
    ),
    allowed AS (
      SELECT count(*) = ${ids.length} AND coalesce(bool_and(o."userId" = ${userId}), false) AND (SELECT enabled FROM account) AS ok FROM owners o
    ),
    stored AS (
      INSERT INTO "Event" ("assignmentId", writer, seq, type, payload, "clientTime", "serverTime")
      SELECT e.a, e.w, e.s, e.t, e.p, e.c, (now() AT TIME ZONE 'UTC')
      FROM incoming e JOIN writable w ON w.id = e.a AND w.writer = e.w
      WHERE (SELECT ok FROM allowed)
      ON CONFLICT ("assignmentId", writer, seq) DO NOTHING
      RETURNING 1
    ),
    touched AS (
      UPDATE "Assignment" a
      SET status = CASE WHEN a.status IN ('ASSIGNED', 'STARTED') THEN 'STARTED'::"AssignmentStatus" ELSE a.status END,
        "startedAt" = CASE WHEN a.status IN ('ASSIGNED', 'STARTED') THEN coalesce(a."startedAt", (now() AT TIME ZONE 'UTC')) ELSE a."startedAt" END,
        "leaseExpiresAt" = CASE WHEN a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" IS NOT NULL THEN (now() AT TIME ZONE 'UTC') + make_interval(secs => s."leaseSeconds") ELSE a."leaseExpiresAt" END,
        writer = w.writer,
        "writerSince" = CASE WHEN a.writer IS NULL THEN (now() AT TIME ZONE 'UTC') ELSE a."writerSince" END
      FROM "Study" s, writable w
      WHERE a.id = w.id AND s.id = a."studyId" AND (SELECT ok FROM allowed)
        AND (w.held IS NULL
          OR (a.status IN ('ASSIGNED', 'STARTED') AND (a.status = 'ASSIGNED'
            OR a."leaseExpiresAt" < (now() AT TIME ZONE 'UTC') + make_interval(secs => s."leaseSeconds" - least(60, s."leaseSeconds" / 2)))))
      RETURNING 1
    )
    SELECT account.enabled, o.id, o."userId", o.closed, o.late, o.writer, (SELECT count(*) FROM stored)::int AS stored, (SELECT count(*) FROM touched)::int AS touched
    FROM account LEFT JOIN owners o ON true`;
}

/** Stored events of an assignment in seq order, up to `upToSeq` when given. */
export async function listAssignmentEvents(assignmentId: string, upToSeq?: number) {
  return db.event.findMany({
    where: { assignmentId, ...(upToSeq !== undefined ? { seq: { lte: upToSeq } } : {}) },
    // two tabs' events of one seq (a take-over's race) in the order they arrived
    orderBy: [{ seq: "asc" }, { id: "asc" }],
    select: { seq: true, writer: true, type: true, payload: true, clientTime: true, serverTime: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Submissions (lib/responses/responses.ts)

const storedResponseSelect = {
  id: true,
  clientId: true,
  correct: true,
  assignment: { select: { id: true, userId: true, purpose: true, item: { select: { kind: true, key: true } } } },
} as const;

/** The response stored under a submission's client id, with its assignment and the item's kind and key. */
export async function findResponseByClientId(clientId: string) {
  return db.response.findUnique({ where: { clientId }, select: storedResponseSelect });
}

/** The steps the server recorded for an interactive item (seq 0, the start, left out). */
export async function listPlayedSteps(assignmentId: string): Promise<Array<{ seq: number; action: Prisma.JsonValue; valid: boolean }>> {
  return db.playStep.findMany({ where: { assignmentId, seq: { gt: 0 } }, orderBy: { seq: "asc" }, select: { seq: true, action: true, valid: true } });
}

/** What a submission needs to know, read in one query. */
export interface SubmitTarget {
  id: string;
  userId: string;
  studyId: string;
  purpose: AssignmentPurpose;
  status: AssignmentStatus;
  studyClosed: boolean;
  /** the tab that writes the item (lib/responses/writer.ts); null until one writes */
  writer: string | null;
  responseId: string | null;
  responseClientId: string | null;
  responseCorrect: boolean | null;
  confidenceScale: ConfidenceScale;
  idleCapSeconds: number;
  taskSettings: unknown;
  goldFailLimit: number | null;
  goldFailWindow: number | null;
  item: { externalId: string; kind: string; public: unknown; key: unknown; tags: unknown; gold: boolean };
  events: Array<{ seq: number; type: string; clientTime: number }>;
}

/**
 * One read (one round trip): whether the account is enabled, the assignment, its stored response
 * (a retry), the study's settings, the item and the trajectory up to `submitSeq`; the target's
 * fields are null for an unknown assignment.
 */
export async function findSubmitTarget(userId: string, assignmentId: string, submitSeq: number) {
  const [target] = await db.$queryRaw<Array<{ userEnabled: boolean } & (SubmitTarget | { [K in keyof SubmitTarget]: null })>>`
    SELECT ${enabledUserSql(userId)} AS "userEnabled", t.*
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT a.id, a."userId", a."studyId", a.purpose::text AS purpose, a.status::text AS status, s.status = 'CLOSED' AS "studyClosed", a.writer,
        r.id AS "responseId", r."clientId" AS "responseClientId", r.correct AS "responseCorrect",
        s."confidenceScale"::text AS "confidenceScale", s."idleCapSeconds", s."taskSettings", s."goldFailLimit", s."goldFailWindow",
        json_build_object('externalId', i."externalId", 'kind', i.kind, 'public', i.public, 'key', i.key, 'tags', i.tags, 'gold', i.gold) AS item,
        coalesce((
          SELECT json_agg(json_build_object('seq', e.seq, 'type', e.type, 'clientTime', round(extract(epoch FROM e."clientTime") * 1000)) ORDER BY e.seq)
          FROM (SELECT seq, type, "clientTime" FROM "Event" WHERE "assignmentId" = a.id AND seq <= ${submitSeq} ORDER BY seq LIMIT ${submitSeq + 1}) e
        ), '[]'::json) AS events
      FROM "Assignment" a
      JOIN "Study" s ON s.id = a."studyId"
      JOIN "Item" i ON i.id = a."itemId"
      LEFT JOIN "Response" r ON r."assignmentId" = a.id
      WHERE a.id = ${assignmentId}
    ) t ON true`;
  return target;
}

export interface NewResponse {
  assignmentId: string;
  clientId: string;
  /** the tab submitting: stored only while it is still the assignment's writer (or it has none) */
  writer: string;
  answer: unknown;
  confidenceRaw: number;
  confidence: number;
  wallMs: number;
  activeMs: number;
  score: unknown;
  correct: boolean | null;
  /** seconds past Study.itemTimeLimitSeconds (from the first showing) before the response is flagged timed out */
  timeGraceSeconds: number;
}

/**
 * One statement: the response (flagged when past the item time limit) and, only if it was stored,
 * the assignment SUBMITTED. A copy racing this one (same clientId), another clientId for the same
 * assignment, or a clientId used elsewhere stores nothing (ON CONFLICT DO NOTHING): responseId null.
 */
export async function insertResponse(response: NewResponse): Promise<{ responseId: string | null; submitted: number } | undefined> {
  const [written] = await db.$queryRaw<Array<{ responseId: string | null; submitted: number }>>`
    WITH stored AS (
      INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct, "timedOut", "createdAt")
      SELECT ${newRowId()}, a.id, ${response.clientId}, ${JSON.stringify(response.answer ?? null)}::jsonb, ${response.confidenceRaw}::float8, ${response.confidence}::float8,
        ${response.wallMs}::int, ${response.activeMs}::int, ${JSON.stringify(response.score ?? null)}::jsonb, ${response.correct},
        coalesce(s."itemTimeLimitSeconds" IS NOT NULL
          AND ${sqlNow} > coalesce(a."startedAt", a."createdAt") + make_interval(secs => s."itemTimeLimitSeconds" + ${response.timeGraceSeconds}), false),
        ${sqlNow}
      FROM "Assignment" a JOIN "Study" s ON s.id = a."studyId"
      -- another tab may have taken the item over since it was read
      WHERE a.id = ${response.assignmentId} AND (a.writer IS NULL OR a.writer = ${response.writer})
      ON CONFLICT DO NOTHING
      RETURNING id
    ),
    submitted AS (
      UPDATE "Assignment" SET status = 'SUBMITTED', "submittedAt" = ${sqlNow}
      WHERE id = ${response.assignmentId} AND status IN ('ASSIGNED', 'STARTED') AND EXISTS (SELECT 1 FROM stored)
      RETURNING id
    )
    SELECT (SELECT id FROM stored) AS "responseId", (SELECT count(*) FROM submitted)::int AS submitted`;
  return written;
}

export async function countResponsesOfAssignment(assignmentId: string): Promise<number> {
  return db.response.count({ where: { assignmentId } });
}

/** The participant's first `limit` gold answers (practice left out) in the order they were stored, with their correctness. */
export async function listGoldAnswers(studyId: string, userId: string, limit: number): Promise<Array<{ id: string; correct: boolean | null }>> {
  return db.$queryRaw<Array<{ id: string; correct: boolean | null }>>`
    SELECT r.id, r.correct FROM "Response" r
    JOIN "Assignment" a ON a.id = r."assignmentId"
    JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = ${studyId} AND a."userId" = ${userId} AND i.gold AND a.purpose <> 'PRACTICE'
    ORDER BY r."createdAt", r.id
    LIMIT ${limit}`;
}
