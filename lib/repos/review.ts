import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ReviewDecisionValue, ReviewKeepRule, ReviewOutcome, ReviewStudyStatus, ReviewTieRule } from "@/lib/generated/prisma/enums";

/**
 * Data access for item review (docs/review.md): review studies with their axes, batches and
 * reviewers (ReviewStudy, ReviewAxis, ReviewStudyBatch, ReviewStudyReviewer), their items
 * (ReviewItem, matched to study items by externalId and contentHash), reviews (ReviewAssignment,
 * ReviewVerdict) and researchers' decisions (ReviewDecision), and the SQL conditions by which a
 * review's outcome reaches the studies that hold the same content. The rules (outcomes, who may
 * review what, the contested queue) are lib/review's.
 */

// --- exclusion: the SQL conditions other queries embed ----------------------------------------

const aliasPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

function itemAlias(alias: string): Prisma.Sql {
  if (!aliasPattern.test(alias)) throw new Error(`reviewExcludedItemFilter: "${alias}" is not a plain SQL alias`);
  return Prisma.raw(`"${alias}"`);
}

/**
 * SQL condition, true for items that review EXCLUDED: `EXISTS (...)` on the "Item" row named
 * `alias` in the surrounding query. One index probe per item: ReviewItem (externalId,
 * contentHash, outcome).
 * @example
 * db.$queryRaw`SELECT i.id FROM "Item" i WHERE i."studyId" = ${studyId} AND ${reviewExcludedItemCondition("i")}`
 */
export function reviewExcludedItemCondition(alias = "i"): Prisma.Sql {
  const item = itemAlias(alias);
  return Prisma.sql`EXISTS (SELECT 1 FROM "ReviewItem" review_excluded WHERE review_excluded."externalId" = ${item}."externalId" AND review_excluded."contentHash" = ${item}."contentHash" AND review_excluded."outcome" = 'EXCLUDED')`;
}

/**
 * SQL condition for assignment queries, true for items that may still be assigned: `NOT EXISTS
 * (...)` an EXCLUDED review of the same content.
 * @example
 * db.$queryRaw`SELECT i.id FROM "Item" i WHERE i."studyId" = ${studyId} AND ${reviewExcludedItemFilter("i")}`
 */
export function reviewExcludedItemFilter(alias = "i"): Prisma.Sql {
  return Prisma.sql`NOT ${reviewExcludedItemCondition(alias)}`;
}

/** Ids of the items of a study that review excluded. */
export async function findExcludedItemIds(studyId: string): Promise<string[]> {
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
  const excluded = await findExcludedItemIds(studyId);
  return excluded.length > 0 ? { studyId, id: { notIn: excluded } } : { studyId };
}

/** Whether review excluded this item (or its content in another study). */
export async function isItemExcluded(itemId: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ excluded: boolean }>>`
    SELECT ${reviewExcludedItemCondition("i")} AS excluded FROM "Item" i WHERE i.id = ${itemId}`;
  return rows[0]?.excluded ?? false;
}

/** Every review of every reviewed item of a study: the item, the review item's outcome, the review study; by item, then the review studies' age. */
export async function listStudyItemReviews(studyId: string): Promise<Array<{ itemId: string; outcome: ReviewOutcome; slug: string; title: string }>> {
  return db.$queryRaw<Array<{ itemId: string; outcome: ReviewOutcome; slug: string; title: string }>>`
    SELECT i.id AS "itemId", r."outcome", s.slug, s.title
    FROM "Item" i
    JOIN "ReviewItem" r ON r."externalId" = i."externalId" AND r."contentHash" = i."contentHash"
    JOIN "ReviewStudy" s ON s.id = r."reviewStudyId"
    WHERE i."studyId" = ${studyId}
    ORDER BY i.id, s."createdAt"`;
}

// --- who reviews what -------------------------------------------------------------------------

/** Whether the user reviews, in some review study, a batch of a study that links the asset. */
export async function reviewerMaySeeAsset(userId: string, hash: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ ok: number }>>`
    SELECT 1 AS ok FROM "ReviewStudyReviewer" m
    JOIN "ReviewStudyBatch" rb ON rb."reviewStudyId" = m."reviewStudyId"
    JOIN "Batch" b ON b.id = rb."batchId"
    JOIN "StudyAsset" sa ON sa."studyId" = b."studyId"
    WHERE m."userId" = ${userId} AND sa."assetHash" = ${hash}
    LIMIT 1`;
  return rows.length > 0;
}

/** Which of these users review, in some review study, items with the content of items of the study; with the review study. */
export async function findReviewersOfStudyItems(studyId: string, userIds: readonly string[]): Promise<Array<{ userId: string; name: string; review: string }>> {
  return db.$queryRaw<Array<{ userId: string; name: string; review: string }>>`
    SELECT DISTINCT u.id AS "userId", u.name, rs.slug AS review
    FROM "ReviewStudyReviewer" r
    JOIN "User" u ON u.id = r."userId"
    JOIN "ReviewStudy" rs ON rs.id = r."reviewStudyId"
    WHERE r."userId" IN (${Prisma.join(userIds)})
      AND EXISTS (SELECT 1 FROM "ReviewItem" ri JOIN "Item" i ON i."externalId" = ri."externalId" AND i."contentHash" = ri."contentHash"
                  WHERE ri."reviewStudyId" = r."reviewStudyId" AND i."studyId" = ${studyId})
    ORDER BY 2, 3`;
}

/** Which of these users are members of a study that holds content of the batches' items; with the study. */
export async function findMembersAnnotatingBatches(batchIds: readonly string[], userIds: readonly string[]): Promise<Array<{ name: string; study: string }>> {
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

export async function findReviewerMembership(reviewStudyId: string, userId: string): Promise<{ userId: string } | null> {
  return db.reviewStudyReviewer.findUnique({ where: { reviewStudyId_userId: { reviewStudyId, userId } }, select: { userId: true } });
}

export async function countReviewerMemberships(where: { reviewStudyId?: string; userId: string }): Promise<number> {
  return db.reviewStudyReviewer.count({ where });
}

/** The review study's reviewers' ids in the order they joined it. */
export async function listReviewerIdsInJoinOrder(reviewStudyId: string): Promise<Array<{ userId: string }>> {
  return db.reviewStudyReviewer.findMany({ where: { reviewStudyId }, orderBy: [{ createdAt: "asc" }, { userId: "asc" }], select: { userId: true } });
}

/** The review study's reviewers in the order they joined it, and everyone who holds a review in it (by id), with their names. */
export async function listReviewerNames(reviewStudyId: string) {
  return Promise.all([
    db.reviewStudyReviewer.findMany({
      where: { reviewStudyId },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
      select: { userId: true, user: { select: { name: true } } },
    }),
    db.reviewAssignment.findMany({
      where: { reviewStudyId },
      distinct: ["userId"],
      orderBy: { userId: "asc" },
      select: { userId: true, user: { select: { name: true } } },
    }),
  ]);
}

// --- review studies ---------------------------------------------------------------------------

export async function findReviewStudyBySlug(slug: string) {
  return db.reviewStudy.findUnique({
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
}

export async function findBatchesByIds(batchIds: readonly string[]): Promise<Array<{ id: string; fileName: string }>> {
  return db.batch.findMany({ where: { id: { in: [...batchIds] } }, select: { id: true, fileName: true } });
}

export async function findUsersByIds(userIds: readonly string[]): Promise<Array<{ id: string; name: string; disabled: boolean }>> {
  return db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true, disabled: true } });
}

/** The batches' items in import order. */
export async function listItemsOfBatches(
  batchIds: readonly string[],
): Promise<Array<{ id: string; batchId: string; externalId: string; contentHash: string; kind: string }>> {
  return db.item.findMany({
    where: { batchId: { in: [...batchIds] } },
    orderBy: [{ createdAt: "asc" }, { externalId: "asc" }],
    select: { id: true, batchId: true, externalId: true, contentHash: true, kind: true },
  });
}

export interface NewReviewStudy {
  slug: string;
  title: string;
  instructions: string;
  reviewersPerItem: number;
  keepRule: ReviewKeepRule;
  tieRule: ReviewTieRule;
  createdById: string;
  axes: Array<{ key: string; label: string; description: string }>;
  batchIds: readonly string[];
  reviewerIds: readonly string[];
  /** the review items, in review order */
  items: ReadonlyArray<{ id: string; externalId: string; contentHash: string; kind: string }>;
}

/** Creates a review study with its axes, batches, reviewers and items, in one transaction (a taken slug fails it with a unique violation). */
export async function insertReviewStudy(input: NewReviewStudy): Promise<{ id: string; slug: string }> {
  return db.$transaction(
    async (tx) => {
      const created = await tx.reviewStudy.create({
        data: {
          slug: input.slug,
          title: input.title,
          instructions: input.instructions,
          reviewersPerItem: input.reviewersPerItem,
          keepRule: input.keepRule,
          tieRule: input.tieRule,
          createdById: input.createdById,
          axes: { create: input.axes.map((axis, position) => ({ ...axis, position })) },
          batches: { create: input.batchIds.map((batchId) => ({ batchId })) },
          reviewers: { create: input.reviewerIds.map((userId) => ({ userId })) },
        },
        select: { id: true, slug: true },
      });
      await tx.reviewItem.createMany({
        data: input.items.map((item, position) => ({
          reviewStudyId: created.id,
          itemId: item.id,
          externalId: item.externalId,
          contentHash: item.contentHash,
          kind: item.kind,
          position,
        })),
      });
      return created;
    },
    { timeout: 60_000 },
  );
}

export async function setReviewStudyStatus(reviewStudyId: string, status: ReviewStudyStatus): Promise<void> {
  await db.reviewStudy.update({ where: { id: reviewStudyId }, data: { status } });
}

/** Every review study, newest first, with its items' counts by outcome and the size of its contested queue. */
export async function listReviewStudiesWithCounts() {
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
  return { studies, counts, queues };
}

/** The review studies a user reviews in, newest membership first. */
export async function listReviewStudiesOfReviewer(userId: string) {
  return db.reviewStudyReviewer.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { reviewStudy: { select: { id: true, slug: true, title: true, status: true, reviewersPerItem: true, _count: { select: { items: true } } } } },
  });
}

/** The user's submitted reviews per review study, for these review studies. */
export async function countSubmittedReviewsByStudy(userId: string, reviewStudyIds: string[]) {
  return db.reviewAssignment.groupBy({
    by: ["reviewStudyId"],
    where: { userId, reviewStudyId: { in: reviewStudyIds }, submittedAt: { not: null } },
    _count: { _all: true },
  });
}

/** Items the reviewer holds open in the review study, or has not reviewed while fewer than its reviewersPerItem reviews exist. */
export async function countAvailableReviewItems(reviewStudyId: string, userId: string): Promise<number> {
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

/** Batches of every study, newest first, with their review studies' count, and the items of every batch by kind. */
export async function listBatchesWithKinds() {
  const batches = await db.batch.findMany({
    orderBy: [{ createdAt: "desc" }],
    select: {
      id: true,
      fileName: true,
      itemCount: true,
      createdAt: true,
      study: { select: { slug: true, title: true } },
      _count: { select: { reviews: true } },
    },
  });
  const kinds = await db.item.groupBy({ by: ["batchId", "kind"], _count: { _all: true } });
  return { batches, kinds };
}

/** Enabled users, staff first, with the studies they are members of. */
export async function listEnabledUsersWithStudies() {
  return db.user.findMany({
    where: { disabled: false },
    orderBy: [{ role: "asc" }, { name: "asc" }],
    select: { id: true, name: true, role: true, memberships: { select: { study: { select: { slug: true } } } } },
  });
}

// --- review items and their content -----------------------------------------------------------

export async function findReviewItemOfStudy(
  reviewItemId: string,
  reviewStudyId: string,
): Promise<{ id: string; itemId: string | null; externalId: string; contentHash: string } | null> {
  return db.reviewItem.findFirst({ where: { id: reviewItemId, reviewStudyId }, select: { id: true, itemId: true, externalId: true, contentHash: true } });
}

const reviewedItemSelect = {
  id: true,
  externalId: true,
  kind: true,
  public: true,
  key: true,
  tags: true,
  practice: true,
  gold: true,
  contentHash: true,
  batch: { select: { fileName: true } },
} as const;

/** A study item by id, with its key, for review. */
export async function findReviewedItemById(itemId: string) {
  return db.item.findUnique({ where: { id: itemId }, select: reviewedItemSelect });
}

/** The oldest study item with this content, with its key, for review. */
export async function findReviewedItemByContent(externalId: string, contentHash: string) {
  return db.item.findFirst({ where: { externalId, contentHash }, orderBy: { createdAt: "asc" }, select: reviewedItemSelect });
}

/** The studies that hold an item with this content, oldest first. */
export async function listStudiesWithContent(externalId: string, contentHash: string): Promise<Array<{ slug: string; title: string }>> {
  return db.study.findMany({
    where: { items: { some: { externalId, contentHash } } },
    orderBy: { createdAt: "asc" },
    select: { slug: true, title: true },
  });
}

/** The review study's items in review order, with their study item's tags and the decision (and who made it). */
export async function listReviewItemRows(reviewStudyId: string) {
  return db.reviewItem.findMany({
    where: { reviewStudyId },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: {
      id: true,
      externalId: true,
      kind: true,
      position: true,
      reviews: true,
      outcome: true,
      ruleOutcome: true,
      split: true,
      item: { select: { tags: true } },
      decision: { select: { decision: true, note: true, updatedAt: true, decidedBy: { select: { name: true } } } },
    },
  });
}

/** The verdicts of the review study's submitted reviews, in order of submission. */
export async function listSubmittedVerdicts(reviewStudyId: string) {
  return db.reviewVerdict.findMany({
    where: { assignment: { reviewStudyId, submittedAt: { not: null } } },
    orderBy: [{ assignment: { submittedAt: "asc" } }, { id: "asc" }],
    select: { pass: true, reason: true, axis: { select: { key: true } }, assignment: { select: { reviewItemId: true, userId: true } } },
  });
}

/** The verdicts of one review item's submitted reviews, in order of submission. */
export async function listSubmittedVerdictsOfItem(reviewItemId: string) {
  return db.reviewVerdict.findMany({
    where: { assignment: { reviewItemId, submittedAt: { not: null } } },
    orderBy: [{ assignment: { submittedAt: "asc" } }, { id: "asc" }],
    select: { pass: true, reason: true, axis: { select: { key: true } }, assignment: { select: { userId: true } } },
  });
}

/** The review study's batches with their study. */
export async function listReviewStudyBatches(reviewStudyId: string) {
  return db.reviewStudyBatch.findMany({
    where: { reviewStudyId },
    select: { batch: { select: { fileName: true, study: { select: { slug: true, title: true } } } } },
  });
}

/** The review study's reviews counted per reviewer and submission time (null: open). */
export async function countReviewsByReviewer(reviewStudyId: string) {
  return db.reviewAssignment.groupBy({ by: ["userId", "submittedAt"], where: { reviewStudyId }, _count: { _all: true } });
}

/** Per study that holds content of the review study's items: its items, how many review excluded, and their submitted answers. */
export async function countOutcomesByStudy(reviewStudyId: string) {
  return db.$queryRaw<Array<{ slug: string; title: string; items: bigint; excluded: bigint; excludedResponses: bigint | null }>>`
      SELECT s.slug, s.title, count(*) AS items,
        count(*) FILTER (WHERE r."outcome" = 'EXCLUDED') AS excluded,
        coalesce(sum(responses.n) FILTER (WHERE r."outcome" = 'EXCLUDED'), 0) AS "excludedResponses"
      FROM "ReviewItem" r
      JOIN "Item" i ON i."externalId" = r."externalId" AND i."contentHash" = r."contentHash"
      JOIN "Study" s ON s.id = i."studyId"
      LEFT JOIN LATERAL (SELECT count(*) AS n FROM "Assignment" a WHERE a."itemId" = i.id AND a.status = 'SUBMITTED') responses ON true
      WHERE r."reviewStudyId" = ${reviewStudyId}
      GROUP BY s.id, s.slug, s.title
      ORDER BY s.title`;
}

export interface VerdictExportRow {
  id: string;
  pass: boolean;
  reason: string | null;
  axis: string;
  userId: string;
  submittedAt: Date;
  externalId: string;
  contentHash: string;
  kind: string;
  reviews: number;
  ruleOutcome: string;
  outcome: string;
  split: boolean;
  decision: string | null;
  note: string | null;
  tags: unknown;
}

/** The next `limit` verdicts of the review study's submitted reviews after the verdict id `after`, by id, with their item, outcome and decision. */
export async function readVerdictExportPage(reviewStudyId: string, after: string, limit: number): Promise<VerdictExportRow[]> {
  return db.$queryRaw<VerdictExportRow[]>`
          SELECT v.id, v.pass, v.reason, ax.key AS axis, a."userId", a."submittedAt", r."externalId", r."contentHash", r.kind, r.reviews,
            r."ruleOutcome"::text AS "ruleOutcome", r."outcome"::text AS outcome, r.split, d.decision::text AS decision, d.note, i.tags
          FROM "ReviewVerdict" v
          JOIN "ReviewAssignment" a ON a.id = v."assignmentId"
          JOIN "ReviewAxis" ax ON ax.id = v."axisId"
          JOIN "ReviewItem" r ON r.id = a."reviewItemId"
          LEFT JOIN "ReviewDecision" d ON d."reviewItemId" = r.id
          LEFT JOIN "Item" i ON i.id = r."itemId"
          WHERE a."reviewStudyId" = ${reviewStudyId} AND a."submittedAt" IS NOT NULL AND v.id > ${after}
          ORDER BY v.id
          LIMIT ${limit}`;
}

// --- outcomes, inside the transaction that changes them ---------------------------------------

/** Takes the review item's row lock until the transaction ends (verdicts and decisions on one item are serialised). */
export async function lockReviewItem(tx: Tx, reviewItemId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "ReviewItem" WHERE id = ${reviewItemId} FOR UPDATE`;
}

/** What an item's outcome is computed from: its outcome now, the decision, the study's rules and axes, and the verdicts of its submitted reviews. */
export async function readReviewItemVotes(tx: Tx, reviewItemId: string) {
  return tx.reviewItem.findUniqueOrThrow({
    where: { id: reviewItemId },
    select: {
      outcome: true,
      decision: { select: { decision: true } },
      reviewStudy: { select: { reviewersPerItem: true, keepRule: true, tieRule: true, axes: { orderBy: { position: "asc" }, select: { id: true } } } },
      assignments: { where: { submittedAt: { not: null } }, select: { verdicts: { select: { axisId: true, pass: true } } } },
    },
  });
}

export async function storeReviewItemOutcome(
  tx: Tx,
  reviewItemId: string,
  data: { reviews: number; ruleOutcome: ReviewOutcome; outcome: ReviewOutcome; split: boolean },
): Promise<void> {
  await tx.reviewItem.update({ where: { id: reviewItemId }, data });
}

/** The researcher's decision on the item (one per item: a new one replaces it). */
export async function upsertReviewDecision(
  tx: Tx,
  reviewItemId: string,
  decision: { decision: ReviewDecisionValue; note: string; decidedById: string },
): Promise<void> {
  await tx.reviewDecision.upsert({
    where: { reviewItemId },
    create: { reviewItemId, decision: decision.decision, note: decision.note, decidedById: decision.decidedById },
    update: { decision: decision.decision, note: decision.note, decidedById: decision.decidedById },
  });
}

export async function findReviewItemOutcome(reviewItemId: string): Promise<{ outcome: ReviewOutcome; reviews: number }> {
  return db.reviewItem.findUniqueOrThrow({ where: { id: reviewItemId }, select: { outcome: true, reviews: true } });
}

// --- reviews ----------------------------------------------------------------------------------

export async function countSubmittedReviews(reviewStudyId: string, userId: string): Promise<number> {
  return db.reviewAssignment.count({ where: { reviewStudyId, userId, submittedAt: { not: null } } });
}

/** A review with its owner, its item and its study's axes (the reviewer's view). */
export async function findReviewForView(assignmentId: string) {
  return db.reviewAssignment.findUnique({
    where: { id: assignmentId },
    select: {
      id: true,
      userId: true,
      reviewItem: { select: { id: true, itemId: true, externalId: true, contentHash: true } },
      reviewStudy: { select: { axes: { orderBy: { position: "asc" }, select: { key: true, label: true, description: true } } } },
    },
  });
}

/**
 * The reviewer's review to work on next, created when needed, under the review study's advisory
 * lock (so two reviewers asking at once never push an item past `reviewersPerItem` reviews): their
 * oldest open review not in `exclude`, else a new review of the first item in order that they
 * have not reviewed and that has fewer than `reviewersPerItem` reviews; null when there is none.
 */
export async function claimNextReview(reviewStudyId: string, userId: string, reviewersPerItem: number, exclude: readonly string[]): Promise<string | null> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`yardstick:review:${reviewStudyId}`}, 0))`;
      const open = await tx.reviewAssignment.findFirst({
        where: { reviewStudyId, userId, submittedAt: null, id: { notIn: [...exclude] } },
        orderBy: { createdAt: "asc" },
        select: { id: true },
      });
      if (open) return open.id;
      const rows = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT r.id FROM "ReviewItem" r
        WHERE r."reviewStudyId" = ${reviewStudyId}
          AND NOT EXISTS (SELECT 1 FROM "ReviewAssignment" a WHERE a."reviewItemId" = r.id AND a."userId" = ${userId})
          AND (SELECT count(*) FROM "ReviewAssignment" a WHERE a."reviewItemId" = r.id) < ${reviewersPerItem}
        ORDER BY r.position, r.id
        LIMIT 1`;
      if (rows.length === 0) return null;
      const created = await tx.reviewAssignment.create({ data: { reviewStudyId, reviewItemId: rows[0].id, userId }, select: { id: true } });
      return created.id;
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/** A review as a submission needs it: owner, state, item, study with its axes, and the verdicts stored. */
export async function findReviewForSubmission(assignmentId: string) {
  return db.reviewAssignment.findUnique({
    where: { id: assignmentId },
    select: {
      id: true,
      userId: true,
      submittedAt: true,
      reviewItemId: true,
      reviewItem: { select: { externalId: true, outcome: true, reviews: true } },
      reviewStudy: { select: { id: true, slug: true, status: true, axes: { orderBy: { position: "asc" }, select: { id: true, key: true } } } },
      verdicts: { select: { pass: true, reason: true, axis: { select: { key: true } } } },
    },
  });
}

/** Marks the review submitted unless it is already; false when it was (a concurrent submission won). */
export async function markReviewSubmitted(tx: Tx, assignmentId: string): Promise<boolean> {
  const claimed = await tx.reviewAssignment.updateMany({ where: { id: assignmentId, submittedAt: null }, data: { submittedAt: new Date() } });
  return claimed.count > 0;
}

export async function insertVerdicts(tx: Tx, verdicts: Array<{ assignmentId: string; axisId: string; pass: boolean; reason: string | null }>): Promise<void> {
  await tx.reviewVerdict.createMany({ data: verdicts });
}

export async function listVerdictsOfReview(assignmentId: string) {
  return db.reviewVerdict.findMany({ where: { assignmentId }, select: { pass: true, reason: true, axis: { select: { key: true } } } });
}
