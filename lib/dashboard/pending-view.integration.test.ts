import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getStudyDashboard, visitStudyDashboard, type PendingDashboard, type StudyDashboard } from "@/lib/dashboard/study-dashboard";
import { seedOrderStudy } from "@/lib/dashboard/testing/order-study";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, workUntilIdle } from "@/lib/jobs/worker";
import { createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";
import { issueToken } from "@/lib/auth/api-tokens";
import { call } from "@/tests/api/http";
import * as dashboardRoute from "@/app/api/studies/[slug]/dashboard/route";

/**
 * A visit never computes a large study's view over every answer: with no row yet it asks
 * the job, waits a moment for its first step's row, else gets "pending"; the job stores the values
 * first, then the intervals. "Large" is lowered to 5 answers.
 */
describe("a large study's view with no row yet", () => {
  beforeAll(async () => {
    // every write of a stored view, in order, and whether its intervals were still to come
    await db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS test_view_writes (n serial, "viewKey" text, pending boolean)`);
    await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_log_view_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_view_writes ("viewKey", pending) VALUES (NEW."viewKey", NEW.figures LIKE '%"intervalsPending":true%'); RETURN NEW; END $$`);
    await db.$executeRawUnsafe(
      `CREATE OR REPLACE TRIGGER test_view_writes AFTER INSERT OR UPDATE ON "DashboardIntervals" FOR EACH ROW EXECUTE FUNCTION test_log_view_write()`,
    );
  });
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
    await db.$executeRawUnsafe(`TRUNCATE test_view_writes`);
    process.env.YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS = "5";
    // no worker runs here unless a test starts one: a visit answers at once
    process.env.YARDSTICK_DASHBOARD_VISIT_WAIT_MS = "0";
  });
  afterEach(() => {
    delete process.env.YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS;
    delete process.env.YARDSTICK_DASHBOARD_VISIT_WAIT_MS;
  });
  afterAll(async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_view_writes ON "DashboardIntervals"`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS test_log_view_write()`);
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS test_view_writes`);
    await stopBoss();
  });

  const seedStudy = (items = 8) => seedOrderStudy(items, 7);

  const writes = async () =>
    (await db.$queryRawUnsafe<Array<{ viewKey: string; pending: boolean }>>(`SELECT "viewKey", pending FROM test_view_writes ORDER BY n`)).map((w) => ({
      ...w,
    }));
  const jobsFor = async (viewKey: string) =>
    Number(
      (
        await db.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND data->'params' = $2::jsonb`,
          QUEUES.dashboardIntervals.name,
          viewKey,
        )
      )[0].n,
    );
  const figuresOf = (d: StudyDashboard) => ({ ...d, intervals: undefined, progress: undefined, asOf: { ...d.asOf, loadedAt: undefined, replica: undefined } });
  const isPending = (view: StudyDashboard | PendingDashboard): view is PendingDashboard => "pending" in view;

  it("gets 'pending' with the live progress and asks the job, computing nothing and storing nothing", async () => {
    const { study } = await seedStudy();
    const visit = await visitStudyDashboard(study.slug, {});
    expect(isPending(visit)).toBe(true);
    expect(visit).toMatchObject({ pending: true, answers: 24, study: { slug: study.slug }, progress: { done: 24 } });
    expect(await jobsFor("{}")).toBe(1);
    expect(await writes()).toEqual([]);
    // every encoding's view the worker keeps is left to it alike
    const full = await getStudyDashboard(study.slug, {}, { intervals: "inline" });
    const other = full.choices.encodings.find((e) => e.id !== full.choices.encoding?.id)!;
    expect(isPending(await visitStudyDashboard(study.slug, { encoding: other.id }))).toBe(true);
  });

  it("is filled by the job in two steps, the values and then the intervals; the page between shows the values, its intervals computing", async () => {
    const { study } = await seedStudy();
    expect(isPending(await visitStudyDashboard(study.slug, {}))).toBe(true);
    expect(await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] })).toBe(1);
    expect(await writes()).toEqual([
      { viewKey: "{}", pending: true },
      { viewKey: "{}", pending: false },
    ]);
    const done = await visitStudyDashboard(study.slug, {});
    if (isPending(done)) throw new Error("still pending after the job");
    expect(done.intervals).toMatchObject({ state: "ready", behind: false });
    expect(figuresOf(done)).toEqual(figuresOf(await getStudyDashboard(study.slug, {}, { intervals: "inline" })));
  });

  it("after the first step alone, a visit reads the values with their intervals computing (and asks again for a lost job)", async () => {
    const { study } = await seedStudy();
    // the job's first step, as the handler runs it
    await getStudyDashboard(study.slug, {}, { store: true });
    expect(await writes()).toEqual([{ viewKey: "{}", pending: true }]);
    await resetJobQueue();
    const between = await visitStudyDashboard(study.slug, {});
    if (isPending(between)) throw new Error("pending with values stored");
    expect(between.intervals).toMatchObject({ state: "computing", behind: false });
    expect(between.agreement?.overall.ci ?? null).toBeNull();
    const inline = await getStudyDashboard(study.slug, {}, { intervals: "inline" });
    expect(between.agreement?.overall.alpha).toBe(inline.agreement?.overall.alpha);
    // the job that was to store the intervals is gone: the visit asked for it again, and it finishes the row
    expect(await jobsFor("{}")).toBe(1);
    await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] });
    const after = await visitStudyDashboard(study.slug, {});
    if (isPending(after)) throw new Error("pending after the job");
    expect(after.intervals).toMatchObject({ state: "ready", behind: false });
  });

  it("answers the API with 202, Retry-After and the live progress, then 200 with the figures once the job ran", async () => {
    const { study } = await seedStudy();
    const admin = await createUser("ADMIN");
    const { token } = await issueToken(admin.id, { name: "t", scopes: ["read"], expiresInDays: 1 }, admin.id);
    const ask = () => call(dashboardRoute.GET, { token, path: `/api/studies/${study.slug}/dashboard`, params: { slug: study.slug } });
    const pending = await ask();
    expect(pending.status).toBe(202);
    expect(pending.response.headers.get("retry-after")).toBe("5");
    expect(pending.body).toMatchObject({ pending: true, answers: 24, progress: { done: 24 } });
    await workUntilIdle({ queues: [QUEUES.dashboardIntervals.name] });
    const ready = await ask();
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ intervals: { state: "ready" }, asOf: { responses: 24 } });
    expect(ready.body).not.toHaveProperty("pending");
  });

  it("leaves every other view of a large study to the job too, and computes a study under the size on the visit", async () => {
    const { study, people } = await seedStudy();
    for (const params of [{ annotator: people[0].id }, { tag: "steps", ci: "units" }, { ci: "kalpha" }]) {
      expect(isPending(await visitStudyDashboard(study.slug, params))).toBe(true);
    }
    expect(await writes()).toEqual([]);
    const small = await seedStudy(1);
    const visit = await visitStudyDashboard(small.study.slug, {});
    expect(isPending(visit)).toBe(false);
    expect((visit as StudyDashboard).intervals.state).toBe("inline");
  });

  it("gets the values within its wait when a worker takes the job: no pending page, the intervals computing or done", async () => {
    const { study, people } = await seedStudy();
    process.env.YARDSTICK_DASHBOARD_VISIT_WAIT_MS = "20000";
    const worker = await startWorker({ queues: [QUEUES.dashboardIntervals.name], pollMs: 20, periodic: false });
    try {
      const visit = await visitStudyDashboard(study.slug, { annotator: people[1].id });
      if (isPending(visit)) throw new Error("pending although a worker took the job within the wait");
      expect(["computing", "ready"]).toContain(visit.intervals.state);
      const inline = await getStudyDashboard(study.slug, { annotator: people[1].id }, { intervals: "inline" });
      expect(visit.agreement?.overall.alpha).toBe(inline.agreement?.overall.alpha);
      expect(visit.accuracy.rows.length).toBe(inline.accuracy.rows.length);
    } finally {
      await worker.stop();
    }
  });
});
