-- A judge's grade is a change of the study's data: the dashboard caches its figures per data
-- version, and a job that grades only a model run's predictions wrote no row that bumped it.
CREATE FUNCTION yardstick_prediction_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM yardstick_bump_study_versions(ARRAY(SELECT DISTINCT m."studyId" FROM changed_rows p JOIN "ModelRun" m ON m.id = p."runId"));
  RETURN NULL;
END $$;
CREATE TRIGGER "ModelPrediction_version_update" AFTER UPDATE ON "ModelPrediction" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_prediction_rows_changed();
CREATE TRIGGER "ScorerResult_version_insert" AFTER INSERT ON "ScorerResult" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_study_rows_changed();
CREATE TRIGGER "ScorerResult_version_delete" AFTER DELETE ON "ScorerResult" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_study_rows_changed();

-- A judged free-text answer's own score is its latest grade's LLM-Match (100 (grade - 1) / 4), as
-- the scoring job now writes it with the correctness: answers judged before kept the null score
-- they were submitted with, so the main accuracy table showed no LLM-Match for them.
WITH latest AS (
  SELECT DISTINCT ON (s."responseId") s."responseId" AS id, (s.score ->> 'grade')::int AS grade
  FROM "ScorerResult" s
  WHERE s.scorer = 'llm' AND s."responseId" IS NOT NULL AND jsonb_typeof(s.score -> 'grade') = 'number'
  ORDER BY s."responseId", s."createdAt" DESC, s.id DESC
)
UPDATE "Response" r SET score = jsonb_build_object('grade', l.grade, 'score', 100.0 * (l.grade - 1) / 4), correct = l.grade >= 4
FROM latest l, "Assignment" a, "Item" i
WHERE r.id = l.id AND a.id = r."assignmentId" AND i.id = a."itemId" AND i.kind = 'free-text';

WITH latest AS (
  SELECT DISTINCT ON (s."predictionId") s."predictionId" AS id, (s.score ->> 'grade')::int AS grade
  FROM "ScorerResult" s
  WHERE s.scorer = 'llm' AND s."predictionId" IS NOT NULL AND jsonb_typeof(s.score -> 'grade') = 'number'
  ORDER BY s."predictionId", s."createdAt" DESC, s.id DESC
)
UPDATE "ModelPrediction" p SET score = jsonb_build_object('grade', l.grade, 'score', 100.0 * (l.grade - 1) / 4), correct = l.grade >= 4
FROM latest l, "Item" i
WHERE p.id = l.id AND i.id = p."itemId" AND i.kind = 'free-text';
