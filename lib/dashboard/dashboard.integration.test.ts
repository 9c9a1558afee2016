import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { ALL } from "@/lib/dashboard/accuracy";
import { getAnnotatorsOverview } from "@/lib/dashboard/annotators";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { addEvents, answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { tCritical } from "@/lib/stats/student-t";

/**
 * The dashboard's numbers on a small designed study, against values worked out by hand (and with
 * an independent Python script for Wilson bounds and Krippendorff's alpha, quoted beside each).
 *
 * Keys are index-only ([0,1,2] and [0,1,2,3]): an answer is accepted when it equals the key, and
 * its pairwise accuracy is the share of slots that hold the key's index.
 *
 *            A          B          C
 *   f1 (3)   0,1,2 ✓    0,1,2 ✓    0,1,2 ✓
 *   f2 (3)   0,1,2 ✓    1,0,2 1/3  0,1,2 ✓
 *   f3 (3)   2,1,0 1/3  0,1,2 ✓    0,2,1 1/3
 *   f4 (3)   0,1,2 ✓    0,1,2 ✓    1,2,0 0/3
 *   f5 (4)   0,1,2,3 ✓  0,1,3,2 2/4   -
 *   f6 (4)   1,0,2,3 2/4 0,1,2,3 ✓   -
 *   i1 (3)   0,1,2 ✓    0,1,2 ✓    1,0,2 1/3
 *   i2 (3)   0,1,2 ✓    0,1,2 ✓    0,1,2 ✓
 *   p1 practice: A answers wrong (never counted)
 * Confidence: A 0.9, B 0.8, C 0.5. Active time: A 20 s, B 24 s, C 2 s (wall = active + 5 s).
 */

const F3 = [0, 1, 2];
const F4 = [0, 1, 2, 3];

async function seedDesignedStudy() {
  const [a, b, c] = await Promise.all([
    createUser("ANNOTATOR", { name: "Ann A" }),
    createUser("ANNOTATOR", { name: "Bob B" }),
    createUser("ANNOTATOR", { name: "Cy C" }),
  ]);
  const study = await createStudy({ overlap: 3 });
  await db.study.update({ where: { id: study.id }, data: { confidenceScale: "PERCENT" } });
  const batch = await createBatch(study.id);
  const item = (externalId: string, order: number[], kind: "enact-forward" | "enact-inverse" = "enact-forward", practice = false) =>
    createOrderItem(study.id, batch.id, { externalId, kind, order, practice });
  const f = [await item("f1", F3), await item("f2", F3), await item("f3", F3), await item("f4", F3), await item("f5", F4), await item("f6", F4)];
  const i = [await item("i1", F3, "enact-inverse"), await item("i2", F3, "enact-inverse")];
  const p1 = await item("p1", F3, "enact-forward", true);
  const f7 = await item("f7", F3);
  const day1 = new Date("2026-01-01T10:00:00Z");
  const day2 = new Date("2026-01-02T10:00:00Z");
  const A = (it: (typeof f)[number], order: number[]) => answer(it, a.id, order, { confidence: 0.9, activeMs: 20_000, wallMs: 25_000, at: day1 });
  const B = (it: (typeof f)[number], order: number[]) => answer(it, b.id, order, { confidence: 0.8, activeMs: 24_000, wallMs: 29_000, at: day2 });
  const C = (it: (typeof f)[number], order: number[]) => answer(it, c.id, order, { confidence: 0.5, activeMs: 2_000, wallMs: 7_000, at: day2 });
  await A(f[0], [0, 1, 2]);
  await B(f[0], [0, 1, 2]);
  await C(f[0], [0, 1, 2]);
  await A(f[1], [0, 1, 2]);
  await B(f[1], [1, 0, 2]);
  await C(f[1], [0, 1, 2]);
  await A(f[2], [2, 1, 0]);
  await B(f[2], [0, 1, 2]);
  await C(f[2], [0, 2, 1]);
  await A(f[3], [0, 1, 2]);
  await B(f[3], [0, 1, 2]);
  await C(f[3], [1, 2, 0]);
  await A(f[4], [0, 1, 2, 3]);
  await B(f[4], [0, 1, 3, 2]);
  await A(f[5], [1, 0, 2, 3]);
  await B(f[5], [0, 1, 2, 3]);
  await A(i[0], [0, 1, 2]);
  await B(i[0], [0, 1, 2]);
  await C(i[0], [1, 0, 2]);
  await A(i[1], [0, 1, 2]);
  await B(i[1], [0, 1, 2]);
  await C(i[1], [0, 1, 2]);
  const practice = await answer(p1, a.id, [2, 1, 0], { purpose: "PRACTICE", confidence: 0.1, activeMs: 1, at: day1 });
  // C is working on f7 right now; A lost focus twice (on a practice item too), C five times
  const started = await db.assignment.create({
    data: { studyId: study.id, itemId: f7.id, userId: c.id, purpose: "MAIN", status: "STARTED", position: 99, startedAt: new Date() },
  });
  await addEvents(started.id, ["item_shown", "page_hidden", "page_hidden", "page_hidden", "page_visible"], new Date());
  const firstOfA = await db.assignment.findFirstOrThrow({ where: { userId: a.id, itemId: f[0].id } });
  const firstOfC = await db.assignment.findFirstOrThrow({ where: { userId: c.id, itemId: f[0].id } });
  await addEvents(firstOfA.id, ["item_shown", "page_hidden", "slot_filled"], new Date("2026-01-01T10:00:00Z"));
  await addEvents(practice.assignmentId, ["page_hidden"], new Date("2026-01-01T09:00:00Z"));
  await addEvents(firstOfC.id, ["page_hidden", "page_hidden"], new Date("2026-01-02T10:00:00Z"));
  return { study, users: { a, b, c } };
}

const cell = (rows: Awaited<ReturnType<typeof getStudyDashboard>>["accuracy"]["rows"], kind: string, tag: string) =>
  rows.find((r) => r.kind === kind)!.cells[tag];

describe("study dashboard (designed study)", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("computes progress, accuracy, agreement, calibration and time as worked out by hand", async () => {
    const { study, users } = await seedDesignedStudy();
    const d = await getStudyDashboard(study.slug, {});

    // progress: 9 non-practice items x k=3 = 27 expected, 22 MAIN answers; practice not counted
    expect(d.progress.items).toBe(9);
    expect(d.progress.expected).toBe(27);
    expect(d.progress.done).toBe(22);
    expect(d.progress.itemsComplete).toBe(6); // f1-f4, i1, i2 have 3 answers
    expect(d.progress.perDay).toEqual([
      { day: "2026-01-01", responses: 8 },
      { day: "2026-01-02", responses: 14 },
    ]);
    expect(d.progress.activeNow).toBe(1);
    const byName = Object.fromEntries(d.progress.perAnnotator.map((p) => [p.name, p]));
    expect(byName["Ann A"]).toMatchObject({ mainDone: 8, practiceDone: 1, activeNow: false });
    expect(byName["Cy C"]).toMatchObject({ mainAssigned: 7, mainDone: 6, activeNow: true });

    // accuracy, pooled; default tag "steps"
    expect(d.choices.tagKey).toBe("steps");
    expect(d.accuracy.responses).toBe(22);
    const f3 = cell(d.accuracy.rows, "enact-forward", "3");
    expect(f3.n).toBe(12);
    expect(f3.metrics.TA.value).toBeCloseTo(8 / 12, 12);
    expect(f3.metrics.TA.interval).toBe("wilson");
    // two-way variance: item sums of residuals (1, 0, -1, 0) give V_items = (4/3) 2 / 12^2 = 1/54, above
    // V_items + V_people - V_cells and V_people (people sums 1/3, 1/3, -2/3: 1/144): n_eff = (2/9) / (1/54) = 12,
    // so Wilson at 12 answers, with t at min(4 items, 3 people) - 1 = 2 df (at 1.96 it would be
    // Python's Wilson 95% of 8/12 = (0.3906175873976138, 0.8618821601026385))
    expect(wilsonBounds(8 / 12, 12, 1.96)[0]).toBeCloseTo(0.3906175873976138, 10);
    expect(f3.metrics.TA.ci![0]).toBeCloseTo(wilsonBounds(8 / 12, 12, tCritical(2))[0], 10);
    expect(f3.metrics.TA.ci![1]).toBeCloseTo(wilsonBounds(8 / 12, 12, tCritical(2))[1], 10);
    expect(f3.metrics.PA.value).toBeCloseTo(27 / 36, 12);
    expect(f3.metrics.PA.interval).toBe("two-way");
    expect(f3.metrics.PA.ci![0]).toBeLessThanOrEqual(0.75);
    expect(f3.metrics.PA.ci![1]).toBeGreaterThanOrEqual(0.75);
    const f4 = cell(d.accuracy.rows, "enact-forward", "4");
    expect(f4.n).toBe(4);
    expect(f4.metrics.TA.value).toBe(0.5);
    // f5, f6 x A, B, one right each way: every item's and every person's residuals sum to 0, so V = 0
    // and n_eff falls to the fewest clusters, min(2 items, 2 people) = 2: Wilson(0.5, n = 2) =
    // 0.5 -/+ (t / (1 + t^2 / 2)) sqrt(0.25 / 2 + t^2 / 16), t at min(2, 2) - 1 = 1 df
    const tOneDf = tCritical(1);
    const half = (tOneDf / (1 + (tOneDf * tOneDf) / 2)) * Math.sqrt(0.25 / 2 + (tOneDf * tOneDf) / 16);
    expect(f4.metrics.TA.ci![0]).toBeCloseTo(0.5 - half, 10);
    expect(f4.metrics.TA.effectiveN).toBe(2);
    expect(f4.metrics.PA.value).toBeCloseTo(12 / 16, 12);
    const fAll = cell(d.accuracy.rows, "enact-forward", ALL);
    expect(fAll.n).toBe(16);
    expect(fAll.metrics.TA.value).toBeCloseTo(10 / 16, 12);
    // at 1.96 the upper bound was 0.815190174452472; t at min(6 items, 3 people) - 1 = 2 df
    expect(wilsonBounds(10 / 16, fAll.metrics.TA.effectiveN!, 1.96)[1]).toBeCloseTo(0.815190174452472, 10);
    expect(fAll.metrics.TA.ci![1]).toBeCloseTo(wilsonBounds(10 / 16, fAll.metrics.TA.effectiveN!, tCritical(2))[1], 10);
    expect(fAll.metrics.PA.value).toBeCloseTo(39 / 52, 12);
    const inv = cell(d.accuracy.rows, "enact-inverse", "3");
    expect(inv.n).toBe(6);
    expect(inv.metrics.TA.value).toBeCloseTo(5 / 6, 12);
    expect(inv.metrics.PA.value).toBeCloseTo(16 / 18, 12);
    expect(d.accuracy.tagValues).toEqual(["3", "4"]);

    // the same page twice shows the same bounds, also with a cold cache
    clearDashboardCaches();
    const again = await getStudyDashboard(study.slug, {});
    expect(cell(again.accuracy.rows, "enact-forward", "3").metrics.PA.ci).toEqual(f3.metrics.PA.ci);

    // per annotator: A on forward L=3 answered f1 f2 f4 right, f3 wrong
    const onlyA = await getStudyDashboard(study.slug, { annotator: users.a.id });
    expect(onlyA.choices.annotator).not.toBeNull();
    const aF3 = cell(onlyA.accuracy.rows, "enact-forward", "3");
    expect(aF3.n).toBe(4);
    expect(aF3.metrics.TA.value).toBe(0.75);
    expect(aF3.metrics.PA.value).toBeCloseTo((3 + 3 + 1 + 3) / 12, 12);

    // agreement: default encoding is the ordinal one (ENACT reports ordinal alpha)
    expect(d.agreement!.encoding.id).toBe("slot-ordinal");
    expect(d.agreement!.level).toBe("ordinal");
    // Python (Krippendorff 2011 by hand): ordinal alpha over candidate units = 0.6189656693052279
    expect(d.agreement!.overall.alpha).toBeCloseTo(0.6189656693052279, 10);
    expect(d.agreement!.overall.units).toBe(26);
    expect(d.agreement!.overall.items).toBe(8);
    expect(d.agreement!.overall.perfectUnits).toEqual({ agreeing: 12, total: 26, share: 12 / 26 });
    expect(d.agreement!.overall.perfectItems).toEqual({ agreeing: 2, total: 8, share: 0.25 });
    expect(d.agreement!.overall.ci).not.toBeNull();
    expect(d.agreement!.overall.ciDescription).toBe(
      "95% percentile pigeonhole bootstrap (Owen 2007): items (each with all its units), resampled within each kind x steps cell, and annotators drawn independently (two copies of one annotator never paired) (1,000 resamples of 8 items)",
    );
    // leaving C out: Python 0.6997495393827728
    const cIndex = d.annotators.findIndex((x) => x.id === users.c.id);
    expect(d.agreement!.leaveOneOut.find((l) => l.coder === cIndex)!.alpha).toBeCloseTo(0.6997495393827728, 10);

    // item as a unit, nominal on the whole order; pairwise alphas
    const nominal = await getStudyDashboard(study.slug, { encoding: "item-kendall", level: "nominal" });
    expect(nominal.agreement!.overall.alpha).toBeCloseTo(0.0960264900662251, 10);
    const idx = (id: string) => nominal.agreement!.coders.indexOf(nominal.annotators.findIndex((x) => x.id === id));
    const pair = (x: string, y: string) => nominal.agreement!.pairwise.matrix[idx(x)][idx(y)];
    expect(pair(users.a.id, users.b.id)).toBeCloseTo(0.18918918918918926, 10);
    expect(pair(users.a.id, users.c.id)).toBeCloseTo(0.13157894736842113, 10);
    expect(pair(users.b.id, users.c.id)).toBeCloseTo(-0.18918918918918926, 10);
    expect(nominal.agreement!.pairwise.shared[idx(users.a.id)][idx(users.b.id)]).toBe(8);
    // item as a unit with the Kendall distance: Python 0.504424778761062
    const kendall = await getStudyDashboard(study.slug, { encoding: "item-kendall" });
    expect(kendall.agreement!.level).toBe("custom");
    expect(kendall.agreement!.overall.alpha).toBeCloseTo(0.504424778761062, 10);
    // slot as a unit, nominal: Python 0.416958041958042
    const slots = await getStudyDashboard(study.slug, { encoding: "slot-nominal", ci: "kalpha" });
    expect(slots.agreement!.overall.alpha).toBeCloseTo(0.416958041958042, 10);
    expect(slots.agreement!.overall.ciDescription).toMatch(/KALPHA/);
    // per kind x steps: inverse L=3 has i1 (one dissent) and i2
    const invCell = d.agreement!.byKind.find((k) => k.kind === "enact-inverse")!.cells["3"];
    expect(invCell.items).toBe(2);
    expect(invCell.perfectItems.agreeing).toBe(1);

    // calibration (PERCENT scale: 10 bins): A 0.9 with 6/8 right, B 0.8 with 6/8, C 0.5 with 3/6
    const cal = d.calibration!;
    expect(cal.n).toBe(22);
    expect(cal.bins).toHaveLength(10);
    expect(cal.bins[8]).toMatchObject({ count: 8, accuracy: 0.75 });
    expect(cal.bins[8].meanConfidence).toBeCloseTo(0.9, 12);
    expect(cal.ece).toBeCloseTo(1.6 / 22, 12);
    expect(cal.brier).toBeCloseTo(4.7 / 22, 12);
    expect(cal.meanConfidenceRight).toBeCloseTo(0.78, 12);
    expect(cal.meanConfidenceWrong).toBeCloseTo(0.7, 12);

    // time: forward L=3 active times 2 s x4, 20 s x4, 24 s x4 -> median 20 s, IQR 2 s .. 24 s
    const t = d.time.cells.find((x) => x.kind === "enact-forward" && x.tag === "3")!;
    expect(t.active).toMatchObject({ n: 12, median: 20_000, q1: 2_000, q3: 24_000 });
    expect(t.wall.median).toBe(25_000);
    const flagged = d.time.perAnnotator.filter((p) => p.farFaster).map((p) => d.annotators[p.annotator].name);
    expect(flagged).toEqual(["Cy C"]);
  });

  it("gives the Annotators tab: accuracy, confidence, time, leave-one-out alpha, focus losses, no emails", async () => {
    const { study, users } = await seedDesignedStudy();
    const overview = await getAnnotatorsOverview(study.slug, {});
    const row = (id: string) => overview.rows.find((r) => r.userId === id)!;
    expect(row(users.a.id)).toMatchObject({ done: 8, focusLosses: 2, farFaster: false });
    expect(row(users.a.id).accuracy!.correct).toBe(6);
    expect(row(users.a.id).meanConfidence).toBeCloseTo(0.9, 12);
    expect(row(users.a.id).medianActiveMs).toBe(20_000);
    expect(row(users.c.id)).toMatchObject({ done: 6, focusLosses: 5, farFaster: true });
    expect(row(users.c.id).alphaWithout!.alpha).toBeCloseTo(0.6997495393827728, 10);
    expect(overview.agreement!.overall.alpha).toBeCloseTo(0.6189656693052279, 10);
    expect(JSON.stringify(overview)).not.toContain("@test.local");
  });

  it("shows alpha as null with the reason, never 0 or 1, when it is undefined", async () => {
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    const study = await createStudy({ overlap: 2 });
    const batch = await createBatch(study.id);
    const one = await createOrderItem(study.id, batch.id, { externalId: "x1", order: [0, 1, 2] });
    await answer(one, a.id, [0, 1, 2]);
    await answer(one, b.id, [0, 1, 2]);
    const d = await getStudyDashboard(study.slug, { encoding: "item-kendall", level: "nominal" });
    expect(d.agreement!.overall.alpha).toBeNull();
    expect(d.agreement!.overall.reason).toMatch(/expected disagreement is 0/);
    expect(d.agreement!.overall.perfectItems).toEqual({ agreeing: 1, total: 1, share: 1 });
  });

  it("renders an empty study and a study without answers without figures that are not there", async () => {
    const empty = await createStudy();
    const d = await getStudyDashboard(empty.slug, {});
    expect(d.accuracy.rows).toEqual([]);
    expect(d.agreement).toBeNull();
    expect(d.calibration).toBeNull();
    expect(d.progress).toMatchObject({ items: 0, expected: 0, done: 0, activeNow: 0 });
    const batch = await createBatch(empty.id);
    await createOrderItem(empty.id, batch.id, { externalId: "lonely", order: [0, 1, 2] });
    const noAnswers = await getStudyDashboard(empty.slug, {});
    expect(noAnswers.choices.encoding!.id).toBe("slot-ordinal");
    expect(noAnswers.agreement).toBeNull();
    expect(noAnswers.time.perAnnotator).toEqual([]);
    expect(noAnswers.progress.expected).toBe(1);
  });
});
