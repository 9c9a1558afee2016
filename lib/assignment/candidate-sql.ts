import "server-only";
import type { Candidate, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { participantOrderOf } from "@/lib/assignment/candidate-pool";
import { CANDIDATES_PER_GROUP } from "@/lib/assignment/limits";
import { sqlNow } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

/** The identity of a study's item list (batches: count, items, latest), for per-process caches of it. */
export function itemsVersionSql(studyAlias: string): Prisma.Sql {
  const study = Prisma.raw(`"${studyAlias}"`);
  return Prisma.sql`(SELECT count(*) || ':' || coalesce(sum(b."itemCount"), 0) || ':' || coalesce(max(b."createdAt")::text, '') FROM "Batch" b WHERE b."studyId" = ${study}.id)`;
}

/**
 * Places held per (item, condition) of the study's MAIN work: `n` counts the assignments that are
 * not RELEASED and whose lease has not passed; `expired` says whether some open one's lease has
 * passed (a claim releases those first). Model agents' assignments hold no place (lib/assignment/agents.ts).
 */
export function takenSql(studyId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT a."itemId", a.condition,
      count(*) FILTER (WHERE NOT (a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}))::int AS n,
      bool_or(a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}) AS expired
    FROM "Assignment" a
    WHERE a."studyId" = ${studyId} AND a.purpose = 'MAIN' AND a.status <> 'RELEASED' AND NOT a.agent
    GROUP BY 1, 2`;
}

/** The study's conditions as rows (cond, idx: 0-based); one (NULL, 0) row when it has none. */
export function conditionsSql(conditions: readonly string[]): Prisma.Sql {
  return conditions.length === 0
    ? Prisma.sql`(SELECT NULL::text AS cond, 0 AS idx)`
    : Prisma.sql`(SELECT u.cond, (u.n - 1)::int AS idx FROM unnest(${[...conditions]}::text[]) WITH ORDINALITY AS u(cond, n))`;
}

/** The full search: every ordinary item of the study, in SQL (the fallback of `fastCandidates`). */
export async function ordinaryCandidates(tx: Tx, studyId: string, userId: string, study: StudyState): Promise<Candidate[]> {
  const conditionCount = Math.max(1, study.conditions.length);
  // the participant's order key of each item, as the fast search walks it (participant-order.ts)
  const { prime, affine } = await participantOrderOf(tx, studyId, userId, study.itemsVersion);
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
        lpad(((${affine.a}::bigint * it.rank + ${affine.b}::bigint) % ${prime}::bigint)::text, 8, '0') AS hash, coalesce(t.expired, false) AS expired,
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
