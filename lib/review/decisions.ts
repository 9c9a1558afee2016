import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/log";
import { getReviewStudyBySlug } from "@/lib/review/studies";
import { lockReviewItem, recomputeReviewItem } from "@/lib/review/outcome";
import type { ReviewDecisionInput } from "@/lib/validations/review";

/**
 * A researcher's final decision on a review item: settles a contested item, or overrides the
 * rules on any other. The latest decision is in ReviewDecision; every decision, with its note and
 * the outcomes before and after, is in the audit log.
 */
export async function decideReviewItem(slug: string, input: ReviewDecisionInput, actorId: string) {
  const study = await getReviewStudyBySlug(slug);
  const item = await db.reviewItem.findFirst({ where: { id: input.reviewItemId, reviewStudyId: study.id }, select: { id: true, externalId: true } });
  if (!item) throw new AppError("NOT_FOUND", `No item ${input.reviewItemId} in the review study ${slug}`);
  const change = await db.$transaction(async (tx) => {
    await lockReviewItem(tx, item.id);
    await tx.reviewDecision.upsert({
      where: { reviewItemId: item.id },
      create: { reviewItemId: item.id, decision: input.decision, note: input.note, decidedById: actorId },
      update: { decision: input.decision, note: input.note, decidedById: actorId },
    });
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
