import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * How review outcomes flow into studies (docs/review.md, "Exclusion").
 *
 * An item whose review outcome is EXCLUDED (by the rules or a researcher's decision) is kept out
 * of new assignments in every study that holds the same content: items are matched by
 * (externalId, contentHash), so a batch imported into several studies is reviewed once. Nothing
 * is deleted: responses already given stay, and dashboards flag them (`excludedItemIdsForStudy`).
 * An item excluded by any review study is excluded (a failed review is not outvoted by another
 * review study that kept the same content; a researcher settles it with a decision there).
 *
 * The match is one index probe per item: ReviewItem (externalId, contentHash, outcome).
 */

const aliasPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

function itemAlias(alias: string): Prisma.Sql {
  if (!aliasPattern.test(alias)) throw new Error(`reviewExcludedItemFilter: "${alias}" is not a plain SQL alias`);
  return Prisma.raw(`"${alias}"`);
}

/**
 * SQL condition, true for items that review EXCLUDED: `EXISTS (...)` on the "Item" row named
 * `alias` in the surrounding query.
 * @example
 * db.$queryRaw`SELECT i.id FROM "Item" i WHERE i."studyId" = ${studyId} AND ${reviewExcludedItemCondition("i")}`
 */
export function reviewExcludedItemCondition(alias = "i"): Prisma.Sql {
  const item = itemAlias(alias);
  return Prisma.sql`EXISTS (SELECT 1 FROM "ReviewItem" review_excluded WHERE review_excluded."externalId" = ${item}."externalId" AND review_excluded."contentHash" = ${item}."contentHash" AND review_excluded."outcome" = 'EXCLUDED')`;
}

/**
 * SQL condition for assignment queries, true for items that may still be assigned: `NOT EXISTS
 * (...)` an EXCLUDED review of the same content. For lib/assignment:
 * @example
 * db.$queryRaw`SELECT i.id FROM "Item" i WHERE i."studyId" = ${studyId} AND ${reviewExcludedItemFilter("i")}`
 */
export function reviewExcludedItemFilter(alias = "i"): Prisma.Sql {
  return Prisma.sql`NOT ${reviewExcludedItemCondition(alias)}`;
}

/** Ids of the items of a study that review excluded (their responses are flagged on dashboards). */
export async function excludedItemIdsForStudy(studyId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT i.id FROM "Item" i WHERE i."studyId" = ${studyId} AND ${reviewExcludedItemCondition("i")} ORDER BY i.id`;
  return rows.map((row) => row.id);
}

/**
 * A Prisma `where` for items of a study that review did not exclude, for Prisma queries (counts,
 * findMany). Prisma cannot join on two columns without a relation, so it reads the excluded ids
 * first: `{ studyId, id: { notIn: [...] } }`.
 */
export async function reviewExcludedItemWhere(studyId: string): Promise<Prisma.ItemWhereInput> {
  const excluded = await excludedItemIdsForStudy(studyId);
  return excluded.length > 0 ? { studyId, id: { notIn: excluded } } : { studyId };
}

/** Whether review excluded this item (or its content in another study). */
export async function isItemExcluded(itemId: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ excluded: boolean }>>`
    SELECT ${reviewExcludedItemCondition("i")} AS excluded FROM "Item" i WHERE i.id = ${itemId}`;
  return rows[0]?.excluded ?? false;
}

export interface ItemReviewFlag {
  itemId: string;
  /** EXCLUDED when any review excluded it; else the latest outcome */
  outcome: "PENDING" | "KEPT" | "EXCLUDED" | "CONTESTED";
  reviews: Array<{ slug: string; title: string; outcome: string }>;
}

/** Review state of a study's reviewed items (item browser badges, dashboards' "with / without excluded"). */
export async function reviewFlagsForStudy(studyId: string): Promise<Map<string, ItemReviewFlag>> {
  const rows = await db.$queryRaw<Array<{ itemId: string; outcome: ItemReviewFlag["outcome"]; slug: string; title: string }>>`
    SELECT i.id AS "itemId", r."outcome", s.slug, s.title
    FROM "Item" i
    JOIN "ReviewItem" r ON r."externalId" = i."externalId" AND r."contentHash" = i."contentHash"
    JOIN "ReviewStudy" s ON s.id = r."reviewStudyId"
    WHERE i."studyId" = ${studyId}
    ORDER BY i.id, s."createdAt"`;
  const flags = new Map<string, ItemReviewFlag>();
  for (const row of rows) {
    const flag = flags.get(row.itemId) ?? { itemId: row.itemId, outcome: row.outcome, reviews: [] };
    flag.reviews.push({ slug: row.slug, title: row.title, outcome: row.outcome });
    if (row.outcome === "EXCLUDED") flag.outcome = "EXCLUDED";
    else if (flag.outcome !== "EXCLUDED") flag.outcome = row.outcome;
    flags.set(row.itemId, flag);
  }
  return flags;
}
