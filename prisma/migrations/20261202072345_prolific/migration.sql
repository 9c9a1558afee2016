-- CreateTable
CREATE TABLE "ProlificToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ProlificToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProlificStudy" (
    "studyId" TEXT NOT NULL,
    "prolificId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reward" INTEGER NOT NULL,
    "estimatedMinutes" INTEGER NOT NULL,
    "timeSource" TEXT NOT NULL,
    "timeSampleSize" INTEGER NOT NULL DEFAULT 0,
    "places" INTEGER NOT NULL,
    "hookId" TEXT,
    "hookSecret" TEXT,
    "lastSyncAt" TIMESTAMP(3),
    "lastSyncError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProlificStudy_pkey" PRIMARY KEY ("studyId")
);

-- CreateTable
CREATE TABLE "ProlificSubmission" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "userId" TEXT,
    "status" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "timeTakenSeconds" INTEGER,
    "placeFreedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProlificSubmission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProlificBatch" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "rule" JSONB NOT NULL,
    "rows" JSONB NOT NULL,
    "totalAmount" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'PREVIEW',
    "bonusPaymentId" TEXT,
    "paidAt" TIMESTAMP(3),
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "ProlificBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProlificToken_userId_idx" ON "ProlificToken"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ProlificStudy_prolificId_key" ON "ProlificStudy"("prolificId");

-- CreateIndex
CREATE INDEX "ProlificSubmission_studyId_participantId_idx" ON "ProlificSubmission"("studyId", "participantId");

-- CreateIndex
CREATE INDEX "ProlificBatch_studyId_createdAt_idx" ON "ProlificBatch"("studyId", "createdAt");

-- AddForeignKey
ALTER TABLE "ProlificToken" ADD CONSTRAINT "ProlificToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProlificStudy" ADD CONSTRAINT "ProlificStudy_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProlificSubmission" ADD CONSTRAINT "ProlificSubmission_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProlificBatch" ADD CONSTRAINT "ProlificBatch_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
