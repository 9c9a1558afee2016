import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getImportJob, startImportJob } from "@/lib/import/jobs";
import { getBoss, jobState, QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, workUntilIdle, type RunningWorker } from "@/lib/jobs/worker";
import type { ImportErrorDetails } from "@/lib/import/types";
import { createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";
import { batchFiles, forwardItem, image, jsonl, removeTempFolders, zipOf } from "@/tests/fixtures/import-batches";

// a job worker in this process, as in every app instance (lib/jobs/worker.ts)
let worker: RunningWorker | null = null;
beforeAll(async () => {
  worker = await startWorker({ pollMs: 100, queues: [QUEUES.import.name] });
});

afterAll(async () => {
  await worker?.stop();
  await stopBoss();
  await removeTempFolders();
  await disconnectDb();
});

describe("import jobs (the admin page's uploads run off the request)", () => {
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
  });

  it("answers at once with a running job, which ends SUCCEEDED with the import's result", async () => {
    const study = await createStudy();
    const admin = await createUser("ADMIN");
    const zip = await zipOf(await batchFiles([forwardItem("j1"), forwardItem("j2")]));
    const { job, finished } = await startImportJob({ zip, fileName: "jobs.zip", studySlug: study.slug, actorId: admin.id });
    expect(job).toMatchObject({ status: "RUNNING", phase: "queued", studySlug: study.slug, fileName: "jobs.zip" });
    const ended = await finished;
    expect(ended).toMatchObject({ status: "SUCCEEDED", phase: "done", outcome: { ok: true, httpStatus: 201, result: { status: "imported", itemCount: 2 } } });
    // the last phase, writing, counts the 5 images and the 2 items, all done
    expect(await getImportJob(job.id)).toMatchObject({ status: "SUCCEEDED", done: 7, total: 7, outcome: { ok: true } });
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(2);
    // the queue's job completed; the upload is gone
    const row = await db.importJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(await jobState(QUEUES.import.name, row.bossJobId!)).toMatchObject({ state: "completed", retryCount: 0 });
    expect(await db.importUpload.count()).toBe(0);
  });

  it("ends FAILED with every issue, as the API answers them, and writes nothing", async () => {
    const study = await createStudy();
    const files = await batchFiles([forwardItem("f1")]);
    files["items.jsonl"] = jsonl([forwardItem("f1"), forwardItem("f2", { initialImage: "img/missing.png" })]);
    const { finished } = await startImportJob({ zip: await zipOf(files), fileName: "broken.zip", studySlug: study.slug, actorId: null });
    const ended = await finished;
    expect(ended.status).toBe("FAILED");
    if (ended.outcome?.ok !== false) throw new Error("expected a failure");
    expect(ended.outcome.httpStatus).toBe(422);
    expect(ended.outcome.error.split("\n")[0]).toContain('Batch "broken.zip" was not imported');
    expect((ended.outcome.details as ImportErrorDetails).errors[0]).toMatchObject({ file: "items.jsonl", line: 2, field: "public.initialImage" });
    expect(await db.item.count()).toBe(0);
  });

  it("refuses an unknown study at once (no job)", async () => {
    await expect(startImportJob({ zip: Buffer.from("PK"), fileName: "x.zip", studySlug: "no-such-study", actorId: null })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await db.importJob.count()).toBe(0);
  });

  it("does not hold the process while it checks a long items file: the event loop keeps answering", async () => {
    const study = await createStudy();
    const lines = Array.from({ length: 6000 }, (_, index) =>
      forwardItem(`long-${index}`, { initialImage: "img/start.png", candidates: ["img/a.png", "img/b.png"] }),
    );
    const zip = await zipOf({ "items.jsonl": jsonl(lines), "img/start.png": await image("s"), "img/a.png": await image("a"), "img/b.png": await image("b") });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const { finished } = await startImportJob({ zip, fileName: "long.zip", studySlug: study.slug, actorId: null });
    delay.enable();
    const ended = await finished;
    delay.disable();
    expect(ended.status).toBe("SUCCEEDED");
    // checking the lines yields every 200 lines; the longest stall is the write (one statement), not the check
    const longestCheckStallMs = delay.max / 1e6;
    console.log(`longest event-loop stall during a 6,000-line import: ${longestCheckStallMs.toFixed(0)} ms`);
    expect(longestCheckStallMs).toBeLessThan(1500);
  });
  it("runs a job whose worker died again in another worker; after the queue's last retry it reads as stopped, nothing imported", async () => {
    await worker?.stop();
    try {
      const boss = await getBoss();
      const study = await createStudy();
      const { job } = await startImportJob({
        zip: await zipOf(await batchFiles([forwardItem("d1")])),
        fileName: "died.zip",
        studySlug: study.slug,
        actorId: null,
      });
      const bossJobId = (await db.importJob.findUniqueOrThrow({ where: { id: job.id } })).bossJobId!;
      // a worker takes the job and dies before finishing: no heartbeat from then on
      const [taken] = await boss.fetch(QUEUES.import.name);
      expect(taken.id).toBe(bossJobId);
      await db.$executeRawUnsafe(`UPDATE pgboss.job SET started_on = now() - interval '2 minutes' WHERE id = $1::uuid`, bossJobId);
      await boss.expire();
      expect(await jobState(QUEUES.import.name, bossJobId)).toMatchObject({ state: "retry", retryCount: 0 });
      expect((await getImportJob(job.id)).status).toBe("RUNNING");
      // after the backoff another worker runs it from the stored upload
      await db.$executeRawUnsafe(`UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid`, bossJobId);
      expect(await workUntilIdle({ queues: [QUEUES.import.name], id: "other-worker" })).toBe(1);
      expect(await getImportJob(job.id)).toMatchObject({ status: "SUCCEEDED", outcome: { ok: true, result: { status: "imported", itemCount: 1 } } });
      expect(await jobState(QUEUES.import.name, bossJobId)).toMatchObject({ state: "completed", retryCount: 1 });
      expect(await db.item.count({ where: { studyId: study.id } })).toBe(1);

      // a job whose every attempt died: the queue gives it up, and the page reads it as stopped
      const lost = await startImportJob({
        zip: await zipOf(await batchFiles([forwardItem("d2")])),
        fileName: "lost.zip",
        studySlug: study.slug,
        actorId: null,
      });
      const lostId = (await db.importJob.findUniqueOrThrow({ where: { id: lost.job.id } })).bossJobId!;
      await boss.fetch(QUEUES.import.name);
      await db.$executeRawUnsafe(`UPDATE pgboss.job SET started_on = now() - interval '2 minutes', retry_count = retry_limit WHERE id = $1::uuid`, lostId);
      await boss.expire();
      expect(await jobState(QUEUES.import.name, lostId)).toMatchObject({ state: "failed" });
      // the row's heartbeat is fresh for a minute after the last progress: it still reads RUNNING until then
      expect((await getImportJob(lost.job.id)).status).toBe("RUNNING");
      await db.importJob.update({ where: { id: lost.job.id }, data: { heartbeatAt: new Date(Date.now() - 5 * 60_000) } });
      expect(await getImportJob(lost.job.id)).toMatchObject({
        status: "FAILED",
        outcome: { ok: false, httpStatus: 503, error: expect.stringContaining("Nothing was imported") },
      });
      expect((await db.importJob.findUniqueOrThrow({ where: { id: lost.job.id } })).status).toBe("FAILED");
      expect(await db.importUpload.count()).toBe(0);
      expect(await db.item.count({ where: { studyId: study.id } })).toBe(1);
      await expect(getImportJob("no-such-job")).rejects.toMatchObject({ code: "NOT_FOUND" });
    } finally {
      worker = await startWorker({ pollMs: 100, queues: [QUEUES.import.name] });
    }
  });
});
