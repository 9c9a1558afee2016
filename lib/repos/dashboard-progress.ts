import "server-only";
import { readDb } from "@/lib/db/read";

/**
 * Data access for the dashboard's progress figures (lib/dashboard/progress.ts): the progress
 * tallies, their full recomputation from assignments and responses, and the few per-user reads
 * beside them, all on the read replica when there is one.
 */

export type ProgressCounts = Array<{
  set: "user" | "day" | "totals";
  userId: string | null;
  purpose: string | null;
  day: string | null;
  assigned: bigint | null;
  done: bigint | null;
  last: Date | null;
  items: bigint | null;
  gold: bigint | null;
  conditions: number | null;
  complete: bigint | null;
}>;

/**
 * The study's counts from the progress tallies: rows kept up to date by PostgreSQL
 * triggers in the same transaction as every write (prisma/migrations/20261127201822_progress_tallies),
 * per annotator x purpose, annotator x day, item x condition, writer x item level and batch. Reading
 * them costs the study's annotators and days, not its items or responses.
 */
export async function findProgressTallies(studyId: string, overlap: number) {
  return readDb.$queryRaw<ProgressCounts>`
    SELECT 'user' AS set, "userId", purpose::text AS purpose, NULL AS day, assigned::bigint AS assigned, done::bigint AS done, last,
      NULL::bigint AS items, NULL::bigint AS gold, NULL::int AS conditions, NULL::bigint AS complete
    FROM "ProgressUserTally" WHERE "studyId" = ${studyId} AND work > 0
    UNION ALL
    SELECT 'day', NULL, NULL, to_char(day, 'YYYY-MM-DD'), NULL, sum(responses)::bigint, NULL, NULL, NULL, NULL, NULL
    FROM "ProgressDayTally" WHERE "studyId" = ${studyId} GROUP BY day HAVING sum(responses) > 0
    UNION ALL
    SELECT 'totals', NULL, NULL, NULL, NULL,
      (SELECT coalesce(sum("mainDone"), 0)::bigint FROM "ProgressUserTally" WHERE "studyId" = ${studyId}),
      NULL,
      (SELECT coalesce(sum(items), 0)::bigint FROM "ProgressItemCount" WHERE "studyId" = ${studyId}),
      (SELECT coalesce(sum(gold), 0)::bigint FROM "ProgressItemCount" WHERE "studyId" = ${studyId}),
      (SELECT greatest(1, coalesce(array_length(conditions, 1), 0)) FROM "Study" WHERE id = ${studyId}),
      (SELECT coalesce(sum(items), 0)::bigint FROM "ProgressLevelTally" WHERE "studyId" = ${studyId} AND level >= ${overlap})`;
}

/**
 * The full recomputation of the study's counts from its assignments and responses, the reference
 * the tallies are tested against (progress-tallies.integration.test.ts). One pass: one GROUP BY
 * GROUPING SETS gives the per annotator x purpose, per day and per item x condition counts, and
 * the few practice and gold items are looked up in a hash instead of joining every item.
 */
export async function recomputeProgressCounts(studyId: string, overlap: number) {
  return readDb.$queryRaw<ProgressCounts>`
    WITH study AS (
      SELECT greatest(1, coalesce(array_length(conditions, 1), 0)) AS conditions,
        ARRAY(SELECT DISTINCT coalesce(c, '') FROM unnest(CASE WHEN cardinality(conditions) > 0 THEN conditions::text[] ELSE ARRAY[NULL]::text[] END) AS c) AS conds
      FROM "Study" WHERE id = ${studyId}
    ),
    special AS (SELECT id, practice, gold FROM "Item" WHERE "studyId" = ${studyId} AND (practice OR gold)),
    g AS (
      SELECT a."userId", a.purpose, date_trunc('day', r."createdAt" AT TIME ZONE 'UTC') AS day, a."itemId", coalesce(a.condition, '') AS condition,
        GROUPING(a."userId", a.purpose) = 0 AS by_user, GROUPING(date_trunc('day', r."createdAt" AT TIME ZONE 'UTC')) = 0 AS by_day,
        -- per annotator (practice items only in practice work): main work counts once shown (STARTED) or answered, not prefetched or released unanswered
        count(*) FILTER (WHERE (sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AND (a.purpose <> 'MAIN' OR a.status IN ('STARTED', 'SUBMITTED') OR r.id IS NOT NULL)) AS assigned,
        count(r.id) FILTER (WHERE sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AS done,
        max(r."createdAt") FILTER (WHERE sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AS last,
        count(*) FILTER (WHERE sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AS work,
        -- per day: answers outside practice; per item x condition: MAIN answers to ordinary items
        count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND sp.practice IS NOT TRUE) AS answers,
        count(r.id) FILTER (WHERE a.purpose = 'MAIN' AND sp.id IS NULL) AS main
      FROM "Assignment" a
      LEFT JOIN "Response" r ON r."assignmentId" = a.id
      LEFT JOIN special sp ON sp.id = a."itemId"
      WHERE a."studyId" = ${studyId} AND NOT a.agent
      GROUP BY GROUPING SETS ((a."userId", a.purpose), (date_trunc('day', r."createdAt" AT TIME ZONE 'UTC')), (a."itemId", coalesce(a.condition, '')))
    )
    SELECT 'user' AS set, "userId", purpose::text AS purpose, NULL AS day, assigned, done, last, NULL::bigint AS items, NULL::bigint AS gold, NULL::int AS conditions, NULL::bigint AS complete
    FROM g WHERE by_user AND work > 0
    UNION ALL
    SELECT 'day', NULL, NULL, to_char(day, 'YYYY-MM-DD'), NULL, answers, NULL, NULL, NULL, NULL, NULL FROM g WHERE by_day AND day IS NOT NULL AND answers > 0
    UNION ALL
    SELECT 'totals', NULL, NULL, NULL, NULL,
      (SELECT coalesce(sum(main), 0)::bigint FROM g WHERE NOT by_user AND NOT by_day),
      NULL,
      (SELECT count(*) FROM "Item" WHERE "studyId" = ${studyId}) - (SELECT count(*) FROM special WHERE practice OR gold),
      (SELECT count(*) FROM special WHERE NOT practice AND gold),
      (SELECT conditions FROM study),
      (SELECT count(*) FROM (
        SELECT g."itemId" FROM g, study
        WHERE NOT g.by_user AND NOT g.by_day AND g.main >= ${overlap} AND g.condition = ANY(study.conds)
        GROUP BY g."itemId" HAVING count(*) = (SELECT cardinality(conds) FROM study)
      ) c)`;
}

/** The user ids of the study's members who are annotators (people, not agents). */
export async function findAnnotatorMemberIds(studyId: string) {
  return readDb.studyMember.findMany({ where: { studyId, user: { role: "ANNOTATOR", isAgent: false } }, select: { userId: true } });
}

/** The users' names. */
export async function findUserNames(userIds: readonly string[]) {
  return readDb.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true } });
}

/**
 * Users with a trajectory event in the last `windowMinutes`. Only assignments that can still
 * receive events are probed (not submitted, or submitted within the window), found through the
 * (studyId, status, submittedAt) index and each probed through the (assignmentId, seq) index, so
 * the cost does not grow with the study's finished work.
 */
export async function findActiveAnnotatorIds(studyId: string, windowMinutes: number) {
  return readDb.$queryRaw<Array<{ userId: string }>>`
    SELECT DISTINCT a."userId"
    FROM "Assignment" a
    WHERE a."studyId" = ${studyId} AND NOT a.agent
      AND (a.status IN ('ASSIGNED', 'STARTED', 'RELEASED') OR (a.status = 'SUBMITTED' AND a."submittedAt" > now() - interval '1 minute' * ${windowMinutes}))
      AND EXISTS (
        SELECT 1 FROM "Event" e
        WHERE e."assignmentId" = a.id AND e."serverTime" > now() - interval '1 minute' * ${windowMinutes}
      )`;
}

/** Events of these types per user in the study: one GROUP BY. */
export async function countEventsByUser(studyId: string, types: readonly string[]) {
  return readDb.$queryRaw<Array<{ userId: string; losses: bigint }>>`
    SELECT a."userId", count(*) AS losses
    FROM "Event" e
    JOIN "Assignment" a ON a.id = e."assignmentId"
    WHERE a."studyId" = ${studyId} AND e.type = ANY(${types as string[]})
    GROUP BY 1`;
}

/** Answers of the study outside practice, from the tallies alone. */
export async function sumAnswersOutsidePractice(studyId: string) {
  const [row] = await readDb.$queryRaw<Array<{ answers: bigint | null }>>`
    SELECT sum(done)::bigint AS answers FROM "ProgressUserTally" WHERE "studyId" = ${studyId} AND purpose <> 'PRACTICE'`;
  return row;
}
