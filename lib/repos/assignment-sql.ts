import "server-only";
import { sqlNow } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { familyKinds, familyMinGaps, type FamilyKind } from "@/lib/tasks";

/**
 * The SQL pieces the assignment queries (lib/repos/assignments.ts) share: advisory-lock keys,
 * places held per item, a study's conditions as rows, and the probe families' base cases (from
 * the kinds that declare `assignment.family` in lib/tasks). The rules they serve are in the doc
 * comment of lib/assignment/index.ts.
 */

export function lockKey(text: string): Prisma.Sql {
  return Prisma.sql`hashtextextended(${text}, 0)`;
}

export const itemLockKey = (itemId: string) => `yardstick:item:${itemId}`;
export const baseLockKey = (studyId: string, base: string) => `yardstick:base:${studyId}:${base}`;

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

// --- probe families ---------------------------------------------------------------------------

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
  return families.length === 0
    ? Prisma.sql`false`
    : Prisma.sql`(${Prisma.join(
        families.map((family) => Prisma.sql`(${memberOfSql(i, family)})`),
        " OR ",
      )})`;
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
export function minGapSql(kind: Prisma.Sql, taskSettings: unknown): Prisma.Sql {
  const gaps = familyMinGaps(taskSettings);
  if (gaps.length === 0) return Prisma.sql`0`;
  return Prisma.sql`(CASE ${kind} ${Prisma.join(
    gaps.map((gap) => Prisma.sql`WHEN ${gap.kind}::text THEN ${gap.minGap}::int`),
    " ",
  )} ELSE 0 END)`;
}
