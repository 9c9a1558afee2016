-- DropIndex
DROP INDEX "User_externalSource_externalId_key";

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "firstItemLeaseSeconds" INTEGER NOT NULL DEFAULT 120;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "externalStudyId" TEXT,
ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0;

-- Link-made participant accounts from before belong to the study they joined first (identity is
-- source + study + id from now on); an account in several studies resumes only in that one.
UPDATE "User" u SET "externalStudyId" = (
  SELECT m."studyId" FROM "StudyMember" m WHERE m."userId" = u.id ORDER BY m."createdAt", m."studyId" LIMIT 1)
WHERE u."externalSource" IN ('prolific', 'link');

-- CreateIndex
CREATE UNIQUE INDEX "User_externalSource_externalStudyId_externalId_key" ON "User"("externalSource", "externalStudyId", "externalId");
