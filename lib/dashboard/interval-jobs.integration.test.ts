import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { INTERVAL_COMPUTING } from "@/lib/dashboard/constants";
import { getStudyDashboard, type StudyDashboard } from "@/lib/dashboard/study-dashboard";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { workUntilIdle } from "@/lib/jobs/worker";
import { importModelRun } from "@/lib/models/runs";
import { mulberry32 } from "@/lib/stats/rng";
import { createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";

/**
 * Large studies' bootstrap intervals come from a background job: the page shows the
 * point estimates at once and "computing" for the intervals; once the job has run, the page shows
 * exactly what the inline computation shows. Here "large" is lowered to 5 answers.
 */
describe("dashboard intervals computed in the background", () => {
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
  });
  afterAll(stopBoss);

  async function seedStudy() {
    const study = await createStudy({ overlap: 3 });
    const batch = await createBatch(study.id);
    const people = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    const random = mulberry32(7);
    for (let n = 0; n < 12; n++) {
      const L = 3 + (n % 3);
      const order = Array.from({ length: L }, (_, i) => i);
      const item = await createOrderItem(study.id, batch.id, {
        externalId: `i${n}`,
        kind: n % 2 ? "enact-inverse" : "enact-forward",
        order,
        tags: { steps: L, hand: n % 3 ? "left" : "right" },
      });
      for (const person of people) {
        const given = order.slice();
        if (random() < 0.35) [given[0], given[1]] = [given[1], given[0]];
        await answer(item, person.id, given, { confidence: Math.round(random() * 4) / 4 });
      }
    }
    // a model run beside the humans: its rows, and its summary (with a date) in the page's figures
    const modelAnswers = Array.from({ length: 12 }, (_, n) =>
      JSON.stringify({
        id: `i${n}`,
        answer: Array.from({ length: 3 + (n % 3) }, (_, i) => i)
          .reverse()
          .join(","),
      }),
    );
    await importModelRun({ studySlug: study.slug, name: "A model", fileName: "model.jsonl", answersJsonl: modelAnswers.join("\n") });
    return { study, people };
  }

  /** every figure of the page but the live ones (progress, read times, where the intervals came from) */
  const figuresOf = (d: StudyDashboard) => ({ ...d, intervals: undefined, progress: undefined, asOf: { ...d.asOf, loadedAt: undefined, replica: undefined } });

  /** every interval of the figures, with its reason */
  function intervalCells(d: StudyDashboard): Array<{ ci: unknown; reason?: string }> {
    const cells: Array<{ ci: unknown; reason?: string }> = [];
    for (const row of d.accuracy.rows)
      for (const cell of Object.values(row.cells)) for (const metric of Object.values(cell.metrics)) cells.push({ ci: metric.ci, reason: metric.reason });
    if (d.agreement) {
      cells.push({ ci: d.agreement.overall.ci, reason: d.agreement.overall.ciReason });
      for (const kind of d.agreement.byKind) for (const block of Object.values(kind.cells)) cells.push({ ci: block.ci, reason: block.ciReason });
    }
    return cells;
  }

  for (const params of [{}, { tag: "hand" }, { encoding: "slot-nominal", ci: "units" }, { ci: "kalpha" }] as Array<Record<string, string>>) {
    it(`shows the values at once, then the job's intervals, equal to the inline ones (${JSON.stringify(params)})`, async () => {
      const { study } = await seedStudy();
      const inline = await getStudyDashboard(study.slug, params, { intervals: "inline" });
      expect(inline.intervals.state).toBe("inline");

      const first = await getStudyDashboard(study.slug, params, { inlineMaxAnswers: 5 });
      expect(first.intervals.state).toBe("computing");
      // the point estimates are already the inline ones
      expect(first.agreement?.overall.alpha).toBe(inline.agreement?.overall.alpha);
      for (const [r, row] of first.accuracy.rows.entries()) {
        for (const [tag, cell] of Object.entries(row.cells)) {
          for (const [metric, value] of Object.entries(cell.metrics)) {
            const want = inline.accuracy.rows[r].cells[tag].metrics[metric];
            expect(value.value).toBe(want.value);
            if (value.interval === "bootstrap" && want.ci) expect(value).toMatchObject({ ci: null, reason: INTERVAL_COMPUTING });
            if (value.interval === "wilson") expect(value).toEqual(want); // closed form: never deferred
          }
        }
      }
      expect(intervalCells(first).some((cell) => cell.reason === INTERVAL_COMPUTING)).toBe(true);

      expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(1);
      const ready = await getStudyDashboard(study.slug, params, { inlineMaxAnswers: 5 });
      expect(ready.intervals.state).toBe("ready");
      expect(figuresOf(ready)).toEqual(figuresOf(inline));
      expect(ready.progress).toEqual(inline.progress);
      expect(intervalCells(ready).some((cell) => cell.reason === INTERVAL_COMPUTING)).toBe(false);
    });
  }

  it("asks again when the view's job has run but its row is gone (removed, or written in another format)", async () => {
    const { study } = await seedStudy();
    await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(1);
    expect((await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 })).intervals.state).toBe("ready");
    await db.dashboardIntervals.deleteMany({ where: { studyId: study.id } });
    expect((await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 })).intervals.state).toBe("computing");
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(1);
    expect((await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 })).intervals.state).toBe("ready");
  });

  it("asks once per view and data version, and again after new data", async () => {
    const { study, people } = await seedStudy();
    await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    await getStudyDashboard(study.slug, { tag: "hand" }, { inlineMaxAnswers: 5 });
    const queued = await db.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM pgboss.job WHERE name = $1`, QUEUES.dashboardIntervals.name);
    expect(Number(queued[0].n)).toBe(2);
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(2);
    expect((await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 })).intervals.state).toBe("ready");

    const before = await getStudyDashboard(study.slug, {}, { intervals: "inline" });

    // a new answer: the stored view is served, marked as behind, while the job computes the new data's
    const batch = await createBatch(study.id, "more");
    const item = await createOrderItem(study.id, batch.id, { externalId: "late", order: [0, 1, 2] });
    await answer(item, people[0].id, [0, 1, 2]);
    const behind = await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    expect(behind.intervals).toMatchObject({ state: "ready", behind: true });
    expect(behind.asOf.stale).toBe(true);
    expect(behind.asOf.responses).toBe(36);
    expect(behind.asOf.currentResponses).toBe(37);
    expect(behind.progress.done).toBe(37); // progress is always live
    expect(figuresOf(behind)).toEqual({ ...figuresOf(before), asOf: { ...figuresOf(before).asOf, stale: true, currentResponses: 37 } });
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(1);
    const ready = await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    expect(ready.intervals).toMatchObject({ state: "ready", behind: false });
    expect(ready.asOf.responses).toBe(37);
    expect(figuresOf(ready)).toEqual(figuresOf(await getStudyDashboard(study.slug, {}, { intervals: "inline" })));
  });
});
