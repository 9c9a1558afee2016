import "server-only";
import { AppError } from "@/lib/errors";
import {
  countOutcomesByStudy,
  countReviewsByReviewer,
  findReviewItemOfStudy,
  listReviewerNames,
  listReviewItemRows,
  listReviewStudyBatches,
  listSubmittedVerdicts,
  listSubmittedVerdictsOfItem,
} from "@/lib/repos/review";
import { getReviewStudyBySlug } from "@/lib/review/studies";
import { reviewItemContent, type ReviewItemContent } from "@/lib/review/item-content";
import {
  axisSummaries,
  outcomeCounts,
  tagSummaries,
  type AxisSummary,
  type OutcomeCounts,
  type SummaryItem,
  type TagSummary,
  type VerdictRow,
} from "@/lib/review/summary";
import { isContested, type Outcome } from "@/lib/review/rules";
import type { ReviewResultsQuery } from "@/lib/validations/review";

/**
 * The researcher's view of a review study (docs/review.md, "Results"): outcome counts, per-axis
 * pass rates and alpha (overall and by tag), the contested queue, every item's votes and reasons,
 * and the studies that the outcomes reach. Reviewers appear as R1, R2, ... (their order of joining
 * the review study) with their name; never an email.
 *
 * One pass over the study's verdicts (a few per item and axis) in memory; fine for review studies
 * of some hundred thousand verdicts.
 */

export const REVIEW_ITEMS_PAGE_SIZE = 50;

export interface ReviewerLabel {
  label: string;
  name: string;
}

export interface ItemVotes {
  axis: string;
  pass: number;
  fail: number;
  /** every verdict, with its reason when given */
  verdicts: Array<{ reviewer: string; pass: boolean; reason: string | null }>;
}

export interface ReviewItemRow {
  reviewItemId: string;
  externalId: string;
  kind: string;
  tags: Record<string, string | number | boolean>;
  reviews: number;
  outcome: Outcome;
  ruleOutcome: Outcome;
  split: boolean;
  contested: boolean;
  decision: { decision: "KEEP" | "EXCLUDE"; note: string; by: string | null; at: string } | null;
  votes: ItemVotes[];
}

async function reviewerLabels(reviewStudyId: string): Promise<Map<string, ReviewerLabel>> {
  const [members, assigned] = await listReviewerNames(reviewStudyId);
  const labels = new Map<string, ReviewerLabel>();
  for (const row of [...members, ...assigned]) if (!labels.has(row.userId)) labels.set(row.userId, { label: `R${labels.size + 1}`, name: row.user.name });
  return labels;
}

function tagsOf(tags: unknown): Record<string, string | number | boolean> {
  return (tags && typeof tags === "object" && !Array.isArray(tags) ? tags : {}) as Record<string, string | number | boolean>;
}

interface LoadedItem {
  id: string;
  externalId: string;
  kind: string;
  position: number;
  reviews: number;
  outcome: Outcome;
  ruleOutcome: Outcome;
  split: boolean;
  tags: Record<string, string | number | boolean>;
  decision: ReviewItemRow["decision"];
}

async function loadItems(reviewStudyId: string): Promise<LoadedItem[]> {
  const rows = await listReviewItemRows(reviewStudyId);
  return rows.map((row) => ({
    id: row.id,
    externalId: row.externalId,
    kind: row.kind,
    position: row.position,
    reviews: row.reviews,
    outcome: row.outcome,
    ruleOutcome: row.ruleOutcome,
    split: row.split,
    tags: tagsOf(row.item?.tags),
    decision: row.decision
      ? { decision: row.decision.decision, note: row.decision.note, by: row.decision.decidedBy?.name ?? null, at: row.decision.updatedAt.toISOString() }
      : null,
  }));
}

function itemRow(
  item: LoadedItem,
  axes: readonly string[],
  verdicts: Array<{ axis: string; reviewer: string; pass: boolean; reason: string | null }>,
): ReviewItemRow {
  return {
    reviewItemId: item.id,
    externalId: item.externalId,
    kind: item.kind,
    tags: item.tags,
    reviews: item.reviews,
    outcome: item.outcome,
    ruleOutcome: item.ruleOutcome,
    split: item.split,
    contested: isContested({ ruleOutcome: item.ruleOutcome, split: item.split, decided: item.decision !== null }),
    decision: item.decision,
    votes: axes.map((axis) => {
      const mine = verdicts.filter((v) => v.axis === axis);
      return {
        axis,
        pass: mine.filter((v) => v.pass).length,
        fail: mine.filter((v) => !v.pass).length,
        verdicts: mine.map((v) => ({ reviewer: v.reviewer, pass: v.pass, reason: v.reason })),
      };
    }),
  };
}

export interface ReviewResults {
  study: Awaited<ReturnType<typeof getReviewStudyBySlug>> & {
    batches: Array<{ fileName: string; study: { slug: string; title: string } }>;
  };
  counts: OutcomeCounts & { contested: number; reviews: number };
  axes: AxisSummary[];
  byTag: TagSummary[];
  reviewers: Array<ReviewerLabel & { done: number; open: number }>;
  contested: ReviewItemRow[];
  items: { rows: ReviewItemRow[]; total: number; page: number; pageSize: number };
  studies: Array<{ slug: string; title: string; items: number; excluded: number; excludedResponses: number }>;
}

export async function getReviewResults(slug: string, query: ReviewResultsQuery = { outcome: "all", page: 1 }): Promise<ReviewResults> {
  const study = await getReviewStudyBySlug(slug);
  const axes = study.axes.map((axis) => axis.key);
  const [items, verdictRows, labels, batches, assignmentCounts, studies] = await Promise.all([
    loadItems(study.id),
    listSubmittedVerdicts(study.id),
    reviewerLabels(study.id),
    listReviewStudyBatches(study.id),
    countReviewsByReviewer(study.id),
    countOutcomesByStudy(study.id),
  ]);

  const label = (userId: string) => labels.get(userId)?.label ?? "R?";
  const verdicts = verdictRows.map((row) => ({
    reviewItemId: row.assignment.reviewItemId,
    axis: row.axis.key,
    reviewer: label(row.assignment.userId),
    pass: row.pass,
    reason: row.reason,
  }));
  const summaryItems: SummaryItem[] = items.map((item) => ({ id: item.id, tags: item.tags, outcome: item.outcome }));
  const forStats: VerdictRow[] = verdicts;

  const verdictsByItem = new Map<string, typeof verdicts>();
  for (const verdict of verdicts) {
    const list = verdictsByItem.get(verdict.reviewItemId) ?? [];
    list.push(verdict);
    verdictsByItem.set(verdict.reviewItemId, list);
  }
  const rows = items.map((item) => itemRow(item, axes, verdictsByItem.get(item.id) ?? []));
  const contested = rows.filter((row) => row.contested).sort((a, b) => Number(b.ruleOutcome === "CONTESTED") - Number(a.ruleOutcome === "CONTESTED"));
  const filtered = rows.filter((row) => (query.outcome === "all" ? true : query.outcome === "split" ? row.split : row.outcome === query.outcome));
  const start = (query.page - 1) * REVIEW_ITEMS_PAGE_SIZE;

  const reviewers = [...labels.entries()].map(([userId, reviewer]) => {
    const mine = assignmentCounts.filter((row) => row.userId === userId);
    return {
      ...reviewer,
      done: mine.filter((row) => row.submittedAt !== null).reduce((sum, row) => sum + row._count._all, 0),
      open: mine.filter((row) => row.submittedAt === null).reduce((sum, row) => sum + row._count._all, 0),
    };
  });

  return {
    study: { ...study, batches: batches.map((row) => row.batch) },
    counts: { ...outcomeCounts(summaryItems), contested: contested.length, reviews: reviewers.reduce((sum, r) => sum + r.done, 0) },
    axes: axisSummaries(axes, summaryItems, forStats, study.keepRule),
    byTag: tagSummaries(axes, summaryItems, forStats, study.keepRule),
    reviewers,
    contested,
    items: { rows: filtered.slice(start, start + REVIEW_ITEMS_PAGE_SIZE), total: filtered.length, page: query.page, pageSize: REVIEW_ITEMS_PAGE_SIZE },
    studies: studies.map((row) => ({
      slug: row.slug,
      title: row.title,
      items: Number(row.items),
      excluded: Number(row.excluded),
      excludedResponses: Number(row.excludedResponses ?? 0),
    })),
  };
}

export interface ReviewItemDetail extends ReviewItemContent {
  study: {
    slug: string;
    title: string;
    keepRule: string;
    tieRule: string;
    reviewersPerItem: number;
    axes: Array<{ key: string; label: string; description: string }>;
  };
  row: ReviewItemRow;
  /** the contested queue around this item, for "next contested" */
  nextContested: string | null;
}

/** One review item for a researcher: the item and its key, every verdict, the decision. */
export async function getReviewItemDetail(slug: string, reviewItemId: string): Promise<ReviewItemDetail> {
  const study = await getReviewStudyBySlug(slug);
  const reviewItem = await findReviewItemOfStudy(reviewItemId, study.id);
  if (!reviewItem) throw new AppError("NOT_FOUND", `No item ${reviewItemId} in the review study ${slug}`);
  const [content, items, verdictRows, labels] = await Promise.all([
    reviewItemContent(reviewItem),
    loadItems(study.id),
    listSubmittedVerdictsOfItem(reviewItemId),
    reviewerLabels(study.id),
  ]);
  const axes = study.axes.map((axis) => axis.key);
  const item = items.find((row) => row.id === reviewItemId)!;
  const row = itemRow(
    item,
    axes,
    verdictRows.map((v) => ({
      axis: v.axis.key,
      reviewer: `${labels.get(v.assignment.userId)?.label ?? "R?"} ${labels.get(v.assignment.userId)?.name ?? ""}`.trim(),
      pass: v.pass,
      reason: v.reason,
    })),
  );
  // the next contested item after this one in review order (wrapping), without loading verdicts again
  const queue = items.filter(
    (other) => other.id !== reviewItemId && isContested({ ruleOutcome: other.ruleOutcome, split: other.split, decided: other.decision !== null }),
  );
  const next = queue.find((other) => other.position > item.position) ?? queue[0] ?? null;
  return {
    ...content,
    study: {
      slug: study.slug,
      title: study.title,
      keepRule: study.keepRule,
      tieRule: study.tieRule,
      reviewersPerItem: study.reviewersPerItem,
      axes: study.axes,
    },
    row,
    nextContested: next?.id ?? null,
  };
}
