import "server-only";
import { itemsVersionSql } from "@/lib/assignment/candidate-sql";
import { hasProbeFamiliesSql } from "@/lib/assignment/probe-families";
import type { StudyState } from "@/lib/assignment/types";
import type { DbClient, Tx } from "@/lib/db/client-types";
import { sqlNow } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

export function lockKey(text: string): Prisma.Sql {
  return Prisma.sql`hashtextextended(${text}, 0)`;
}

/** Blocking advisory lock on (study, participant) until the transaction ends. */
export async function lockParticipant(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(`yardstick:participant:${studyId}:${userId}`)})::text AS locked`;
}

/** Non-blocking advisory lock; true when taken (or held by this transaction already). */
export async function tryLock(tx: Tx, key: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${lockKey(key)}) AS locked`;
  return row?.locked === true;
}

export const itemLockKey = (itemId: string) => `yardstick:item:${itemId}`;
export const baseLockKey = (studyId: string, base: string) => `yardstick:base:${studyId}:${base}`;

export async function readStudyState(client: DbClient, studyId: string, userId: string): Promise<StudyState | null> {
  const rows = await client.$queryRaw<StudyState[]>`
    -- an archived study is closed to participants whatever its status (lib/studies/archive.ts)
    SELECT CASE WHEN s."archivedAt" IS NOT NULL THEN 'CLOSED' ELSE s.status::text END AS status, s.overlap, s."taskSettings", s."practicePassMark", s."goldRate", s."itemsPerParticipant",
      s."sessionTimeLimitSeconds", s."leaseSeconds", s."firstItemLeaseSeconds", s."balanceTag", s.conditions,
      coalesce((SELECT u."isAgent" FROM "User" u WHERE u.id = ${userId}), false) AS "isAgent",
      (m."userId" IS NOT NULL) AS "isMember", m.status::text AS "memberStatus", m."statusReason",
      (m."startedAt" IS NOT NULL) AS "memberStarted",
      coalesce(m."startedAt" IS NOT NULL AND s."sessionTimeLimitSeconds" IS NOT NULL
        AND ${sqlNow} >= m."startedAt" + make_interval(secs => s."sessionTimeLimitSeconds"), false) AS "sessionOver",
      ${hasProbeFamiliesSql("s")} AS "hasProbes",
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = s.id AND i.practice AND ${reviewExcludedItemFilter("i")})::int AS "practiceTotal",
      -- agents are left out: they take no places, and people's Latin-square lists do not shift when one is made
      (SELECT count(*) FROM "StudyMember" o WHERE o."studyId" = s.id
        AND (o."createdAt" < m."createdAt" OR (o."createdAt" = m."createdAt" AND o."userId" < m."userId"))
        AND NOT EXISTS (SELECT 1 FROM "User" ou WHERE ou.id = o."userId" AND ou."isAgent"))::int AS "participantIndex",
      ${itemsVersionSql("s")} AS "itemsVersion",
      coalesce((
        SELECT json_agg(json_build_object('id', a.id, 'itemId', a."itemId", 'purpose', a.purpose, 'status', a.status, 'position', a.position,
          'condition', a.condition, 'gold', i.gold, 'balance', coalesce(i.tags ->> s."balanceTag", ''), 'correct', r.correct,
          'renewDue', coalesce(a."leaseExpiresAt" < ${sqlNow} + make_interval(secs =>
            (CASE WHEN a.status = 'ASSIGNED' THEN least(s."leaseSeconds", s."firstItemLeaseSeconds") ELSE s."leaseSeconds" END) / 2.0), false)))
        FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" LEFT JOIN "Response" r ON r."assignmentId" = a.id
        WHERE a."studyId" = s.id AND a."userId" = ${userId}
      ), '[]'::json) AS mine
    FROM "Study" s LEFT JOIN "StudyMember" m ON m."studyId" = s.id AND m."userId" = ${userId}
    WHERE s.id = ${studyId}`;
  return rows[0] ?? null;
}
