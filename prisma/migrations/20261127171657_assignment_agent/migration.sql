-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "agent" BOOLEAN NOT NULL DEFAULT false;

-- agents' assignments made before this column: they hold no place for people either
UPDATE "Assignment" a SET "agent" = true FROM "User" u WHERE u.id = a."userId" AND u."isAgent";
