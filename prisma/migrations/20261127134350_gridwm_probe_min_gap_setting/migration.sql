-- Study.probeMinGap becomes a setting of the kind it spaces (issue 19): GridWM-Judge's
-- Study.taskSettings."gridwm-judge".probeMinGap, read by the assignment through the kind's
-- assignment.family.minGap. Moved for every study whose value is not the default (5) or that has
-- items of the kind; elsewhere the kind's settingsSchema default (5) applies as the column's did.
UPDATE "Study" s
SET "taskSettings" = jsonb_set(
  CASE WHEN jsonb_typeof(s."taskSettings") = 'object' THEN s."taskSettings" ELSE '{}'::jsonb END,
  '{gridwm-judge}',
  CASE WHEN jsonb_typeof(s."taskSettings" -> 'gridwm-judge') = 'object' THEN s."taskSettings" -> 'gridwm-judge' ELSE '{}'::jsonb END
    || jsonb_build_object('probeMinGap', s."probeMinGap"),
  true)
WHERE s."probeMinGap" <> 5
   OR EXISTS (SELECT 1 FROM "Item" i WHERE i."studyId" = s.id AND i.kind = 'gridwm-judge');

-- AlterTable
ALTER TABLE "Study" DROP COLUMN "probeMinGap";
