import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for asset migration jobs (AssetMigrationJob). Starting, running and reporting a
 * migration are lib/assets/migrate-jobs.ts's. An attempt owns the row while `runner` is its own:
 * its writes go through `updateOwnedJob`, which changes nothing once another attempt took over.
 */

export type AssetMigrationJobRow = Prisma.AssetMigrationJobGetPayload<object>;

/** Who owns a running job: the row is changed only while it is still RUNNING under this runner. */
export interface JobOwner {
  id: string;
  runner: string;
  status: "RUNNING";
}

export async function findJob(id: string): Promise<AssetMigrationJobRow | null> {
  return db.assetMigrationJob.findUnique({ where: { id } });
}

export async function findJobOrThrow(id: string): Promise<AssetMigrationJobRow> {
  return db.assetMigrationJob.findUniqueOrThrow({ where: { id } });
}

export async function listUnfinishedJobs(): Promise<AssetMigrationJobRow[]> {
  return db.assetMigrationJob.findMany({ where: { status: { in: ["QUEUED", "RUNNING"] } } });
}

/** The latest jobs, newest first. */
export async function listLatestJobs(take: number): Promise<AssetMigrationJobRow[]> {
  return db.assetMigrationJob.findMany({ orderBy: { createdAt: "desc" }, take });
}

/** Ends an unfinished job as FAILED with the message (a finished one stays as it is). */
export async function failUnfinishedJob(id: string, data: { status: "FAILED"; message: string; finishedAt: Date }): Promise<void> {
  await db.assetMigrationJob.updateMany({ where: { id, status: { in: ["QUEUED", "RUNNING"] } }, data });
}

/** Ends the job as FAILED with the message, whatever its state. */
export async function failJob(id: string, message: string): Promise<void> {
  await db.assetMigrationJob.updateMany({ where: { id }, data: { status: "FAILED", message, finishedAt: new Date() } });
}

/**
 * Records a new job, with its audit entry, unless one is queued or running: under the
 * migrations' advisory lock, so that two starts at once make one job. Returns the new job, or
 * the unfinished one (`created` false).
 */
export async function insertJobUnlessUnfinished(input: {
  clearPostgres: boolean;
  actorId: string | null;
  bossJobId: string;
}): Promise<{ row: AssetMigrationJobRow; created: boolean }> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended('yardstick:asset-migration', 0))::text AS locked`;
    const unfinished = await tx.assetMigrationJob.findFirst({ where: { status: { in: ["QUEUED", "RUNNING"] } }, orderBy: { createdAt: "desc" } });
    if (unfinished) return { row: unfinished, created: false };
    const made = await tx.assetMigrationJob.create({
      data: { target: "s3", clearPostgres: input.clearPostgres, createdById: input.actorId, bossJobId: input.bossJobId },
    });
    await tx.auditLog.create({
      data: { actorId: input.actorId, action: "assets.migrate", target: "assets", detail: { jobId: made.id, to: "s3", clearPostgres: input.clearPostgres } },
    });
    return { row: made, created: true };
  });
}

/** An attempt takes the job (RUNNING, one more attempt, its failures of the last attempt cleared); false when the job has ended. */
export async function claimJob(id: string, runner: string): Promise<boolean> {
  const claimed = await db.$executeRaw`
    UPDATE "AssetMigrationJob" SET status = 'RUNNING', runner = ${runner}, attempts = attempts + 1, "startedAt" = COALESCE("startedAt", now()),
      "heartbeatAt" = now(), failed = 0, failures = '[]'::jsonb
    WHERE id = ${id} AND status IN ('QUEUED', 'RUNNING')`;
  return claimed === 1;
}

/** Writes to the job while the attempt owns it; false when another attempt owns it now (nothing was written). */
export async function updateOwnedJob(owner: JobOwner, data: Prisma.AssetMigrationJobUpdateManyMutationInput): Promise<boolean> {
  const written = await db.assetMigrationJob.updateMany({ where: owner, data });
  return written.count > 0;
}
