-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "archivedAt" TIMESTAMP(3);
