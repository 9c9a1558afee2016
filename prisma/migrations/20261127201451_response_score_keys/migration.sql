-- CreateTable
CREATE TABLE "ResponseScoreKey" (
    "studyId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    CONSTRAINT "ResponseScoreKey_pkey" PRIMARY KEY ("studyId","kind","key")
);

-- AddForeignKey
ALTER TABLE "ResponseScoreKey" ADD CONSTRAINT "ResponseScoreKey_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The score keys of a study's responses by kind, kept as responses are stored and rescored: the
-- responses CSV's header (its score_<key> columns) without a pass over every response before the
-- first byte (issue 21, lib/exports/study-export.ts). Statement triggers with transition tables:
-- one INSERT ... SELECT a statement, whatever its row count, and ON CONFLICT DO NOTHING takes no
-- lock on a key already there, so concurrent submissions do not queue on these rows.
CREATE OR REPLACE FUNCTION yardstick_response_score_keys() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  INSERT INTO "ResponseScoreKey" ("studyId", "kind", "key")
  SELECT DISTINCT a."studyId", i.kind, k.key
  FROM stored_responses r
  JOIN "Assignment" a ON a.id = r."assignmentId"
  JOIN "Item" i ON i.id = a."itemId"
  CROSS JOIN LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(r.score) = 'object' THEN r.score ELSE '{}'::jsonb END) AS k(key)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "Response_score_keys_insert" AFTER INSERT ON "Response"
  REFERENCING NEW TABLE AS stored_responses FOR EACH STATEMENT EXECUTE FUNCTION yardstick_response_score_keys();
CREATE TRIGGER "Response_score_keys_update" AFTER UPDATE ON "Response"
  REFERENCING NEW TABLE AS stored_responses FOR EACH STATEMENT EXECUTE FUNCTION yardstick_response_score_keys();

-- the responses stored before this migration
INSERT INTO "ResponseScoreKey" ("studyId", "kind", "key")
SELECT DISTINCT a."studyId", i.kind, k.key
FROM "Response" r
JOIN "Assignment" a ON a.id = r."assignmentId"
JOIN "Item" i ON i.id = a."itemId"
CROSS JOIN LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(r.score) = 'object' THEN r.score ELSE '{}'::jsonb END) AS k(key)
ON CONFLICT DO NOTHING;
