-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "reportingAnswers" JSONB NOT NULL DEFAULT '{}';
