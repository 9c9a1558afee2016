import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { nextForMember } from "@/lib/annotate/next";
import { getReviewAssignmentView, nextReviewFor, submitReview } from "@/lib/review/work";
import { getReviewItemDetail } from "@/lib/review/results";
import { getReviewAssetForUser } from "@/lib/review/assets";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { newReviewStudy } from "@/lib/review/testing/fixtures";

/**
 * The answer key reaches reviewers (the kind's reviewView) and never annotators: the reviewer's
 * next-item data holds the key's distinctive facts; the annotator's next-item data of the very
 * same item (lib/annotate/next.ts, what GET /api/annotate/studies/<slug>/next returns) does not.
 * createEnactItems gives every key fact a distinctive name ("SecretFact_...").
 */
describe("the key is visible to reviewers and never to annotators", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it.each(["enact-forward", "enact-inverse"] as const)("%s: reviewer data has the key, the annotator's next item has none of it", async (kind) => {
    const study = await createStudy({ overlap: 1 });
    const [item] = await createEnactItems(study.id, { count: 1, kind, length: 3 });
    const annotator = await createUser("ANNOTATOR");
    await addMember(study.id, annotator.id);
    const researcher = await createUser("RESEARCHER");
    // an annotator-role reviewer: membership of the review study grants reviewing
    const reviewer = await createUser("ANNOTATOR");
    const review = await newReviewStudy({ batchIds: [item.batchId], reviewerIds: [reviewer.id], reviewersPerItem: 1 }, researcher.id);

    const next = await nextReviewFor(review.slug, reviewer.id);
    expect(next.status).toBe("item");
    if (next.status !== "item") return;
    const reviewerJson = JSON.stringify(next);
    expect(reviewerJson).toContain("SecretFact_");
    const key = item.key as { order: number[] };
    if (kind === "enact-forward") {
      const view = next.view.reviewView as { steps: Array<{ candidateIndex: number; visibleChange: string[] }> };
      expect(view.steps.map((step) => step.candidateIndex)).toEqual(key.order);
      expect(view.steps[0].visibleChange.some((change) => change.startsWith("+SecretFact_"))).toBe(true);
    } else {
      const view = next.view.reviewView as { transitions: Array<{ candidateIndex: number; stepChanges: string[] }> };
      expect(view.transitions.map((t) => t.candidateIndex)).toEqual(key.order);
      expect(view.transitions[0].stepChanges[0]).toMatch(/^\+SecretFact_/);
    }
    // what annotators see, also given to the reviewer: the kind's publicView, identical
    const annotatorNext = await nextForMember(study.slug, annotator.id);
    expect(annotatorNext.status).toBe("item");
    if (annotatorNext.status !== "item") return;
    expect(next.view.publicView).toEqual(annotatorNext.assignment.view);

    const annotatorJson = JSON.stringify(annotatorNext);
    expect(annotatorJson).not.toContain("SecretFact_");
    expect(annotatorJson).not.toContain('"order"');
    expect(annotatorJson).not.toContain("reviewView");

    // and still none after the item was reviewed and its outcome stored
    await submitReview(next.view.assignmentId, reviewer.id, { verdicts: next.view.axes.map((axis) => ({ axis: axis.key, pass: true })) });
    const again = await nextForMember(study.slug, annotator.id);
    expect(JSON.stringify(again)).not.toContain("SecretFact_");
  });

  it("refuses the reviewer's data to anyone who is not a reviewer of the review study", async () => {
    const study = await createStudy();
    const [item] = await createEnactItems(study.id, { count: 1 });
    const researcher = await createUser("RESEARCHER");
    const reviewer = await createUser("RESEARCHER");
    const annotator = await createUser("ANNOTATOR");
    const review = await newReviewStudy({ batchIds: [item.batchId], reviewerIds: [reviewer.id], reviewersPerItem: 1 }, researcher.id);

    await expect(nextReviewFor(review.slug, annotator.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // staff who are not reviewers do not get review work either (they see items on the results pages)
    await expect(nextReviewFor(review.slug, researcher.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const next = await nextReviewFor(review.slug, reviewer.id);
    if (next.status !== "item") throw new Error("expected an item");
    await expect(getReviewAssignmentView(next.view.assignmentId, annotator.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(submitReview(next.view.assignmentId, annotator.id, { verdicts: [{ axis: "correctness", pass: true }] })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    // the researcher's item page has the key
    const detail = await getReviewItemDetail(review.slug, next.view.reviewItemId);
    expect(JSON.stringify(detail.reviewView)).toContain("SecretFact_");
  });

  it("serves the item's images to its reviewers of any role, and to nobody else who lacks access", async () => {
    const study = await createStudy();
    const [item] = await createEnactItems(study.id, { count: 1 });
    const hash = "a".repeat(64);
    await db.asset.create({ data: { hash, mime: "image/png", size: 1, bytes: Buffer.from([1]) } });
    await db.studyAsset.create({ data: { studyId: study.id, assetHash: hash } });
    const researcher = await createUser("RESEARCHER");
    const reviewer = await createUser("ANNOTATOR");
    const outsider = await createUser("ANNOTATOR");
    await newReviewStudy({ batchIds: [item.batchId], reviewerIds: [reviewer.id], reviewersPerItem: 1 }, researcher.id);
    expect((await getReviewAssetForUser(hash, reviewer.id, "ANNOTATOR"))?.hash).toBe(hash);
    expect(await getReviewAssetForUser(hash, outsider.id, "ANNOTATOR")).toBeNull();
    expect((await getReviewAssetForUser(hash, researcher.id, "RESEARCHER"))?.hash).toBe(hash);
  });
});
