-- AlterTable
ALTER TABLE "ImportJob" ADD COLUMN     "skipInvalid" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "textOnly" BOOLEAN NOT NULL DEFAULT false;
