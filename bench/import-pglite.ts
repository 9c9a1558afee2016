/**
 * Imports on the embedded database (`npm run demo` without DATABASE_URL): a fresh in-memory PGlite
 * served by pglite-socket, one pooled connection for the app (DATABASE_POOL_SIZE=1, as the demo
 * sets), the import run as the admin page does it (the upload stored, then the job: handleImportJob,
 * progress written to its row), while an annotator's request (the studies list of /studies and /api/annotate/studies)
 * goes on every 100 ms.
 *
 *   node --conditions=react-server --import tsx bench/import-pglite.ts [--skip-enact]
 *
 * Printed, each with a reference measured in the same run so that the figures read as ratios on
 * any machine:
 * - a small batch (about 30 KB): the job's wall time against the same batch imported alone
 *   (importBatch with no progress to write), in a study of its own;
 * - the ENACT sample (data/enact-sample, 23 MB): the job's wall time, and the slowest and median
 *   request while it ran against the slowest and median of the same request with nothing else
 *   running; the requests that failed; and any unhandled rejection.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import JSZip from "jszip";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";
import { applyMigrations } from "@/lib/db/schema-engine";
import { freePort } from "@/tests/faults/ports";
import { batchFiles, forwardItem } from "@/tests/fixtures/import-batches";

const skipEnact = process.argv.includes("--skip-enact");
const ENACT_ROOT = path.resolve(import.meta.dirname, "../data/enact-sample");
const unhandled: string[] = [];
process.on("unhandledRejection", (reason) => unhandled.push(reason instanceof Error ? reason.message : String(reason)));

const pglite = await PGlite.create();
const port = await freePort();
const server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port, maxConnections: 10 });
await server.start();
const url = embeddedDatabaseUrl(port);
await applyMigrations(url);
process.env.DATABASE_URL = url;
process.env.DATABASE_POOL_SIZE = "1";
process.env.YARDSTICK_JOB_WORKER = "off";

const { db, disconnectDb } = await import("@/lib/db");
const { disconnectReadDb } = await import("@/lib/db/read");
const jobs = await import("@/lib/import/jobs");
const { handleImportJob } = jobs;
// the code before uploads were stored in parts (to measure it in the same way) wrote the zip with the job's row
const storeUpload: (jobId: string, zip: Buffer) => Promise<void> =
  "storeUpload" in jobs
    ? (jobs.storeUpload as (jobId: string, zip: Buffer) => Promise<void>)
    : (jobId, zip) => db.$executeRaw`INSERT INTO "ImportUpload" ("jobId", bytes) VALUES (${jobId}, ${new Uint8Array(zip)})`.then(() => undefined);
const { importBatch, readBatchSource } = await import("@/lib/import");
const { listMemberStudies } = await import("@/lib/annotate/studies");
const { addMember, createStudy, createUser } = await import("@/tests/db-helpers");

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: "nodebuffer", compression: "STORE" });
}

async function folderFiles(root: string): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && !entry.name.endsWith(".md")) files[path.relative(root, full).split(path.sep).join("/")] = await readFile(full);
    }
  };
  await walk(root);
  return files;
}

async function runJob(zip: Buffer): Promise<{ ms: number; status: string }> {
  const study = await createStudy();
  const row = await db.importJob.create({
    data: { studyId: study.id, studySlug: study.slug, fileName: "batch.zip", phase: "queued", bossJobId: crypto.randomUUID() },
  });
  const started = performance.now();
  await storeUpload(row.id, zip);
  await handleImportJob(
    { importJobId: row.id },
    { jobId: row.bossJobId!, workerId: "bench", attempt: 0, lastAttempt: true, signal: new AbortController().signal },
  );
  const ms = performance.now() - started;
  const done = await db.importJob.findUniqueOrThrow({ where: { id: row.id }, select: { status: true } });
  return { ms, status: done.status };
}

/** The request every 100 ms until `until` settles (or `forMs` passes): each one's time, and the failures. */
async function requests(userId: string, until: Promise<unknown> | null, forMs = 0) {
  const times: number[] = [];
  const failures: string[] = [];
  let finished = false;
  if (until) void until.finally(() => (finished = true));
  const end = performance.now() + forMs;
  while (until ? !finished : performance.now() < end) {
    const started = performance.now();
    await listMemberStudies(userId).catch((error: unknown) => failures.push(error instanceof Error ? error.message.split("\n").pop()! : String(error)));
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { times, failures };
}

const ms = (value: number) => `${Math.round(value)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const annotator = await createUser("ANNOTATOR");
await addMember((await createStudy()).id, annotator.id);
await db.$queryRaw`SELECT 1`;

// the small batch: the job against the import alone
const small = await batchFiles(Array.from({ length: 40 }, (_, n) => forwardItem(`s${n}`)));
const smallZip = await zipOf(small);
const aloneStudy = await createStudy();
const started = performance.now();
await importBatch({ source: await readBatchSource({ zip: smallZip, fileName: "small.zip" }), studyId: aloneStudy.id });
const aloneMs = performance.now() - started;
const smallJob = await runJob(smallZip);
console.log(
  `small batch (${(smallZip.length / 1024).toFixed(0)} KB): job ${ms(smallJob.ms)} (${smallJob.status}); the import alone ${ms(aloneMs)}; ratio ${(smallJob.ms / aloneMs).toFixed(1)}`,
);

if (!skipEnact) {
  const idle = await requests(annotator.id, null, 3_000);
  const enactZip = await zipOf(await folderFiles(ENACT_ROOT));
  const job = runJob(enactZip);
  const during = await requests(annotator.id, job);
  const enact = await job;
  console.log(`ENACT sample (${(enactZip.length / 1048576).toFixed(1)} MB): job ${ms(enact.ms)} (${enact.status})`);
  console.log(
    `  request while importing: slowest ${ms(Math.max(...during.times))}, median ${ms(median(during.times))} (${during.times.length} requests, ${during.failures.length} failed${during.failures.length ? `: ${[...new Set(during.failures)].join("; ")}` : ""})`,
  );
  console.log(`  request with nothing else running: slowest ${ms(Math.max(...idle.times))}, median ${ms(median(idle.times))}`);
  console.log(
    `  ratio slowest/slowest ${(Math.max(...during.times) / Math.max(...idle.times)).toFixed(1)}, median/median ${(median(during.times) / median(idle.times)).toFixed(1)}`,
  );
}
console.log(`unhandled rejections: ${unhandled.length}${unhandled.length ? ` (${[...new Set(unhandled)].join("; ")})` : ""}`);

await disconnectDb();
await disconnectReadDb();
await server.stop();
await pglite.close();
process.exit(0);
