-- AlterTable
ALTER TABLE "StudyMember" ADD COLUMN     "tutorialDoneAt" TIMESTAMP(3);
