import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

describe("dashboard with and without items that failed review", () => {
  beforeEach(resetDatabase);

  it("leaves the answers to excluded items out by default and puts them back on request", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy({ overlap: 1 });
    const batch = await createBatch(study.id);
    const annotator = await createUser("ANNOTATOR");
    const good = await createOrderItem(study.id, batch.id, { externalId: "good", order: [0, 1, 2], tags: { steps: 4 } });
    const broken = await createOrderItem(study.id, batch.id, { externalId: "broken", order: [0, 1, 2], tags: { steps: 4 } });
    await answer(good, annotator.id, [0, 1, 2]); // right
    await answer(broken, annotator.id, [2, 1, 0]); // wrong: on a broken item

    const before = await getStudyDashboard(study.slug, {});
    expect(before.choices.excludedItems).toBe(0);
    expect(before.asOf.responses).toBe(2);

    const reviewStudy = await db.reviewStudy.create({ data: { slug: `review-${Date.now()}`, title: "vetting", createdById: researcher.id } });
    await db.reviewItem.create({
      data: {
        reviewStudyId: reviewStudy.id,
        itemId: broken.id,
        externalId: broken.externalId,
        contentHash: broken.contentHash,
        kind: broken.kind,
        position: 0,
        outcome: "EXCLUDED",
        ruleOutcome: "EXCLUDED",
      },
    });

    const without = await getStudyDashboard(study.slug, {});
    expect(without.choices.excludedItems).toBe(1);
    expect(without.choices.includeExcluded).toBe(false);
    expect(without.asOf.responses).toBe(1);
    const pooledWithout = without.accuracy.rows.find((row) => row.kind === "enact-forward");
    expect(JSON.stringify(pooledWithout)).toContain('"TA"');

    const withThem = await getStudyDashboard(study.slug, { reviewed: "with" });
    expect(withThem.choices.includeExcluded).toBe(true);
    expect(withThem.asOf.responses).toBe(2);
    // the answers are still stored
    expect(await db.response.count()).toBe(2);
  });
});
