import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { buildAgreementPlan } from "@/lib/dashboard/agreement-plan";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { ALL, getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The agreement plan on disjoint main work: 3 annotators, 2 kinds x 2 step lengths, 7 finished
 * items each per cell (one cell with only 3), like ENACT's design scaled down.
 */
async function seed() {
  const annotators = await Promise.all(["Ann", "Bob", "Cy"].map((name) => createUser("ANNOTATOR", { name })));
  const study = await createStudy({ overlap: 1 });
  const batch = await createBatch(study.id);
  const owner = new Map<string, string>();
  for (const kind of ["enact-forward", "enact-inverse"] as const) {
    for (const L of [3, 4]) {
      for (const [a, annotator] of annotators.entries()) {
        const count = kind === "enact-inverse" && L === 4 && a === 2 ? 3 : 7;
        for (let n = 0; n < count; n++) {
          const order = Array.from({ length: L }, (_, i) => i);
          const item = await createOrderItem(study.id, batch.id, { externalId: `${kind}-${L}-${a}-${n}`, kind, order });
          await answer(item, annotator.id, order);
          owner.set(item.id, annotator.id);
        }
      }
    }
  }
  // a practice item answered by everyone never enters the plan
  const practice = await createOrderItem(study.id, batch.id, { externalId: "practice", order: [0, 1, 2], practice: true });
  for (const annotator of annotators) await answer(practice, annotator.id, [0, 1, 2], { purpose: "PRACTICE" });
  return { study, annotators, owner };
}

describe("agreement plan", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("samples n items per kind x steps x annotator, assigns each to every other annotator, and is idempotent", async () => {
    const { study, annotators, owner } = await seed();
    const first = await buildAgreementPlan(study.id, { perCell: 5 });
    // 4 cells x 3 annotators: 11 x 5 items plus the cell with only 3 = 58 items, each to the 2 others
    expect(first).toMatchObject({ annotators: 3, cells: 4, sampled: 58, planned: 58, created: 116 });
    expect(first.message).toMatch(/Sampled 58 new items/);

    const agreement = await db.assignment.findMany({
      where: { studyId: study.id, purpose: "AGREEMENT" },
      select: { itemId: true, userId: true, status: true, position: true },
    });
    expect(agreement).toHaveLength(116);
    expect(agreement.every((a) => a.status === "ASSIGNED")).toBe(true);
    const byItem = new Map<string, string[]>();
    for (const a of agreement) byItem.set(a.itemId, [...(byItem.get(a.itemId) ?? []), a.userId]);
    for (const [itemId, users] of byItem) {
      expect(users).toHaveLength(2);
      expect(users).not.toContain(owner.get(itemId));
      expect(new Set([...users, owner.get(itemId)])).toEqual(new Set(annotators.map((a) => a.id)));
    }
    // per annotator and cell: 5 of their own items sampled (3 where they had only 3)
    const perOwnerCell = new Map<string, number>();
    const items = await db.item.findMany({ where: { id: { in: [...byItem.keys()] } }, select: { id: true, externalId: true } });
    for (const item of items) {
      const [kind, L] = [item.externalId.split("-").slice(0, 2).join("-"), item.externalId.split("-")[2]];
      const key = `${owner.get(item.id)}|${kind}|${L}`;
      perOwnerCell.set(key, (perOwnerCell.get(key) ?? 0) + 1);
    }
    expect([...perOwnerCell.values()].sort()).toEqual([...Array(11).fill(5), 3].sort());
    expect(items.some((i) => i.externalId === "practice")).toBe(false);
    // positions continue after each annotator's own work
    const maxMain = await db.assignment.aggregate({ where: { studyId: study.id, purpose: { not: "AGREEMENT" } }, _max: { position: true } });
    expect(Math.min(...agreement.map((a) => a.position))).toBeGreaterThanOrEqual(0);
    expect(maxMain._max.position).not.toBeNull();

    const second = await buildAgreementPlan(study.id, { perCell: 5 });
    expect(second).toMatchObject({ sampled: 0, created: 0, planned: 58 });
    expect(second.message).toMatch(/complete already/);
    expect(await db.assignment.count({ where: { studyId: study.id, purpose: "AGREEMENT" } })).toBe(116);

    // the same data gives the same plan (seeded sampling)
    const planned = [...byItem.keys()].sort();
    await db.assignment.deleteMany({ where: { studyId: study.id, purpose: "AGREEMENT" } });
    await buildAgreementPlan(study.id, { perCell: 5 });
    const again = await db.assignment.findMany({ where: { studyId: study.id, purpose: "AGREEMENT" }, select: { itemId: true }, distinct: ["itemId"] });
    expect(again.map((a) => a.itemId).sort()).toEqual(planned);
  });

  it("refuses with fewer than 2 annotators", async () => {
    const study = await createStudy();
    const user = await createUser("ANNOTATOR");
    const batch = await createBatch(study.id);
    const item = await createOrderItem(study.id, batch.id, { externalId: "solo", order: [0, 1, 2] });
    await answer(item, user.id, [0, 1, 2]);
    await expect(buildAgreementPlan(study.id)).rejects.toThrow(/at least 2 annotators/);
  });

  it("reports the plan's alpha on the items every annotator answered, in the paper's shape", async () => {
    const { study, annotators, owner } = await seed();
    await buildAgreementPlan(study.id, { perCell: 5 });
    const assignments = await db.assignment.findMany({
      where: { studyId: study.id, purpose: "AGREEMENT" },
      select: { itemId: true, userId: true, item: { select: { id: true, studyId: true, kind: true, externalId: true, key: true, public: true } } },
      orderBy: [{ itemId: "asc" }, { userId: "asc" }],
    });
    // annotators answer 20 planned items fully: the correct order, except Cy reverses the first two
    const planned = [...new Set(assignments.map((a) => a.itemId))].sort().slice(0, 20);
    let disagreements = 0;
    for (const a of assignments.filter((x) => planned.includes(x.itemId))) {
      const L = (a.item.key as { order: number[] }).order.length;
      const order = Array.from({ length: L }, (_, i) => i);
      if (a.userId === annotators[2].id && disagreements < 2) {
        disagreements++;
        await answer(a.item, a.userId, order.slice().reverse(), { purpose: "AGREEMENT" });
      } else {
        await answer(a.item, a.userId, order, { purpose: "AGREEMENT" });
      }
    }
    void owner;
    const d = await getStudyDashboard(study.slug, {});
    expect(d.plan.planned).toBe(58);
    expect(d.plan.assignments).toBe(116);
    expect(d.plan.assignmentsDone).toBe(40);
    expect(d.plan.complete).toBe(20);
    const plan = d.plan.agreement!;
    expect(plan.overall.items).toBe(20);
    expect(plan.overall.perfectItems).toEqual({ agreeing: 18, total: 20, share: 0.9 });
    expect(plan.overall.alpha).not.toBeNull();
    expect(plan.overall.alpha!).toBeLessThan(1);
    expect(plan.overall.ci).not.toBeNull();
    expect(plan.pairwise.matrix).toHaveLength(3);
    expect(plan.byKind).toEqual([]);

    // TA / PA come from the main annotation only (ENACT App. B.1.2): 80 main answers, all right;
    // the 40 plan answers (2 of them wrong) feed the agreement figures above, not accuracy
    const main = d.accuracy.rows.find((row) => row.series === "humans" && row.kind === "enact-forward")!.cells[ALL];
    const mainInverse = d.accuracy.rows.find((row) => row.series === "humans" && row.kind === "enact-inverse")!.cells[ALL];
    expect(main.n + mainInverse.n).toBe(80);
    expect(main.metrics.TA.value).toBe(1);
    expect(mainInverse.metrics.TA.value).toBe(1);
    expect(d.choices.includePlanAnswers).toBe(false);
    expect(d.accuracy.planAnswers).toBe(40);
    // the named toggle puts them in
    const withPlan = await getStudyDashboard(study.slug, { plan: "with" });
    expect(withPlan.choices.includePlanAnswers).toBe(true);
    const all = ["enact-forward", "enact-inverse"].map(
      (kind) => withPlan.accuracy.rows.find((row) => row.series === "humans" && row.kind === kind)!.cells[ALL],
    );
    expect(all[0].n + all[1].n).toBe(120);
    expect(Math.min(all[0].metrics.TA.value!, all[1].metrics.TA.value!)).toBeLessThan(1);
  });
});

describe("agreement plan with overlap", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });

  it("gives every sampled person n items of their own per cell, even where their work overlaps another's", async () => {
    // k = 2 of 3: 12 items of one cell, 4 each done by Ann+Bob, Bob+Cy, Cy+Ann (8 per person)
    const annotators = await Promise.all(["Ann", "Bob", "Cy"].map((name) => createUser("ANNOTATOR", { name })));
    const study = await createStudy({ overlap: 2 });
    const batch = await createBatch(study.id);
    for (const [p, q] of [
      [0, 1],
      [1, 2],
      [2, 0],
    ]) {
      for (let n = 0; n < 4; n++) {
        const item = await createOrderItem(study.id, batch.id, { externalId: `pair-${p}${q}-${n}`, order: [0, 1, 2] });
        await answer(item, annotators[p].id, [0, 1, 2]);
        await answer(item, annotators[q].id, [0, 1, 2]);
      }
    }
    const first = await buildAgreementPlan(study.id, { perCell: 3 });
    // 3 people x 3 items of their own, none counted for two people
    expect(first).toMatchObject({ annotators: 3, cells: 1, sampled: 9, planned: 9, created: 9 });
    for (const annotator of annotators) {
      const own = await db.assignment.findMany({
        where: { studyId: study.id, userId: annotator.id, purpose: "MAIN", agreementSample: true },
        select: { itemId: true },
      });
      expect(own).toHaveLength(3);
    }
    // every planned item now has all three people
    const planned = await db.assignment.groupBy({
      by: ["itemId"],
      where: { studyId: study.id, item: { assignments: { some: { purpose: "AGREEMENT" } } } },
      _count: { userId: true },
    });
    expect(planned).toHaveLength(9);
    expect(planned.every((row) => row._count.userId === 3)).toBe(true);
    // idempotent: a second run samples nothing new
    expect(await buildAgreementPlan(study.id, { perCell: 3 })).toMatchObject({ sampled: 0, created: 0, planned: 9 });
  });
});

describe("agreement plan with full overlap", () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  it("assigns nothing when every finished item already has every annotator", async () => {
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    const study = await createStudy({ overlap: 2 });
    const batch = await createBatch(study.id);
    for (let n = 0; n < 3; n++) {
      const item = await createOrderItem(study.id, batch.id, { externalId: `full-${n}`, order: [0, 1, 2] });
      await answer(item, a.id, [0, 1, 2]);
      await answer(item, b.id, [0, 1, 2]);
    }
    const result = await buildAgreementPlan(study.id);
    expect(result).toMatchObject({ sampled: 0, created: 0, planned: 0 });
    expect(result.message).toMatch(/Nothing to assign: every finished item already has all 2 annotators/);
  });
});
