-- AlterTable
ALTER TABLE "ModelRun" ADD COLUMN     "unparsed" INTEGER NOT NULL DEFAULT 0;
