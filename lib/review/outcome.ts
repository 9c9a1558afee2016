import "server-only";
import type { Tx } from "@/lib/db/client-types";
import { readReviewItemVotes, storeReviewItemOutcome } from "@/lib/repos/review";
import { effectiveOutcome, itemOutcome, type Outcome } from "@/lib/review/rules";

export interface OutcomeChange {
  reviewItemId: string;
  before: Outcome;
  after: Outcome;
  ruleOutcome: Outcome;
  split: boolean;
  reviews: number;
}

/**
 * Recomputes one review item's outcome from its submitted reviews and the researcher's decision,
 * in the caller's transaction (which holds the item's row lock), and stores it. Exclusion reads
 * the stored outcome, so it takes effect when the transaction commits.
 */
export async function recomputeReviewItem(tx: Tx, reviewItemId: string): Promise<OutcomeChange> {
  const item = await readReviewItemVotes(tx, reviewItemId);
  const { reviewStudy } = item;
  const votes = new Map(reviewStudy.axes.map((axis) => [axis.id, { pass: 0, fail: 0 }]));
  for (const assignment of item.assignments) {
    for (const verdict of assignment.verdicts) {
      const axis = votes.get(verdict.axisId);
      if (axis) axis[verdict.pass ? "pass" : "fail"] += 1;
    }
  }
  const result = itemOutcome({
    axes: reviewStudy.axes.map((axis) => votes.get(axis.id)!),
    reviews: item.assignments.length,
    reviewersPerItem: reviewStudy.reviewersPerItem,
    keepRule: reviewStudy.keepRule,
    tieRule: reviewStudy.tieRule,
  });
  const after = effectiveOutcome(result.outcome, item.decision?.decision);
  await storeReviewItemOutcome(tx, reviewItemId, { reviews: item.assignments.length, ruleOutcome: result.outcome, outcome: after, split: result.split });
  return { reviewItemId, before: item.outcome, after, ruleOutcome: result.outcome, split: result.split, reviews: item.assignments.length };
}
