import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import type PgBoss from "pg-boss";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as migrateRoute from "@/app/api/admin/assets/migrate/route";
import * as migrateJobRoute from "@/app/api/admin/assets/migrate/jobs/[id]/route";
import { s3Settings } from "@/lib/assets/config";
import { getAssetMigrationJob, runAssetMigrationJob, startAssetMigrationJob, type AssetMigrationJobView } from "@/lib/assets/migrate-jobs";
import { hashObject, s3Client } from "@/lib/assets/s3";
import { issueToken } from "@/lib/auth/api-tokens";
import { db, disconnectDb } from "@/lib/db";
import { importBatch, readBatchSource } from "@/lib/import";
import { createBoss, jobState, QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, type RunningWorker } from "@/lib/jobs/worker";
import { call } from "@/tests/api/http";
import { createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";
import { batchFiles, forwardItem, removeTempFolders, writeFolder } from "@/tests/fixtures/import-batches";
import { setEnv, startS3rver, type TestS3 } from "@/tests/s3rver";
import { eventually } from "@/tests/eventually";

/**
 * `yardstick assets migrate --to s3` as a job (lib/assets/migrate-jobs.ts) against PostgreSQL and
 * a real S3-compatible server (s3rver), with job workers running as in the app instances: an
 * admin starts it over the API, exactly one worker runs it, every asset lands in the bucket
 * verified by sha256 and written once, an attempt that fails halfway is retried and resumes
 * without copying anything twice, and the progress is read from the row.
 */
let s3: TestS3;
let restoreEnv: () => void;
let hashes: string[];
let sizes: Map<string, number>;
const workers: RunningWorker[] = [];
const bosses: PgBoss[] = [];

beforeAll(async () => {
  s3 = await startS3rver();
  // assets are imported into PostgreSQL; the bucket is only the migration's target
  restoreEnv = setEnv({ ...s3.env, ASSET_STORE: undefined, ASSET_S3_SERVE: undefined });
});

afterAll(async () => {
  for (const boss of bosses) await boss.stop({ graceful: false, wait: true, close: true });
  await stopBoss();
  restoreEnv();
  await s3.stop();
  await removeTempFolders();
  await disconnectDb();
});

beforeEach(async () => {
  await resetDatabase();
  await resetJobQueue();
  // an empty bucket (the tests import the same images)
  const client = s3Client(s3Settings());
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  for (const object of listed.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: object.Key! }));
  const study = await createStudy();
  // three items: one start image and two candidates each, 7 images in all
  const files = await batchFiles([forwardItem("a"), forwardItem("b"), forwardItem("c")]);
  await importBatch({ source: await readBatchSource({ folder: await writeFolder(files) }), studySlug: study.slug });
  const assets = await db.asset.findMany({ select: { hash: true, size: true }, orderBy: { hash: "asc" } });
  hashes = assets.map((asset) => asset.hash);
  sizes = new Map(assets.map((asset) => [asset.hash, asset.size]));
  s3.writes.length = 0;
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000) => eventually(what, probe, ms);

const ended = (id: string) =>
  until(`job ${id} to end`, async () => {
    const job = await getAssetMigrationJob(id);
    return job.status === "SUCCEEDED" || job.status === "FAILED" ? job : null;
  });

/** Objects written to the bucket, by key: each asset's key must appear once. */
function writesByKey(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const write of s3.writes) if (write.event.startsWith("ObjectCreated")) counts.set(write.key, (counts.get(write.key) ?? 0) + 1);
  return counts;
}

describe("the asset migration as a job", () => {
  it("an admin starts it over the API; one of two workers runs it; every asset is in the bucket, verified, written once; progress is on the row", async () => {
    const admin = await createUser("ADMIN");
    const researcher = await createUser("RESEARCHER");
    const adminToken = (await issueToken(admin.id, { name: "ops", scopes: ["read", "manage"], expiresInDays: 1 }, admin.id)).token;
    const researcherToken = (await issueToken(researcher.id, { name: "r", scopes: ["read", "manage"], expiresInDays: 1 }, researcher.id)).token;

    // admins only; the body is checked
    expect((await call(migrateRoute.POST, { token: researcherToken, json: { to: "s3" } })).status).toBe(403);
    expect((await call(migrateRoute.POST, { token: adminToken, json: { to: "disk" } })).status).toBe(422);

    const started = await call(migrateRoute.POST, { token: adminToken, json: { to: "s3" } });
    expect(started.status).toBe(202);
    const job = (started.body as { job: AssetMigrationJobView }).job;
    expect(job).toMatchObject({ status: "QUEUED", target: "s3", clearPostgres: false });
    expect(started.response.headers.get("location")).toBe(`/api/admin/assets/migrate/jobs/${job.id}`);
    // one migration at a time: a second start returns the one queued
    const again = await call(migrateRoute.POST, { token: adminToken, json: { to: "s3", clearPostgres: true } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, job: { id: job.id } });
    // the start is in the audit log, once
    const audits = await db.auditLog.findMany({ where: { action: "assets.migrate" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: admin.id, target: "assets", detail: { jobId: job.id, to: "s3", clearPostgres: false } });

    // two app instances' workers, each with its own pg-boss
    const other = await createBoss(process.env.DATABASE_URL!, { supervise: false });
    bosses.push(other);
    workers.push(await startWorker({ queues: [QUEUES.assetMigration.name], pollMs: 20, id: "instance-a" }));
    workers.push(await startWorker({ boss: other, queues: [QUEUES.assetMigration.name], pollMs: 20, id: "instance-b" }));
    const done = await ended(job.id);
    expect(done).toMatchObject({
      status: "SUCCEEDED",
      total: 7,
      done: 7,
      progress: 1,
      alreadyMigrated: 0,
      copied: 7,
      foundInBucket: 0,
      failed: 0,
      failures: [],
      attempts: 1,
    });
    expect(done.bytesCopied).toBe([...sizes.values()].reduce((a, b) => a + b, 0));
    expect(done.message).toMatch(/7 copied and verified, 0 failed; 7 now in the bucket; PostgreSQL copies kept/);

    // in the bucket under their sha256, each written once; rows marked, PostgreSQL copies kept
    const settings = s3Settings();
    for (const hash of hashes) expect((await hashObject(settings, hash))?.sha256).toBe(hash);
    expect([...writesByKey().entries()].sort()).toEqual(hashes.map((hash) => [hash, 1]));
    expect(await db.asset.count({ where: { inObjectStore: true, bytes: { not: null } } })).toBe(7);
    const row = await db.assetMigrationJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(await jobState(QUEUES.assetMigration.name, row.bossJobId!)).toMatchObject({ state: "completed", retryCount: 0 });

    // the progress as the API gives it, and the asset counts
    const polled = await call(migrateJobRoute.GET, { token: adminToken, params: { id: job.id } });
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ job: { id: job.id, status: "SUCCEEDED", done: 7, total: 7 } });
    expect((await call(migrateJobRoute.GET, { token: researcherToken, params: { id: job.id } })).status).toBe(403);
    expect((await call(migrateJobRoute.GET, { token: adminToken, params: { id: "no-such-job" } })).status).toBe(404);
    const listed = await call(migrateRoute.GET, { token: adminToken });
    expect(listed.body).toMatchObject({ assets: { total: 7, inObjectStore: 7 }, jobs: [{ id: job.id, status: "SUCCEEDED" }] });

    // a new job after that one ended: nothing left to copy; clears PostgreSQL when asked
    const second = await startAssetMigrationJob({ clearPostgres: true, actorId: admin.id });
    expect(second.created).toBe(true);
    expect(await ended(second.job.id)).toMatchObject({ status: "SUCCEEDED", alreadyMigrated: 7, copied: 0, foundInBucket: 0, done: 7, cleared: 7 });
    expect(await db.asset.count({ where: { bytes: null, inObjectStore: true } })).toBe(7);
    expect(writesByKey().size).toBe(7);
    expect(s3.writes.filter((write) => write.event.startsWith("ObjectCreated"))).toHaveLength(7);
  });

  it("an attempt that fails halfway is retried with backoff and resumes: nothing copied twice, an object already in the bucket verified, not written", async () => {
    const admin = await createUser("ADMIN");
    // an earlier, interrupted run left the last asset's object in the bucket without marking it
    const left = hashes[hashes.length - 1];
    const bytes = (await db.asset.findUniqueOrThrow({ where: { hash: left }, select: { bytes: true } })).bytes!;
    await s3Client(s3Settings()).send(new PutObjectCommand({ Bucket: s3.bucket, Key: left, Body: Buffer.from(bytes), ContentLength: bytes.length }));

    const { job } = await startAssetMigrationJob({ clearPostgres: false, actorId: admin.id });
    const bossJobId = (await db.assetMigrationJob.findUniqueOrThrow({ where: { id: job.id } })).bossJobId!;
    // the first attempt dies after its third asset (as a worker killed mid-run would)
    const seen: Array<{ attempt: number; done: number }> = [];
    workers.push(
      await startWorker({
        queues: [QUEUES.assetMigration.name],
        pollMs: 20,
        handler: (data, context) =>
          runAssetMigrationJob(data, context, {
            onAsset: (progress, attempt) => {
              seen.push({ attempt: attempt.attempt, done: progress.done });
              if (attempt.attempt === 0 && progress.done === 3) throw new Error("the worker died");
            },
          }),
      }),
    );
    await until("the queue to schedule a retry", async () => (await jobState(QUEUES.assetMigration.name, bossJobId))?.state === "retry");

    // meanwhile, from any instance: the progress so far, still running
    const halfway = await getAssetMigrationJob(job.id);
    expect(halfway).toMatchObject({ status: "RUNNING", total: 7, done: 3, copied: 3, foundInBucket: 0, attempts: 1 });
    expect(halfway.progress).toBeCloseTo(3 / 7, 5);
    expect(halfway.bytesCopied).toBe(hashes.slice(0, 3).reduce((sum, hash) => sum + sizes.get(hash)!, 0));
    expect(await db.asset.count({ where: { inObjectStore: true } })).toBe(3);
    // the retry waits out the backoff (10 s), which the test skips
    const [{ wait }] = await db.$queryRawUnsafe<Array<{ wait: number }>>(
      `SELECT extract(epoch FROM start_after - now())::float AS wait FROM pgboss.job WHERE id = $1::uuid`,
      bossJobId,
    );
    expect(wait).toBeGreaterThan(QUEUES.assetMigration.retryDelay * 0.5);
    await db.$executeRawUnsafe(`UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid`, bossJobId);

    const done = await ended(job.id);
    expect(done).toMatchObject({ status: "SUCCEEDED", total: 7, done: 7, progress: 1, copied: 6, foundInBucket: 1, failed: 0, attempts: 2 });
    expect(done.bytesCopied).toBe(hashes.slice(0, 6).reduce((sum, hash) => sum + sizes.get(hash)!, 0));
    // the second attempt looked only at the four assets the first did not mark
    expect(seen).toEqual([1, 2, 3].map((n) => ({ attempt: 0, done: n })).concat([1, 2, 3, 4].map((n) => ({ attempt: 1, done: n }))));
    expect([...writesByKey().entries()].sort()).toEqual(hashes.map((hash) => [hash, 1]));
    for (const hash of hashes) expect((await hashObject(s3Settings(), hash))?.sha256).toBe(hash);
    expect(await jobState(QUEUES.assetMigration.name, bossJobId)).toMatchObject({ state: "completed", retryCount: 1 });
  });

  it("starts a new migration when the unfinished one was given up by the queue (its workers died on every attempt)", async () => {
    const admin = await createUser("ADMIN");
    // a job whose last worker died long ago, and which the queue no longer has
    const dead = await db.assetMigrationJob.create({
      data: {
        target: "s3",
        status: "RUNNING",
        bossJobId: "00000000-0000-4000-8000-000000000000",
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
        attempts: 6,
      },
    });
    const { job, created } = await startAssetMigrationJob({ clearPostgres: false, actorId: admin.id });
    expect(created).toBe(true);
    expect(job.id).not.toBe(dead.id);
    expect(await getAssetMigrationJob(dead.id)).toMatchObject({ status: "FAILED", message: expect.stringContaining("start it again") });
  });

  it("refuses to start without S3 settings on the server (409), and starts nothing", async () => {
    const admin = await createUser("ADMIN");
    const restore = setEnv({ S3_BUCKET: undefined });
    try {
      await expect(startAssetMigrationJob({ clearPostgres: false, actorId: admin.id })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("S3_BUCKET"),
      });
    } finally {
      restore();
    }
    expect(await db.assetMigrationJob.count()).toBe(0);
    expect(await db.auditLog.count({ where: { action: "assets.migrate" } })).toBe(0);
  });
});
