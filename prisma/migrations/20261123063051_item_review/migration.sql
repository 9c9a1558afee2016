-- CreateEnum
CREATE TYPE "ReviewStudyStatus" AS ENUM ('OPEN', 'CLOSED');

-- CreateEnum
CREATE TYPE "ReviewKeepRule" AS ENUM ('MAJORITY_ALL_AXES', 'UNANIMOUS_ALL_AXES');

-- CreateEnum
CREATE TYPE "ReviewTieRule" AS ENUM ('CONTESTED', 'FAIL', 'PASS');

-- CreateEnum
CREATE TYPE "ReviewOutcome" AS ENUM ('PENDING', 'KEPT', 'EXCLUDED', 'CONTESTED');

-- CreateEnum
CREATE TYPE "ReviewDecisionValue" AS ENUM ('KEEP', 'EXCLUDE');

-- CreateTable
CREATE TABLE "ReviewStudy" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "instructions" TEXT NOT NULL DEFAULT '',
    "reviewersPerItem" INTEGER NOT NULL DEFAULT 3,
    "keepRule" "ReviewKeepRule" NOT NULL DEFAULT 'MAJORITY_ALL_AXES',
    "tieRule" "ReviewTieRule" NOT NULL DEFAULT 'CONTESTED',
    "status" "ReviewStudyStatus" NOT NULL DEFAULT 'OPEN',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewStudy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewAxis" (
    "id" TEXT NOT NULL,
    "reviewStudyId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL,

    CONSTRAINT "ReviewAxis_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewStudyBatch" (
    "reviewStudyId" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,

    CONSTRAINT "ReviewStudyBatch_pkey" PRIMARY KEY ("reviewStudyId","batchId")
);

-- CreateTable
CREATE TABLE "ReviewStudyReviewer" (
    "reviewStudyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewStudyReviewer_pkey" PRIMARY KEY ("reviewStudyId","userId")
);

-- CreateTable
CREATE TABLE "ReviewItem" (
    "id" TEXT NOT NULL,
    "reviewStudyId" TEXT NOT NULL,
    "itemId" TEXT,
    "externalId" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "reviews" INTEGER NOT NULL DEFAULT 0,
    "ruleOutcome" "ReviewOutcome" NOT NULL DEFAULT 'PENDING',
    "outcome" "ReviewOutcome" NOT NULL DEFAULT 'PENDING',
    "split" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewAssignment" (
    "id" TEXT NOT NULL,
    "reviewStudyId" TEXT NOT NULL,
    "reviewItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "submittedAt" TIMESTAMP(3),

    CONSTRAINT "ReviewAssignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewVerdict" (
    "id" TEXT NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "axisId" TEXT NOT NULL,
    "pass" BOOLEAN NOT NULL,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewVerdict_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewDecision" (
    "id" TEXT NOT NULL,
    "reviewItemId" TEXT NOT NULL,
    "decision" "ReviewDecisionValue" NOT NULL,
    "note" TEXT NOT NULL,
    "decidedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewDecision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReviewStudy_slug_key" ON "ReviewStudy"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewAxis_reviewStudyId_key_key" ON "ReviewAxis"("reviewStudyId", "key");

-- CreateIndex
CREATE INDEX "ReviewStudyBatch_batchId_idx" ON "ReviewStudyBatch"("batchId");

-- CreateIndex
CREATE INDEX "ReviewStudyReviewer_userId_idx" ON "ReviewStudyReviewer"("userId");

-- CreateIndex
CREATE INDEX "ReviewItem_externalId_contentHash_outcome_idx" ON "ReviewItem"("externalId", "contentHash", "outcome");

-- CreateIndex
CREATE INDEX "ReviewItem_reviewStudyId_position_idx" ON "ReviewItem"("reviewStudyId", "position");

-- CreateIndex
CREATE INDEX "ReviewItem_itemId_idx" ON "ReviewItem"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_reviewStudyId_externalId_contentHash_key" ON "ReviewItem"("reviewStudyId", "externalId", "contentHash");

-- CreateIndex
CREATE INDEX "ReviewAssignment_reviewStudyId_userId_submittedAt_idx" ON "ReviewAssignment"("reviewStudyId", "userId", "submittedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewAssignment_reviewItemId_userId_key" ON "ReviewAssignment"("reviewItemId", "userId");

-- CreateIndex
CREATE INDEX "ReviewVerdict_axisId_idx" ON "ReviewVerdict"("axisId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewVerdict_assignmentId_axisId_key" ON "ReviewVerdict"("assignmentId", "axisId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewDecision_reviewItemId_key" ON "ReviewDecision"("reviewItemId");

-- AddForeignKey
ALTER TABLE "ReviewStudy" ADD CONSTRAINT "ReviewStudy_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewAxis" ADD CONSTRAINT "ReviewAxis_reviewStudyId_fkey" FOREIGN KEY ("reviewStudyId") REFERENCES "ReviewStudy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewStudyBatch" ADD CONSTRAINT "ReviewStudyBatch_reviewStudyId_fkey" FOREIGN KEY ("reviewStudyId") REFERENCES "ReviewStudy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewStudyBatch" ADD CONSTRAINT "ReviewStudyBatch_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewStudyReviewer" ADD CONSTRAINT "ReviewStudyReviewer_reviewStudyId_fkey" FOREIGN KEY ("reviewStudyId") REFERENCES "ReviewStudy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewStudyReviewer" ADD CONSTRAINT "ReviewStudyReviewer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_reviewStudyId_fkey" FOREIGN KEY ("reviewStudyId") REFERENCES "ReviewStudy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewAssignment" ADD CONSTRAINT "ReviewAssignment_reviewStudyId_fkey" FOREIGN KEY ("reviewStudyId") REFERENCES "ReviewStudy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewAssignment" ADD CONSTRAINT "ReviewAssignment_reviewItemId_fkey" FOREIGN KEY ("reviewItemId") REFERENCES "ReviewItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewAssignment" ADD CONSTRAINT "ReviewAssignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewVerdict" ADD CONSTRAINT "ReviewVerdict_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "ReviewAssignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewVerdict" ADD CONSTRAINT "ReviewVerdict_axisId_fkey" FOREIGN KEY ("axisId") REFERENCES "ReviewAxis"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewDecision" ADD CONSTRAINT "ReviewDecision_reviewItemId_fkey" FOREIGN KEY ("reviewItemId") REFERENCES "ReviewItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewDecision" ADD CONSTRAINT "ReviewDecision_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
