-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "generaliseOver" TEXT NOT NULL DEFAULT 'people+items';
