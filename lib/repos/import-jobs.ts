import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for imports run as jobs (ImportJob, and the uploaded zip in ImportUpload parts).
 * Queueing, running and reporting them are lib/import/jobs.ts's.
 */

export type ImportJobRow = Prisma.ImportJobGetPayload<object>;

export async function insertImportJob(data: {
  studyId: string;
  studySlug: string;
  fileName: string;
  createdById: string | null;
  phase: string;
  bossJobId: string;
  skipInvalid?: boolean;
  textOnly?: boolean;
}): Promise<ImportJobRow> {
  return db.importJob.create({ data });
}

export async function findImportJob(id: string): Promise<ImportJobRow | null> {
  return db.importJob.findUnique({ where: { id } });
}

/** What a worker needs to run the job. */
export async function findImportJobToRun(id: string): Promise<{
  status: ImportJobRow["status"];
  studyId: string;
  fileName: string;
  createdById: string | null;
  skipInvalid: boolean;
  textOnly: boolean;
} | null> {
  return db.importJob.findUnique({
    where: { id },
    select: { status: true, studyId: true, fileName: true, createdById: true, skipInvalid: true, textOnly: true },
  });
}

/** Writes to the job while it is RUNNING. */
export async function updateRunningImportJob(id: string, data: { phase: string; done?: number; total?: number; heartbeatAt: Date }): Promise<void> {
  await db.importJob.updateMany({ where: { id, status: "RUNNING" }, data });
}

/** Records the job's outcome unless it has one already, and drops its upload, in one transaction. */
export async function finishImportJob(id: string, data: Prisma.ImportJobUpdateManyMutationInput): Promise<void> {
  await db.$transaction([db.importJob.updateMany({ where: { id, status: "RUNNING" }, data }), db.importUpload.deleteMany({ where: { jobId: id } })]);
}

export async function insertUploadPart(jobId: string, part: number, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  await db.importUpload.create({ data: { jobId, part, bytes } });
}

/** The parts of the job's upload, in order. */
export async function listUploadParts(jobId: string): Promise<Array<{ part: number }>> {
  return db.importUpload.findMany({ where: { jobId }, orderBy: { part: "asc" }, select: { part: true } });
}

export async function readUploadPart(jobId: string, part: number): Promise<{ bytes: Uint8Array } | null> {
  return db.importUpload.findUnique({ where: { jobId_part: { jobId, part } }, select: { bytes: true } });
}
