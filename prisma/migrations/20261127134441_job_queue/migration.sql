-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN     "bossJobId" TEXT;

-- AlterTable
ALTER TABLE "ScoringJob" ADD COLUMN     "bossJobId" TEXT;

-- CreateTable
CREATE TABLE "ImportUpload" (
    "jobId" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "ImportUpload_pkey" PRIMARY KEY ("jobId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ImportJob_bossJobId_key" ON "ImportJob"("bossJobId");

-- CreateIndex
CREATE UNIQUE INDEX "ScoringJob_bossJobId_key" ON "ScoringJob"("bossJobId");

-- AddForeignKey
ALTER TABLE "ImportUpload" ADD CONSTRAINT "ImportUpload_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "ImportJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Imports running at the upgrade ran in the process that held their upload, which is not stored:
-- they end as they would have after a restart (the import is all or nothing, nothing was imported).
-- Unfinished scoring jobs are queued on pg-boss by the first worker that starts (lib/jobs/worker.ts).
UPDATE "ImportJob" SET "status" = 'FAILED', "phase" = 'done', "finishedAt" = now(),
  "result" = '{"ok": false, "httpStatus": 503, "code": "UNAVAILABLE", "error": "The import stopped when the server was upgraded. Nothing was imported (an import is all or nothing): import the batch again."}'::jsonb
WHERE "status" = 'RUNNING';
