-- CreateTable
CREATE TABLE "ProgressUserTally" (
    "studyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "purpose" "AssignmentPurpose" NOT NULL,
    "work" INTEGER NOT NULL DEFAULT 0,
    "assigned" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "mainDone" INTEGER NOT NULL DEFAULT 0,
    "last" TIMESTAMP(3),

    CONSTRAINT "ProgressUserTally_pkey" PRIMARY KEY ("studyId","userId","purpose")
);

-- CreateTable
CREATE TABLE "ProgressDayTally" (
    "studyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "responses" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProgressDayTally_pkey" PRIMARY KEY ("studyId","userId","day")
);

-- CreateTable
CREATE TABLE "ProgressItemTally" (
    "itemId" TEXT NOT NULL,
    "condition" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "main" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProgressItemTally_pkey" PRIMARY KEY ("itemId","condition")
);

-- CreateTable
CREATE TABLE "ProgressLevelTally" (
    "studyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "items" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProgressLevelTally_pkey" PRIMARY KEY ("studyId","userId","level")
);

-- CreateTable
CREATE TABLE "ProgressItemCount" (
    "studyId" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "items" INTEGER NOT NULL DEFAULT 0,
    "gold" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProgressItemCount_pkey" PRIMARY KEY ("studyId","batchId")
);

-- CreateIndex
CREATE INDEX "ProgressItemTally_studyId_idx" ON "ProgressItemTally"("studyId");

-- CreateIndex
CREATE INDEX "Assignment_studyId_status_submittedAt_idx" ON "Assignment"("studyId", "status", "submittedAt");

-- AddForeignKey
ALTER TABLE "ProgressUserTally" ADD CONSTRAINT "ProgressUserTally_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProgressDayTally" ADD CONSTRAINT "ProgressDayTally_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProgressItemTally" ADD CONSTRAINT "ProgressItemTally_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProgressLevelTally" ADD CONSTRAINT "ProgressLevelTally_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProgressItemCount" ADD CONSTRAINT "ProgressItemCount_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ================================================================================================
-- The tallies above are kept by the triggers below, in the same transaction as every write that
-- changes a progress figure (issue 21): assignments inserted / updated / deleted, responses
-- inserted / updated / deleted, items inserted / flagged practice or gold / deleted, the study's
-- conditions. Triggers, not application code, so that every write path (the seed scripts, the
-- benches, a psql session) keeps them right. lib/dashboard/progress.ts reads them and keeps the
-- full recomputation (progressFullRecomputation) that the property test compares them with.
--
-- A write is described as contributions: an assignment as it was (sign -1) and as it is (sign
-- +1), with its item's flags and its answer's time (null: unanswered); progress_apply adds
-- them up per tally row. Concurrency: a writer takes a shared lock on its study and an exclusive
-- lock on each item it touches (advisory, transaction-long, in sorted order), then reads the rows
-- it needs in a fresh snapshot; a write over many items (a bulk insert) and a change of the
-- study's conditions take the study's lock exclusively instead. Tally rows are keyed by
-- annotator (or item), so two annotators' submissions never wait for each other.
-- ================================================================================================

CREATE TYPE progress_contribution AS (
  sign int,
  "studyId" text,
  "userId" text,
  "itemId" text,
  purpose text,
  status text,
  condition text,
  agent boolean,
  practice boolean,
  gold boolean,
  "answeredAt" timestamp(3)
);

-- the advisory locks of a write (21001: a study, 21002: an item): see above
CREATE FUNCTION progress_lock(studies text[], items text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  k int;
BEGIN
  IF cardinality(items) > 64 THEN
    FOR k IN SELECT DISTINCT hashtext(s) FROM unnest(studies) s ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(21001, k);
    END LOOP;
    RETURN;
  END IF;
  FOR k IN SELECT DISTINCT hashtext(s) FROM unnest(studies) s ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock_shared(21001, k);
  END LOOP;
  FOR k IN SELECT DISTINCT hashtext(i) FROM unnest(items) i ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(21002, k);
  END LOOP;
END
$$;

-- the level of each given item: the fewest MAIN answers over the study's conditions ('' without any)
CREATE FUNCTION progress_levels(items text[]) RETURNS TABLE ("studyId" text, "itemId" text, level int)
LANGUAGE sql STABLE AS $$
  -- one primary-key probe per item x condition (a join would let the planner scan the whole tally)
  SELECT i."studyId", i.id, min(coalesce((SELECT t.main FROM "ProgressItemTally" t WHERE t."itemId" = i.id AND t.condition = c.cond), 0))::int
  FROM "Item" i
  JOIN "Study" s ON s.id = i."studyId"
  CROSS JOIN LATERAL (
    SELECT DISTINCT coalesce(c, '') AS cond
    FROM unnest(CASE WHEN cardinality(s.conditions) > 0 THEN s.conditions::text[] ELSE ARRAY[NULL]::text[] END) c
  ) c
  WHERE i.id = ANY(items)
  GROUP BY i."studyId", i.id
$$;

-- the last answer of each given annotator x purpose ("studyId" \x1f "userId" \x1f purpose), looked up again
CREATE FUNCTION progress_last_again(stale text[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE "ProgressUserTally" t SET last = (
    SELECT max(r."createdAt") FROM "Assignment" a
    JOIN "Response" r ON r."assignmentId" = a.id
    JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = t."studyId" AND a."userId" = t."userId" AND a.purpose = t.purpose AND NOT a.agent
      AND (NOT i.practice OR a.purpose = 'PRACTICE'))
  WHERE (t."studyId", t."userId", t.purpose::text) IN (SELECT split_part(x, E'\x1f', 1), split_part(x, E'\x1f', 2), split_part(x, E'\x1f', 3) FROM unnest(stale) x)
$$;

CREATE FUNCTION progress_apply(c progress_contribution[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  net progress_contribution[];
  stale text[];
  changed text[];
  writers jsonb;
  before jsonb;
BEGIN
  -- people's work only; an assignment unchanged by the write cancels out
  net := ARRAY(
    SELECT ROW(s, "studyId", "userId", "itemId", purpose, status, condition, agent, practice, gold, "answeredAt")::progress_contribution
    FROM (
      SELECT sum(sign)::int AS s, "studyId", "userId", "itemId", purpose, status, condition, agent, practice, gold, "answeredAt"
      FROM unnest(c) WHERE NOT agent
      GROUP BY "studyId", "userId", "itemId", purpose, status, condition, agent, practice, gold, "answeredAt"
    ) x WHERE s <> 0);
  IF cardinality(net) = 0 THEN RETURN; END IF;

  -- per annotator x purpose (practice items count only in practice work)
  WITH d AS (
    SELECT "studyId", "userId", purpose,
      coalesce(sum(sign) FILTER (WHERE ok), 0) AS work,
      coalesce(sum(sign) FILTER (WHERE ok AND (purpose <> 'MAIN' OR status IN ('STARTED', 'SUBMITTED') OR "answeredAt" IS NOT NULL)), 0) AS assigned,
      coalesce(sum(sign) FILTER (WHERE ok AND "answeredAt" IS NOT NULL), 0) AS done,
      coalesce(sum(sign) FILTER (WHERE purpose = 'MAIN' AND NOT practice AND NOT gold AND "answeredAt" IS NOT NULL), 0) AS "mainDone",
      max("answeredAt") FILTER (WHERE ok AND sign > 0) AS added,
      max("answeredAt") FILTER (WHERE ok AND sign < 0) AS removed
    FROM (SELECT *, (NOT practice OR purpose = 'PRACTICE') AS ok FROM unnest(net)) x
    GROUP BY "studyId", "userId", purpose
  ),
  up AS (
    INSERT INTO "ProgressUserTally" AS t ("studyId", "userId", purpose, work, assigned, done, "mainDone", last)
    SELECT "studyId", "userId", purpose::"AssignmentPurpose", work, assigned, done, "mainDone", added FROM d
    -- a change that moves no figure (a submission's status change, its answer counted by the answer's trigger) writes nothing
    WHERE work <> 0 OR assigned <> 0 OR done <> 0 OR "mainDone" <> 0 OR added IS NOT NULL OR removed IS NOT NULL
    ORDER BY "studyId", "userId", purpose
    ON CONFLICT ("studyId", "userId", purpose) DO UPDATE SET
      work = t.work + excluded.work, assigned = t.assigned + excluded.assigned, done = t.done + excluded.done,
      "mainDone" = t."mainDone" + excluded."mainDone", last = greatest(t.last, excluded.last)
    RETURNING t."studyId", t."userId", t.purpose::text AS purpose, t.last
  )
  SELECT array_agg(up."studyId" || E'\x1f' || up."userId" || E'\x1f' || up.purpose) INTO stale
  FROM up JOIN d USING ("studyId", "userId", purpose)
  WHERE d.removed IS NOT NULL AND (up.last IS NULL OR d.removed >= up.last);
  -- an answer removed was the last one: the last is looked up again (this row is locked by the upsert
  -- above), at once, or once at the end of a statement deleting assignments (progress_assignments)
  IF stale IS NOT NULL AND current_setting('yardstick.progress_defer_last', true) = 'on' THEN
    PERFORM set_config('yardstick.progress_stale_last',
      array_to_string(ARRAY(SELECT DISTINCT x FROM unnest(stale || string_to_array(nullif(current_setting('yardstick.progress_stale_last', true), ''), E'\x1e')) x), E'\x1e'), true);
  ELSIF stale IS NOT NULL THEN
    PERFORM progress_last_again(stale);
  END IF;

  -- answers outside practice per annotator x UTC day
  INSERT INTO "ProgressDayTally" AS t ("studyId", "userId", day, responses)
  SELECT "studyId", "userId", "answeredAt"::date, sum(sign)
  FROM unnest(net)
  WHERE "answeredAt" IS NOT NULL AND purpose <> 'PRACTICE' AND NOT practice
  GROUP BY 1, 2, 3 HAVING sum(sign) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT ("studyId", "userId", day) DO UPDATE SET responses = t.responses + excluded.responses;

  -- MAIN answers per ordinary item x condition, and the items' levels before and after
  SELECT array_agg(DISTINCT "itemId"), jsonb_object_agg("itemId", writer) INTO changed, writers
  FROM (
    SELECT "itemId", min("userId") AS writer FROM unnest(net)
    WHERE "answeredAt" IS NOT NULL AND purpose = 'MAIN' AND NOT practice AND NOT gold
    GROUP BY "itemId", coalesce(condition, '') HAVING sum(sign) <> 0
  ) x;
  IF changed IS NULL THEN RETURN; END IF;
  SELECT jsonb_object_agg(l."itemId", l.level) INTO before FROM progress_levels(changed) l;

  INSERT INTO "ProgressItemTally" AS t ("itemId", condition, "studyId", main)
  SELECT "itemId", coalesce(condition, ''), "studyId", sum(sign)
  FROM unnest(net)
  WHERE "answeredAt" IS NOT NULL AND purpose = 'MAIN' AND NOT practice AND NOT gold
  GROUP BY 1, 2, 3 HAVING sum(sign) <> 0
  ORDER BY 1, 2
  ON CONFLICT ("itemId", condition) DO UPDATE SET main = t.main + excluded.main;

  INSERT INTO "ProgressLevelTally" AS t ("studyId", "userId", level, items)
  SELECT "studyId", writer, level, sum(n) FROM (
    SELECT a."studyId", writers ->> a."itemId" AS writer, l.level, l.n
    FROM progress_levels(changed) a
    CROSS JOIN LATERAL (VALUES ((before ->> a."itemId")::int, -1), (a.level, 1)) l(level, n)
    WHERE a.level <> (before ->> a."itemId")::int AND l.level > 0
  ) x
  GROUP BY 1, 2, 3 HAVING sum(n) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT ("studyId", "userId", level) DO UPDATE SET items = t.items + excluded.items;
END
$$;

-- ------------------------------------------------------------------------------------------------
-- responses

-- inserted or deleted answers (statement triggers: the transition table is changed_responses)
CREATE FUNCTION progress_responses() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  added int := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  -- an answer whose assignment is gone went with it (the assignment's triggers counted it)
  PERFORM progress_lock(
    ARRAY(SELECT DISTINCT a."studyId" FROM changed_responses r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE NOT a.agent),
    ARRAY(SELECT DISTINCT a."itemId" FROM changed_responses r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE NOT a.agent));
  PERFORM progress_apply(ARRAY(
    SELECT ROW(v.sign, a."studyId", a."userId", a."itemId", a.purpose::text, a.status::text, a.condition, a.agent, i.practice, i.gold,
               CASE WHEN v.sign = added THEN r."createdAt" END)::progress_contribution
    FROM changed_responses r
    JOIN "Assignment" a ON a.id = r."assignmentId"
    JOIN "Item" i ON i.id = a."itemId"
    CROSS JOIN (VALUES (-1), (1)) v(sign)
    WHERE NOT a.agent));
  RETURN NULL;
END
$$;

-- an answer moved to another assignment or given another time (never done by the app; kept right all the same)
CREATE FUNCTION progress_response_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM progress_lock(
    ARRAY(SELECT a."studyId" FROM "Assignment" a WHERE a.id IN (OLD."assignmentId", NEW."assignmentId")),
    ARRAY(SELECT a."itemId" FROM "Assignment" a WHERE a.id IN (OLD."assignmentId", NEW."assignmentId")));
  PERFORM progress_apply(ARRAY(
    SELECT ROW(v.sign, a."studyId", a."userId", a."itemId", a.purpose::text, a.status::text, a.condition, a.agent, i.practice, i.gold, v.at)::progress_contribution
    FROM (VALUES (OLD."assignmentId", -1, OLD."createdAt"), (OLD."assignmentId", 1, NULL),
                 (NEW."assignmentId", -1, NULL), (NEW."assignmentId", 1, NEW."createdAt")) v(id, sign, at)
    JOIN "Assignment" a ON a.id = v.id
    JOIN "Item" i ON i.id = a."itemId"));
  RETURN NULL;
END
$$;

CREATE TRIGGER progress_responses_inserted AFTER INSERT ON "Response"
  REFERENCING NEW TABLE AS changed_responses FOR EACH STATEMENT EXECUTE FUNCTION progress_responses();
CREATE TRIGGER progress_responses_deleted AFTER DELETE ON "Response"
  REFERENCING OLD TABLE AS changed_responses FOR EACH STATEMENT EXECUTE FUNCTION progress_responses();
CREATE TRIGGER progress_response_moved AFTER UPDATE ON "Response"
  FOR EACH ROW WHEN (OLD."assignmentId" IS DISTINCT FROM NEW."assignmentId" OR OLD."createdAt" IS DISTINCT FROM NEW."createdAt")
  EXECUTE FUNCTION progress_response_moved();

-- ------------------------------------------------------------------------------------------------
-- assignments

-- inserted (unanswered: an answer needs its assignment first) or deleted (their answers were
-- deleted just before, by progress_assignment_deleting, and counted then)
CREATE FUNCTION progress_assignments() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  sign int := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  PERFORM progress_lock(
    ARRAY(SELECT DISTINCT "studyId" FROM changed_assignments WHERE NOT agent),
    ARRAY(SELECT DISTINCT "itemId" FROM changed_assignments WHERE NOT agent));
  -- inner joins: the work of a study or item being deleted goes with the study's tallies
  PERFORM progress_apply(ARRAY(
    SELECT ROW(sign, a."studyId", a."userId", a."itemId", a.purpose::text, a.status::text, a.condition, a.agent, i.practice, i.gold, NULL)::progress_contribution
    FROM changed_assignments a
    JOIN "Item" i ON i.id = a."itemId"
    JOIN "Study" s ON s.id = a."studyId"
    WHERE NOT a.agent));
  IF TG_OP = 'DELETE' AND coalesce(current_setting('yardstick.progress_stale_last', true), '') <> '' THEN
    PERFORM progress_last_again(string_to_array(current_setting('yardstick.progress_stale_last', true), E'\x1e'));
    PERFORM set_config('yardstick.progress_stale_last', '', true);
  END IF;
  RETURN NULL;
END
$$;

-- before an assignment goes, its answer goes (counted by progress_responses while the assignment
-- and its item can still be read); not when its whole study or item is being deleted
CREATE FUNCTION progress_assignment_deleting() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT OLD.agent AND EXISTS (SELECT 1 FROM "Study" WHERE id = OLD."studyId") AND EXISTS (SELECT 1 FROM "Item" WHERE id = OLD."itemId") THEN
    -- the last answers are looked up again once, after the whole statement (a withdrawal deletes all of a person's work)
    PERFORM set_config('yardstick.progress_defer_last', 'on', true);
    DELETE FROM "Response" WHERE "assignmentId" = OLD.id;
    PERFORM set_config('yardstick.progress_defer_last', 'off', true);
  END IF;
  RETURN OLD;
END
$$;

-- started, submitted, released, moved to another purpose or condition. The change is counted
-- with the answer as it was before the statement: an answer inserted by the same statement (the
-- submission inserts the answer and sets its assignment SUBMITTED in one statement,
-- lib/responses/responses.ts) is progress_responses' to count, with the assignment as it is now.
-- Such an answer is told by its row version: the same transaction and command as the assignment's.
-- (A statement that deletes an answer and changes its assignment at once is not told apart: no
-- write path does that.)
CREATE FUNCTION progress_assignment_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  answered timestamp(3);
BEGIN
  PERFORM progress_lock(ARRAY[OLD."studyId", NEW."studyId"], ARRAY[OLD."itemId", NEW."itemId"]);
  SELECT r."createdAt" INTO answered
  FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId"
  WHERE r."assignmentId" = NEW.id AND NOT (r.xmin::text = a.xmin::text AND r.cmin::text = a.cmin::text);
  PERFORM progress_apply(ARRAY(
    SELECT ROW(-1, OLD."studyId", OLD."userId", OLD."itemId", OLD.purpose::text, OLD.status::text, OLD.condition, OLD.agent, i.practice, i.gold, answered)::progress_contribution
    FROM "Item" i JOIN "Study" s ON s.id = OLD."studyId" WHERE i.id = OLD."itemId"
    UNION ALL
    SELECT ROW(1, NEW."studyId", NEW."userId", NEW."itemId", NEW.purpose::text, NEW.status::text, NEW.condition, NEW.agent, i.practice, i.gold, answered)::progress_contribution
    FROM "Item" i JOIN "Study" s ON s.id = NEW."studyId" WHERE i.id = NEW."itemId"));
  RETURN NULL;
END
$$;

CREATE TRIGGER progress_assignments_inserted AFTER INSERT ON "Assignment"
  REFERENCING NEW TABLE AS changed_assignments FOR EACH STATEMENT EXECUTE FUNCTION progress_assignments();
CREATE TRIGGER progress_assignments_deleted AFTER DELETE ON "Assignment"
  REFERENCING OLD TABLE AS changed_assignments FOR EACH STATEMENT EXECUTE FUNCTION progress_assignments();
CREATE TRIGGER progress_assignment_deleting BEFORE DELETE ON "Assignment"
  FOR EACH ROW EXECUTE FUNCTION progress_assignment_deleting();
CREATE TRIGGER progress_assignment_updated AFTER UPDATE ON "Assignment"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.purpose IS DISTINCT FROM NEW.purpose
    OR OLD.condition IS DISTINCT FROM NEW.condition OR OLD.agent IS DISTINCT FROM NEW.agent
    OR OLD."userId" IS DISTINCT FROM NEW."userId" OR OLD."studyId" IS DISTINCT FROM NEW."studyId" OR OLD."itemId" IS DISTINCT FROM NEW."itemId")
  EXECUTE FUNCTION progress_assignment_updated();

-- ------------------------------------------------------------------------------------------------
-- items

-- ordinary and gold items per study x batch (statement triggers: changed_items)
CREATE FUNCTION progress_items() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  sign int := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO "ProgressItemCount" AS t ("studyId", "batchId", items, gold)
  SELECT i."studyId", i."batchId", sign * count(*) FILTER (WHERE NOT i.practice AND NOT i.gold), sign * count(*) FILTER (WHERE NOT i.practice AND i.gold)
  FROM changed_items i JOIN "Study" s ON s.id = i."studyId"
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("studyId", "batchId") DO UPDATE SET items = t.items + excluded.items, gold = t.gold + excluded.gold;
  IF TG_OP = 'DELETE' THEN
    -- their answers went first (progress_item_deleting): nothing but zeros is left of them
    DELETE FROM "ProgressItemTally" WHERE "itemId" IN (SELECT id FROM changed_items);
  END IF;
  RETURN NULL;
END
$$;

-- before an item goes, its assignments go (and with them their answers), counted while the item can be read
CREATE FUNCTION progress_item_deleting() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "Study" WHERE id = OLD."studyId") THEN
    DELETE FROM "Assignment" WHERE "itemId" = OLD.id;
  END IF;
  RETURN OLD;
END
$$;

-- an item made practice or gold (or not): its counts, and every answer to it counted again
CREATE FUNCTION progress_item_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM progress_lock(ARRAY[OLD."studyId", NEW."studyId"], ARRAY[NEW.id]);
  INSERT INTO "ProgressItemCount" AS t ("studyId", "batchId", items, gold)
  SELECT "studyId", "batchId", sum(items), sum(gold) FROM (VALUES
    (OLD."studyId", OLD."batchId", -(NOT OLD.practice AND NOT OLD.gold)::int, -(NOT OLD.practice AND OLD.gold)::int),
    (NEW."studyId", NEW."batchId", (NOT NEW.practice AND NOT NEW.gold)::int, (NOT NEW.practice AND NEW.gold)::int)
  ) v("studyId", "batchId", items, gold)
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("studyId", "batchId") DO UPDATE SET items = t.items + excluded.items, gold = t.gold + excluded.gold;
  IF OLD.practice IS DISTINCT FROM NEW.practice OR OLD.gold IS DISTINCT FROM NEW.gold THEN
    PERFORM progress_apply(ARRAY(
      SELECT ROW(v.sign, a."studyId", a."userId", a."itemId", a.purpose::text, a.status::text, a.condition, a.agent,
                 CASE v.sign WHEN -1 THEN OLD.practice ELSE NEW.practice END, CASE v.sign WHEN -1 THEN OLD.gold ELSE NEW.gold END, r."createdAt")::progress_contribution
      FROM "Assignment" a
      LEFT JOIN "Response" r ON r."assignmentId" = a.id
      CROSS JOIN (VALUES (-1), (1)) v(sign)
      WHERE a."itemId" = NEW.id AND NOT a.agent));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER progress_items_inserted AFTER INSERT ON "Item"
  REFERENCING NEW TABLE AS changed_items FOR EACH STATEMENT EXECUTE FUNCTION progress_items();
CREATE TRIGGER progress_items_deleted AFTER DELETE ON "Item"
  REFERENCING OLD TABLE AS changed_items FOR EACH STATEMENT EXECUTE FUNCTION progress_items();
CREATE TRIGGER progress_item_deleting BEFORE DELETE ON "Item"
  FOR EACH ROW EXECUTE FUNCTION progress_item_deleting();
CREATE TRIGGER progress_item_updated AFTER UPDATE ON "Item"
  FOR EACH ROW WHEN (OLD.practice IS DISTINCT FROM NEW.practice OR OLD.gold IS DISTINCT FROM NEW.gold
    OR OLD."studyId" IS DISTINCT FROM NEW."studyId" OR OLD."batchId" IS DISTINCT FROM NEW."batchId")
  EXECUTE FUNCTION progress_item_updated();

-- ------------------------------------------------------------------------------------------------
-- the study's conditions: every item's level counted again (rare: set up before work starts)

CREATE FUNCTION progress_study_levels(study text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(21001, hashtext(study));
  DELETE FROM "ProgressLevelTally" WHERE "studyId" = study;
  INSERT INTO "ProgressLevelTally" ("studyId", "userId", level, items)
  SELECT study, '', level, count(*)
  FROM progress_levels(ARRAY(SELECT DISTINCT "itemId" FROM "ProgressItemTally" WHERE "studyId" = study AND main > 0))
  WHERE level > 0
  GROUP BY level;
END
$$;

CREATE FUNCTION progress_study_conditions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM progress_study_levels(NEW.id);
  RETURN NULL;
END
$$;

CREATE TRIGGER progress_study_conditions AFTER UPDATE OF conditions ON "Study"
  FOR EACH ROW WHEN (OLD.conditions IS DISTINCT FROM NEW.conditions)
  EXECUTE FUNCTION progress_study_conditions();

-- ------------------------------------------------------------------------------------------------
-- the tallies of the existing data (the same rules as the triggers)

INSERT INTO "ProgressItemCount" ("studyId", "batchId", items, gold)
SELECT "studyId", "batchId", count(*) FILTER (WHERE NOT practice AND NOT gold), count(*) FILTER (WHERE NOT practice AND gold)
FROM "Item" GROUP BY 1, 2;

INSERT INTO "ProgressUserTally" ("studyId", "userId", purpose, work, assigned, done, "mainDone", last)
SELECT a."studyId", a."userId", a.purpose,
  count(*) FILTER (WHERE ok),
  count(*) FILTER (WHERE ok AND (a.purpose <> 'MAIN' OR a.status IN ('STARTED', 'SUBMITTED') OR r.id IS NOT NULL)),
  count(r.id) FILTER (WHERE ok),
  count(r.id) FILTER (WHERE a.purpose = 'MAIN' AND NOT i.practice AND NOT i.gold),
  max(r."createdAt") FILTER (WHERE ok)
FROM "Assignment" a
JOIN "Item" i ON i.id = a."itemId"
LEFT JOIN "Response" r ON r."assignmentId" = a.id
CROSS JOIN LATERAL (SELECT NOT i.practice OR a.purpose = 'PRACTICE' AS ok) o
WHERE NOT a.agent
GROUP BY 1, 2, 3;

INSERT INTO "ProgressDayTally" ("studyId", "userId", day, responses)
SELECT a."studyId", a."userId", r."createdAt"::date, count(*)
FROM "Response" r
JOIN "Assignment" a ON a.id = r."assignmentId"
JOIN "Item" i ON i.id = a."itemId"
WHERE NOT a.agent AND a.purpose <> 'PRACTICE' AND NOT i.practice
GROUP BY 1, 2, 3;

INSERT INTO "ProgressItemTally" ("itemId", condition, "studyId", main)
SELECT a."itemId", coalesce(a.condition, ''), a."studyId", count(*)
FROM "Response" r
JOIN "Assignment" a ON a.id = r."assignmentId"
JOIN "Item" i ON i.id = a."itemId"
WHERE NOT a.agent AND a.purpose = 'MAIN' AND NOT i.practice AND NOT i.gold
GROUP BY 1, 2, 3;

-- (without the per-study advisory locks of progress_study_levels: a lock per study could exhaust the lock table)
INSERT INTO "ProgressLevelTally" ("studyId", "userId", level, items)
SELECT l."studyId", '', l.level, count(*)
FROM progress_levels(ARRAY(SELECT DISTINCT "itemId" FROM "ProgressItemTally" WHERE main > 0)) l
WHERE l.level > 0
GROUP BY l."studyId", l.level;
