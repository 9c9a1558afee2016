import "server-only";
import { z } from "zod";
import { AppError, toResponse } from "@/lib/errors";
import type { JobContext } from "@/lib/jobs/types";
import { enqueue, EXPIRE_SECONDS, jobState, newJobId, QUEUES } from "@/lib/jobs/queue";
import { importBatch } from "@/lib/import/import-batch";
import { readBatchSource } from "@/lib/import/source";
import type { ImportProgress, ImportResult } from "@/lib/import/types";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  findImportJob,
  findImportJobToRun,
  finishImportJob,
  insertImportJob,
  insertUploadPart,
  listUploadParts,
  readUploadPart,
  updateRunningImportJob,
  type ImportJobRow,
} from "@/lib/repos/import-jobs";
import { findStudyRefBySlug } from "@/lib/repos/studies";
import { assertMayManageStudy, type StudyActor } from "@/lib/studies/managers";

/**
 * Imports uploaded from the admin page run as jobs on the job queue (queue "import",
 * lib/jobs/queue.ts): the upload request stores the zip (ImportUpload) with an ImportJob row and
 * sends the job; whichever worker takes it (in any app instance, or `npm run worker`) runs the
 * import, writing its phase and progress to the row, which the import page polls from any process
 * (GET /api/admin/import/jobs/<id>). The import itself is the same all-or-nothing importBatch; a
 * job ends SUCCEEDED with its ImportResult or FAILED with the error the API would have answered
 * (status and body), and its upload is deleted. A job whose worker died is run again by another
 * (pg-boss retries it; the import is all or nothing, so a second run is safe); after the queue's
 * last retry it is reported FAILED ("nothing was imported"). The CLI imports inline.
 */

/** progress is written at most this often (and at each phase change) */
const PROGRESS_EVERY_MS = 500;
/** how often a request waiting for its import's outcome looks at the row */
const WAIT_POLL_MS = 250;

export type ImportJobOutcome =
  | { ok: true; httpStatus: number; result: ImportResult }
  | { ok: false; httpStatus: number; error: string; code?: string; details?: unknown; retryAfter?: string };

export interface ImportJobView {
  id: string;
  studySlug: string;
  fileName: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  phase: string;
  done: number;
  total: number;
  outcome: ImportJobOutcome | null;
  createdAt: string;
}

const STOPPED_MESSAGE =
  "The import stopped: the workers that ran it died or lost the database, and it was retried as often as the job queue allows. Nothing was imported (an import is all or nothing): import the batch again.";

type JobRow = ImportJobRow;

function viewOf(row: JobRow): ImportJobView {
  return {
    id: row.id,
    studySlug: row.studySlug,
    fileName: row.fileName,
    status: row.status,
    phase: row.phase,
    done: row.done,
    total: row.total,
    outcome: (row.result as ImportJobOutcome | null) ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function outcomeOfError(error: unknown): Promise<ImportJobOutcome> {
  const response = toResponse(error);
  const body = (await response.json()) as { error?: string; code?: string; details?: unknown };
  const retryAfter = response.headers.get("retry-after");
  return {
    ok: false,
    httpStatus: response.status,
    error: body.error ?? "The import failed",
    ...(body.code ? { code: body.code } : {}),
    ...(body.details !== undefined ? { details: body.details } : {}),
    ...(retryAfter ? { retryAfter } : {}),
  };
}

/**
 * Starts importing an uploaded zip into a study: stores the upload and queues the job. Throws
 * NOT_FOUND at once for an unknown study, UNAVAILABLE when the job queue does not take the job;
 * everything else is the job's outcome. `finished` settles when the job ends (whichever worker
 * runs it); it rejects only when the database cannot be read.
 */
export async function startImportJob(input: {
  zip: Buffer;
  fileName: string;
  studySlug: string;
  actorId: string | null;
  /** who imports, when a person through the API: an admin or the study's owner (lib/studies/managers.ts); absent: the caller checked */
  actor?: StudyActor;
  /** import the good entries, skip and list the bad (importBatch's skipInvalid) */
  skipInvalid?: boolean;
  /** import release questions without the media the batch lacks (importBatch's textOnly) */
  textOnly?: boolean;
}): Promise<{ job: ImportJobView; finished: Promise<ImportJobView> }> {
  if (input.actor) await assertMayManageStudy(input.studySlug, input.actor, "import batches into");
  const study = await findStudyRefBySlug(input.studySlug);
  if (!study) throw new AppError("NOT_FOUND", `study ${JSON.stringify(input.studySlug)} not found`);
  const bossJobId = newJobId();
  const row = await insertImportJob({
    studyId: study.id,
    studySlug: study.slug,
    fileName: input.fileName,
    createdById: input.actorId,
    phase: "queued",
    bossJobId,
    skipInvalid: input.skipInvalid === true,
    textOnly: input.textOnly === true,
  });
  try {
    await storeUpload(row.id, input.zip);
  } catch (error) {
    // the job never started: its row says so, and the parts written go with it
    await finish(row.id, {
      ok: false,
      httpStatus: 503,
      error: "The upload could not be stored; nothing was imported. Try again in a minute.",
      code: "UNAVAILABLE",
    }).catch(() => undefined);
    throw error;
  }
  try {
    await enqueue(QUEUES.import, bossJobId, { importJobId: row.id });
  } catch (error) {
    const outcome: ImportJobOutcome = {
      ok: false,
      httpStatus: 503,
      error: "The job queue did not take the import; nothing was imported. Try again in a minute.",
      code: "UNAVAILABLE",
    };
    await finish(row.id, outcome).catch(() => undefined);
    throw new AppError("UNAVAILABLE", `${outcome.error} (${error instanceof Error ? error.message : String(error)})`);
  }
  return { job: viewOf(row), finished: waitForImportJob(row.id) };
}

/**
 * An upload's bytes per statement. On the embedded database one statement holds the one session
 * every request shares (a 23 MB upload written whole held it about 8 s, read back about 4 s): in
 * parts, the requests go on between them.
 */
export const IMPORT_UPLOAD_PART_BYTES = 1024 * 1024;

/** Stores an upload in parts, one statement each (read back whole by uploadOf). */
export async function storeUpload(jobId: string, zip: Buffer): Promise<void> {
  for (let part = 0; part * IMPORT_UPLOAD_PART_BYTES < Math.max(zip.length, 1); part++) {
    const bytes = new Uint8Array(zip.subarray(part * IMPORT_UPLOAD_PART_BYTES, (part + 1) * IMPORT_UPLOAD_PART_BYTES));
    await insertUploadPart(jobId, part, bytes);
  }
}

/** A stored upload, part by part (one statement each), or null when none is stored. */
async function uploadOf(jobId: string): Promise<Buffer | null> {
  const parts = await listUploadParts(jobId);
  if (parts.length === 0) return null;
  const chunks: Buffer[] = [];
  for (const { part } of parts) {
    const row = await readUploadPart(jobId, part);
    if (!row) return null;
    chunks.push(Buffer.from(row.bytes));
  }
  return Buffer.concat(chunks);
}

/** Resolves when the job has ended, with its view. */
export async function waitForImportJob(id: string): Promise<ImportJobView> {
  for (;;) {
    const view = await getImportJob(id);
    if (view.status !== "RUNNING") return view;
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

/** Records a job's outcome once (a second worker's late outcome changes nothing) and drops its upload. */
async function finish(id: string, outcome: ImportJobOutcome): Promise<void> {
  const data = {
    status: outcome.ok ? "SUCCEEDED" : "FAILED",
    phase: "done",
    result: outcome as unknown as Prisma.InputJsonValue,
    finishedAt: new Date(),
    heartbeatAt: new Date(),
  } as const;
  await finishImportJob(id, data);
}

const importJobData = z.object({ importJobId: z.string().min(1).max(100) });

/** The queue's handler (lib/jobs/handlers.ts): runs the import of one ImportJob row. */
export async function handleImportJob(data: unknown, context: JobContext): Promise<{ status: string }> {
  const { importJobId: id } = importJobData.parse(data);
  const row = await findImportJobToRun(id);
  if (!row || row.status !== "RUNNING") return { status: "already ended" };
  const upload = await uploadOf(id);
  if (!upload) {
    await finish(id, { ok: false, httpStatus: 503, error: STOPPED_MESSAGE, code: "UNAVAILABLE" });
    return { status: "no upload" };
  }
  let lastWrite = 0;
  let lastPhase = "";
  let latest: ImportProgress | null = null;
  const onProgress = async (progress: ImportProgress) => {
    latest = progress;
    const now = Date.now();
    if (progress.phase === lastPhase && now - lastWrite < PROGRESS_EVERY_MS) return;
    lastPhase = progress.phase;
    lastWrite = now;
    // progress is a courtesy: a failed write must not fail the import
    await updateRunningImportJob(id, { phase: progress.phase, done: progress.done, total: progress.total, heartbeatAt: new Date() }).catch(() => undefined);
  };
  await updateRunningImportJob(id, { phase: "reading", heartbeatAt: new Date() });
  let outcome: ImportJobOutcome;
  try {
    const source = await readBatchSource({ zip: upload, fileName: row.fileName });
    const result = await importBatch({
      source,
      studyId: row.studyId,
      importedById: row.createdById,
      onProgress,
      skipInvalid: row.skipInvalid,
      textOnly: row.textOnly,
    });
    // the last progress (everything written) may have fallen between two throttled writes: the job shows it, not an earlier count
    const last = latest as ImportProgress | null;
    if (last) await updateRunningImportJob(id, { phase: last.phase, done: last.done, total: last.total, heartbeatAt: new Date() }).catch(() => undefined);
    outcome = { ok: true, httpStatus: result.status === "imported" ? 201 : 200, result };
  } catch (error) {
    outcome = await outcomeOfError(error);
    // the database was unavailable: nothing was written, so the queue tries again later (with backoff)
    if (outcome.httpStatus === 503 && !context.lastAttempt) throw error;
  }
  // when this fails (the database is gone), the job fails and is retried: the import is a no-op then
  await finish(id, outcome);
  return { status: outcome.ok ? "succeeded" : "failed" };
}

/**
 * A job as the import page shows it. A RUNNING job whose heartbeat is old is looked up in the
 * queue: when the queue has given it up (its workers died on every attempt), it reads as FAILED
 * (and is marked so).
 */
export async function getImportJob(id: string): Promise<ImportJobView> {
  const row = await findImportJob(id);
  if (!row) throw new AppError("NOT_FOUND", `No import job ${id}`);
  if (row.status === "RUNNING" && Date.now() - row.heartbeatAt.getTime() > EXPIRE_SECONDS * 1000) {
    const queued = row.bossJobId ? await jobState(QUEUES.import.name, row.bossJobId).catch(() => undefined) : null;
    // undefined: the queue cannot be asked now; the job may still be running
    if (queued === null || (queued && (queued.state === "failed" || queued.state === "cancelled" || queued.state === "completed"))) {
      const outcome: ImportJobOutcome = { ok: false, httpStatus: 503, error: STOPPED_MESSAGE, code: "UNAVAILABLE" };
      await finish(id, outcome);
      return { ...viewOf(row), status: "FAILED", phase: "done", outcome };
    }
  }
  return viewOf(row);
}

/** getImportJob for a caller: admins read every job; anyone else only the jobs they started (another's reads as not found). */
export async function getImportJobFor(id: string, actor: StudyActor): Promise<ImportJobView> {
  if (actor.role !== "ADMIN") {
    const row = await findImportJob(id);
    if (!row || row.createdById !== actor.id) throw new AppError("NOT_FOUND", `No import job ${id}`);
  }
  return getImportJob(id);
}
