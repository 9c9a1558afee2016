import "server-only";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/log";
import { getReviewStudyBySlug } from "@/lib/review/studies";
import { recomputeReviewItem } from "@/lib/review/outcome";
import { findReviewItemOfStudy, lockReviewItem, upsertReviewDecision } from "@/lib/repos/review";
import { inTransaction } from "@/lib/repos/transactions";
import type { ReviewDecisionInput } from "@/lib/validations/review";

/**
 * A researcher's final decision on a review item: settles a contested item, or overrides the
 * rules on any other. The latest decision is in ReviewDecision; every decision, with its note and
 * the outcomes before and after, is in the audit log.
 */
export async function decideReviewItem(slug: string, input: ReviewDecisionInput, actorId: string) {
  const study = await getReviewStudyBySlug(slug);
  const item = await findReviewItemOfStudy(input.reviewItemId, study.id);
  if (!item) throw new AppError("NOT_FOUND", `No item ${input.reviewItemId} in the review study ${slug}`);
  const change = await inTransaction(async (tx) => {
    await lockReviewItem(tx, item.id);
    await upsertReviewDecision(tx, item.id, { decision: input.decision, note: input.note, decidedById: actorId });
    return recomputeReviewItem(tx, item.id);
  });
  await recordAudit(actorId, "review.decision", `review-item:${item.id}`, {
    reviewStudy: slug,
    item: item.externalId,
    decision: input.decision,
    note: input.note,
    ruleOutcome: change.ruleOutcome,
    from: change.before,
    to: change.after,
  });
  return { reviewItemId: item.id, decision: input.decision, outcome: change.after, ruleOutcome: change.ruleOutcome };
}
