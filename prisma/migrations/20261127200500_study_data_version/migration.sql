-- A study's data version (issue 21): bumped in the same statement as every write that can change a
-- dashboard figure (an answer added, re-scored or removed; an item added, edited or removed; an
-- assignment moved to another purpose, item or person, or removed), so that figures cached per
-- version are never served for data they were not computed from. Statement-level triggers: a bulk
-- insert bumps each study it touches once. No foreign key: a study's removal cascades to its
-- items, whose trigger then finds no study and writes nothing; the study's own trigger removes
-- its row.

-- CreateTable
CREATE TABLE "StudyDataVersion" (
    "studyId" TEXT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StudyDataVersion_pkey" PRIMARY KEY ("studyId")
);

CREATE FUNCTION yardstick_bump_study_versions(study_ids TEXT[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "StudyDataVersion" ("studyId", "version", "changedAt")
  SELECT s.id, 1, clock_timestamp() FROM "Study" s WHERE s.id = ANY(study_ids)
  ORDER BY s.id
  ON CONFLICT ("studyId") DO UPDATE SET "version" = "StudyDataVersion"."version" + 1, "changedAt" = clock_timestamp();
$$;

CREATE FUNCTION yardstick_response_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM yardstick_bump_study_versions(ARRAY(SELECT DISTINCT a."studyId" FROM changed_rows r JOIN "Assignment" a ON a.id = r."assignmentId"));
  RETURN NULL;
END $$;

CREATE FUNCTION yardstick_study_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM yardstick_bump_study_versions(ARRAY(SELECT DISTINCT r."studyId" FROM changed_rows r));
  RETURN NULL;
END $$;

CREATE FUNCTION yardstick_assignment_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM yardstick_bump_study_versions(ARRAY[OLD."studyId", NEW."studyId"]);
  RETURN NULL;
END $$;

CREATE FUNCTION yardstick_study_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "StudyDataVersion" WHERE "studyId" = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER "Response_version_insert" AFTER INSERT ON "Response" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_response_rows_changed();
CREATE TRIGGER "Response_version_update" AFTER UPDATE ON "Response" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_response_rows_changed();
-- answers removed with their assignment are counted by the assignment's trigger below
CREATE TRIGGER "Response_version_delete" AFTER DELETE ON "Response" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_response_rows_changed();
CREATE TRIGGER "Item_version_insert" AFTER INSERT ON "Item" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_study_rows_changed();
CREATE TRIGGER "Item_version_update" AFTER UPDATE ON "Item" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_study_rows_changed();
CREATE TRIGGER "Item_version_delete" AFTER DELETE ON "Item" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_study_rows_changed();
CREATE TRIGGER "Assignment_version_delete" AFTER DELETE ON "Assignment" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION yardstick_study_rows_changed();
-- status changes (started, submitted, released) are frequent and change no figure: row level, filtered
CREATE TRIGGER "Assignment_version_move" AFTER UPDATE OF "purpose", "itemId", "userId", "studyId", "agent" ON "Assignment" FOR EACH ROW
  WHEN (OLD."purpose" IS DISTINCT FROM NEW."purpose" OR OLD."itemId" IS DISTINCT FROM NEW."itemId" OR OLD."userId" IS DISTINCT FROM NEW."userId" OR OLD."studyId" IS DISTINCT FROM NEW."studyId" OR OLD."agent" IS DISTINCT FROM NEW."agent")
  EXECUTE FUNCTION yardstick_assignment_moved();
CREATE TRIGGER "Study_version_delete" AFTER DELETE ON "Study" FOR EACH ROW EXECUTE FUNCTION yardstick_study_removed();

-- every existing study starts at version 1
INSERT INTO "StudyDataVersion" ("studyId", "version") SELECT id, 1 FROM "Study";
