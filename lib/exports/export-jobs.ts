import "server-only";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { z } from "zod";
import type { AssetStoreKind } from "@/lib/assets/config";
import { deleteFile, fileStorage, readFile, writeFile } from "@/lib/assets/files";
import { rangedResponse } from "@/lib/assets/serve";
import { recordAudit } from "@/lib/audit/log";
import type { Tx } from "@/lib/db/client-types";
import { AppError } from "@/lib/errors";
import type { JobContext } from "@/lib/jobs/types";
import { attemptId, enqueue, EXPIRE_SECONDS, newJobId, QUEUES, queueGaveUp } from "@/lib/jobs/queue";
import { exportTableCounts } from "@/lib/exports/counts";
import {
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  EXPORT_KINDS,
  exportFileName,
  type ExportFilter,
  type ExportFormat,
  type ExportWhat,
} from "@/lib/exports/filter";
import type { ExportJobStatus, ExportJobView } from "@/lib/exports/job-view";
import { createStudyExport } from "@/lib/exports/study-export";
import {
  claimExportJob,
  discardExportsOfStudy,
  failExportJob,
  failUnfinishedExportJob,
  findExportJob,
  findExportJobOrThrow,
  findExportJobStart,
  insertExportJob,
  listExpiredExportFiles,
  listExportJobsOfStudy,
  listUnfinishedExportJobs,
  lockExportJobsOfStudy,
  markExportFileDeleted,
  updateOwnedExportJob,
  type ExportJobRow,
} from "@/lib/repos/export-jobs";
import { findStudyRefBySlug } from "@/lib/repos/studies";
import { inTransaction } from "@/lib/repos/transactions";
import { findUserNames } from "@/lib/repos/users";

/**
 * Exports prepared in the background (docs/exports.md): for a large study, a researcher asks for a
 * table (POST /api/studies/<slug>/export-jobs) and gets a job at once; exactly one worker (any app
 * instance, or `npm run worker`; queue "export", lib/jobs/queue.ts) streams the same bytes as the
 * direct export (lib/exports/study-export.ts) into the file store (lib/assets/files.ts: PostgreSQL
 * or the S3 bucket, as ASSET_STORE says) under a key of the job and attempt, never holding the file
 * in memory, and records its size, row count and sha256. The Exports tab lists the study's jobs
 * with their progress (rows written of the table's rows when it started) and serves a finished
 * file with HTTP Range (GET .../export-jobs/<id>/download), to the same people as the direct
 * export. Starting a job and every download are audit-logged.
 *
 * A file is kept EXPORT_RETENTION_DAYS (YARDSTICK_EXPORT_RETENTION_DAYS, default 7) after it is
 * made, then removed: by a job queued for that moment, and by a sweep at every export job and
 * whenever a worker starts. An attempt that dies is retried by the queue (with backoff) and writes
 * the file again from the start under its own key; it removes the previous attempt's partial file.
 * Each attempt owns the row (`runner`): writes of an older one are ignored.
 */

const PROGRESS_EVERY_MS = 500;
const STOPPED_MESSAGE = "The export stopped: its workers died or lost the database on every attempt the job queue allows. Prepare it again.";

/** Days a prepared file is kept (YARDSTICK_EXPORT_RETENTION_DAYS, default 7). */
export function exportRetentionDays(env: Record<string, string | undefined> = process.env): number {
  const days = Number(env.YARDSTICK_EXPORT_RETENTION_DAYS ?? "");
  return Number.isFinite(days) && days > 0 ? days : 7;
}

export type { ExportJobStatus, ExportJobView };

type JobRow = ExportJobRow;

function isExpired(row: Pick<JobRow, "status" | "deletedAt" | "expiresAt">, now = Date.now()): boolean {
  return row.status === "SUCCEEDED" && (row.deletedAt !== null || (row.expiresAt !== null && row.expiresAt.getTime() <= now));
}

function viewOf(row: JobRow, createdBy: string | null = null): ExportJobView {
  const expired = isExpired(row);
  const status: ExportJobStatus = expired ? "EXPIRED" : row.status;
  return {
    id: row.id,
    table: row.table as ExportWhat,
    format: row.format as ExportFormat,
    kind: row.kind,
    tag: row.tag,
    externalIds: row.externalIds === "pseudonymised" ? "pseudonymised" : "raw",
    status,
    totalRows: row.totalRows,
    rows: row.rows,
    progress:
      row.status === "SUCCEEDED"
        ? 1
        : row.status === "RUNNING" && row.totalRows > 0
          ? Math.min(1, row.rows / row.totalRows)
          : row.status === "RUNNING"
            ? 0
            : null,
    bytes: Number(row.bytes),
    sha256: row.sha256,
    fileName: row.fileName,
    error: row.error,
    attempts: row.attempts,
    createdBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    downloadUrl: status === "SUCCEEDED" ? `/api/studies/${row.study.slug}/export-jobs/${row.id}/download` : null,
  };
}

/** An unfinished job with an old heartbeat that the queue has given up reads as FAILED (and is marked so). */
async function settleAbandoned(row: JobRow): Promise<JobRow> {
  if ((row.status !== "RUNNING" && row.status !== "QUEUED") || !row.bossJobId) return row;
  if (Date.now() - (row.heartbeatAt ?? row.createdAt).getTime() < EXPIRE_SECONDS * 1000) return row;
  if ((await queueGaveUp(QUEUES.export.name, row.bossJobId)) !== true) return row;
  const data = { status: "FAILED", error: STOPPED_MESSAGE, finishedAt: new Date() } as const;
  await failUnfinishedExportJob(row.id, data);
  return { ...row, ...data };
}

async function studyOf(slug: string): Promise<{ id: string; slug: string }> {
  const study = await findStudyRefBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

async function creatorNames(rows: JobRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((row) => row.createdById).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const users = await findUserNames(ids);
  return new Map(users.map((user) => [user.id, user.name]));
}

export interface ExportJobRequest {
  table: ExportWhat;
  format: ExportFormat;
  filter: ExportFilter;
  externalIds?: "raw" | "pseudonymised";
}

/**
 * Unfinished (queued or running) export jobs a study may have at once, per person and in all: each
 * reads a whole table and holds a worker, so a loop of POSTs would otherwise fill the queue.
 */
export const EXPORT_JOB_CAPS = { perUser: 3, perStudy: 10 } as const;

/** Refuses a new job past EXPORT_JOB_CAPS (429); call inside the transaction that creates it, which holds the study's lock. */
async function assertExportJobRoom(tx: Tx, studyId: string, actorId: string | null): Promise<void> {
  await lockExportJobsOfStudy(tx, studyId);
  const open = await listUnfinishedExportJobs(tx, studyId);
  // a job the queue gave up on holds no place
  const unfinished = (await Promise.all(open.map(settleAbandoned))).filter((row) => row.status === "QUEUED" || row.status === "RUNNING");
  const wait = { reason: "export-jobs", retryAfterSeconds: 30 };
  if (actorId !== null && unfinished.filter((row) => row.createdById === actorId).length >= EXPORT_JOB_CAPS.perUser) {
    throw new AppError(
      "RATE_LIMITED",
      `${EXPORT_JOB_CAPS.perUser} exports of this study are being prepared for you already: wait for one to finish, then ask again.`,
      wait,
    );
  }
  if (unfinished.length >= EXPORT_JOB_CAPS.perStudy) {
    throw new AppError(
      "RATE_LIMITED",
      `${EXPORT_JOB_CAPS.perStudy} exports of this study are being prepared already: wait for one to finish, then ask again.`,
      wait,
    );
  }
}

/**
 * Queues the export of one table of a study (researchers and admins: the route checks) and
 * writes the audit entry of the export. NOT_FOUND for an unknown study; RATE_LIMITED past
 * EXPORT_JOB_CAPS; UNAVAILABLE when the job queue does not take the job.
 */
export async function startExportJob(studySlug: string, request: ExportJobRequest, actorId: string | null): Promise<ExportJobView> {
  const study = await studyOf(studySlug);
  const bossJobId = newJobId();
  const externalIds = request.externalIds === "pseudonymised" ? "pseudonymised" : "raw";
  const row = await inTransaction(async (tx) => {
    await assertExportJobRoom(tx, study.id, actorId);
    return insertExportJob(tx, {
      studyId: study.id,
      table: request.table,
      format: request.format,
      kind: request.filter.kind ?? null,
      tag: request.filter.tag ?? null,
      externalIds,
      fileName: exportFileName(study.slug, request.table, request.format, request.filter),
      contentType: EXPORT_CONTENT_TYPES[request.format],
      createdById: actorId,
      bossJobId,
    });
  });
  await recordAudit(actorId, "study.export", `study:${study.id}`, {
    slug: study.slug,
    what: request.table,
    format: request.format,
    kind: request.filter.kind ?? null,
    tag: request.filter.tag ?? null,
    externalIds,
    background: true,
    jobId: row.id,
  });
  try {
    await enqueue(QUEUES.export, bossJobId, { exportJobId: row.id });
  } catch (error) {
    await failExportJob(row.id, "The job queue did not take the export.");
    throw new AppError(
      "UNAVAILABLE",
      `The job queue did not take the export; try again in a minute, or download it directly. (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return viewOf(row);
}

/** The study's export jobs, newest first. */
export async function listExportJobs(studySlug: string, take = 20): Promise<ExportJobView[]> {
  const study = await studyOf(studySlug);
  const rows = await listExportJobsOfStudy(study.id, take);
  const names = await creatorNames(rows);
  return Promise.all(rows.map(async (row) => viewOf(await settleAbandoned(row), row.createdById ? (names.get(row.createdById) ?? null) : null)));
}

async function jobRow(studySlug: string, id: string): Promise<JobRow> {
  const study = await studyOf(studySlug);
  const row = await findExportJob(id);
  // a job of another study is as unknown as none
  if (!row || row.studyId !== study.id) throw new AppError("NOT_FOUND", `No export job ${id} in the study "${studySlug}"`);
  return settleAbandoned(row);
}

/** One export job of the study, with its progress. */
export async function getExportJob(studySlug: string, id: string): Promise<ExportJobView> {
  const row = await jobRow(studySlug, id);
  const names = await creatorNames([row]);
  return viewOf(row, row.createdById ? (names.get(row.createdById) ?? null) : null);
}

/** The longest Range header an audit entry keeps: a real one is a span or two; a header may be 16 KB. */
const MAX_AUDITED_RANGE = 100;

function auditedRange(range: string | null): string | null {
  return range !== null && range.length > MAX_AUDITED_RANGE ? `${range.slice(0, MAX_AUDITED_RANGE - 1)}…` : range;
}

/**
 * GET .../export-jobs/<id>/download: the prepared file with HTTP Range (206), its sha256 as ETag;
 * 409 while it is not ready, 404 once it was removed (or for a job of another study). Every
 * download is audit-logged.
 */
export async function exportJobDownload(request: Request, studySlug: string, id: string, actorId: string | null): Promise<Response> {
  const row = await jobRow(studySlug, id);
  if (isExpired(row)) throw new AppError("NOT_FOUND", `The file of export job ${id} was removed after ${exportRetentionDays()} days; prepare it again`);
  if (row.status !== "SUCCEEDED" || !row.storage || !row.fileKey || !row.sha256) {
    throw new AppError("CONFLICT", `Export job ${id} is ${row.status.toLowerCase()}: its file is not ready`);
  }
  const file = { storage: row.storage as AssetStoreKind, key: row.fileKey, size: Number(row.bytes) };
  await recordAudit(actorId, "study.export.download", `study:${row.studyId}`, {
    slug: row.study.slug,
    jobId: row.id,
    what: row.table,
    format: row.format,
    kind: row.kind,
    tag: row.tag,
    externalIds: row.externalIds,
    range: auditedRange(request.headers.get("range")),
  });
  return rangedResponse(request, {
    size: file.size,
    etag: `"${row.sha256}"`,
    headers: {
      "content-type": row.contentType,
      "content-disposition": `attachment; filename="${row.fileName}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
    read: (span) => readFile(file, span),
    what: `the file of export job ${row.id}`,
  });
}

/**
 * Removes the files whose retention has ended (their jobs then read as EXPIRED); returns how many.
 * Any worker may run it at any time: removing a file twice is harmless, and a job is counted by
 * whoever marks it. A file whose removal fails stays marked as there, for the next sweep.
 */
export async function sweepExpiredExports(now = new Date()): Promise<number> {
  let removed = 0;
  let after = "";
  for (;;) {
    const due = await listExpiredExportFiles(now, after, 100);
    if (due.length === 0) return removed;
    after = due[due.length - 1].id;
    for (const row of due) {
      try {
        if (row.storage && row.fileKey) await deleteFile({ storage: row.storage, key: row.fileKey });
      } catch (error) {
        console.error(`export job ${row.id}: removing its file failed (the next sweep tries again):`, error instanceof Error ? error.message : error);
        continue;
      }
      if (await markExportFileDeleted(row.id)) removed += 1;
    }
  }
}

/**
 * For a withdrawal: the study's export files prepared so far may hold the person's answers. Inside
 * the withdrawal's transaction, prepared files are due for removal at once (their jobs read
 * EXPIRED) and running jobs fail (their attempts' writes are then ignored and they remove their
 * own files); queued jobs read the data after the withdrawal. Returns the files due; call
 * sweepExpiredExports after the commit to remove them (its next sweep retries one that fails).
 */
export async function discardStudyExports(tx: Tx, studyId: string, reason: string): Promise<number> {
  return discardExportsOfStudy(tx, studyId, `${reason}: prepare the export again.`);
}

/** A job's file key for one attempt: each attempt writes its own, so that a stale attempt cannot overwrite a newer one's file. */
function fileKeyOf(jobId: string, attempt: number, fileName: string): string {
  return `exports/${jobId}/${attempt}/${fileName}`;
}

const jobData = z.union([z.object({ exportJobId: z.string().min(1).max(100) }), z.object({ sweep: z.literal(true) })]);

/** What tests may hook into: called with the rows written so far, as each piece of the export is read (a throw fails the attempt). */
export interface ExportJobHooks {
  onRows?: (rows: number, context: JobContext) => void | Promise<void>;
}

/** The queue's handler (lib/jobs/handlers.ts). */
export function handleExportJob(data: unknown, context: JobContext): Promise<{ status: string }> {
  return runExportJob(data, context);
}

/** Runs one attempt of an export job (or the sweep queued for a file's expiry); throws to have the queue retry it. */
export async function runExportJob(data: unknown, context: JobContext, hooks: ExportJobHooks = {}): Promise<{ status: string }> {
  const parsed = jobData.parse(data);
  if ("sweep" in parsed) return { status: `${await sweepExpiredExports()} files removed` };
  const id = parsed.exportJobId;
  await sweepExpiredExports().catch((error: unknown) => console.error("export files: the sweep failed:", error instanceof Error ? error.message : error));

  const before = await findExportJobStart(id);
  if (!before || (before.status !== "QUEUED" && before.status !== "RUNNING")) return { status: "already ended" };
  const runner = attemptId(context);
  const storage = fileStorage();
  const key = fileKeyOf(id, context.attempt, before.fileName);
  if (!(await claimExportJob(id, runner, storage, key))) return { status: "already ended" };
  // the file a dead attempt left behind
  if (before.storage && before.fileKey && before.fileKey !== key) await deleteFile({ storage: before.storage, key: before.fileKey }).catch(() => undefined);

  const owned = { id, runner, status: "RUNNING" } as const;
  const row = await findExportJobOrThrow(id);
  const filter: ExportFilter = { kind: row.kind ?? undefined, tag: row.tag ?? undefined };
  const table = z.enum(EXPORT_KINDS).parse(row.table);
  const format = z.enum(EXPORT_FORMATS).parse(row.format);
  const lost = new AbortController();
  context.signal.addEventListener("abort", () => lost.abort(new Error("the export job is no longer this worker's")), { once: true });
  let rows = 0;
  let bytes = 0;
  let lastWrite = 0;
  const progress = async (force = false) => {
    if (lost.signal.aborted || (!force && Date.now() - lastWrite < PROGRESS_EVERY_MS)) return;
    lastWrite = Date.now();
    if (!(await updateOwnedExportJob(owned, { rows, bytes, heartbeatAt: new Date() }))) lost.abort(new Error("another attempt owns the export job"));
  };

  try {
    const totalRows = (await exportTableCounts(row.studyId, filter))[table];
    await updateOwnedExportJob(owned, { totalRows });
    const made = await createStudyExport(row.study.slug, table, format, filter, {
      externalIds: row.externalIds === "pseudonymised" ? "pseudonymised" : "raw",
      onRows: (n) => {
        rows += n;
      },
    });
    const stored = await writeFile(key, Readable.fromWeb(made.stream as NodeReadableStream<Uint8Array>), {
      contentType: row.contentType,
      signal: lost.signal,
      onBytes: async (written) => {
        bytes = written;
        await progress();
        await hooks.onRows?.(rows, context);
      },
    });
    const expiresAt = new Date(Date.now() + exportRetentionDays() * 86_400_000);
    const done = await updateOwnedExportJob(owned, {
      status: "SUCCEEDED",
      rows,
      bytes: stored.size,
      sha256: stored.sha256,
      storage: stored.storage,
      fileKey: stored.key,
      finishedAt: new Date(),
      heartbeatAt: new Date(),
      expiresAt,
    });
    if (!done) {
      // taken for dead meanwhile: the attempt that owns the job writes its own file
      await deleteFile(stored).catch(() => undefined);
      return { status: "superseded" };
    }
    // the file's removal, queued for its expiry (the sweeps at each job and worker start are the backstop)
    await enqueue(QUEUES.export, newJobId(), { sweep: true }, undefined, { startAfter: expiresAt }).catch((error: unknown) =>
      console.error(`export job ${id}: queueing the removal of its file failed:`, error instanceof Error ? error.message : error),
    );
    return { status: "succeeded" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await progress(true).catch(() => undefined);
    // the last attempt records the failure; earlier ones leave the job running for the retry
    if (context.lastAttempt)
      await updateOwnedExportJob(owned, { status: "FAILED", error: `The export failed: ${message}`, finishedAt: new Date() }).catch(() => undefined);
    throw error;
  }
}
