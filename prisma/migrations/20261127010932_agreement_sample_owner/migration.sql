-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "agreementSample" BOOLEAN NOT NULL DEFAULT false;

-- Plans built before: an item in the plan was counted for every person with it in their main
-- work; mark those assignments so that the next run counts them as before (with one person per
-- item, the usual disjoint design, that is its owner).
UPDATE "Assignment" a SET "agreementSample" = true
WHERE a.purpose = 'MAIN'
  AND EXISTS (SELECT 1 FROM "Assignment" g WHERE g."itemId" = a."itemId" AND g.purpose = 'AGREEMENT');
