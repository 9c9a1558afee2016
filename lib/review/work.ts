import "server-only";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/log";
import {
  claimNextReview,
  countSubmittedReviews,
  findReviewForSubmission,
  findReviewForView,
  findReviewItemOutcome,
  insertVerdicts,
  listVerdictsOfReview,
  lockReviewItem,
  markReviewSubmitted,
} from "@/lib/repos/review";
import { inTransaction } from "@/lib/repos/transactions";
import { availableCount, getReviewStudyBySlug, requireReviewer } from "@/lib/review/studies";
import { reviewItemContent } from "@/lib/review/item-content";
import { recomputeReviewItem, type OutcomeChange } from "@/lib/review/outcome";
import type { ReviewItemView, ReviewNext, ReviewProgress } from "@/lib/review/types";
import type { ReviewSubmitInput } from "@/lib/validations/review";

/**
 * The reviewer's flow (docs/review.md): one item at a time, in the review study's order. An item
 * is handed to at most `reviewersPerItem` reviewers (open or submitted reviews count), and a
 * reviewer finishes the item on screen before getting another. Assignments are created under a
 * per-review-study advisory lock, so two reviewers asking at once never push an item past its
 * number of reviewers.
 */

async function progressOf(reviewStudyId: string, userId: string): Promise<ReviewProgress> {
  const [done, available] = await Promise.all([countSubmittedReviews(reviewStudyId, userId), availableCount(reviewStudyId, userId)]);
  return { done, available };
}

/** The review as its reviewer sees it: the item, its key, the axes. FORBIDDEN for anyone else. */
export async function getReviewAssignmentView(assignmentId: string, userId: string): Promise<ReviewItemView> {
  const assignment = await findReviewForView(assignmentId);
  if (!assignment) throw new AppError("NOT_FOUND", `No review ${assignmentId}`);
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Review ${assignmentId} belongs to another reviewer`);
  const content = await reviewItemContent(assignment.reviewItem);
  return { assignmentId: assignment.id, ...content, axes: assignment.reviewStudy.axes };
}

/**
 * The review to work on next, created when needed: the reviewer's open review (other than the
 * ones in `exclude`), else the first item in order that they have not reviewed and that has
 * fewer than reviewersPerItem reviews.
 */
export async function nextReviewFor(slug: string, userId: string, exclude: readonly string[] = []): Promise<ReviewNext> {
  const study = await getReviewStudyBySlug(slug);
  await requireReviewer(study.id, userId, slug);
  if (study.status !== "OPEN") return { status: "closed", progress: await progressOf(study.id, userId) };

  const assignmentId = await claimNextReview(study.id, userId, study.reviewersPerItem, exclude);
  const progress = await progressOf(study.id, userId);
  if (!assignmentId) return { status: "done", progress };
  return { status: "item", view: await getReviewAssignmentView(assignmentId, userId), progress };
}

function sameVerdicts(stored: Array<{ axis: string; pass: boolean; reason: string | null }>, given: ReviewSubmitInput["verdicts"]): boolean {
  if (stored.length !== given.length) return false;
  return given.every((verdict) => {
    const match = stored.find((row) => row.axis === verdict.axis);
    return match !== undefined && match.pass === verdict.pass && (match.reason ?? undefined) === verdict.reason;
  });
}

export interface ReviewSubmitResult {
  /** false when the same verdicts had been stored already (a retried submission) */
  stored: boolean;
  outcome: Pick<OutcomeChange, "after" | "reviews">;
  next: ReviewNext;
}

/**
 * Stores a reviewer's verdicts on every axis of one item, then recomputes the item's outcome in
 * the same transaction (an item that fails review is excluded from assignment from that commit
 * on). Submitting the same verdicts again is a no-op; other verdicts for a submitted review are a
 * CONFLICT. Returns the reviewer's next item, so that the page can show it at once.
 */
export async function submitReview(assignmentId: string, userId: string, submitted: ReviewSubmitInput): Promise<ReviewSubmitResult> {
  const input = { verdicts: submitted.verdicts.map((verdict) => ({ axis: verdict.axis, pass: verdict.pass, reason: verdict.reason?.trim() || undefined })) };
  for (const verdict of input.verdicts) {
    if (!verdict.pass && !verdict.reason) throw new AppError("INVALID", `A fail needs a reason: say why "${verdict.axis}" fails`);
  }
  const assignment = await findReviewForSubmission(assignmentId);
  if (!assignment) throw new AppError("NOT_FOUND", `No review ${assignmentId}`);
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Review ${assignmentId} belongs to another reviewer`);
  const { reviewStudy } = assignment;

  const axisIds = new Map(reviewStudy.axes.map((axis) => [axis.key, axis.id]));
  const given = new Set<string>();
  for (const verdict of input.verdicts) {
    if (!axisIds.has(verdict.axis))
      throw new AppError("INVALID", `Unknown axis "${verdict.axis}"; the axes of ${reviewStudy.slug} are ${[...axisIds.keys()].join(", ")}`);
    if (given.has(verdict.axis)) throw new AppError("INVALID", `Two verdicts for the axis "${verdict.axis}"`);
    given.add(verdict.axis);
  }
  const missing = [...axisIds.keys()].filter((key) => !given.has(key));
  if (missing.length > 0) throw new AppError("INVALID", `A review judges every axis; missing: ${missing.join(", ")}`);

  const alreadyStored = () => {
    const stored = assignment.verdicts.map((v) => ({ axis: v.axis.key, pass: v.pass, reason: v.reason }));
    if (!sameVerdicts(stored, input.verdicts)) throw new AppError("CONFLICT", `Review ${assignmentId} was submitted already with other verdicts`);
  };
  if (assignment.submittedAt) {
    alreadyStored();
    return {
      stored: false,
      outcome: { after: assignment.reviewItem.outcome, reviews: assignment.reviewItem.reviews },
      next: await nextReviewFor(reviewStudy.slug, userId, [assignmentId]),
    };
  }
  if (reviewStudy.status !== "OPEN") throw new AppError("CONFLICT", `The review study ${reviewStudy.slug} is closed`);

  const change = await inTransaction(
    async (tx) => {
      await lockReviewItem(tx, assignment.reviewItemId);
      if (!(await markReviewSubmitted(tx, assignmentId))) return null;
      await insertVerdicts(
        tx,
        input.verdicts.map((verdict) => ({ assignmentId, axisId: axisIds.get(verdict.axis)!, pass: verdict.pass, reason: verdict.reason ?? null })),
      );
      return recomputeReviewItem(tx, assignment.reviewItemId);
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
  if (!change) {
    // a concurrent submission of the same review won the race: compare with what it stored
    const stored = await listVerdictsOfReview(assignmentId);
    if (
      !sameVerdicts(
        stored.map((v) => ({ axis: v.axis.key, pass: v.pass, reason: v.reason })),
        input.verdicts,
      )
    ) {
      throw new AppError("CONFLICT", `Review ${assignmentId} was submitted already with other verdicts`);
    }
    const item = await findReviewItemOutcome(assignment.reviewItemId);
    return { stored: false, outcome: { after: item.outcome, reviews: item.reviews }, next: await nextReviewFor(reviewStudy.slug, userId, [assignmentId]) };
  }

  const target = `review-item:${assignment.reviewItemId}`;
  await recordAudit(userId, "review.verdicts", target, {
    reviewStudy: reviewStudy.slug,
    item: assignment.reviewItem.externalId,
    assignmentId,
    verdicts: input.verdicts.map((verdict) => ({ axis: verdict.axis, pass: verdict.pass, reason: verdict.reason ?? null })),
  });
  if (change.before !== change.after) {
    await recordAudit(userId, "review.outcome", target, {
      reviewStudy: reviewStudy.slug,
      item: assignment.reviewItem.externalId,
      from: change.before,
      to: change.after,
      ruleOutcome: change.ruleOutcome,
      split: change.split,
      reviews: change.reviews,
      by: "rules",
    });
  }
  return { stored: true, outcome: { after: change.after, reviews: change.reviews }, next: await nextReviewFor(reviewStudy.slug, userId, [assignmentId]) };
}
