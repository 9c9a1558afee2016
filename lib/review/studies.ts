import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/log";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ReviewStudyCreateInput, ReviewStudyUpdateInput } from "@/lib/validations/review";

/**
 * Review studies (docs/review.md): created by researchers over batches of existing studies. The
 * items to review are the batches' items, one per distinct content (externalId, contentHash),
 * in the batches' order (the order picked, then import order).
 */

export async function getReviewStudyBySlug(slug: string) {
  const study = await db.reviewStudy.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      title: true,
      instructions: true,
      reviewersPerItem: true,
      keepRule: true,
      tieRule: true,
      status: true,
      createdAt: true,
      axes: { orderBy: { position: "asc" }, select: { id: true, key: true, label: true, description: true } },
    },
  });
  if (!study) throw new AppError("NOT_FOUND", `No review study with the slug "${slug}"`);
  return study;
}
export type ReviewStudyInfo = Awaited<ReturnType<typeof getReviewStudyBySlug>>;

/** Throws FORBIDDEN unless the user is a reviewer of the review study. */
export async function requireReviewer(reviewStudyId: string, userId: string, slug: string): Promise<void> {
  const member = await db.reviewStudyReviewer.findUnique({ where: { reviewStudyId_userId: { reviewStudyId, userId } }, select: { userId: true } });
  if (!member) throw new AppError("FORBIDDEN", `You are not a reviewer of the review study "${slug}"`);
}

/** Users who may not review the items: members of a study that uses the same content (they would see the key of items they annotate). */
async function reviewersWhoAnnotate(batchIds: readonly string[], userIds: readonly string[]): Promise<Array<{ name: string; study: string }>> {
  if (userIds.length === 0) return [];
  return db.$queryRaw<Array<{ name: string; study: string }>>`
    SELECT DISTINCT u.name, s.slug AS study
    FROM "StudyMember" m
    JOIN "User" u ON u.id = m."userId"
    JOIN "Study" s ON s.id = m."studyId"
    WHERE m."userId" IN (${Prisma.join(userIds)})
      AND m."studyId" IN (
        SELECT DISTINCT other."studyId" FROM "Item" reviewed
        JOIN "Item" other ON other."externalId" = reviewed."externalId" AND other."contentHash" = reviewed."contentHash"
        WHERE reviewed."batchId" IN (${Prisma.join(batchIds)}))
    ORDER BY 1, 2`;
}

export async function createReviewStudy(input: ReviewStudyCreateInput, createdById: string) {
  const batchIds = [...new Set(input.batchIds)];
  const reviewerIds = [...new Set(input.reviewerIds)];
  const batches = await db.batch.findMany({ where: { id: { in: batchIds } }, select: { id: true, fileName: true } });
  const missingBatches = batchIds.filter((id) => !batches.some((batch) => batch.id === id));
  if (missingBatches.length > 0) throw new AppError("INVALID", `No batch with id ${missingBatches.join(", ")}`, { path: "batchIds" });

  const users = await db.user.findMany({ where: { id: { in: reviewerIds } }, select: { id: true, name: true, disabled: true } });
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
  const items = (
    await db.item.findMany({
      where: { batchId: { in: batchIds } },
      orderBy: [{ createdAt: "asc" }, { externalId: "asc" }],
      select: { id: true, batchId: true, externalId: true, contentHash: true, kind: true },
    })
  ).sort((a, b) => (rank.get(a.batchId) ?? 0) - (rank.get(b.batchId) ?? 0));
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
    study = await db.$transaction(
      async (tx) => {
        const created = await tx.reviewStudy.create({
          data: {
            slug: input.slug,
            title: input.title,
            instructions: input.instructions,
            reviewersPerItem: input.reviewersPerItem,
            keepRule: input.keepRule,
            tieRule: input.tieRule,
            createdById,
            axes: { create: input.axes.map((axis, position) => ({ ...axis, position })) },
            batches: { create: batchIds.map((batchId) => ({ batchId })) },
            reviewers: { create: reviewerIds.map((userId) => ({ userId })) },
          },
          select: { id: true, slug: true },
        });
        await tx.reviewItem.createMany({
          data: distinct.map((item, position) => ({ reviewStudyId: created.id, itemId: item.id, externalId: item.externalId, contentHash: item.contentHash, kind: item.kind, position })),
        });
        return created;
      },
      { timeout: 60_000 },
    );
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
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
  await db.reviewStudy.update({ where: { id: study.id }, data: { status: input.status } });
  await recordAudit(actorId, "review.study.status", `review-study:${study.id}`, { slug, from: study.status, to: input.status });
  return { slug, status: input.status };
}

/** Every review study with its counts by outcome, for staff. */
export async function listReviewStudies() {
  const studies = await db.reviewStudy.findMany({
    orderBy: { createdAt: "desc" },
    select: { id: true, slug: true, title: true, status: true, reviewersPerItem: true, createdAt: true, _count: { select: { items: true, reviewers: true } } },
  });
  const [counts, queues] = await Promise.all([
    db.reviewItem.groupBy({ by: ["reviewStudyId", "outcome"], _count: { _all: true } }),
    // the contested queue (lib/review/rules.ts isContested): split or tied, decided by the rules, no researcher decision yet
    db.$queryRaw<Array<{ reviewStudyId: string; n: bigint }>>`
      SELECT r."reviewStudyId", count(*) AS n FROM "ReviewItem" r
      WHERE r."ruleOutcome" <> 'PENDING' AND (r.split OR r."ruleOutcome" = 'CONTESTED')
        AND NOT EXISTS (SELECT 1 FROM "ReviewDecision" d WHERE d."reviewItemId" = r.id)
      GROUP BY 1`,
  ]);
  return studies.map((study) => {
    const byOutcome = { PENDING: 0, KEPT: 0, EXCLUDED: 0, CONTESTED: 0 };
    for (const row of counts) if (row.reviewStudyId === study.id) byOutcome[row.outcome] = row._count._all;
    const toSettle = Number(queues.find((row) => row.reviewStudyId === study.id)?.n ?? 0);
    return { ...study, byOutcome, toSettle };
  });
}

/** Review studies a user reviews, with their own progress. */
export async function listMyReviewStudies(userId: string) {
  const memberships = await db.reviewStudyReviewer.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { reviewStudy: { select: { id: true, slug: true, title: true, status: true, reviewersPerItem: true, _count: { select: { items: true } } } } },
  });
  const ids = memberships.map((m) => m.reviewStudy.id);
  const done = ids.length
    ? await db.reviewAssignment.groupBy({ by: ["reviewStudyId"], where: { userId, reviewStudyId: { in: ids }, submittedAt: { not: null } }, _count: { _all: true } })
    : [];
  const left = ids.length ? await Promise.all(ids.map((id) => availableCount(id, userId))) : [];
  return memberships.map((m, i) => ({
    ...m.reviewStudy,
    done: done.find((row) => row.reviewStudyId === m.reviewStudy.id)?._count._all ?? 0,
    available: left[i],
  }));
}

/** Items a reviewer could still be given (or holds open) in a review study. */
export async function availableCount(reviewStudyId: string, userId: string): Promise<number> {
  const rows = await db.$queryRaw<Array<{ n: bigint }>>`
    SELECT count(*) AS n FROM "ReviewItem" r
    JOIN "ReviewStudy" s ON s.id = r."reviewStudyId"
    WHERE r."reviewStudyId" = ${reviewStudyId}
      AND (
        EXISTS (SELECT 1 FROM "ReviewAssignment" a WHERE a."reviewItemId" = r.id AND a."userId" = ${userId} AND a."submittedAt" IS NULL)
        OR (NOT EXISTS (SELECT 1 FROM "ReviewAssignment" a WHERE a."reviewItemId" = r.id AND a."userId" = ${userId})
            AND (SELECT count(*) FROM "ReviewAssignment" a WHERE a."reviewItemId" = r.id) < s."reviewersPerItem"))`;
  return Number(rows[0]?.n ?? 0);
}

/** Batches of every study, for the create form. */
export async function listBatchesForReview() {
  const batches = await db.batch.findMany({
    orderBy: [{ createdAt: "desc" }],
    select: { id: true, fileName: true, itemCount: true, createdAt: true, study: { select: { slug: true, title: true } }, _count: { select: { reviews: true } } },
  });
  const kinds = await db.item.groupBy({ by: ["batchId", "kind"], _count: { _all: true } });
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
  const users = await db.user.findMany({
    where: { disabled: false },
    orderBy: [{ role: "asc" }, { name: "asc" }],
    select: { id: true, name: true, role: true, memberships: { select: { study: { select: { slug: true } } } } },
  });
  return users.map((user) => ({ id: user.id, name: user.name, role: user.role, studies: user.memberships.map((m) => m.study.slug) }));
}

export async function isReviewerOf(reviewStudyId: string, userId: string): Promise<boolean> {
  return (await db.reviewStudyReviewer.count({ where: { reviewStudyId, userId } })) > 0;
}

/** Whether the user reviews in any review study (for the "Review" nav entry of non-staff reviewers: config/nav.ts navFor). */
export async function isReviewer(userId: string): Promise<boolean> {
  return (await db.reviewStudyReviewer.count({ where: { userId } })) > 0;
}
