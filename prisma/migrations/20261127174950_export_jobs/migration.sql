-- CreateTable
CREATE TABLE "ExportJob" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "table" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "kind" TEXT,
    "tag" TEXT,
    "externalIds" TEXT NOT NULL DEFAULT 'raw',
    "status" "BackgroundJobStatus" NOT NULL DEFAULT 'QUEUED',
    "totalRows" INTEGER NOT NULL DEFAULT 0,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "sha256" TEXT,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "storage" TEXT,
    "fileKey" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),
    "runner" TEXT,
    "bossJobId" TEXT,

    CONSTRAINT "ExportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ExportJob_bossJobId_key" ON "ExportJob"("bossJobId");

-- CreateIndex
CREATE INDEX "ExportJob_studyId_createdAt_idx" ON "ExportJob"("studyId", "createdAt");

-- CreateIndex
CREATE INDEX "ExportJob_expiresAt_idx" ON "ExportJob"("expiresAt");

-- AddForeignKey
ALTER TABLE "ExportJob" ADD CONSTRAINT "ExportJob_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
