import "server-only";
import { db } from "@/lib/db";
import { AppError, toResponse } from "@/lib/errors";
import { importBatch } from "@/lib/import/import-batch";
import { readBatchSource } from "@/lib/import/source";
import type { ImportProgress, ImportResult } from "@/lib/import/types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Imports uploaded from the admin page run as jobs: the upload request creates an ImportJob row
 * and the import goes on in the background of the process that received the zip (it holds the
 * bytes), writing its phase and progress to the row, which the import page polls from any process
 * (GET /api/admin/import/jobs/<id>). The import itself is the same all-or-nothing importBatch; a
 * job ends SUCCEEDED with its ImportResult or FAILED with the error the API would have answered
 * (status and body). A job whose process died stops renewing its heartbeat and is reported FAILED
 * ("nothing was imported": the transaction never committed). The CLI imports inline.
 */

/** how often a running job renews its heartbeat, and when one without a renewal is taken for dead */
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 60_000;
/** progress is written at most this often (and at each phase change) */
const PROGRESS_EVERY_MS = 500;

export type ImportJobOutcome = { ok: true; httpStatus: number; result: ImportResult } | { ok: false; httpStatus: number; error: string; code?: string; details?: unknown; retryAfter?: string };

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

const STOPPED_MESSAGE = "The import stopped when the server restarted. Nothing was imported (an import is all or nothing): import the batch again.";

type JobRow = Prisma.ImportJobGetPayload<object>;

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
 * Starts importing an uploaded zip into a study. Throws NOT_FOUND at once for an unknown study;
 * everything else is the job's outcome. `finished` settles (never rejects) when the job ends.
 */
export async function startImportJob(input: { zip: Buffer; fileName: string; studySlug: string; actorId: string | null }): Promise<{ job: ImportJobView; finished: Promise<ImportJobView> }> {
  const study = await db.study.findUnique({ where: { slug: input.studySlug }, select: { id: true, slug: true } });
  if (!study) throw new AppError("NOT_FOUND", `study ${JSON.stringify(input.studySlug)} not found`);
  const row = await db.importJob.create({ data: { studyId: study.id, studySlug: study.slug, fileName: input.fileName, createdById: input.actorId } });
  const finished = runImportJob(row.id, study.id, input);
  return { job: viewOf(row), finished };
}

async function runImportJob(id: string, studyId: string, input: { zip: Buffer; fileName: string; actorId: string | null }): Promise<ImportJobView> {
  const heartbeat = setInterval(() => {
    db.importJob.updateMany({ where: { id, status: "RUNNING" }, data: { heartbeatAt: new Date() } }).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref?.();
  let lastWrite = 0;
  let lastPhase = "";
  const onProgress = async (progress: ImportProgress) => {
    const now = Date.now();
    if (progress.phase === lastPhase && now - lastWrite < PROGRESS_EVERY_MS) return;
    lastPhase = progress.phase;
    lastWrite = now;
    // progress is a courtesy: a failed write must not fail the import
    await db.importJob
      .updateMany({ where: { id, status: "RUNNING" }, data: { phase: progress.phase, done: progress.done, total: progress.total, heartbeatAt: new Date() } })
      .catch(() => undefined);
  };
  let outcome: ImportJobOutcome;
  try {
    const source = await readBatchSource({ zip: input.zip, fileName: input.fileName });
    const result = await importBatch({ source, studyId, importedById: input.actorId, onProgress });
    outcome = { ok: true, httpStatus: result.status === "imported" ? 201 : 200, result };
  } catch (error) {
    outcome = await outcomeOfError(error);
  } finally {
    clearInterval(heartbeat);
  }
  const status = outcome.ok ? "SUCCEEDED" : "FAILED";
  const data = { status, phase: "done", result: outcome as unknown as Prisma.InputJsonValue, finishedAt: new Date(), heartbeatAt: new Date() } as const;
  try {
    return viewOf(await db.importJob.update({ where: { id }, data }));
  } catch (error) {
    // the database is gone for now: the caller still learns the outcome; the row goes stale and reads as stopped
    console.error(`import job ${id}: could not store its outcome:`, error instanceof Error ? error.message : error);
    const fallback: ImportJobView = { id, studySlug: "", fileName: input.fileName, status, phase: "done", done: 0, total: 0, outcome, createdAt: new Date().toISOString() };
    return fallback;
  }
}

/** A job as the import page shows it; a RUNNING job whose process died reads as FAILED (and is marked so). */
export async function getImportJob(id: string): Promise<ImportJobView> {
  const row = await db.importJob.findUnique({ where: { id } });
  if (!row) throw new AppError("NOT_FOUND", `No import job ${id}`);
  if (row.status === "RUNNING" && Date.now() - row.heartbeatAt.getTime() > STALE_AFTER_MS) {
    const outcome: ImportJobOutcome = { ok: false, httpStatus: 503, error: STOPPED_MESSAGE, code: "UNAVAILABLE" };
    await db.importJob.updateMany({ where: { id, status: "RUNNING", heartbeatAt: row.heartbeatAt }, data: { status: "FAILED", phase: "done", result: outcome as unknown as Prisma.InputJsonValue, finishedAt: new Date() } });
    return { ...viewOf(row), status: "FAILED", phase: "done", outcome };
  }
  return viewOf(row);
}
