-- An answer's correctness may be unknown (NULL): an item without a key (a benchmark that withholds
-- its test answers), or a free-text answer the LLM judge has not graded yet. Such answers were
-- stored as wrong, so every figure about correctness (calibration, per-annotator accuracy) counted
-- them against the person; now those figures leave them out and show how many they left out.

-- AlterTable
ALTER TABLE "Response" ALTER COLUMN "correct" DROP NOT NULL;
ALTER TABLE "ModelPrediction" ALTER COLUMN "correct" DROP NOT NULL;

-- choice items without a key: the stored score says correct null
UPDATE "Response" r SET correct = NULL
FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId"
WHERE a.id = r."assignmentId" AND i.kind = 'choice' AND NOT (i.key ? 'answer');
UPDATE "ModelPrediction" p SET correct = NULL
FROM "Item" i
WHERE i.id = p."itemId" AND i.kind = 'choice' AND NOT (i.key ? 'answer');

-- free-text answers: right when the latest judge grade is 4 or 5, unknown while ungraded
UPDATE "Response" r SET correct = (
  SELECT (s.score ->> 'grade')::int >= 4 FROM "ScorerResult" s
  WHERE s."responseId" = r.id AND s.scorer = 'llm' AND jsonb_typeof(s.score -> 'grade') = 'number'
  ORDER BY s."createdAt" DESC, s.id DESC LIMIT 1)
FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId"
WHERE a.id = r."assignmentId" AND i.kind = 'free-text' AND jsonb_typeof(r.score -> 'grade') IS DISTINCT FROM 'number';
UPDATE "ModelPrediction" p SET correct = (
  SELECT (s.score ->> 'grade')::int >= 4 FROM "ScorerResult" s
  WHERE s."predictionId" = p.id AND s.scorer = 'llm' AND jsonb_typeof(s.score -> 'grade') = 'number'
  ORDER BY s."createdAt" DESC, s.id DESC LIMIT 1)
FROM "Item" i
WHERE i.id = p."itemId" AND i.kind = 'free-text' AND jsonb_typeof(p.score -> 'grade') IS DISTINCT FROM 'number';
