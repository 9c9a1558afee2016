import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOnMigratedPglite } from "@/tests/pglite";

/**
 * `npm run demo` runs on the embedded PGlite, which serves one session to every connection
 * (pglite-socket): while a connection is in a transaction, every other connection's statements
 * wait for it to end. The demo's app has one pooled connection (DATABASE_POOL_SIZE=1) and runs the
 * import job in its own process (YARDSTICK_JOB_WORKER=app). An import of the ENACT sample (23 MB),
 * its upload stored as the upload request does and then run as the job, must leave the requests
 * of annotators served within a bound all along, and nothing may reject unhandled.
 */
process.env.DATABASE_POOL_SIZE = "1";
runOnMigratedPglite();

const ENACT_ROOT = path.resolve(import.meta.dirname, "../../data/enact-sample");
/** the longest an annotator's request may take while the import runs (the pool's own wait is 10 s) */
const REQUEST_BOUND_MS = 3_000;

async function zipFolder(root: string): Promise<Buffer> {
  const zip = new JSZip();
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && !entry.name.endsWith(".md")) zip.file(path.relative(root, full).split(path.sep).join("/"), await readFile(full));
    }
  };
  await walk(root);
  return zip.generateAsync({ type: "nodebuffer", compression: "STORE" });
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
});

async function importJobOf(studyId: string, studySlug: string) {
  const { db } = await import("@/lib/db");
  return db.importJob.create({ data: { studyId, studySlug, fileName: "enact-sample.zip", phase: "queued", bossJobId: crypto.randomUUID() } });
}

/** Requests an annotator's pages make, one after another until `until` settles: each one's time in ms, and the failures. */
async function requestsDuring(until: Promise<unknown>, userId: string) {
  const { listMemberStudies } = await import("@/lib/annotate/studies");
  const times: number[] = [];
  const failures: string[] = [];
  let finished = false;
  void until.finally(() => {
    finished = true;
  });
  while (!finished) {
    const started = performance.now();
    try {
      await listMemberStudies(userId);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { times, failures };
}

describe("an import on the embedded database (PGlite behind pglite-socket, one pooled connection)", () => {
  it("leaves annotators' requests served within a bound while the ENACT sample is imported, with nothing rejected unhandled", async () => {
    const { db } = await import("@/lib/db");
    const { handleImportJob, storeUpload } = await import("@/lib/import/jobs");
    const { createStudy, createUser, addMember } = await import("@/tests/db-helpers");
    const [version] = await db.$queryRaw<Array<{ version: string }>>`SELECT version()`;
    expect(version.version).toMatch(/PGlite/);
    const annotator = await createUser("ANNOTATOR");
    const other = await createStudy();
    await addMember(other.id, annotator.id);
    const study = await createStudy();
    const zip = await zipFolder(ENACT_ROOT);

    // what the upload request stores, then the job the worker runs
    const started = performance.now();
    const job = await importJobOf(study.id, study.slug);
    const running = (async () => {
      await storeUpload(job.id, zip);
      return handleImportJob(
        { importJobId: job.id },
        { jobId: job.bossJobId!, workerId: "test", attempt: 0, lastAttempt: true, signal: new AbortController().signal },
      );
    })();
    const { times, failures } = await requestsDuring(running, annotator.id);
    const outcome = await running;
    const importMs = performance.now() - started;

    const row = await db.importJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(outcome).toEqual({ status: "succeeded" });
    expect(row.status, JSON.stringify(row.result)).toBe("SUCCEEDED");
    expect(await db.item.count({ where: { studyId: study.id } })).toBeGreaterThan(0);
    console.log(`import ${Math.round(importMs)} ms; ${times.length} requests during it, slowest ${Math.round(Math.max(...times))} ms`);
    expect(failures).toEqual([]);
    expect(times.length).toBeGreaterThan(3);
    expect(Math.max(...times), "the slowest request while the import ran").toBeLessThan(REQUEST_BOUND_MS);
    expect(unhandled.map(String)).toEqual([]);
  }, 300_000);
});
