import "server-only";
import { findExcludedItemIds, listStudyItemReviews } from "@/lib/repos/review";

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
 * Queries keep excluded items out with the SQL condition of lib/repos/review.ts
 * (reviewExcludedItemFilter): one index probe per item, ReviewItem (externalId, contentHash, outcome).
 */

/** isItemExcluded for services; reviewExcludedItemFilter for the queries of domains that have not moved to lib/repos yet (lib/studies/entry.ts). */
export { isItemExcluded, reviewExcludedItemFilter } from "@/lib/repos/review";

/** Ids of the items of a study that review excluded (their responses are flagged on dashboards). */
export async function excludedItemIdsForStudy(studyId: string): Promise<string[]> {
  return findExcludedItemIds(studyId);
}

export interface ItemReviewFlag {
  itemId: string;
  /** EXCLUDED when any review excluded it; else the latest outcome */
  outcome: "PENDING" | "KEPT" | "EXCLUDED" | "CONTESTED";
  reviews: Array<{ slug: string; title: string; outcome: string }>;
}

/** Review state of a study's reviewed items (item browser badges, dashboards' "with / without excluded"). */
export async function reviewFlagsForStudy(studyId: string): Promise<Map<string, ItemReviewFlag>> {
  const rows = await listStudyItemReviews(studyId);
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
