import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { getTaskModule } from "@/lib/tasks";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The dashboard's figures are cached per data version: every write that changes a figure must
 * change the version, also those that add no answer (a re-scored answer, an item's tags).
 */
describe("dashboard data version", () => {
  beforeEach(resetDatabase);

  const taOf = (dashboard: Awaited<ReturnType<typeof getStudyDashboard>>) =>
    dashboard.accuracy.rows.find((row) => row.kind === "enact-forward")?.cells.__all__.metrics.TA.value;

  it("shows a re-scored answer's new score (the answer count and times unchanged)", async () => {
    const study = await createStudy({ overlap: 1 });
    const batch = await createBatch(study.id);
    const annotator = await createUser("ANNOTATOR");
    const item = await createOrderItem(study.id, batch.id, { externalId: "a", order: [0, 1, 2] });
    const other = await createOrderItem(study.id, batch.id, { externalId: "b", order: [0, 1, 2] });
    await answer(item, annotator.id, [0, 1, 2]);
    const wrong = await answer(other, annotator.id, [2, 1, 0]);
    expect(taOf(await getStudyDashboard(study.slug, {}))).toBe(0.5);

    // what a re-scoring does (lib/scoring/explore-rescore.ts): the stored score changes in place
    const right = getTaskModule("enact-forward").score(
      { order: [0, 1, 2] },
      { order: [0, 1, 2] },
      { id: "b", kind: "enact-forward", public: other.public, key: other.key, tags: {} },
    );
    await db.response.update({ where: { id: wrong.id }, data: { score: right as Prisma.InputJsonValue, correct: true } });
    expect(taOf(await getStudyDashboard(study.slug, {}))).toBe(1);
  });

  it("re-slices by an item's tags changed after the answers", async () => {
    const study = await createStudy({ overlap: 1 });
    const batch = await createBatch(study.id);
    const annotator = await createUser("ANNOTATOR");
    const item = await createOrderItem(study.id, batch.id, { externalId: "a", order: [0, 1, 2], tags: { steps: 3, hand: "left" } });
    await answer(item, annotator.id, [0, 1, 2]);
    const before = await getStudyDashboard(study.slug, { tag: "hand" });
    expect(before.accuracy.tagValues).toEqual(["left"]);
    await db.item.update({ where: { id: item.id }, data: { tags: { steps: 3, hand: "right" } } });
    const after = await getStudyDashboard(study.slug, { tag: "hand" });
    expect(after.accuracy.tagValues).toEqual(["right"]);
  });
});
