-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "timedOut" BOOLEAN NOT NULL DEFAULT false;
