-- How participants reach the research team: a name and an email address, named on the pages that
-- tell participants to write to the team (issue 37). Both optional; without them those pages point
-- to the recruitment platform's messages.

-- AlterTable
ALTER TABLE "Study" ADD COLUMN     "contactEmail" TEXT,
ADD COLUMN     "contactName" TEXT;
