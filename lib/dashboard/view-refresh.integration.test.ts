import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { refreshStudyViews, REFRESH_COST_FACTOR } from "@/lib/dashboard/view-refresh";
import { getStudyDashboard, type StudyDashboard } from "@/lib/dashboard/study-dashboard";
import { seedOrderStudy } from "@/lib/dashboard/testing/order-study";
import { answer, createOrderItem } from "@/lib/dashboard/testing/seed";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, workUntilIdle } from "@/lib/jobs/worker";
import { resetDatabase, resetJobQueue } from "@/tests/db-helpers";

/**
 * A large study's default view, and the view of each other agreement encoding, are computed by the
 * job worker before anyone opens the dashboard: the first visit reads a stored row
 * instead of computing over every answer. Here "large" is lowered to 5 answers.
 */
describe("large studies' views, refreshed by the worker", () => {
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
  });
  afterEach(() => {
    delete process.env.YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS;
    delete process.env.YARDSTICK_DASHBOARD_REFRESH_SECONDS;
  });
  afterAll(stopBoss);

  const seedStudy = (items = 8) => seedOrderStudy(items, 11);

  const figuresOf = (d: StudyDashboard) => ({ ...d, intervals: undefined, progress: undefined, asOf: { ...d.asOf, loadedAt: undefined, replica: undefined } });
  const row = (studyId: string, viewKey = "{}") => db.dashboardIntervals.findUnique({ where: { studyId_viewKey: { studyId, viewKey } } });
  /** the views the refresh keeps for a study: the default, then each encoding the page offers but does not show by default */
  const viewsOf = (d: StudyDashboard) => [
    "{}",
    ...d.choices.encodings.filter((e) => e.id !== d.choices.encoding?.id).map((e) => JSON.stringify({ encoding: e.id })),
  ];
  const spentMs = async (studyId: string) => (await db.dashboardIntervals.findMany({ where: { studyId } })).reduce((sum, r) => sum + r.computeMs, 0);

  it("computes the default view and each other encoding's of a study above the size before their first visits, which then read them", async () => {
    const { study } = await seedStudy();
    const small = await seedStudy(1); // 3 answers: below the size, left to the page
    const asked = await refreshStudyViews({ minAnswers: 5 });
    expect(asked.every((a) => a.slug === study.slug)).toBe(true);
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(asked.length);
    expect(await row(small.study.id)).toBeNull();

    const visit = await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    expect(visit.intervals).toMatchObject({ state: "ready", behind: false });
    expect(figuresOf(visit)).toEqual(figuresOf(await getStudyDashboard(study.slug, {}, { intervals: "inline" })));
    // the kinds here offer more than one encoding: each other one has its own view, read from its row
    const views = viewsOf(visit);
    expect(views.length).toBeGreaterThan(1);
    expect(asked.map((a) => a.viewKey)).toEqual(views);
    for (const encoding of visit.choices.encodings.filter((e) => e.id !== visit.choices.encoding?.id)) {
      const other = await getStudyDashboard(study.slug, { encoding: encoding.id }, { inlineMaxAnswers: 5 });
      expect(other.intervals).toMatchObject({ state: "ready", behind: false });
      expect(other.agreement?.encoding.id).toBe(encoding.id);
      expect(figuresOf(other)).toEqual(figuresOf(await getStudyDashboard(study.slug, { encoding: encoding.id }, { intervals: "inline" })));
    }
    // nothing to do while the rows are current
    expect(await refreshStudyViews({ minAnswers: 5 })).toEqual([]);
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(0);
  });

  it("computes the views again after new answers, not sooner than ten times their last computations took together", async () => {
    const { study, people, batch } = await seedStudy();
    await refreshStudyViews({ minAnswers: 5 });
    await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] });
    const first = (await row(study.id))!;
    const spent = await spentMs(study.id);
    expect(spent).toBeGreaterThan(first.computeMs); // more than one view: the budget is theirs together
    const rows = await db.dashboardIntervals.findMany({ where: { studyId: study.id } });
    const earliest = Math.min(...rows.map((r) => r.computedAt.getTime()));

    const item = await createOrderItem(study.id, batch.id, { externalId: "late", order: [0, 1, 2] });
    await answer(item, people[0].id, [0, 1, 2]);
    const tooSoon = earliest + REFRESH_COST_FACTOR * spent - 1;
    expect(await refreshStudyViews({ minAnswers: 5, now: tooSoon })).toEqual([]);
    const behind = await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    expect(behind.intervals).toMatchObject({ state: "ready", behind: true });
    expect(behind.asOf).toMatchObject({ stale: true, responses: 24, currentResponses: 25 });

    const late = Math.max(...rows.map((r) => r.computedAt.getTime())) + REFRESH_COST_FACTOR * spent;
    const asked = await refreshStudyViews({ minAnswers: 5, now: late });
    expect(asked.map((a) => a.viewKey)).toEqual(viewsOf(behind));
    // the visit and the refresh asked for the same default view and version: one job for it
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(asked.length);
    const current = await getStudyDashboard(study.slug, {}, { inlineMaxAnswers: 5 });
    expect(current.intervals).toMatchObject({ state: "ready", behind: false });
    expect(current.asOf.responses).toBe(25);
  });

  it("computes a row of another format again", async () => {
    const { study } = await seedStudy();
    await refreshStudyViews({ minAnswers: 5 });
    await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] });
    await db.dashboardIntervals.update({
      where: { studyId_viewKey: { studyId: study.id, viewKey: "{}" } },
      data: { figures: JSON.stringify({ format: 1, view: {} }) },
    });
    expect(await refreshStudyViews({ minAnswers: 5 })).toEqual([{ slug: study.slug, viewKey: "{}" }]);
  });

  it("runs in the job worker at its start and every YARDSTICK_DASHBOARD_REFRESH_SECONDS", async () => {
    process.env.YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS = "5";
    process.env.YARDSTICK_DASHBOARD_REFRESH_SECONDS = "1";
    const { study } = await seedStudy();
    const worker = await startWorker({ queues: [QUEUES.dashboardIntervals.name], pollMs: 100 });
    try {
      const deadline = Date.now() + 30_000;
      while (!(await row(study.id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await row(study.id)).not.toBeNull();
    } finally {
      await worker.stop();
    }
    const visit = await getStudyDashboard(study.slug, {});
    expect(visit.intervals).toMatchObject({ state: "ready", behind: false });
  });

  it("is left to workers started apart: the app's own worker (periodic: false, as startWorkerOnBoot starts it) runs no pass", async () => {
    process.env.YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS = "5";
    process.env.YARDSTICK_DASHBOARD_REFRESH_SECONDS = "1";
    const { study } = await seedStudy();
    const worker = await startWorker({ queues: [QUEUES.dashboardIntervals.name], pollMs: 100, periodic: false });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await worker.stop();
    expect(await row(study.id)).toBeNull();
  });

  it("leaves the rows alone with YARDSTICK_DASHBOARD_REFRESH_SECONDS=0", async () => {
    process.env.YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS = "5";
    process.env.YARDSTICK_DASHBOARD_REFRESH_SECONDS = "0";
    const { study } = await seedStudy();
    const worker = await startWorker({ queues: [QUEUES.dashboardIntervals.name], pollMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await worker.stop();
    expect(await row(study.id)).toBeNull();
  });
});
