-- A large study's dashboard snapshot in compact form, for the data version it was read at (issue 21):
-- another process or instance reads it instead of joining every answer again.

-- CreateTable
CREATE TABLE "DashboardSnapshot" (
    "studyId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "format" INTEGER NOT NULL,
    "parts" INTEGER NOT NULL,
    "storedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DashboardSnapshot_pkey" PRIMARY KEY ("studyId")
);

-- CreateTable
CREATE TABLE "DashboardSnapshotPart" (
    "studyId" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "DashboardSnapshotPart_pkey" PRIMARY KEY ("studyId","part")
);

-- AddForeignKey
ALTER TABLE "DashboardSnapshot" ADD CONSTRAINT "DashboardSnapshot_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardSnapshotPart" ADD CONSTRAINT "DashboardSnapshotPart_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "DashboardSnapshot"("studyId") ON DELETE CASCADE ON UPDATE CASCADE;

-- already compact: kept out of line without compression (pglz would spend CPU for little)
ALTER TABLE "DashboardSnapshotPart" ALTER COLUMN "data" SET STORAGE EXTERNAL;
