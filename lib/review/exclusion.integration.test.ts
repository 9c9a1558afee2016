import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { nextAssignment } from "@/lib/assignment";
import { excludedItemIdsForStudy, isItemExcluded, reviewExcludedItemFilter, reviewFlagsForStudy } from "@/lib/review/exclusion";
import { reviewExcludedItemWhere } from "@/lib/repos/review";
import { decideReviewItem } from "@/lib/review/decisions";
import { addMember, createUser, resetDatabase } from "@/tests/db-helpers";
import { createReviewers, newReviewStudy, reviewEverything, reviewItemOf, twoStudiesSharingABatch } from "@/lib/review/testing/fixtures";

/**
 * The query lib/assignment.ts runs for an annotator's next main item (nextMainItem), with the
 * exclusion filter added as the lead is asked to add it (docs/review.md, "Wiring").
 */
async function assignableItems(studyId: string, userId: string, overlap: number): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT i."id" FROM "Item" i
    WHERE i."studyId" = ${studyId} AND i."practice" = false
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
      AND (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i."id" AND a."purpose" = 'MAIN') < ${overlap}
      AND ${reviewExcludedItemFilter("i")}
    ORDER BY md5(${userId} || ':' || i."id"), i."id"`;
  return rows.map((row) => row.id);
}

const assignmentWired = /reviewExcludedItemFilter/.test(readFileSync(path.resolve(import.meta.dirname, "../repos/assignments.ts"), "utf8"));

describe("exclusion of items that failed review", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  async function setUp() {
    const shared = await twoStudiesSharingABatch({ count: 4, overlap: 2 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(3);
    // the review covers study A's batch only; study B holds the same content
    const review = await newReviewStudy({ batchIds: [shared.batchA], reviewerIds: reviewers.map((r) => r.id) }, researcher.id);
    const failing = shared.itemsA[1].externalId;
    // item 1: two of three reviewers fail correctness -> excluded; the others pass everything
    await reviewEverything(
      review.slug,
      reviewers.map((r) => r.id),
      (externalId, reviewer) => (externalId === failing && reviewer < 2 ? { correctness: false } : {}),
    );
    return { ...shared, review, researcher, failing };
  }

  it("excludes the failed item's copies in every study that holds the same content, and nothing else", async () => {
    const { studyA, studyB, itemsA, itemsB, review, failing } = await setUp();
    expect((await reviewItemOf(review.slug, failing)).outcome).toBe("EXCLUDED");

    expect(await excludedItemIdsForStudy(studyA.id)).toEqual([itemsA[1].id]);
    expect(await excludedItemIdsForStudy(studyB.id)).toEqual([itemsB[1].id]);
    expect(await isItemExcluded(itemsB[1].id)).toBe(true);
    expect(await isItemExcluded(itemsB[0].id)).toBe(false);

    // the SQL filter in the assignment query: study B's annotator is never offered the item
    const annotator = await createUser("ANNOTATOR");
    const offered = await assignableItems(studyB.id, annotator.id, 2);
    expect(offered).toHaveLength(3);
    expect(offered).not.toContain(itemsB[1].id);
    expect(new Set(offered)).toEqual(new Set([itemsB[0].id, itemsB[2].id, itemsB[3].id]));

    // the Prisma where for counts
    expect(await db.item.count({ where: await reviewExcludedItemWhere(studyB.id) })).toBe(3);

    // flags for dashboards and the item browser
    const flags = await reviewFlagsForStudy(studyB.id);
    expect(flags.get(itemsB[1].id)?.outcome).toBe("EXCLUDED");
    expect(flags.get(itemsB[0].id)?.outcome).toBe("KEPT");
    expect(flags.get(itemsB[1].id)?.reviews[0].slug).toBe(review.slug);
  });

  it("matches by content: an item with the same id but other content is not excluded", async () => {
    const { studyB, itemsB, failing } = await setUp();
    await db.item.update({ where: { id: itemsB[1].id }, data: { contentHash: `${failing}-edited` } });
    expect(await excludedItemIdsForStudy(studyB.id)).toEqual([]);
    const annotator = await createUser("ANNOTATOR");
    expect(await assignableItems(studyB.id, annotator.id, 2)).toContain(itemsB[1].id);
  });

  it("keeps past responses: nothing is deleted, and a researcher's KEEP decision lifts the exclusion", async () => {
    const { studyB, itemsB, review, failing, researcher } = await setUp();
    const annotator = await createUser("ANNOTATOR");
    const before = await db.assignment.create({
      data: { studyId: studyB.id, itemId: itemsB[1].id, userId: annotator.id, position: 0, status: "SUBMITTED", submittedAt: new Date() },
    });

    expect(await db.item.count({ where: { id: itemsB[1].id } })).toBe(1);
    expect(await db.assignment.count({ where: { id: before.id } })).toBe(1);

    const reviewItem = await reviewItemOf(review.slug, failing);
    await decideReviewItem(review.slug, { reviewItemId: reviewItem.id, decision: "KEEP", note: "the key is right after all" }, researcher.id);
    expect(await isItemExcluded(itemsB[1].id)).toBe(false);
    const audit = await db.auditLog.findFirstOrThrow({
      where: { action: "review.decision", target: `review-item:${reviewItem.id}` },
      select: { actorId: true, detail: true },
    });
    expect(audit.actorId).toBe(researcher.id);
    expect(audit.detail).toMatchObject({ decision: "KEEP", note: "the key is right after all", from: "EXCLUDED", to: "KEPT", ruleOutcome: "EXCLUDED" });
  });

  it("a pending item (fewer reviews than asked) is not excluded yet", async () => {
    const shared = await twoStudiesSharingABatch({ count: 2 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(3);
    const review = await newReviewStudy({ batchIds: [shared.batchA], reviewerIds: reviewers.map((r) => r.id) }, researcher.id);
    // only two reviewers, both fail everything: a majority already, but the third review is missing
    await reviewEverything(review.slug, [reviewers[0].id, reviewers[1].id], () => ({ correctness: false, answerability: false, non_triviality: false }));
    expect((await reviewItemOf(review.slug, shared.itemsA[0].externalId)).outcome).toBe("PENDING");
    expect(await excludedItemIdsForStudy(shared.studyB.id)).toEqual([]);
  });

  // Runs once lib/assignment.ts has the line that docs/review.md asks its owner to add.
  it.skipIf(!assignmentWired)("lib/assignment.ts never hands out an excluded item (nextAssignment)", async () => {
    const { studyB, itemsB } = await setUp();
    const annotator = await createUser("ANNOTATOR");
    await addMember(studyB.id, annotator.id);
    const got: string[] = [];
    for (let guard = 0; guard < 20; guard++) {
      const next = await nextAssignment(studyB.id, annotator.id);
      if (next.status !== "assigned") break;
      const assignment = await db.assignment.update({
        where: { id: next.assignmentId },
        data: { status: "SUBMITTED", submittedAt: new Date() },
        select: { itemId: true },
      });
      got.push(assignment.itemId);
    }
    expect(got).toHaveLength(3);
    expect(got).not.toContain(itemsB[1].id);
  });
});
