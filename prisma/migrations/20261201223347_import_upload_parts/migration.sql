-- An import job's upload in parts (lib/import/jobs.ts): an upload stored before is its part 0.

-- AlterTable
ALTER TABLE "ImportUpload" DROP CONSTRAINT "ImportUpload_pkey",
ADD COLUMN     "part" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "ImportUpload_pkey" PRIMARY KEY ("jobId", "part");
