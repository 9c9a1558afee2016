-- More answers without a correctness (issue 34's rule: a figure about correctness uses only the
-- answers that have one): a grade of a free-text answer has no right value, and a rating or a
-- pairwise preference on an item without reference ratings has nothing to be right against. They
-- were stored as wrong, so calibration and per-annotator accuracy counted them against the person.

-- grades: never right or wrong
UPDATE "Response" r SET correct = NULL
FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId"
WHERE a.id = r."assignmentId" AND i.kind = 'free-text-grade' AND r.correct IS NOT NULL;
UPDATE "ModelPrediction" p SET correct = NULL
FROM "Item" i
WHERE i.id = p."itemId" AND i.kind = 'free-text-grade' AND p.correct IS NOT NULL;

-- ratings and preferences without a reference: the stored score's agree is null
UPDATE "Response" r SET correct = NULL
FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId"
WHERE a.id = r."assignmentId" AND i.kind IN ('rating', 'pairwise') AND r.correct IS NOT NULL AND jsonb_typeof(r.score -> 'agree') IS DISTINCT FROM 'number';
UPDATE "ModelPrediction" p SET correct = NULL
FROM "Item" i
WHERE i.id = p."itemId" AND i.kind IN ('rating', 'pairwise') AND p.correct IS NOT NULL AND jsonb_typeof(p.score -> 'agree') IS DISTINCT FROM 'number';
