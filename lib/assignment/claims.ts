import "server-only";
import { baseCaseSql, holdersSql } from "@/lib/assignment/probe-families";
import { baseLockKey, itemLockKey, lockKey, tryLock } from "@/lib/assignment/state";
import type { Tx } from "@/lib/db/client-types";
import { db } from "@/lib/db";
import { newRowId, sqlNow } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

type ClaimResult = { id: string } | { lost: "busy" | "full" };

interface ClaimInput {
  studyId: string;
  userId: string;
  itemId: string;
  condition: string | null;
  base: string | null;
  expired: boolean;
  position: number;
  overlap: number;
  holdersPerBase: number;
  leaseSeconds: number;
}

/**
 * Claims a place of an ordinary item (x condition): item lock (and base-case lock for families),
 * release of expired leases, then an insert that counts the places again in its own statement.
 */
export async function claimPlace(tx: Tx, input: ClaimInput): Promise<ClaimResult> {
  if (input.base !== null && !(await tryLock(tx, baseLockKey(input.studyId, input.base)))) return { lost: "busy" };
  if (!(await tryLock(tx, itemLockKey(input.itemId)))) return { lost: "busy" };
  if (input.expired) {
    await tx.$executeRaw`
      UPDATE "Assignment" SET status = 'RELEASED'
      WHERE "itemId" = ${input.itemId} AND purpose = 'MAIN' AND NOT agent AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${sqlNow}`;
  }
  const familyCheck =
    input.base === null
      ? Prisma.sql`true`
      : Prisma.sql`(EXISTS (SELECT 1 FROM (${holdersSql(input.studyId)}) h WHERE h.base = ${input.base} AND h."userId" = ${input.userId})
          OR (SELECT count(*) FROM (${holdersSql(input.studyId)}) h WHERE h.base = ${input.base}) < ${input.holdersPerBase})`;
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", "leaseExpiresAt", condition)
    SELECT ${newRowId()}, ${input.studyId}, ${input.itemId}, ${input.userId}, 'ASSIGNED', 'MAIN', ${input.position}, ${sqlNow},
      ${sqlNow} + make_interval(secs => ${input.leaseSeconds}), ${input.condition}::text
    WHERE (SELECT count(*) FROM "Assignment" a
           WHERE a."itemId" = ${input.itemId} AND a.purpose = 'MAIN' AND a.status <> 'RELEASED' AND NOT a.agent AND a.condition IS NOT DISTINCT FROM ${input.condition}::text) < ${input.overlap}
      AND ${familyCheck}
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  return rows[0] ? { id: rows[0].id } : { lost: "full" };
}

/** The participant's next gold item (md5 order), created in one statement; null when none is left. */
export async function claimGold(tx: Tx, studyId: string, userId: string, position: number, condition: string | null): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", condition)
    SELECT ${newRowId()}, ${studyId}, g.id, ${userId}, 'ASSIGNED', 'MAIN', ${position}, ${sqlNow}, ${condition}::text
    FROM (
      SELECT i.id FROM "Item" i
      WHERE i."studyId" = ${studyId} AND i.gold AND NOT i.practice
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
      ORDER BY md5(${userId} || ':' || i.id), i.id
      LIMIT 1
    ) g
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/** The first practice item the participant has not had (import order: researchers order practice on purpose), created in one statement. */
export async function claimPractice(tx: Tx, studyId: string, userId: string, position: number, condition: string | null): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", condition)
    SELECT ${newRowId()}, ${studyId}, p.id, ${userId}, 'ASSIGNED', 'PRACTICE', ${position}, ${sqlNow}, ${condition}::text
    FROM (
      SELECT i.id FROM "Item" i
      WHERE i."studyId" = ${studyId} AND i.practice
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
      ORDER BY i."createdAt", i."externalId"
      LIMIT 1
    ) p
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/**
 * Serving an open assignment again renews its lease (a never-started one only by the first-item
 * lease, never shortening one it has); false when a claimer released it meanwhile.
 */
export async function renewLease(tx: Tx, assignmentId: string, leaseSeconds: number, firstItemLeaseSeconds: number): Promise<boolean> {
  const renewed = await tx.$executeRaw`
    UPDATE "Assignment" SET "leaseExpiresAt" = CASE WHEN status = 'ASSIGNED'
        THEN greatest("leaseExpiresAt", ${sqlNow} + make_interval(secs => ${Math.min(leaseSeconds, firstItemLeaseSeconds)}))
        ELSE ${sqlNow} + make_interval(secs => ${leaseSeconds}) END
    WHERE id = ${assignmentId} AND status IN ('ASSIGNED', 'STARTED')`;
  return renewed > 0;
}

/**
 * A response arrived for a RELEASED assignment (lib/responses/responses.ts): the assignment becomes
 * SUBMITTED again when that breaks no rule: always for work that holds no place (practice, gold,
 * pre-assigned agreement items), and for a place only while its item (x condition) has fewer than
 * k places, under the item's lock. Probe-family items stay RELEASED (taking a place back could
 * break a family's holder limit). Returns whether it took the place back.
 */
export async function reclaimReleasedPlace(assignmentId: string): Promise<boolean> {
  const [target] = await db.$queryRaw<Array<{ itemId: string }>>`SELECT "itemId" FROM "Assignment" WHERE id = ${assignmentId} AND status = 'RELEASED'`;
  if (!target) return false;
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(itemLockKey(target.itemId))})::text AS locked`;
    const changed = await tx.$executeRaw`
      UPDATE "Assignment" a SET status = 'SUBMITTED', "submittedAt" = ${sqlNow}
      FROM "Item" i, "Study" s
      WHERE a.id = ${assignmentId} AND a.status = 'RELEASED' AND i.id = a."itemId" AND s.id = a."studyId"
        AND (a.purpose <> 'MAIN' OR a.agent OR i.gold OR (${baseCaseSql("i")} IS NULL AND (
          SELECT count(*) FROM "Assignment" b
          WHERE b."itemId" = a."itemId" AND b.purpose = 'MAIN' AND b.status <> 'RELEASED' AND NOT b.agent AND b.condition IS NOT DISTINCT FROM a.condition) < s.overlap))`;
    return changed > 0;
  });
}
