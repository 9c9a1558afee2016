import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { krippendorffAlpha } from "@/lib/stats/krippendorff-alpha";
import { getReviewResults } from "@/lib/review/results";
import { createReviewExport } from "@/lib/review/export";
import { decideReviewItem } from "@/lib/review/decisions";
import { nextReviewFor, submitReview } from "@/lib/review/work";
import { parseCsv } from "@/lib/exports/csv";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { createReviewers, newReviewStudy, reviewEverything, reviewItemOf, twoStudiesSharingABatch } from "@/lib/review/testing/fixtures";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("review studies", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("alpha per axis equals lib/stats on a designed set, and the pass rates count votes and items", async () => {
    // 4 items x 3 reviewers. Correctness (1 = pass): item0 1,1,1; item1 0,0,1; item2 1,1,1; item3 0,0,0.
    // By hand (Krippendorff 2011, nominal): o_00 = 4, o_11 = 6, o_01 = o_10 = 1, n = 12, n_0 = 5,
    // n_1 = 7; alpha = 1 - (n - 1) (o_01 + o_10) / (n_0 n_1 + n_1 n_0) = 1 - 11 * 2 / 70 = 0.685714...
    // Answerability: every vote passes -> alpha undefined (expected disagreement 0).
    // Non-triviality: item2 1,0,1; the rest pass.
    const study = await createStudy();
    const items = await createEnactItems(study.id, { count: 4 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(3);
    const review = await newReviewStudy({ batchIds: [items[0].batchId], reviewerIds: reviewers.map((r) => r.id) }, researcher.id);
    const correctness = [
      [1, 1, 1],
      [0, 0, 1],
      [1, 1, 1],
      [0, 0, 0],
    ];
    const nonTriviality = [
      [1, 1, 1],
      [1, 1, 1],
      [1, 0, 1],
      [1, 1, 1],
    ];
    const index = new Map(items.map((item, i) => [item.externalId, i]));
    await reviewEverything(
      review.slug,
      reviewers.map((r) => r.id),
      (externalId, reviewer) => {
        const i = index.get(externalId)!;
        return { correctness: correctness[i][reviewer] === 1, answerability: true, non_triviality: nonTriviality[i][reviewer] === 1 };
      },
    );

    const results = await getReviewResults(review.slug);
    const byAxis = new Map(results.axes.map((axis) => [axis.axis, axis]));
    // reviewers are the coders (rows), items the units (columns)
    const transpose = (m: number[][]) => m[0].map((_, r) => m.map((row) => row[r]));
    expect(byAxis.get("correctness")!.alpha.alpha).toBeCloseTo(krippendorffAlpha(transpose(correctness), "nominal").alpha!, 12);
    expect(byAxis.get("correctness")!.alpha.alpha).toBeCloseTo(1 - 22 / 70, 12);
    expect(byAxis.get("non_triviality")!.alpha.alpha).toBeCloseTo(krippendorffAlpha(transpose(nonTriviality), "nominal").alpha!, 12);
    expect(byAxis.get("answerability")!.alpha.alpha).toBeNull();
    expect(byAxis.get("answerability")!.alpha.reason).toMatch(/expected disagreement is 0/);

    expect(byAxis.get("correctness")).toMatchObject({ votes: 12, passVotes: 7, decidedItems: 4, passItems: 2 });
    expect(byAxis.get("correctness")!.votePassRate).toBeCloseTo(7 / 12, 12);
    expect(byAxis.get("non_triviality")).toMatchObject({ votes: 12, passVotes: 11, passItems: 4 });

    // outcomes: items 1 and 3 fail correctness by majority; item 2 is kept with a split vote
    expect(results.counts).toMatchObject({ items: 4, KEPT: 2, EXCLUDED: 2, PENDING: 0, CONTESTED: 0, keptRate: 0.5 });
    expect(results.contested.map((row) => row.externalId).sort()).toEqual([items[1].externalId, items[2].externalId].sort());
    const row1 = results.items.rows.find((row) => row.externalId === items[1].externalId)!;
    expect(row1.votes[0]).toMatchObject({ axis: "correctness", pass: 1, fail: 2 });
    expect(row1.votes[0].verdicts.filter((v) => !v.pass).map((v) => v.reason)).toEqual(["fails correctness", "fails correctness"]);

    // by tag: every item has steps=4 (createEnactItems: length 3 -> steps 4)
    expect(results.byTag).toHaveLength(1);
    expect(results.byTag[0].values[0]).toMatchObject({ value: "4", counts: { items: 4, KEPT: 2 } });
    expect(results.byTag[0].values[0].axes[0].alpha.alpha).toBeCloseTo(1 - 22 / 70, 12);
  });

  it("reviews each distinct content once, hands each item to reviewersPerItem reviewers, and no more", async () => {
    const shared = await twoStudiesSharingABatch({ count: 3 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(4);
    // both batches hold the same three items: three review items, not six
    const review = await newReviewStudy(
      { batchIds: [shared.batchA, shared.batchB], reviewerIds: reviewers.map((r) => r.id), reviewersPerItem: 2 },
      researcher.id,
    );
    expect(review.items).toBe(3);
    const seen = await reviewEverything(
      review.slug,
      reviewers.map((r) => r.id),
      () => ({}),
    );
    expect(seen[0]).toEqual(shared.itemsA.map((item) => item.externalId));
    expect(seen[1]).toHaveLength(3);
    expect(seen[2]).toHaveLength(0);
    const perItem = await db.reviewAssignment.groupBy({ by: ["reviewItemId"], _count: { _all: true } });
    expect(perItem.map((row) => row._count._all)).toEqual([2, 2, 2]);
  });

  it("makes a retried submission a no-op and refuses other verdicts for a submitted review", async () => {
    const study = await createStudy();
    const items = await createEnactItems(study.id, { count: 2 });
    const researcher = await createUser("RESEARCHER");
    const [reviewer] = await createReviewers(1);
    const review = await newReviewStudy({ batchIds: [items[0].batchId], reviewerIds: [reviewer.id], reviewersPerItem: 1 }, researcher.id);
    const first = await nextReviewFor(review.slug, reviewer.id);
    if (first.status !== "item") throw new Error("expected an item");
    const verdicts = [
      { axis: "correctness", pass: false, reason: "step 2 shows the drawer closed" },
      { axis: "answerability", pass: true },
      { axis: "non_triviality", pass: true },
    ];
    const stored = await submitReview(first.view.assignmentId, reviewer.id, { verdicts });
    expect(stored.stored).toBe(true);
    expect(stored.outcome.after).toBe("EXCLUDED");
    expect(stored.next.status).toBe("item");
    const again = await submitReview(first.view.assignmentId, reviewer.id, { verdicts });
    expect(again.stored).toBe(false);
    expect(await db.reviewVerdict.count()).toBe(3);
    await expect(
      submitReview(first.view.assignmentId, reviewer.id, { verdicts: verdicts.map((v) => ({ ...v, pass: true, reason: undefined })) }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    // a review judges every axis, and only the study's axes
    if (stored.next.status !== "item") throw new Error("expected a second item");
    await expect(submitReview(stored.next.view.assignmentId, reviewer.id, { verdicts: [{ axis: "correctness", pass: true }] })).rejects.toMatchObject({
      code: "INVALID",
    });
    await expect(
      submitReview(stored.next.view.assignmentId, reviewer.id, { verdicts: [...verdicts.slice(1), { axis: "bogus", pass: true }] }),
    ).rejects.toMatchObject({ code: "INVALID" });
    // verdicts and the outcome change are in the audit log
    const actions = (await db.auditLog.findMany({ where: { actorId: reviewer.id }, orderBy: { id: "asc" }, select: { action: true } })).map((a) => a.action);
    expect(actions).toEqual(["review.verdicts", "review.outcome"]);
  });

  it("leaves a tie contested until a researcher decides, with a note in the audit log", async () => {
    const study = await createStudy();
    const [item] = await createEnactItems(study.id, { count: 1 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(2);
    const review = await newReviewStudy({ batchIds: [item.batchId], reviewerIds: reviewers.map((r) => r.id), reviewersPerItem: 2 }, researcher.id);
    await reviewEverything(
      review.slug,
      reviewers.map((r) => r.id),
      (_id, reviewer) => (reviewer === 0 ? { answerability: false } : {}),
    );
    const contested = await reviewItemOf(review.slug, item.externalId);
    expect(contested).toMatchObject({ outcome: "CONTESTED", ruleOutcome: "CONTESTED", split: true, reviews: 2 });
    expect((await getReviewResults(review.slug)).contested.map((row) => row.reviewItemId)).toEqual([contested.id]);

    await decideReviewItem(review.slug, { reviewItemId: contested.id, decision: "EXCLUDE", note: "the drawer is hidden in every view" }, researcher.id);
    expect(await reviewItemOf(review.slug, item.externalId)).toMatchObject({ outcome: "EXCLUDED", ruleOutcome: "CONTESTED" });
    const results = await getReviewResults(review.slug);
    expect(results.contested).toEqual([]);
    expect(results.items.rows[0].decision).toMatchObject({ decision: "EXCLUDE", note: "the drawer is hidden in every view" });
    const audit = await db.auditLog.findMany({ where: { action: "review.decision" }, select: { actorId: true, detail: true } });
    expect(audit).toEqual([
      {
        actorId: researcher.id,
        detail: expect.objectContaining({ decision: "EXCLUDE", note: "the drawer is hidden in every view", from: "CONTESTED", to: "EXCLUDED" }),
      },
    ]);
  });

  it("exports every verdict as CSV and JSONL, reviewers under pseudonyms", async () => {
    const study = await createStudy();
    const items = await createEnactItems(study.id, { count: 2 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(3);
    const review = await newReviewStudy({ batchIds: [items[0].batchId], reviewerIds: reviewers.map((r) => r.id) }, researcher.id);
    await reviewEverything(
      review.slug,
      reviewers.map((r) => r.id),
      (externalId, reviewer) => (externalId === items[0].externalId && reviewer > 0 ? { non_triviality: false } : {}),
    );

    const csv = parseCsv(await text((await createReviewExport(review.slug, "csv")).stream));
    const [header, ...rows] = csv;
    expect(header).toContain("verdict");
    expect(rows).toHaveLength(2 * 3 * 3);
    const col = (name: string) => header.indexOf(name);
    const fails = rows.filter((row) => row[col("verdict")] === "fail");
    expect(fails).toHaveLength(2);
    expect(
      fails.every((row) => row[col("axis")] === "non_triviality" && row[col("reason")] === "fails non_triviality" && row[col("outcome")] === "EXCLUDED"),
    ).toBe(true);
    expect(new Set(rows.map((row) => row[col("reviewer")]))).toEqual(new Set(["R1", "R2", "R3"]));
    const all = csv.flat().join(" ");
    for (const reviewer of reviewers) {
      expect(all).not.toContain(reviewer.name);
      expect(all).not.toContain(reviewer.email!);
    }
    const jsonl = (await text((await createReviewExport(review.slug, "jsonl")).stream))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(jsonl).toHaveLength(18);
    expect(jsonl[0]).toMatchObject({ review_study: review.slug, tags: { steps: 4 } });
  });

  it("refuses reviewers who annotate the items under review (they would see the key)", async () => {
    const shared = await twoStudiesSharingABatch({ count: 1 });
    const researcher = await createUser("RESEARCHER");
    const reviewers = await createReviewers(2);
    const annotator = await createUser("ANNOTATOR");
    // a member of study B, which holds the same content as the batch under review (study A's)
    await addMember(shared.studyB.id, annotator.id);
    await expect(
      newReviewStudy({ batchIds: [shared.batchA], reviewerIds: [...reviewers.map((r) => r.id), annotator.id] }, researcher.id),
    ).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining(shared.studyB.slug),
    });
    expect(await db.reviewStudy.count()).toBe(0);
  });
});
