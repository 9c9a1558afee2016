import "server-only";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/log";
import { isUniqueViolation } from "@/lib/db/errors";
import {
  countAvailableReviewItems,
  countReviewerMemberships,
  countSubmittedReviewsByStudy,
  findBatchesByIds,
  findMembersAnnotatingBatches,
  findReviewerMembership,
  findReviewStudyBySlug,
  findUsersByIds,
  insertReviewStudy,
  listBatchesWithKinds,
  listEnabledUsersWithStudies,
  listItemsOfBatches,
  listReviewStudiesOfReviewer,
  listReviewStudiesWithCounts,
  setReviewStudyStatus,
} from "@/lib/repos/review";
import type { ReviewStudyCreateInput, ReviewStudyUpdateInput } from "@/lib/validations/review";

/**
 * Review studies (docs/review.md): created by researchers over batches of existing studies. The
 * items to review are the batches' items, one per distinct content (externalId, contentHash),
 * in the batches' order (the order picked, then import order).
 */

export async function getReviewStudyBySlug(slug: string) {
  const study = await findReviewStudyBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No review study with the slug "${slug}"`);
  return study;
}
export type ReviewStudyInfo = Awaited<ReturnType<typeof getReviewStudyBySlug>>;

/** Throws FORBIDDEN unless the user is a reviewer of the review study. */
export async function requireReviewer(reviewStudyId: string, userId: string, slug: string): Promise<void> {
  const member = await findReviewerMembership(reviewStudyId, userId);
  if (!member) throw new AppError("FORBIDDEN", `You are not a reviewer of the review study "${slug}"`);
}

/** Users who may not review the items: members of a study that uses the same content (they would see the key of items they annotate). */
async function reviewersWhoAnnotate(batchIds: readonly string[], userIds: readonly string[]): Promise<Array<{ name: string; study: string }>> {
  if (userIds.length === 0) return [];
  return findMembersAnnotatingBatches(batchIds, userIds);
}

export async function createReviewStudy(input: ReviewStudyCreateInput, createdById: string) {
  const batchIds = [...new Set(input.batchIds)];
  const reviewerIds = [...new Set(input.reviewerIds)];
  const batches = await findBatchesByIds(batchIds);
  const missingBatches = batchIds.filter((id) => !batches.some((batch) => batch.id === id));
  if (missingBatches.length > 0) throw new AppError("INVALID", `No batch with id ${missingBatches.join(", ")}`, { path: "batchIds" });

  const users = await findUsersByIds(reviewerIds);
  const missingUsers = reviewerIds.filter((id) => !users.some((user) => user.id === id));
  if (missingUsers.length > 0) throw new AppError("INVALID", `No user with id ${missingUsers.join(", ")}`, { path: "reviewerIds" });
  const disabled = users.filter((user) => user.disabled);
  if (disabled.length > 0) throw new AppError("INVALID", `Disabled users cannot review: ${disabled.map((u) => u.name).join(", ")}`, { path: "reviewerIds" });
  const annotating = await reviewersWhoAnnotate(batchIds, reviewerIds);
  if (annotating.length > 0) {
    throw new AppError(
      "INVALID",
      `Reviewers see the answer keys, so they cannot annotate the same items: ${annotating.map((row) => `${row.name} (member of ${row.study})`).join(", ")}`,
      { path: "reviewerIds" },
    );
  }

  // one review item per distinct content, in the order the batches were picked, then import order
  const rank = new Map(batchIds.map((id, i) => [id, i]));
  const items = (await listItemsOfBatches(batchIds)).sort((a, b) => (rank.get(a.batchId) ?? 0) - (rank.get(b.batchId) ?? 0));
  const seen = new Set<string>();
  const distinct = items.filter((item) => {
    const key = `${item.externalId}\u0000${item.contentHash}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (distinct.length === 0) throw new AppError("INVALID", "The picked batches hold no items", { path: "batchIds" });

  let study: { id: string; slug: string };
  try {
    study = await insertReviewStudy({
      slug: input.slug,
      title: input.title,
      instructions: input.instructions,
      reviewersPerItem: input.reviewersPerItem,
      keepRule: input.keepRule,
      tieRule: input.tieRule,
      createdById,
      axes: input.axes,
      batchIds,
      reviewerIds,
      items: distinct,
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `A review study with the slug "${input.slug}" exists already`, { path: "slug" });
    }
    throw error;
  }
  await recordAudit(createdById, "review.study.created", `review-study:${study.id}`, {
    slug: study.slug,
    batches: batches.map((batch) => batch.fileName),
    items: distinct.length,
    reviewers: reviewerIds.length,
    reviewersPerItem: input.reviewersPerItem,
    keepRule: input.keepRule,
    tieRule: input.tieRule,
    axes: input.axes.map((axis) => axis.key),
  });
  return { ...study, items: distinct.length };
}

export async function updateReviewStudy(slug: string, input: ReviewStudyUpdateInput, actorId: string) {
  const study = await getReviewStudyBySlug(slug);
  if (study.status === input.status) return { slug, status: study.status };
  await setReviewStudyStatus(study.id, input.status);
  await recordAudit(actorId, "review.study.status", `review-study:${study.id}`, { slug, from: study.status, to: input.status });
  return { slug, status: input.status };
}

/** Every review study with its counts by outcome, for staff. */
export async function listReviewStudies() {
  const { studies, counts, queues } = await listReviewStudiesWithCounts();
  return studies.map((study) => {
    const byOutcome = { PENDING: 0, KEPT: 0, EXCLUDED: 0, CONTESTED: 0 };
    for (const row of counts) if (row.reviewStudyId === study.id) byOutcome[row.outcome] = row._count._all;
    const toSettle = Number(queues.find((row) => row.reviewStudyId === study.id)?.n ?? 0);
    return { ...study, byOutcome, toSettle };
  });
}

/** Review studies a user reviews, with their own progress. */
export async function listMyReviewStudies(userId: string) {
  const memberships = await listReviewStudiesOfReviewer(userId);
  const ids = memberships.map((m) => m.reviewStudy.id);
  const done = ids.length ? await countSubmittedReviewsByStudy(userId, ids) : [];
  const left = ids.length ? await Promise.all(ids.map((id) => availableCount(id, userId))) : [];
  return memberships.map((m, i) => ({
    ...m.reviewStudy,
    done: done.find((row) => row.reviewStudyId === m.reviewStudy.id)?._count._all ?? 0,
    available: left[i],
  }));
}

/** Items a reviewer could still be given (or holds open) in a review study. */
export async function availableCount(reviewStudyId: string, userId: string): Promise<number> {
  return countAvailableReviewItems(reviewStudyId, userId);
}

/** Batches of every study, for the create form. */
export async function listBatchesForReview() {
  const { batches, kinds } = await listBatchesWithKinds();
  return batches.map((batch) => ({
    id: batch.id,
    fileName: batch.fileName,
    itemCount: batch.itemCount,
    createdAt: batch.createdAt.toISOString(),
    study: batch.study,
    reviews: batch._count.reviews,
    kinds: kinds.filter((row) => row.batchId === batch.id).map((row) => ({ kind: row.kind, count: row._count._all })),
  }));
}

/** Users who may be picked as reviewers: enabled users, staff first; with the studies they are members of. */
export async function listReviewerCandidates() {
  const users = await listEnabledUsersWithStudies();
  return users.map((user) => ({ id: user.id, name: user.name, role: user.role, studies: user.memberships.map((m) => m.study.slug) }));
}

export async function isReviewerOf(reviewStudyId: string, userId: string): Promise<boolean> {
  return (await countReviewerMemberships({ reviewStudyId, userId })) > 0;
}

/** Whether the user reviews in any review study (for the "Review" nav entry of non-staff reviewers: config/nav.ts navFor). */
export async function isReviewer(userId: string): Promise<boolean> {
  return (await countReviewerMemberships({ userId })) > 0;
}
