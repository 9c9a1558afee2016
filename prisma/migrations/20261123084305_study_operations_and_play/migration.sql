-- CreateEnum
CREATE TYPE "ParticipantStatus" AS ENUM ('ACTIVE', 'COMPLETE', 'EXCLUDED', 'RETURNED', 'TIMED_OUT');

-- AlterEnum
ALTER TYPE "AssignmentStatus" ADD VALUE 'RELEASED';

-- AlterEnum
ALTER TYPE "StudyStatus" ADD VALUE 'PAUSED';

-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "condition" TEXT,
ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "playState" JSONB;

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "balanceTag" TEXT,
ADD COLUMN     "completionRedirectUrl" TEXT,
ADD COLUMN     "conditions" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "consentMarkdown" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "consentVersion" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "entryToken" TEXT,
ADD COLUMN     "goldFailLimit" INTEGER,
ADD COLUMN     "goldFailWindow" INTEGER,
ADD COLUMN     "goldRate" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "itemTimeLimitSeconds" INTEGER,
ADD COLUMN     "itemsPerParticipant" INTEGER,
ADD COLUMN     "leaseSeconds" INTEGER NOT NULL DEFAULT 1800,
ADD COLUMN     "practicePassMark" DOUBLE PRECISION,
ADD COLUMN     "previousVersionId" TEXT,
ADD COLUMN     "pseudonymSalt" TEXT NOT NULL DEFAULT gen_random_uuid()::text,
ADD COLUMN     "sessionTimeLimitSeconds" INTEGER,
ADD COLUMN     "taskSettings" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "tutorialPages" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "StudyMember" ADD COLUMN     "consentVersion" INTEGER,
ADD COLUMN     "consentedAt" TIMESTAMP(3),
ADD COLUMN     "entrySession" JSONB,
ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "status" "ParticipantStatus" NOT NULL DEFAULT 'ACTIVE',
ADD COLUMN     "statusAt" TIMESTAMP(3),
ADD COLUMN     "statusReason" TEXT;

-- CreateTable
CREATE TABLE "StudyInvite" (
    "id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "StudyInvite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlayStep" (
    "id" BIGSERIAL NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "action" JSONB NOT NULL,
    "view" JSONB NOT NULL,
    "valid" BOOLEAN NOT NULL DEFAULT true,
    "message" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlayStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "StudyInvite_token_key" ON "StudyInvite"("token");

-- CreateIndex
CREATE INDEX "StudyInvite_studyId_idx" ON "StudyInvite"("studyId");

-- CreateIndex
CREATE INDEX "StudyInvite_userId_idx" ON "StudyInvite"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "PlayStep_assignmentId_seq_key" ON "PlayStep"("assignmentId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Study_entryToken_key" ON "Study"("entryToken");

-- AddForeignKey
ALTER TABLE "StudyInvite" ADD CONSTRAINT "StudyInvite_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyInvite" ADD CONSTRAINT "StudyInvite_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlayStep" ADD CONSTRAINT "PlayStep_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- existing studies got a random salt above; new ones get theirs from Prisma (@default(uuid()))
ALTER TABLE "Study" ALTER COLUMN "pseudonymSalt" DROP DEFAULT;
