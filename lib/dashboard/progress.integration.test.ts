import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getStudyProgress } from "@/lib/dashboard/progress";
import { createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/** A MAIN answer of `userId` to `itemId` in `condition`, written as the submit path leaves it. */
async function answer(studyId: string, itemId: string, userId: string, condition: string | null) {
  const assignment = await db.assignment.create({
    data: { studyId, itemId, userId, condition, position: 0, purpose: "MAIN", status: "SUBMITTED", submittedAt: new Date() },
  });
  await db.response.create({
    data: {
      assignmentId: assignment.id,
      clientId: `c-${assignment.id}`,
      answer: { order: [0] },
      confidenceRaw: 3,
      confidence: 0.5,
      wallMs: 1000,
      activeMs: 1000,
      score: {},
      correct: true,
    },
  });
}

describe("study progress (dashboard headline)", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("with conditions, expects k answers per item x condition, and an item is complete only when every condition has k", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { conditions: ["single", "multi"] } });
    const [first, second] = await createEnactItems(study.id, { count: 2 });
    const [a, b] = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    await answer(study.id, first!.id, a.id, "single");
    await answer(study.id, first!.id, b.id, "multi");
    await answer(study.id, second!.id, a.id, "multi");
    await answer(study.id, second!.id, b.id, "multi");

    const progress = await getStudyProgress(study.id, 1);
    expect(progress).toMatchObject({ items: 2, conditions: 2, expected: 4, done: 4 });
    // the second item has two answers, both in one condition: "single" still lacks its one
    expect(progress.itemsComplete).toBe(1);
  });

  it("leaves gold items out of the expected answers and the complete items (gold holds no place and has no k)", async () => {
    const study = await createStudy({ overlap: 1 });
    const [ordinary, gold] = await createEnactItems(study.id, { count: 2 });
    await db.item.update({ where: { id: gold!.id }, data: { gold: true } });
    const [a, b] = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    await answer(study.id, ordinary!.id, a.id, null);
    await answer(study.id, gold!.id, a.id, null);
    await answer(study.id, gold!.id, b.id, null);

    const progress = await getStudyProgress(study.id, 1);
    expect(progress).toMatchObject({ items: 1, gold: 1, conditions: 1, expected: 1, done: 1, itemsComplete: 1 });
  });
});
