import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/db";
import { ALL } from "@/lib/dashboard/accuracy";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import type { EnactSection } from "@/lib/tasks/shared/enact/dashboard";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The dashboard's ENACT overall section on a small study worked out by hand: index-only
 * keys, so an answer is accepted when it equals the key and PA is the share of slots holding it.
 *
 *            A           B
 *   f1 (3)   0,1,2 ✓     1,0,2 1/3
 *   f2 (3)   0,1,2 ✓     0,1,2 ✓
 *   i1 (3)   2,1,0 1/3   0,1,2 ✓
 *   i2 (4)   0,1,2,3 ✓   1,0,2,3 2/4
 *
 * Forward: TA 3/4, PA 10/12; inverse: TA 2/4, PA 10/14; overall: TA 5/8, PA 20/26.
 */
describe("ENACT overall on the study dashboard", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("pools forward and inverse beside the table's per-task rows, for the people pooled and for one of them", async () => {
    const [a, b] = await Promise.all([createUser("ANNOTATOR", { name: "Ann A" }), createUser("ANNOTATOR", { name: "Bob B" })]);
    const study = await createStudy({ overlap: 2 });
    const batch = await createBatch(study.id);
    const f1 = await createOrderItem(study.id, batch.id, { externalId: "f1", order: [0, 1, 2] });
    const f2 = await createOrderItem(study.id, batch.id, { externalId: "f2", order: [0, 1, 2] });
    const i1 = await createOrderItem(study.id, batch.id, { externalId: "i1", kind: "enact-inverse", order: [0, 1, 2] });
    const i2 = await createOrderItem(study.id, batch.id, { externalId: "i2", kind: "enact-inverse", order: [0, 1, 2, 3] });
    await answer(f1, a.id, [0, 1, 2]);
    await answer(f1, b.id, [1, 0, 2]);
    await answer(f2, a.id, [0, 1, 2]);
    await answer(f2, b.id, [0, 1, 2]);
    await answer(i1, a.id, [2, 1, 0]);
    await answer(i1, b.id, [0, 1, 2]);
    await answer(i2, a.id, [0, 1, 2, 3]);
    await answer(i2, b.id, [1, 0, 2, 3]);

    const d = await getStudyDashboard(study.slug, {}, { intervals: "inline" });
    const byKind = Object.fromEntries(d.accuracy.rows.map((row) => [row.kind, row.cells[ALL].metrics]));
    expect(byKind["enact-forward"].TA.value).toBe(3 / 4);
    expect(byKind["enact-inverse"].TA.value).toBe(2 / 4);
    const section = d.sections.enact as EnactSection;
    expect(section.kinds).toEqual(["enact-forward", "enact-inverse"]);
    const [humans] = section.rows;
    expect(humans).toMatchObject({ series: "humans", label: "Humans (pooled)", answers: 8, byKind: { "enact-forward": 4, "enact-inverse": 4 } });
    expect(humans.TA.value).toBe(5 / 8);
    expect(humans.PA.value).toBeCloseTo(20 / 26, 12);
    expect(humans.TA).toMatchObject({ interval: "wilson", items: 4, people: 2 });
    expect(humans.TA.ci![0]).toBeLessThan(5 / 8);
    expect(humans.TA.ci![1]).toBeGreaterThan(5 / 8);

    const one = await getStudyDashboard(study.slug, { annotator: a.id }, { intervals: "inline" });
    const [ann] = (one.sections.enact as EnactSection).rows;
    expect(ann).toMatchObject({ label: "Ann A", answers: 4 });
    expect(ann.TA.value).toBe(3 / 4);
    expect(ann.TA).toMatchObject({ ci: null, reason: "one person" });
  });

  it("has no section when the study has one ENACT task: its All column is the overall", async () => {
    const a = await createUser("ANNOTATOR");
    const study = await createStudy();
    const batch = await createBatch(study.id);
    const f1 = await createOrderItem(study.id, batch.id, { externalId: "f1", order: [0, 1, 2] });
    await answer(f1, a.id, [0, 1, 2]);
    const d = await getStudyDashboard(study.slug, {}, { intervals: "inline" });
    expect(d.sections.enact ?? null).toBeNull();
  });
});
