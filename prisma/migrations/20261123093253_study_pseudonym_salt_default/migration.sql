-- AlterTable
ALTER TABLE "Study" ALTER COLUMN "pseudonymSalt" SET DEFAULT (gen_random_uuid())::text;
