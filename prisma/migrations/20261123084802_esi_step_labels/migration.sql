-- CreateEnum
CREATE TYPE "ExplorationStepLabel" AS ENUM ('REDUNDANT', 'CONFIRMATORY', 'CONTRASTIVE');

-- CreateTable
CREATE TABLE "StepLabel" (
    "id" BIGSERIAL NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "labellerId" TEXT NOT NULL,
    "label" "ExplorationStepLabel" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StepLabel_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StepLabel_labellerId_idx" ON "StepLabel"("labellerId");

-- CreateIndex
CREATE UNIQUE INDEX "StepLabel_assignmentId_seq_labellerId_key" ON "StepLabel"("assignmentId", "seq", "labellerId");

-- AddForeignKey
ALTER TABLE "StepLabel" ADD CONSTRAINT "StepLabel_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StepLabel" ADD CONSTRAINT "StepLabel_labellerId_fkey" FOREIGN KEY ("labellerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
