-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "desktopOnly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "endings" JSONB NOT NULL DEFAULT '{}';
