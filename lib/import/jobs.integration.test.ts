import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getImportJob, startImportJob } from "@/lib/import/jobs";
import type { ImportErrorDetails } from "@/lib/import/types";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, image, jsonl, removeTempFolders, zipOf } from "@/tests/fixtures/import-batches";

afterAll(async () => {
  await removeTempFolders();
  await disconnectDb();
});

describe("import jobs (the admin page's uploads run off the request)", () => {
  beforeEach(resetDatabase);

  it("answers at once with a running job, which ends SUCCEEDED with the import's result", async () => {
    const study = await createStudy();
    const admin = await createUser("ADMIN");
    const zip = await zipOf(await batchFiles([forwardItem("j1"), forwardItem("j2")]));
    const { job, finished } = await startImportJob({ zip, fileName: "jobs.zip", studySlug: study.slug, actorId: admin.id });
    expect(job).toMatchObject({ status: "RUNNING", studySlug: study.slug, fileName: "jobs.zip" });
    const ended = await finished;
    expect(ended).toMatchObject({ status: "SUCCEEDED", phase: "done", outcome: { ok: true, httpStatus: 201, result: { status: "imported", itemCount: 2 } } });
    // the last phase, writing, counts the 5 images and the 2 items
    expect(await getImportJob(job.id)).toMatchObject({ status: "SUCCEEDED", total: 7, outcome: { ok: true } });
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(2);
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
    await expect(startImportJob({ zip: Buffer.from("PK"), fileName: "x.zip", studySlug: "no-such-study", actorId: null })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.importJob.count()).toBe(0);
  });

  it("reports a job whose process died (no heartbeat for a minute) as stopped, nothing imported", async () => {
    const study = await createStudy();
    const row = await db.importJob.create({ data: { studyId: study.id, studySlug: study.slug, fileName: "lost.zip", heartbeatAt: new Date(Date.now() - 5 * 60_000), phase: "writing" } });
    const view = await getImportJob(row.id);
    expect(view).toMatchObject({ status: "FAILED", outcome: { ok: false, httpStatus: 503, error: expect.stringContaining("Nothing was imported") } });
    expect((await db.importJob.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("FAILED");
    await expect(getImportJob("no-such-job")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("does not hold the process while it checks a long items file: the event loop keeps answering", async () => {
    const study = await createStudy();
    const lines = Array.from({ length: 6000 }, (_, index) => forwardItem(`long-${index}`, { initialImage: "img/start.png", candidates: ["img/a.png", "img/b.png"] }));
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
});
