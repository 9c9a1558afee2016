import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { readDb } from "@/lib/db/read";
import { ACTIVE_WINDOW_MINUTES } from "@/lib/dashboard/constants";
import { activeAnnotators, annotatorProgressRows, getStudyProgress, recomputeStudyProgress, type StudyProgress } from "@/lib/dashboard/progress";
import { createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The progress figures, from the tallies (getStudyProgress) and from the one-pass full
 * recomputation (GROUPING SETS, recomputeStudyProgress), against the five queries they replaced,
 * kept here verbatim as the reference (the per-annotator rows are assembled from its counts as the page does, by annotatorProgressRows), on random studies: practice and gold items, conditions,
 * every purpose and status, answered or not, any overlap.
 */

const n = (value: bigint | number | null | undefined) => Number(value ?? 0);

async function previousStudyProgress(studyId: string, overlap: number): Promise<StudyProgress> {
  const [[itemsRow], byUser, [complete], perDay, active, members] = await Promise.all([
    readDb.$queryRaw<Array<{ items: bigint; gold: bigint; conditions: number; done: bigint }>>`
    SELECT (SELECT count(*) FROM "Item" WHERE "studyId" = ${studyId} AND NOT practice AND NOT gold) AS items,
      (SELECT count(*) FROM "Item" WHERE "studyId" = ${studyId} AND NOT practice AND gold) AS gold,
      (SELECT greatest(1, coalesce(array_length(conditions, 1), 0)) FROM "Study" WHERE id = ${studyId}) AS conditions,
      (SELECT count(*) FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} AND a.purpose = 'MAIN' AND NOT i.practice AND NOT i.gold) AS done`,
    readDb.$queryRaw<Array<{ userId: string; purpose: string; assigned: bigint; done: bigint; last: Date | null }>>`
    SELECT a."userId", a.purpose::text AS purpose,
      -- main work counts once shown (STARTED) or answered: a prefetched item nobody has seen yet, or one released back to the pool unanswered, is not "assigned" work
      count(*) FILTER (WHERE a.purpose <> 'MAIN' OR a.status IN ('STARTED', 'SUBMITTED') OR r.id IS NOT NULL) AS assigned,
      count(r.id) AS done, max(r."createdAt") AS last
    FROM "Assignment" a
    JOIN "Item" i ON i.id = a."itemId"
    LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${studyId} AND (NOT i.practice OR a.purpose = 'PRACTICE')
    GROUP BY 1, 2`,
    readDb.$queryRaw<Array<{ items: bigint }>>`
    WITH conditions AS (
      SELECT c.cond FROM "Study" s
      CROSS JOIN LATERAL (SELECT unnest(CASE WHEN cardinality(s.conditions) > 0 THEN s.conditions::text[] ELSE ARRAY[NULL]::text[] END) AS cond) c
      WHERE s.id = ${studyId}
    ),
    answered AS (
      SELECT a."itemId", a.condition, count(*) AS n FROM "Assignment" a
      JOIN "Response" r ON r."assignmentId" = a.id
      JOIN "Item" i ON i.id = a."itemId"
      WHERE a."studyId" = ${studyId} AND a.purpose = 'MAIN' AND NOT i.practice AND NOT i.gold
      GROUP BY 1, 2
    )
    SELECT count(*) AS items FROM (
      SELECT i.id FROM "Item" i
      CROSS JOIN conditions c
      LEFT JOIN answered x ON x."itemId" = i.id AND coalesce(x.condition, '') = coalesce(c.cond, '')
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
      GROUP BY i.id HAVING bool_and(coalesce(x.n, 0) >= ${overlap})
    ) t`,
    readDb.$queryRaw<Array<{ day: string; responses: bigint }>>`
    SELECT to_char(r."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS responses
    FROM "Response" r
    JOIN "Assignment" a ON a.id = r."assignmentId"
    JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE' AND NOT i.practice
    GROUP BY 1 ORDER BY 1`,
    activeAnnotators(studyId),
    readDb.studyMember.findMany({ where: { studyId, user: { role: "ANNOTATOR" } }, select: { userId: true } }),
  ]);
  const memberIds = new Set(members.map((m) => m.userId));
  const userIds = new Set([...byUser.map((r) => r.userId), ...memberIds]);
  const users = await readDb.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true } });
  const { perAnnotator, agreementAssigned, agreementDone } = annotatorProgressRows(users, memberIds, active, byUser);
  const items = n(itemsRow.items);
  const conditions = Number(itemsRow.conditions ?? 1);
  return {
    overlap,
    items,
    gold: n(itemsRow.gold),
    conditions,
    expected: items * conditions * overlap,
    done: n(itemsRow.done),
    itemsComplete: n(complete.items),
    agreementAssigned,
    agreementDone,
    perAnnotator,
    perDay: perDay.map((d) => ({ day: d.day, responses: n(d.responses) })),
    activeNow: active.size,
    activeWindowMinutes: ACTIVE_WINDOW_MINUTES,
  };
}

afterAll(async () => {
  await disconnectDb();
});

/** seeded, so that CI is the same run every time (FUZZ_SEED runs another) */
const SEED = Number(process.env.FUZZ_SEED ?? 20261205);

const PURPOSES = ["MAIN", "AGREEMENT", "PRACTICE"] as const;
const STATUSES = ["ASSIGNED", "STARTED", "SUBMITTED", "RELEASED"] as const;

describe("progress from the tallies and from one grouped query", () => {
  it("give the same figures as the five queries they replaced, on random studies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          items: fc.array(fc.record({ practice: fc.boolean(), gold: fc.boolean() }), { minLength: 1, maxLength: 8 }),
          conditions: fc.constantFrom<string[]>([], ["single"], ["single", "multi"]),
          overlap: fc.integer({ min: 1, max: 3 }),
          users: fc.integer({ min: 1, max: 4 }),
          work: fc.array(
            fc.record({
              item: fc.nat(),
              user: fc.nat(),
              purpose: fc.constantFrom(...PURPOSES),
              status: fc.constantFrom(...STATUSES),
              answered: fc.boolean(),
              condition: fc.nat(3),
              day: fc.integer({ min: 0, max: 3 }),
            }),
            { maxLength: 25 },
          ),
        }),
        async (spec) => {
          await resetDatabase();
          const study = await createStudy({ overlap: spec.overlap });
          if (spec.conditions.length > 0) await db.study.update({ where: { id: study.id }, data: { conditions: spec.conditions } });
          const items = await createEnactItems(study.id, { count: spec.items.length });
          for (const [k, item] of items.entries()) await db.item.update({ where: { id: item!.id }, data: spec.items[k] });
          const users = [];
          for (let u = 0; u < spec.users; u++) users.push(await createUser("ANNOTATOR"));
          await db.studyMember.create({ data: { studyId: study.id, userId: users[0]!.id } });
          const seen = new Set<string>();
          const assignments = [];
          const responses = [];
          for (const [k, w] of spec.work.entries()) {
            const item = items[w.item % items.length]!;
            const user = users[w.user % users.length]!;
            if (seen.has(`${item.id}:${user.id}`)) continue;
            seen.add(`${item.id}:${user.id}`);
            const condition = spec.conditions.length > 0 ? ((["single", "multi", "other", null] as const)[w.condition] ?? null) : w.condition === 0 ? "" : null;
            const at = new Date(Date.UTC(2026, 0, 5 + w.day, 23, 30));
            const id = `${study.id}-a${k}`;
            assignments.push({
              id,
              studyId: study.id,
              itemId: item.id,
              userId: user.id,
              condition,
              position: k,
              purpose: w.purpose,
              status: w.status,
              submittedAt: w.answered ? at : null,
            });
            if (w.answered)
              responses.push({
                assignmentId: id,
                clientId: `c-${id}`,
                answer: {},
                confidenceRaw: 3,
                confidence: 0.5,
                wallMs: 1,
                activeMs: 1,
                score: {},
                correct: true,
                createdAt: at,
              });
          }
          await db.assignment.createMany({ data: assignments });
          await db.response.createMany({ data: responses });
          const [tallies, onePass, before] = [
            await getStudyProgress(study.id, spec.overlap),
            await recomputeStudyProgress(study.id, spec.overlap),
            await previousStudyProgress(study.id, spec.overlap),
          ];
          expect(onePass).toEqual(before);
          expect(tallies).toEqual(before);
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  }, 600_000);
});
