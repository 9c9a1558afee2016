import "server-only";
import type { Candidate, StudyState } from "@/lib/assignment/types";
import { CANDIDATES_PER_GROUP, CLAIM_TRIES } from "@/lib/assignment/limits";
import { orderKeySql, type ParticipantPermutation } from "@/lib/assignment/participant-order";
import { db } from "@/lib/db";
import type { DbClient, Tx } from "@/lib/db/client-types";
import { newRowId, sqlNow } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { AssignmentPurpose, AssignmentStatus, ParticipantStatus } from "@/lib/generated/prisma/enums";
import {
  baseCaseSql,
  baseLockKey,
  conditionsSql,
  hasProbeFamiliesSql,
  holdersSql,
  itemLockKey,
  itemsVersionSql,
  lockKey,
  minGapSql,
  takenSql,
} from "@/lib/repos/assignment-sql";
import { reviewExcludedItemFilter } from "@/lib/repos/review";

/**
 * Data access for assignments (Assignment) and a participant's standing in a study (StudyMember's
 * status), as lib/assignment's rules need them (the doc comment of lib/assignment/index.ts), and
 * the reads of an assignment the annotator's views make (lib/annotate).
 * Concurrency lives here: the advisory locks (a blocking one on (study, participant), a
 * non-blocking one per item and per base case) and the claims, each a conditional insert that
 * counts the places again in its own statement. Functions that take `tx` run inside the caller's
 * transaction (lib/repos/transactions.ts).
 */

// --- locks ------------------------------------------------------------------------------------

/** Blocking advisory lock on (study, participant) until the transaction ends. */
export async function lockParticipant(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(`yardstick:participant:${studyId}:${userId}`)})::text AS locked`;
}

/** Non-blocking advisory lock; true when taken (or held by this transaction already). */
export async function tryLock(tx: Tx, key: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${lockKey(key)}) AS locked`;
  return row?.locked === true;
}

/** Blocking advisory lock on the item until the transaction ends (a claimer holds it for milliseconds and never waits while holding it). */
export async function lockItem(tx: Tx, itemId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(itemLockKey(itemId))})::text AS locked`;
}

// --- the study as one participant's next item sees it -----------------------------------------

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

/** Sets the member's startedAt when their first item is handed out (a no-op once set). */
export async function markMemberStarted(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "StudyMember" SET "startedAt" = ${sqlNow} WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND "startedAt" IS NULL`;
}

/** A COMPLETE member who got new work is ACTIVE again. */
export async function reactivateCompletedMember(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "StudyMember" SET status = 'ACTIVE', "statusReason" = NULL, "statusAt" = ${sqlNow} WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status = 'COMPLETE'`;
}

// --- a participant's standing -----------------------------------------------------------------

/** Sets the participant's open assignments RELEASED: their places go back to the pool. */
export async function releaseOpenWork(client: DbClient, studyId: string, userId: string): Promise<number> {
  return client.$executeRaw`
    UPDATE "Assignment" SET status = 'RELEASED'
    WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status IN ('ASSIGNED', 'STARTED')`;
}

/**
 * Ends a participant's part by rule (EXCLUDED or TIMED_OUT, with the reason), releases their open
 * work and writes an audit entry (actor: none, the rule). Only an ACTIVE or COMPLETE participant
 * changes (the first rule to fire wins); returns whether this call changed them.
 */
export async function endParticipation(client: DbClient, studyId: string, userId: string, status: "EXCLUDED" | "TIMED_OUT", reason: string): Promise<boolean> {
  const changed = await client.$executeRaw`
    UPDATE "StudyMember" SET status = ${status}::"ParticipantStatus", "statusReason" = ${reason}, "statusAt" = ${sqlNow}
    WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status IN ('ACTIVE', 'COMPLETE')`;
  if (changed === 0) return false;
  const released = await releaseOpenWork(client, studyId, userId);
  await client.auditLog.create({
    data: {
      actorId: null,
      action: status === "EXCLUDED" ? "participant.exclude" : "participant.time-out",
      target: `study:${studyId}`,
      detail: { userId, reason, released, by: "rule" },
    },
    select: { id: true },
  });
  return true;
}

/** Open MAIN assignments of the study whose lease has passed become RELEASED; returns how many. */
export async function releaseExpiredLeasesOfStudy(studyId: string): Promise<number> {
  return db.$executeRaw`
    UPDATE "Assignment" SET status = 'RELEASED'
    WHERE "studyId" = ${studyId} AND purpose = 'MAIN' AND NOT agent AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${sqlNow}`;
}

/** ACTIVE members who started and are past the study's session time limit, with the limit. */
export async function listMembersPastSessionLimit(studyId: string): Promise<Array<{ userId: string; limit: number }>> {
  return db.$queryRaw<Array<{ userId: string; limit: number }>>`
    SELECT m."userId", s."sessionTimeLimitSeconds" AS limit FROM "StudyMember" m JOIN "Study" s ON s.id = m."studyId"
    WHERE m."studyId" = ${studyId} AND m.status = 'ACTIVE' AND m."startedAt" IS NOT NULL AND s."sessionTimeLimitSeconds" IS NOT NULL
      AND ${sqlNow} >= m."startedAt" + make_interval(secs => s."sessionTimeLimitSeconds")`;
}

// --- claims -----------------------------------------------------------------------------------

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
 * A model agent's next ordinary item (import order) that it has not had, created in one statement
 * as an agent assignment (it holds no place: no lease, no k); null when none is left.
 */
export async function claimAgentItem(tx: Tx, studyId: string, userId: string, position: number, condition: string | null): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", condition, agent)
    SELECT ${newRowId()}, ${studyId}, n.id, ${userId}, 'ASSIGNED', 'MAIN', ${position}, ${sqlNow}, ${condition}::text, true
    FROM (
      SELECT i.id FROM "Item" i
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
      ORDER BY i."createdAt", i."externalId"
      LIMIT 1
    ) n
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

// --- candidate searches -----------------------------------------------------------------------

/**
 * The full search: every ordinary item of the study, in SQL (the fallback of the fast search in
 * lib/assignment/candidate-pool.ts), ranked in the participant's order (`order`: the participant's
 * permutation of the item list's ranks, lib/assignment/participant-order.ts).
 */
export async function findOrdinaryCandidates(tx: Tx, studyId: string, userId: string, study: StudyState, order: ParticipantPermutation): Promise<Candidate[]> {
  const conditionCount = Math.max(1, study.conditions.length);
  // numbers only: the permutation's round keys and bit counts
  const orderKey = Prisma.raw(orderKeySql("it.rank", order));
  return tx.$queryRaw<Candidate[]>`
    WITH taken AS (${takenSql(studyId)}),
    items AS (
      SELECT i.id, i.tags, i.ord, i.rank FROM (
        SELECT o.id, o.tags, o."externalId", o."contentHash", (row_number() OVER (ORDER BY o."createdAt", o."externalId") - 1)::int AS ord,
          (row_number() OVER (ORDER BY md5(o.id) COLLATE "C", o.id COLLATE "C") - 1)::bigint AS rank
        FROM "Item" o WHERE o."studyId" = ${studyId} AND NOT o.practice AND NOT o.gold
      ) i
      WHERE ${reviewExcludedItemFilter("i")}
    ),
    cand AS (
      SELECT it.id AS "itemId", c.cond AS condition, coalesce(it.tags ->> ${study.balanceTag}::text, '') AS balance,
        lpad((${orderKey})::text, 8, '0') AS hash, coalesce(t.expired, false) AS expired,
        (it.ord + ${study.participantIndex}) % ${conditionCount} = c.idx AS preferred
      FROM items it
      CROSS JOIN ${conditionsSql(study.conditions)} AS c
      LEFT JOIN taken t ON t."itemId" = it.id AND t.condition IS NOT DISTINCT FROM c.cond
      WHERE coalesce(t.n, 0) < ${study.overlap}
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = it.id AND m."userId" = ${userId})
    ),
    ranked AS (
      SELECT cand.*, row_number() OVER (PARTITION BY condition, balance ORDER BY preferred DESC, hash, "itemId")::int AS rank FROM cand
    )
    SELECT r."itemId", r.condition, r.balance, r.rank, r.preferred, r.hash, r.expired, NULL::text AS base,
      (SELECT count(DISTINCT "itemId") FROM cand)::int AS available
    FROM ranked r WHERE r.rank <= ${CANDIDATES_PER_GROUP}`;
}

/**
 * The study's ordinary items (not practice, not gold) in import order, with their tags. Read
 * inside the caller's transaction: the embedded database (PGlite) is one session for every
 * connection, so a query on another connection while a transaction is open breaks both.
 */
export async function listOrdinaryItems(tx: Tx, studyId: string): Promise<Array<{ id: string; tags: unknown }>> {
  return tx.$queryRaw<Array<{ id: string; tags: unknown }>>`
    SELECT i.id, i.tags FROM "Item" i WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold ORDER BY i."createdAt", i."externalId"`;
}

/**
 * For a pool of items of the study: whether each may still be assigned (ordinary, not excluded by
 * review) and its places per condition (`n` held, `expired`: some open lease has passed), one
 * indexed query.
 */
export async function readPoolPlaces(
  tx: Tx,
  studyId: string,
  itemIds: string[],
): Promise<Array<{ itemId: string; condition: string | null; n: number | null; expired: boolean | null; eligible: boolean }>> {
  return tx.$queryRaw<Array<{ itemId: string; condition: string | null; n: number | null; expired: boolean | null; eligible: boolean }>>`
    SELECT i.id AS "itemId", t.condition, t.n, t.expired, (NOT i.practice AND NOT i.gold AND ${reviewExcludedItemFilter("i")}) AS eligible
    FROM "Item" i
    LEFT JOIN LATERAL (
      SELECT a.condition,
        count(*) FILTER (WHERE NOT (a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}))::int AS n,
        bool_or(a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}) AS expired
      FROM "Assignment" a
      WHERE a."itemId" = i.id AND a.purpose = 'MAIN' AND a.status <> 'RELEASED' AND NOT a.agent
      GROUP BY a.condition
    ) t ON true
    WHERE i.id = ANY(${itemIds}::text[]) AND i."studyId" = ${studyId}`;
}

/**
 * What the balance rule of probe families weighs: the study's base cases (not excluded by
 * review), how many the annotator holds, and the people who share them (ACTIVE and COMPLETE
 * members who are not agents, and the annotator).
 */
export async function countBaseCaseShare(tx: Tx, studyId: string, userId: string): Promise<{ bases: bigint; held: bigint; people: bigint } | undefined> {
  const [row] = await tx.$queryRaw<Array<{ bases: bigint; held: bigint; people: bigint }>>`
    SELECT
      (SELECT count(DISTINCT ${baseCaseSql("i")}) FROM "Item" i
        WHERE i."studyId" = ${studyId} AND ${baseCaseSql("i")} IS NOT NULL AND ${reviewExcludedItemFilter("i")}) AS bases,
      (SELECT count(*) FROM (${holdersSql(studyId)}) h WHERE h."userId" = ${userId}) AS held,
      (SELECT count(*) FROM (SELECT m."userId" FROM "StudyMember" m JOIN "User" mu ON mu.id = m."userId" WHERE m."studyId" = ${studyId} AND m.status IN ('ACTIVE', 'COMPLETE') AND NOT mu."isAgent" UNION SELECT ${userId}) p) AS people`;
  return row;
}

export interface ProbeCandidateRow {
  itemId: string;
  base: string | null;
  conditions: Array<string | null>;
  balance: string;
  hash: string;
  expired: boolean;
  available: number;
}

/**
 * The annotator's next main items in a study with probe families, CLAIM_TRIES at most: not had
 * yet, a free place in some condition, allowed by the probe-family rules (a base case the
 * annotator holds, or one with fewer than `holdersPerBase` holders when `mayStart`);
 * due family items first, then new base cases, then ordinary items, then family items that are
 * not due yet; lowest md5(userId:itemId) within each tier. One row per item, with every condition
 * that has room.
 */
export async function findProbeCandidateRows(
  tx: Tx,
  studyId: string,
  userId: string,
  study: StudyState,
  position: number,
  holdersPerBase: number,
  mayStart: boolean,
): Promise<ProbeCandidateRow[]> {
  return tx.$queryRaw<ProbeCandidateRow[]>`
    WITH taken AS (${takenSql(studyId)}),
    slots AS (
      SELECT i.id, i.kind, ${baseCaseSql("i")} AS base, c.cond, coalesce(i.tags ->> ${study.balanceTag}::text, '') AS balance, coalesce(t.expired, false) AS expired
      FROM "Item" i
      CROSS JOIN ${conditionsSql(study.conditions)} AS c
      LEFT JOIN taken t ON t."itemId" = i.id AND t.condition IS NOT DISTINCT FROM c.cond
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
        AND coalesce(t.n, 0) < ${study.overlap}
        AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
    ),
    cand AS (
      SELECT s.id, s.kind, s.base, s.balance, array_agg(s.cond) AS conditions, bool_or(s.expired) AS expired FROM slots s GROUP BY s.id, s.kind, s.base, s.balance
    ),
    holders AS (
      SELECT h.base, count(*) AS n, bool_or(h."userId" = ${userId}) AS mine FROM (${holdersSql(studyId)}) h GROUP BY h.base
    ),
    lastpos AS (
      SELECT ${baseCaseSql("li")} AS base, max(la."position") AS p
      FROM "Assignment" la JOIN "Item" li ON li."id" = la."itemId"
      WHERE la."studyId" = ${studyId} AND la."userId" = ${userId} AND la.status <> 'RELEASED' AND ${baseCaseSql("li")} IS NOT NULL
      GROUP BY 1
    ),
    eligible AS (
      SELECT c.*, coalesce(h.mine, false) AS mine, coalesce(h.n, 0) AS holders, l.p AS lastp
      FROM cand c LEFT JOIN holders h ON h.base = c.base LEFT JOIN lastpos l ON l.base = c.base
      WHERE c.base IS NULL OR coalesce(h.mine, false) OR (coalesce(h.n, 0) < ${holdersPerBase} AND ${mayStart})
    ),
    counted AS (
      SELECT e.*, count(*) OVER () AS total, count(*) OVER (PARTITION BY e.base) AS mates FROM eligible e
    ),
    ranked AS (
      SELECT k.*, md5(${userId} || ':' || k."id") AS hash,
        CASE
          WHEN k.mine AND (k.lastp IS NULL
            OR ${position} - k.lastp - 1 >= GREATEST(1, LEAST(${minGapSql(Prisma.raw(`k."kind"`), study.taskSettings)}, floor((k.total - k.mates + ${position} - k.lastp - 1)::numeric / k.mates)))) THEN 0
          WHEN k.base IS NOT NULL AND NOT k.mine THEN 1
          WHEN k.base IS NULL THEN 2
          ELSE 3
        END AS tier
      FROM counted k
    )
    SELECT r."id" AS "itemId", r.base, r.conditions, r.balance, r.hash, r.expired, (SELECT count(*) FROM eligible)::int AS available
    FROM ranked r
    ORDER BY r.tier, CASE WHEN r.tier = 1 THEN r.holders END, CASE WHEN r.tier = 3 THEN r.lastp END NULLS FIRST, r.hash, r."id"
    LIMIT ${CLAIM_TRIES}`;
}

// --- pre-assignment ---------------------------------------------------------------------------

export async function findItemStudies(itemIds: string[]): Promise<Array<{ id: string; studyId: string }>> {
  return db.item.findMany({ where: { id: { in: itemIds } }, select: { id: true, studyId: true } });
}

export async function userExists(userId: string): Promise<boolean> {
  return (await db.user.findUnique({ where: { id: userId }, select: { id: true } })) !== null;
}

export async function findPlaceSettings(tx: Tx, studyId: string): Promise<{ overlap: number; conditions: string[]; leaseSeconds: number }> {
  return tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { overlap: true, conditions: true, leaseSeconds: true } });
}

/** Which of these items the user has had (an assignment of any status). */
export async function findItemsOfUser(tx: Tx, userId: string, itemIds: string[]): Promise<Array<{ itemId: string }>> {
  return tx.assignment.findMany({ where: { userId, itemId: { in: itemIds } }, select: { itemId: true } });
}

/** Which of these items review excluded. */
export async function findReviewExcludedItems(tx: Tx, itemIds: string[]): Promise<Array<{ id: string }>> {
  return tx.$queryRaw<Array<{ id: string }>>`
        SELECT i.id FROM "Item" i WHERE i.id IN (${Prisma.join(itemIds)}) AND NOT ${reviewExcludedItemFilter("i")}`;
}

/** Open MAIN assignments of these items whose lease has passed become RELEASED. */
export async function releaseExpiredLeasesOfItems(tx: Tx, itemIds: string[]): Promise<void> {
  await tx.$executeRaw`
          UPDATE "Assignment" SET status = 'RELEASED'
          WHERE "itemId" IN (${Prisma.join(itemIds)}) AND purpose = 'MAIN' AND NOT agent AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${sqlNow}`;
}

/** Places held (MAIN, not RELEASED, not agents') per item and condition. */
export async function countPlacesByCondition(tx: Tx, itemIds: string[]) {
  return tx.assignment.groupBy({
    by: ["itemId", "condition"],
    where: { itemId: { in: itemIds }, purpose: "MAIN", agent: false, status: { not: "RELEASED" } },
    _count: { _all: true },
  });
}

/** Makes the user a member of the study unless they are one. */
export async function ensureMember(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.studyMember.createMany({ data: [{ studyId, userId }], skipDuplicates: true });
}

/** The last queue position of the user's assignments in the study (null: none). */
export async function lastPosition(tx: Tx, studyId: string, userId: string): Promise<number | null> {
  const last = await tx.assignment.aggregate({ where: { studyId, userId }, _max: { position: true } });
  return last._max.position;
}

export async function countAssignmentsOfPurpose(tx: Tx, studyId: string, userId: string, purpose: AssignmentPurpose): Promise<number> {
  return tx.assignment.count({ where: { studyId, userId, purpose } });
}

export async function insertAssignment(
  tx: Tx,
  data: {
    studyId: string;
    userId: string;
    itemId: string;
    purpose: AssignmentPurpose;
    position: number;
    condition: string | null;
    leaseExpiresAt: Date | null;
  },
): Promise<{ id: string }> {
  return tx.assignment.create({ data, select: { id: true } });
}

// --- progress ---------------------------------------------------------------------------------

/**
 * Ordinary items the participant could be given now: a free place in some condition (lease-expired
 * places count as free), not theirs yet, not excluded by review, and for probe families not held
 * by as many others as a base case may have. At most `cap` are counted.
 */
export async function countAvailableItems(
  studyId: string,
  userId: string,
  study: { overlap: number; conditions: string[]; hasProbes: boolean },
  cap: number,
): Promise<number> {
  const holdersPerBase = study.overlap * Math.max(1, study.conditions.length);
  const familyRule = study.hasProbes
    ? Prisma.sql`AND (${baseCaseSql("i")} IS NULL OR (
          SELECT count(*) FILTER (WHERE h."userId" <> ${userId}) < ${holdersPerBase} OR bool_or(h."userId" = ${userId}) IS TRUE
          FROM (${holdersSql(studyId)}) h WHERE h.base = ${baseCaseSql("i")}))`
    : Prisma.empty;
  const [row] = await db.$queryRaw<Array<{ n: number }>>`
    WITH taken AS (${takenSql(studyId)})
    SELECT count(*)::int AS n FROM (
      SELECT DISTINCT i.id FROM "Item" i
      CROSS JOIN ${conditionsSql(study.conditions)} AS c
      LEFT JOIN taken t ON t."itemId" = i.id AND t.condition IS NOT DISTINCT FROM c.cond
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
        AND coalesce(t.n, 0) < ${study.overlap}
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
        ${familyRule}
      LIMIT ${Math.min(cap, 2_147_483_647)}
    ) x`;
  return row?.n ?? 0;
}

/** Ordinary items of the study with a free place in some condition (lease-expired places count as free), not excluded by review. */
export async function listFreeItemIds(studyId: string, study: { overlap: number; conditions: string[] }): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    WITH taken AS (${takenSql(studyId)})
    SELECT DISTINCT i.id FROM "Item" i
    CROSS JOIN ${conditionsSql(study.conditions)} AS c
    LEFT JOIN taken t ON t."itemId" = i.id AND t.condition IS NOT DISTINCT FROM c.cond
    WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
      AND coalesce(t.n, 0) < ${study.overlap}
      AND ${reviewExcludedItemFilter("i")}`;
  return rows.map((row) => row.id);
}

export interface ProgressRow {
  overlap: number;
  conditions: string[];
  itemsPerParticipant: number | null;
  participantStatus: ParticipantStatus | null;
  practiceTotal: number;
  practiceAssigned: number;
  practiceDone: number;
  mainAssigned: number;
  mainDone: number;
  queue: number;
  open: number;
  hasProbes: boolean;
  itemsVersion: string;
  had: string[];
}

/** The study's settings and the participant's counts of work that a progress bar needs, in one query; undefined for an unknown study. */
export async function readProgressRow(studyId: string, userId: string): Promise<ProgressRow | undefined> {
  const [row] = await db.$queryRaw<ProgressRow[]>`
    SELECT s.overlap, s.conditions, s."itemsPerParticipant", m.status::text AS "participantStatus",
      ${itemsVersionSql("s")} AS "itemsVersion",
      coalesce(array_agg(DISTINCT a."itemId") FILTER (WHERE a.id IS NOT NULL), '{}') AS had,
      ${hasProbeFamiliesSql("s")} AS "hasProbes",
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = s.id AND i.practice)::int AS "practiceTotal",
      count(a.id) FILTER (WHERE a.purpose = 'PRACTICE' AND a.status <> 'RELEASED')::int AS "practiceAssigned",
      count(a.id) FILTER (WHERE a.purpose = 'PRACTICE' AND a.status = 'SUBMITTED')::int AS "practiceDone",
      count(a.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND a.status <> 'RELEASED')::int AS "mainAssigned",
      count(a.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND a.status = 'SUBMITTED')::int AS "mainDone",
      count(a.id) FILTER (WHERE a.purpose = 'MAIN' AND a.status <> 'RELEASED')::int AS queue,
      count(a.id) FILTER (WHERE a.status IN ('ASSIGNED', 'STARTED'))::int AS open
    FROM "Study" s
    LEFT JOIN "StudyMember" m ON m."studyId" = s.id AND m."userId" = ${userId}
    LEFT JOIN "Assignment" a ON a."studyId" = s.id AND a."userId" = ${userId}
    WHERE s.id = ${studyId}
    GROUP BY s.id, m.status`;
  return row;
}

/**
 * Places left for new participants: per non-practice item not excluded by review, `overlap` minus
 * its MAIN assignments that hold a place (not released, not open past their lease, not an agent's).
 */
export async function countOpenPlaces(studyId: string, overlap: number): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ n: bigint | null }>>`
    SELECT sum(GREATEST(0, ${overlap} - (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i.id AND a.purpose = 'MAIN' AND a.status <> 'RELEASED' AND NOT a.agent
      AND NOT coalesce(a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}, false)))) AS n
    FROM "Item" i WHERE i."studyId" = ${studyId} AND NOT i.practice AND ${reviewExcludedItemFilter("i")}`;
  return Number(row?.n ?? 0);
}

// --- what the annotator's views read ------------------------------------------------------------

/** An assignment with its item (key included: the view is built from it on the server), its study's settings and its recorded events. */
export interface AssignmentWithTrajectory {
  id: string;
  userId: string;
  purpose: AssignmentPurpose;
  status: AssignmentStatus;
  startedAt: Date | null;
  condition: string | null;
  item: { externalId: string; kind: string; public: unknown; key: unknown; tags: unknown };
  taskSettings: unknown;
  itemTimeLimitSeconds: number | null;
  hasResponse: boolean;
  /** by seq; clientTime in ms since the epoch */
  events: Array<{ seq: number; type: string; payload: unknown; clientTime: number }>;
}

/** The assignment with what its view needs, in one round trip (it runs on every next item). */
export async function findAssignmentWithTrajectory(assignmentId: string): Promise<AssignmentWithTrajectory | undefined> {
  const [assignment] = await db.$queryRaw<AssignmentWithTrajectory[]>`
    SELECT a.id, a."userId", a.purpose::text AS purpose, a.status::text AS status, a."startedAt", a.condition,
      json_build_object('externalId', i."externalId", 'kind', i.kind, 'public', i.public, 'key', i.key, 'tags', i.tags) AS item,
      s."taskSettings", s."itemTimeLimitSeconds",
      EXISTS (SELECT 1 FROM "Response" r WHERE r."assignmentId" = a.id) AS "hasResponse",
      coalesce((
        SELECT json_agg(json_build_object('seq', e.seq, 'type', e.type, 'payload', e.payload, 'clientTime', round(extract(epoch FROM e."clientTime") * 1000)) ORDER BY e.seq, e.id)
        FROM "Event" e WHERE e."assignmentId" = a.id
      ), '[]'::json) AS events
    FROM "Assignment" a
    JOIN "Item" i ON i.id = a."itemId"
    JOIN "Study" s ON s.id = a."studyId"
    WHERE a.id = ${assignmentId}`;
  return assignment;
}

/** The participant's practice answers in the study, how many were right, and the study's practice items. */
export async function countPracticeAnswers(studyId: string, userId: string): Promise<{ answered: number; correct: number; total: number }> {
  const [row] = await db.$queryRaw<Array<{ answered: bigint; correct: bigint; total: bigint }>>`
    SELECT
      (SELECT count(*) FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId} AND a."userId" = ${userId} AND a.purpose = 'PRACTICE') AS answered,
      (SELECT count(*) FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId} AND a."userId" = ${userId} AND a.purpose = 'PRACTICE' AND r.correct) AS correct,
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = ${studyId} AND i.practice) AS total`;
  return { answered: Number(row?.answered ?? 0), correct: Number(row?.correct ?? 0), total: Number(row?.total ?? 0) };
}

/** The study's assignment with its item (key included), its whole trajectory and its response, for the replay. */
export async function findAssignmentForReplay(studyId: string, assignmentId: string) {
  return db.assignment.findFirst({
    where: { id: assignmentId, studyId },
    select: {
      id: true,
      userId: true,
      purpose: true,
      status: true,
      startedAt: true,
      submittedAt: true,
      item: { select: { id: true, externalId: true, kind: true, public: true, key: true, tags: true } },
      // two tabs' events of one seq (a take-over's race, lib/responses/writer.ts) in the order they arrived
      events: { orderBy: [{ seq: "asc" }, { id: "asc" }], select: { seq: true, type: true, payload: true, clientTime: true, serverTime: true } },
      response: { select: { answer: true, confidenceRaw: true, correct: true, score: true, wallMs: true, activeMs: true, createdAt: true } },
    },
  });
}

/** The kind of the assignment's item, for an assignment of the study (by slug); null when there is none. */
export async function findAssignmentKind(slug: string, assignmentId: string): Promise<string | null> {
  const assignment = await db.assignment.findFirst({ where: { id: assignmentId, study: { slug } }, select: { item: { select: { kind: true } } } });
  return assignment?.item.kind ?? null;
}
