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

-- Invites never attach to an existing account any more (issue #17): invites made before for an
-- account with a password (an existing user) stop working; passwordless annotators made by an
-- invite become invite participants of the study of their first invite.
DELETE FROM "StudyInvite" si USING "User" u WHERE u.id = si."userId" AND (u."passwordHash" IS NOT NULL OR u."externalSource" IS NOT NULL OR u.role <> 'ANNOTATOR');
UPDATE "User" u SET "externalSource" = 'invite', "externalId" = u.id, "externalStudyId" = (
  SELECT si."studyId" FROM "StudyInvite" si WHERE si."userId" = u.id ORDER BY si."createdAt", si.id LIMIT 1)
WHERE u."externalSource" IS NULL AND u."passwordHash" IS NULL AND u.role = 'ANNOTATOR'
  AND EXISTS (SELECT 1 FROM "StudyInvite" si WHERE si."userId" = u.id);
DELETE FROM "StudyInvite" si USING "User" u WHERE u.id = si."userId" AND u."externalStudyId" IS DISTINCT FROM si."studyId";

-- CreateIndex
CREATE UNIQUE INDEX "User_externalSource_externalStudyId_externalId_key" ON "User"("externalSource", "externalStudyId", "externalId");
