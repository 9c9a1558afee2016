import "server-only";
import { z } from "zod";
import { s3Settings } from "@/lib/assets/config";
import { migrateAssetsToS3, type MigrateProgress } from "@/lib/assets/migrate";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { BackgroundJobStatus } from "@/lib/generated/prisma/enums";
import type { JobContext } from "@/lib/jobs/types";
import { attemptId, enqueue, EXPIRE_SECONDS, newJobId, QUEUES, queueGaveUp } from "@/lib/jobs/queue";
import {
  claimJob,
  failJob,
  failUnfinishedJob,
  findJob,
  findJobOrThrow,
  insertJobUnlessUnfinished,
  listLatestJobs,
  listUnfinishedJobs,
  updateOwnedJob,
  type AssetMigrationJobRow,
} from "@/lib/repos/asset-migration-jobs";
import { countAssets } from "@/lib/repos/assets";

/**
 * `yardstick assets migrate --to s3` as a job (docs/media.md): an admin starts it
 * (POST /api/admin/assets/migrate), which records an AssetMigrationJob row and sends it to the
 * queue "asset-migration" (lib/jobs/queue.ts); exactly one worker (in any app instance, or
 * `npm run worker`) runs it with the S3 settings of its own environment, writing its progress to
 * the row, which any instance reads (GET /api/admin/assets/migrate/jobs/<id>).
 *
 * One migration at a time: starting one while another is queued or running returns that one.
 * Resumable: the migration (lib/assets/migrate.ts) skips assets marked as in the bucket and marks an
 * object it finds there with the right sha256 without uploading it again, so an attempt that dies
 * (its worker killed, the database or the bucket gone) is retried by the queue with backoff and
 * goes on where the last one stopped. An attempt that ends with assets that did not verify fails
 * too, so that they are tried again; after the queue's last retry the job ends FAILED with the
 * report. Each attempt owns the row (`runner`): writes of an older one are ignored.
 */

/** progress is written at most this often (and when the attempt ends) */
const PROGRESS_EVERY_MS = 500;
const MAX_KEPT_FAILURES = 100;
const STOPPED_MESSAGE =
  "The migration stopped: its workers died or lost the database on every attempt the job queue allows. Assets verified in the bucket so far are marked; start it again to go on.";

export interface AssetMigrationFailure {
  hash: string;
  reason: string;
}

export interface AssetMigrationJobView {
  id: string;
  target: "s3";
  clearPostgres: boolean;
  status: BackgroundJobStatus;
  /** assets in the database (when the latest attempt started) */
  total: number;
  /** assets in the bucket or given up: already there when the job started, copied, found there, failed */
  done: number;
  /** done / total, 0-1; null before the job counted */
  progress: number | null;
  alreadyMigrated: number;
  copied: number;
  foundInBucket: number;
  bytesCopied: number;
  failed: number;
  failures: AssetMigrationFailure[];
  cleared: number;
  message: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

type JobRow = AssetMigrationJobRow;

function failuresOf(value: unknown): AssetMigrationFailure[] {
  return Array.isArray(value) ? (value as AssetMigrationFailure[]) : [];
}

function viewOf(row: JobRow): AssetMigrationJobView {
  const done = row.alreadyMigrated + row.copied + row.foundInBucket + row.failed;
  return {
    id: row.id,
    target: "s3",
    clearPostgres: row.clearPostgres,
    status: row.status,
    total: row.total,
    done,
    progress: row.status === "SUCCEEDED" ? 1 : row.total > 0 ? Math.min(1, done / row.total) : null,
    alreadyMigrated: row.alreadyMigrated,
    copied: row.copied,
    foundInBucket: row.foundInBucket,
    bytesCopied: Number(row.bytesCopied),
    failed: row.failed,
    failures: failuresOf(row.failures),
    cleared: row.cleared,
    message: row.message,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * A job that is unfinished, whose heartbeat is old, and that the queue has given up (its workers
 * died on every attempt) reads as FAILED and is marked so; any other job is as it is.
 */
async function settleAbandoned(row: JobRow): Promise<JobRow> {
  if ((row.status !== "RUNNING" && row.status !== "QUEUED") || !row.bossJobId) return row;
  const lastSign = row.heartbeatAt ?? row.createdAt;
  if (Date.now() - lastSign.getTime() < EXPIRE_SECONDS * 1000) return row;
  if ((await queueGaveUp(QUEUES.assetMigration.name, row.bossJobId)) !== true) return row;
  const data = { status: "FAILED", message: STOPPED_MESSAGE, finishedAt: new Date() } as const;
  await failUnfinishedJob(row.id, data);
  return { ...row, ...data };
}

/**
 * Starts migrating every asset to the S3 bucket in the background (the S3 settings must be set on
 * the server: 409 otherwise), or returns the migration already queued or running (`created`
 * false). The start is written to the audit log.
 */
export async function startAssetMigrationJob(input: {
  clearPostgres: boolean;
  actorId: string | null;
}): Promise<{ job: AssetMigrationJobView; created: boolean }> {
  try {
    s3Settings();
  } catch (error) {
    throw new AppError(
      "CONFLICT",
      `${error instanceof Error ? error.message : String(error)}: the workers migrate to the bucket their environment names (docs/media.md)`,
    );
  }
  // an unfinished job that the queue gave up (its workers died on every attempt) is over: it does not hold the place
  for (const unfinished of await listUnfinishedJobs()) await settleAbandoned(unfinished);
  const bossJobId = newJobId();
  const { row, created } = await insertJobUnlessUnfinished({ clearPostgres: input.clearPostgres, actorId: input.actorId, bossJobId });
  if (!created) return { job: viewOf(await settleAbandoned(row)), created };
  try {
    await enqueue(QUEUES.assetMigration, bossJobId, { assetMigrationJobId: row.id });
  } catch (error) {
    await failJob(row.id, "The job queue did not take the migration; nothing was done.");
    throw new AppError(
      "UNAVAILABLE",
      `The job queue did not take the migration; nothing was done. Try again in a minute. (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return { job: viewOf(row), created };
}

/** A migration job's progress and outcome, from any instance. */
export async function getAssetMigrationJob(id: string): Promise<AssetMigrationJobView> {
  const row = await findJob(id);
  if (!row) throw new AppError("NOT_FOUND", `No asset migration job ${id}`);
  return viewOf(await settleAbandoned(row));
}

/** The latest migration jobs (newest first) and where the assets are now. */
export async function listAssetMigrationJobs(take = 10): Promise<{ jobs: AssetMigrationJobView[]; assets: Awaited<ReturnType<typeof countAssets>> }> {
  const [rows, assets] = await Promise.all([listLatestJobs(take), countAssets()]);
  return { jobs: await Promise.all(rows.map(async (row) => viewOf(await settleAbandoned(row)))), assets };
}

/** What tests may hook into: called after each asset an attempt looked at (a throw fails the attempt). */
export interface AssetMigrationHooks {
  onAsset?: (progress: MigrateProgress, context: JobContext) => void | Promise<void>;
}

const jobData = z.object({ assetMigrationJobId: z.string().min(1).max(100) });

/** The queue's handler (lib/jobs/handlers.ts). */
export function handleAssetMigrationJob(data: unknown, context: JobContext): Promise<{ status: string }> {
  return runAssetMigrationJob(data, context);
}

/** Runs one attempt of a migration job; throws to have the queue retry it (with backoff). */
export async function runAssetMigrationJob(data: unknown, context: JobContext, hooks: AssetMigrationHooks = {}): Promise<{ status: string }> {
  const { assetMigrationJobId: id } = jobData.parse(data);
  const runner = attemptId(context);
  if (!(await claimJob(id, runner))) return { status: "already ended" };
  const owned = { id, runner, status: "RUNNING" } as const;
  const row = await findJobOrThrow(id);

  let settings;
  try {
    settings = s3Settings();
  } catch (error) {
    // the worker's environment cannot reach a bucket: no retry helps until it is configured
    await updateOwnedJob(owned, {
      status: "FAILED",
      message: `This worker has no S3 settings: ${error instanceof Error ? error.message : String(error)}`,
      finishedAt: new Date(),
    });
    return { status: "failed" };
  }

  const counts = await countAssets();
  await updateOwnedJob(owned, { total: counts.total, ...(row.attempts === 1 ? { alreadyMigrated: counts.inObjectStore } : {}) });
  const base = { copied: row.copied, foundInBucket: row.foundInBucket, bytesCopied: Number(row.bytesCopied) };
  let progress: MigrateProgress = { done: 0, copied: 0, foundInBucket: 0, failed: 0, bytesCopied: 0 };
  let failures: AssetMigrationFailure[] = [];
  let lastWrite = 0;
  const lost = new AbortController();
  context.signal.addEventListener("abort", () => lost.abort(), { once: true });
  const write = async (extra: Prisma.AssetMigrationJobUpdateManyMutationInput = {}) => {
    if (lost.signal.aborted) return;
    lastWrite = Date.now();
    const written = await updateOwnedJob(owned, {
      copied: base.copied + progress.copied,
      foundInBucket: base.foundInBucket + progress.foundInBucket,
      bytesCopied: BigInt(base.bytesCopied + progress.bytesCopied),
      failed: progress.failed,
      failures: failures.slice(0, MAX_KEPT_FAILURES) as unknown as Prisma.InputJsonValue,
      heartbeatAt: new Date(),
      ...extra,
    });
    // another attempt owns the job now (this one was taken for dead): stop
    if (!written) lost.abort();
  };

  try {
    const result = await migrateAssetsToS3(settings, {
      clearPostgres: row.clearPostgres,
      signal: lost.signal,
      onAsset: async (now) => {
        progress = now;
        if (Date.now() - lastWrite >= PROGRESS_EVERY_MS) await write();
        await hooks.onAsset?.(now, context);
      },
    });
    failures = result.failed;
    progress = { ...progress, failed: result.failed.length, bytesCopied: result.bytesCopied, copied: result.copied, foundInBucket: result.foundInBucket };
    if (result.failed.length > 0 && !context.lastAttempt) {
      await write({ message: result.message });
      throw new Error(`${result.failed.length} assets did not migrate; the queue tries them again`);
    }
    await write({ status: result.failed.length > 0 ? "FAILED" : "SUCCEEDED", cleared: result.cleared, message: result.message, finishedAt: new Date() });
    return { status: result.failed.length > 0 ? "failed" : "succeeded" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // progress so far stays; the last attempt records the end
    await write(
      context.lastAttempt
        ? {
            status: "FAILED",
            message: `The migration stopped: ${message}. Assets verified in the bucket so far are marked; start it again to go on.`,
            finishedAt: new Date(),
          }
        : {},
    ).catch(() => undefined);
    throw error;
  }
}
