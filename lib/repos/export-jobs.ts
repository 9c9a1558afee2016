import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for exports prepared in the background (ExportJob). Queueing, running, serving and
 * removing them are lib/exports/export-jobs.ts's. An attempt owns the row while `runner` is its
 * own: its writes go through `updateOwnedExportJob`, which changes nothing once another attempt
 * took over.
 */

const jobInclude = { study: { select: { slug: true } } } as const;
export type ExportJobRow = Prisma.ExportJobGetPayload<{ include: typeof jobInclude }>;

/** Who owns a running job: the row is changed only while it is still RUNNING under this runner. */
export interface ExportJobOwner {
  id: string;
  runner: string;
  status: "RUNNING";
}

/** Ends an unfinished job as FAILED with the error (a finished one stays as it is). */
export async function failUnfinishedExportJob(id: string, data: { status: "FAILED"; error: string; finishedAt: Date }): Promise<void> {
  await db.exportJob.updateMany({ where: { id, status: { in: ["QUEUED", "RUNNING"] } }, data });
}

/** Ends the job as FAILED with the error, whatever its state. */
export async function failExportJob(id: string, error: string): Promise<void> {
  await db.exportJob.updateMany({ where: { id }, data: { status: "FAILED", error, finishedAt: new Date() } });
}

/** The study's export-job lock, until the transaction ends (new jobs of a study are counted one after another). */
export async function lockExportJobsOfStudy(tx: Tx, studyId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`yardstick:export-jobs:${studyId}`}, 0))::text AS locked`;
}

export async function listUnfinishedExportJobs(tx: Tx, studyId: string): Promise<ExportJobRow[]> {
  return tx.exportJob.findMany({ where: { studyId, status: { in: ["QUEUED", "RUNNING"] } }, include: jobInclude });
}

export interface NewExportJob {
  studyId: string;
  table: string;
  format: string;
  kind: string | null;
  tag: string | null;
  externalIds: string;
  fileName: string;
  contentType: string;
  createdById: string | null;
  bossJobId: string;
}

export async function insertExportJob(tx: Tx, data: NewExportJob): Promise<ExportJobRow> {
  return tx.exportJob.create({ data, include: jobInclude });
}

/** The study's export jobs, newest first. */
export async function listExportJobsOfStudy(studyId: string, take: number): Promise<ExportJobRow[]> {
  return db.exportJob.findMany({ where: { studyId }, orderBy: { createdAt: "desc" }, take, include: jobInclude });
}

export async function findExportJob(id: string): Promise<ExportJobRow | null> {
  return db.exportJob.findUnique({ where: { id }, include: jobInclude });
}

export async function findExportJobOrThrow(id: string): Promise<ExportJobRow> {
  return db.exportJob.findUniqueOrThrow({ where: { id }, include: jobInclude });
}

/** Prepared files whose retention ended by `now` and that are not removed yet: `take` of them after the job id `after`, by id. */
export async function listExpiredExportFiles(
  now: Date,
  after: string,
  take: number,
): Promise<Array<{ id: string; storage: string | null; fileKey: string | null }>> {
  return db.exportJob.findMany({
    where: { status: "SUCCEEDED", deletedAt: null, expiresAt: { lte: now }, id: { gt: after } },
    select: { id: true, storage: true, fileKey: true },
    orderBy: { id: "asc" },
    take,
  });
}

/** Marks the job's file removed; false when it was marked already (by another sweep). */
export async function markExportFileDeleted(id: string): Promise<boolean> {
  const marked = await db.exportJob.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: new Date() } });
  return marked.count > 0;
}

/**
 * In the caller's transaction: the study's running jobs fail with `error`, and its prepared files
 * are due for removal now (their jobs read EXPIRED); returns how many files are due.
 */
export async function discardExportsOfStudy(tx: Tx, studyId: string, error: string): Promise<number> {
  const now = new Date();
  await tx.exportJob.updateMany({ where: { studyId, status: "RUNNING" }, data: { status: "FAILED", error, finishedAt: now } });
  const due = await tx.exportJob.updateMany({ where: { studyId, status: "SUCCEEDED", deletedAt: null }, data: { expiresAt: now } });
  return due.count;
}

/** What an attempt needs before it claims the job. */
export async function findExportJobStart(id: string): Promise<{ status: string; storage: string | null; fileKey: string | null; fileName: string } | null> {
  return db.exportJob.findUnique({ where: { id }, select: { status: true, storage: true, fileKey: true, fileName: true } });
}

/** An attempt takes the job (RUNNING, one more attempt, its progress and error cleared, its own file key); false when the job has ended. */
export async function claimExportJob(id: string, runner: string, storage: string, fileKey: string): Promise<boolean> {
  const claimed = await db.exportJob.updateMany({
    where: { id, status: { in: ["QUEUED", "RUNNING"] } },
    data: {
      status: "RUNNING",
      runner,
      attempts: { increment: 1 },
      startedAt: new Date(),
      heartbeatAt: new Date(),
      rows: 0,
      bytes: 0,
      storage,
      fileKey,
      error: null,
    },
  });
  return claimed.count === 1;
}

/** Writes to the job while the attempt owns it; false when another attempt owns it now (nothing was written). */
export async function updateOwnedExportJob(owner: ExportJobOwner, data: Prisma.ExportJobUpdateManyMutationInput): Promise<boolean> {
  const written = await db.exportJob.updateMany({ where: owner, data });
  return written.count > 0;
}

/** The study's export files still stored (a deleted study's files are removed after it). */
export async function listStoredExportFiles(tx: Tx, studyId: string): Promise<Array<{ storage: NonNullable<ExportJobRow["storage"]>; key: string }>> {
  const files = await tx.exportJob.findMany({
    where: { studyId, fileKey: { not: null }, storage: { not: null }, deletedAt: null },
    select: { storage: true, fileKey: true },
  });
  return files.map((file) => ({ storage: file.storage!, key: file.fileKey! }));
}
