import "server-only";
import { conditionsSql, takenSql } from "@/lib/assignment/candidate-sql";
import { CLAIM_TRIES } from "@/lib/assignment/limits";
import type { Candidate, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { Prisma } from "@/lib/generated/prisma/client";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";
import { familyKinds, familyMinGaps, type FamilyKind } from "@/lib/tasks";

function plainAlias(alias: string, caller: string): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`${caller}: "${alias}" is not a plain SQL alias`);
  return Prisma.raw(`"${alias}"`);
}

/** SQL: the item is a member of a family of `family`'s kind (has the required tag; gold and practice items never are). */
function memberOfSql(i: Prisma.Sql, family: FamilyKind): Prisma.Sql {
  return Prisma.sql`${i}."kind" = ${family.kind} AND ${i}."tags"->>${family.required}::text IS NOT NULL AND NOT ${i}.gold AND NOT ${i}.practice`;
}

/** SQL: the item belongs to a probe family (of any kind that declares `assignment.family` in lib/tasks). */
function familyMemberSql(i: Prisma.Sql): Prisma.Sql {
  const families = familyKinds();
  return families.length === 0 ? Prisma.sql`false` : Prisma.sql`(${Prisma.join(families.map((family) => Prisma.sql`(${memberOfSql(i, family)})`), " OR ")})`;
}

/**
 * SQL for an item's base case key, NULL for items outside probe families: the kind and its family
 * tags as a JSON array (an absent tag is null), e.g. GridWM-Judge's `env` and `group` like
 * the baseCase() of the kind that declares the family. Gold and practice items are never family members.
 */
export function baseCaseSql(alias: string): Prisma.Sql {
  const i = plainAlias(alias, "baseCaseSql");
  const families = familyKinds();
  if (families.length === 0) return Prisma.sql`(NULL::text)`;
  const branches = families.map(
    (family) => Prisma.sql`WHEN ${memberOfSql(i, family)}
    THEN json_build_array(${family.kind}::text, ${Prisma.join(family.tags.map((tag) => Prisma.sql`${i}."tags"->>${tag}::text`))})::text`,
  );
  return Prisma.sql`(CASE ${Prisma.join(branches, " ")} END)`;
}

/** SQL: whether the study (alias of a "Study" row) has items in probe families. */
export function hasProbeFamiliesSql(studyAlias: string): Prisma.Sql {
  const study = plainAlias(studyAlias, "hasProbeFamiliesSql");
  return Prisma.sql`EXISTS (SELECT 1 FROM "Item" pi WHERE pi."studyId" = ${study}.id AND ${familyMemberSql(Prisma.raw(`"pi"`))})`;
}

/** Base cases and their holders: annotators with a MAIN assignment (not RELEASED) to one of the base case's items. */
export function holdersSql(studyId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${baseCaseSql("hi")} AS base, ha."userId" AS "userId"
    FROM "Assignment" ha JOIN "Item" hi ON hi."id" = ha."itemId"
    WHERE ha."studyId" = ${studyId} AND ha."purpose" = 'MAIN' AND ha.status <> 'RELEASED' AND NOT ha.agent
      AND ${familyMemberSql(Prisma.raw(`"hi"`))}
    GROUP BY 1, 2`;
}

/**
 * SQL: the spacing g of a family item of kind `kind` (a column of the candidate rows): each family
 * kind's `minGap` of the study's settings of it (Study.taskSettings[kind]).
 */
function minGapSql(kind: Prisma.Sql, taskSettings: unknown): Prisma.Sql {
  const gaps = familyMinGaps(taskSettings);
  if (gaps.length === 0) return Prisma.sql`0`;
  return Prisma.sql`(CASE ${kind} ${Prisma.join(gaps.map((gap) => Prisma.sql`WHEN ${gap.kind}::text THEN ${gap.minGap}::int`), " ")} ELSE 0 END)`;
}

/** May the annotator start a new base case: fewer held than their share, ceil(base cases x holders per base / people). */
async function mayStartBaseCase(tx: Tx, studyId: string, userId: string, holdersPerBase: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ bases: bigint; held: bigint; people: bigint }>>`
    SELECT
      (SELECT count(DISTINCT ${baseCaseSql("i")}) FROM "Item" i
        WHERE i."studyId" = ${studyId} AND ${baseCaseSql("i")} IS NOT NULL AND ${reviewExcludedItemFilter("i")}) AS bases,
      (SELECT count(*) FROM (${holdersSql(studyId)}) h WHERE h."userId" = ${userId}) AS held,
      (SELECT count(*) FROM (SELECT m."userId" FROM "StudyMember" m JOIN "User" mu ON mu.id = m."userId" WHERE m."studyId" = ${studyId} AND m.status IN ('ACTIVE', 'COMPLETE') AND NOT mu."isAgent" UNION SELECT ${userId}) p) AS people`;
  const bases = Number(row?.bases ?? 0);
  if (bases === 0) return false;
  const people = Math.max(1, Number(row?.people ?? 1));
  return Number(row?.held ?? 0) < Math.ceil((bases * holdersPerBase) / people);
}

/**
 * The annotator's next main items in a study with probe families: not had yet, a free place in
 * some condition, allowed by the probe-family rules (lib/assignment/index.ts); among those, due
 * family items first, then new base cases, then ordinary items, then family items that are not
 * due yet; lowest md5(userId:itemId) within each tier. One row per (item, condition with room).
 */
export async function probeCandidates(tx: Tx, studyId: string, userId: string, study: StudyState, position: number): Promise<Candidate[]> {
  const holdersPerBase = study.overlap * Math.max(1, study.conditions.length);
  const mayStart = await mayStartBaseCase(tx, studyId, userId, holdersPerBase);
  const rows = await tx.$queryRaw<Array<{ itemId: string; base: string | null; conditions: Array<string | null>; balance: string; hash: string; expired: boolean; available: number }>>`
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
  return rows.map((row, index) => ({
    itemId: row.itemId,
    condition: row.conditions[0] ?? null,
    conditions: row.conditions,
    balance: row.balance,
    rank: index + 1,
    preferred: true,
    hash: row.hash,
    expired: row.expired,
    base: row.base,
    available: row.available,
  }));
}
