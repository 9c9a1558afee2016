-- CreateEnum
CREATE TYPE "BackgroundJobStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "AssetMigrationJob" (
    "id" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "clearPostgres" BOOLEAN NOT NULL DEFAULT false,
    "status" "BackgroundJobStatus" NOT NULL DEFAULT 'QUEUED',
    "total" INTEGER NOT NULL DEFAULT 0,
    "alreadyMigrated" INTEGER NOT NULL DEFAULT 0,
    "copied" INTEGER NOT NULL DEFAULT 0,
    "foundInBucket" INTEGER NOT NULL DEFAULT 0,
    "bytesCopied" BIGINT NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "failures" JSONB NOT NULL DEFAULT '[]',
    "cleared" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "runner" TEXT,
    "bossJobId" TEXT,

    CONSTRAINT "AssetMigrationJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AssetMigrationJob_bossJobId_key" ON "AssetMigrationJob"("bossJobId");

-- CreateIndex
CREATE INDEX "AssetMigrationJob_createdAt_idx" ON "AssetMigrationJob"("createdAt");
