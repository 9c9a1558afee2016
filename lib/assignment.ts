import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AssignmentPurpose } from "@/lib/generated/prisma/enums";
import { excludedItemIdsForStudy, reviewExcludedItemFilter } from "@/lib/review/exclusion";

/**
 * Who gets which item next (DESIGN.md, lib/assignment.ts).
 *
 * - Every item gets exactly k = Study.overlap distinct annotators for MAIN work; an item whose
 *   MAIN assignments number k is not offered again. Practice items go to every annotator first
 *   (purpose PRACTICE) and pre-assigned items (AGREEMENT, from the dashboards' agreement plan)
 *   are served before new MAIN work; neither counts toward k.
 * - Each annotator meets the items in a random order of their own that is the same on every
 *   device: items are ranked by md5(userId:itemId).
 * - Assignments are created on demand, one at a time: an annotator holds the item on screen and
 *   at most one prefetched next item (plus, briefly, items submitted offline that the server has
 *   not seen yet). Creation runs in a transaction holding `pg_advisory_xact_lock` on the study,
 *   so two annotators asking at the same moment are served one after the other and never push
 *   an item past k; (itemId, userId) is unique, so nobody gets an item twice.
 */

/** Open (created, not submitted) on-demand assignments an annotator may hold: on screen, prefetched, one submitted offline. */
export const MAX_OPEN_ASSIGNMENTS = 3;

const purposeRank: Record<AssignmentPurpose, number> = { PRACTICE: 0, AGREEMENT: 1, MAIN: 2 };

export type NextAssignment =
  | { status: "assigned"; assignmentId: string; purpose: AssignmentPurpose; created: boolean }
  /** nothing left for this annotator */
  | { status: "done" }
  /** nothing to hand out until the excluded assignments (submitted offline) reach the server */
  | { status: "wait" }
  /** the study is not open */
  | { status: "closed" };

type Tx = Prisma.TransactionClient;

interface OpenAssignment {
  id: string;
  purpose: AssignmentPurpose;
  position: number;
}

async function openAssignments(client: Tx | typeof db, studyId: string, userId: string): Promise<OpenAssignment[]> {
  const rows = await client.assignment.findMany({
    where: { studyId, userId, status: { not: "SUBMITTED" } },
    select: { id: true, purpose: true, position: true },
  });
  return rows.sort((a, b) => purposeRank[a.purpose] - purposeRank[b.purpose] || a.position - b.position);
}

/** Takes the study's assignment lock until the transaction ends. */
async function lockStudy(tx: Tx, studyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`yardstick:assign:${studyId}`}, 0))`;
}

async function nextPosition(tx: Tx, studyId: string, userId: string): Promise<number> {
  const result = await tx.assignment.aggregate({ where: { studyId, userId }, _max: { position: true } });
  return (result._max.position ?? -1) + 1;
}

/** The first practice item the annotator has not had, in import order (researchers order practice on purpose). */
async function nextPracticeItem(tx: Tx | typeof db, studyId: string, userId: string): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT i."id" FROM "Item" i
    WHERE i."studyId" = ${studyId} AND i."practice" = true
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
      AND ${reviewExcludedItemFilter("i")}
    ORDER BY i."createdAt", i."externalId"
    LIMIT 1`;
  return rows[0]?.id ?? null;
}

/** The annotator's next main item: not had yet, fewer than k MAIN assignments, lowest md5(userId:itemId). */
async function nextMainItem(tx: Tx, studyId: string, userId: string, overlap: number): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT i."id" FROM "Item" i
    WHERE i."studyId" = ${studyId} AND i."practice" = false
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
      AND (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i."id" AND a."purpose" = 'MAIN') < ${overlap}
      AND ${reviewExcludedItemFilter("i")}
    ORDER BY md5(${userId} || ':' || i."id"), i."id"
    LIMIT 1`;
  return rows[0]?.id ?? null;
}

/**
 * The assignment the annotator should work on next, created when needed.
 *
 * `exclude`: assignments the browser holds already (the item on screen, items submitted but not
 * yet acknowledged), so that a prefetch asks for the one after them.
 */
export async function nextAssignment(studyId: string, userId: string, options: { exclude?: readonly string[] } = {}): Promise<NextAssignment> {
  const exclude = new Set(options.exclude ?? []);
  const study = await db.study.findUnique({ where: { id: studyId }, select: { status: true, overlap: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}`);
  if (study.status !== "OPEN") return { status: "closed" };

  // fast path without the lock: an open non-practice assignment is served as it is, unless
  // practice items are still to come (checked under the lock below)
  const open = (await openAssignments(db, studyId, userId)).filter((a) => !exclude.has(a.id));
  if (open.length > 0 && (open[0].purpose === "PRACTICE" || (await nextPracticeItem(db, studyId, userId)) === null)) {
    return { status: "assigned", assignmentId: open[0].id, purpose: open[0].purpose, created: false };
  }

  return db.$transaction(
    async (tx) => {
      await lockStudy(tx, studyId);
      const allOpen = await openAssignments(tx, studyId, userId);
      const candidates = allOpen.filter((a) => !exclude.has(a.id));
      if (candidates[0]?.purpose === "PRACTICE") return { status: "assigned", assignmentId: candidates[0].id, purpose: "PRACTICE", created: false } as const;

      // pre-assigned (AGREEMENT) work is not hoarding: only on-demand assignments count
      const tooMany = allOpen.filter((a) => a.purpose !== "AGREEMENT").length >= MAX_OPEN_ASSIGNMENTS;
      const practiceItem = await nextPracticeItem(tx, studyId, userId);
      if (practiceItem) {
        if (tooMany) return { status: "wait" } as const;
        const created = await tx.assignment.create({
          data: { studyId, userId, itemId: practiceItem, purpose: "PRACTICE", position: await nextPosition(tx, studyId, userId) },
          select: { id: true },
        });
        return { status: "assigned", assignmentId: created.id, purpose: "PRACTICE", created: true } as const;
      }
      if (candidates.length > 0) return { status: "assigned", assignmentId: candidates[0].id, purpose: candidates[0].purpose, created: false } as const;

      const mainItem = await nextMainItem(tx, studyId, userId, study.overlap);
      if (!mainItem) return exclude.size > 0 && allOpen.some((a) => exclude.has(a.id)) ? ({ status: "wait" } as const) : ({ status: "done" } as const);
      if (tooMany) return { status: "wait" } as const;
      const created = await tx.assignment.create({
        data: { studyId, userId, itemId: mainItem, purpose: "MAIN", position: await nextPosition(tx, studyId, userId) },
        select: { id: true },
      });
      return { status: "assigned", assignmentId: created.id, purpose: "MAIN", created: true } as const;
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/**
 * Pre-assigns items to an annotator (the dashboards' agreement plan uses AGREEMENT); the next-item
 * logic serves them before new MAIN work (after practice). Items the annotator has already are
 * skipped, and so are items that item review excluded. MAIN pre-assignments respect k: an item at k MAIN assignments is refused (CONFLICT)
 * and nothing is written. The annotator becomes a member of the study if not yet one.
 */
export async function assignItemsTo(userId: string, itemIds: readonly string[], purpose: AssignmentPurpose): Promise<{ created: number; skipped: number; assignmentIds: string[] }> {
  const unique = [...new Set(itemIds)];
  if (unique.length === 0) return { created: 0, skipped: 0, assignmentIds: [] };
  const items = await db.item.findMany({ where: { id: { in: unique } }, select: { id: true, studyId: true, practice: true } });
  const missing = unique.filter((id) => !items.some((item) => item.id === id));
  if (missing.length > 0) throw new AppError("NOT_FOUND", `assignItemsTo: no item with id ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}`);
  const studyIds = new Set(items.map((item) => item.studyId));
  if (studyIds.size !== 1) throw new AppError("INVALID", `assignItemsTo needs items of one study; got items of ${studyIds.size} studies`);
  const [studyId] = studyIds;
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new AppError("NOT_FOUND", `assignItemsTo: no user with id ${userId}`);

  return db.$transaction(
    async (tx) => {
      await lockStudy(tx, studyId);
      const had = await tx.assignment.findMany({ where: { userId, itemId: { in: unique } }, select: { itemId: true } });
      const hadSet = new Set(had.map((a) => a.itemId));
      const excluded = new Set(await excludedItemIdsForStudy(studyId));
      const fresh = unique.filter((id) => !hadSet.has(id) && !excluded.has(id));
      if (purpose === "MAIN" && fresh.length > 0) {
        const study = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { overlap: true } });
        const counts = await tx.assignment.groupBy({ by: ["itemId"], where: { itemId: { in: fresh }, purpose: "MAIN" }, _count: { _all: true } });
        const full = counts.filter((row) => row._count._all >= study.overlap).map((row) => row.itemId);
        if (full.length > 0) throw new AppError("CONFLICT", `assignItemsTo: item(s) ${full.slice(0, 5).join(", ")} already have ${study.overlap} annotator(s) (the study's overlap)`);
      }
      await tx.studyMember.createMany({ data: [{ studyId, userId }], skipDuplicates: true });
      let position = await nextPosition(tx, studyId, userId);
      const assignmentIds: string[] = [];
      for (const itemId of fresh) {
        const created = await tx.assignment.create({ data: { studyId, userId, itemId, purpose, position: position++ }, select: { id: true } });
        assignmentIds.push(created.id);
      }
      return { created: fresh.length, skipped: unique.length - fresh.length, assignmentIds };
    },
    { maxWait: 20_000, timeout: 60_000 },
  );
}

export interface Progress {
  practice: { done: number; total: number };
  /** non-practice work: done, and the most this annotator can still reach (done + open + available now) */
  main: { done: number; total: number };
  /** assignments created and not submitted */
  open: number;
  /** nothing open and nothing left to hand out */
  finished: boolean;
}

/**
 * The annotator's progress ("12 of 40"). The total is what this annotator can still reach: their
 * submitted and open items plus the items they could be given now (fewer than k annotators and
 * not theirs yet); it shrinks as other annotators take the last places of items.
 */
export async function progressFor(studyId: string, userId: string): Promise<Progress> {
  const study = await db.study.findUnique({ where: { id: studyId }, select: { overlap: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}`);
  const [rows, practiceTotal, available] = await Promise.all([
    db.assignment.groupBy({ by: ["purpose", "status"], where: { studyId, userId }, _count: { _all: true } }),
    db.item.count({ where: { studyId, practice: true } }),
    db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM "Item" i
      WHERE i."studyId" = ${studyId} AND i."practice" = false
        AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
        AND (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i."id" AND a."purpose" = 'MAIN') < ${study.overlap}
        AND ${reviewExcludedItemFilter("i")}`,
  ]);
  let practiceDone = 0;
  let practiceAssigned = 0;
  let mainDone = 0;
  let mainAssigned = 0;
  let open = 0;
  for (const row of rows) {
    const n = row._count._all;
    if (row.status !== "SUBMITTED") open += n;
    if (row.purpose === "PRACTICE") {
      practiceAssigned += n;
      if (row.status === "SUBMITTED") practiceDone += n;
    } else {
      mainAssigned += n;
      if (row.status === "SUBMITTED") mainDone += n;
    }
  }
  const availableNow = Number(available[0]?.n ?? 0);
  const practiceLeft = Math.max(0, practiceTotal - practiceAssigned);
  return {
    practice: { done: practiceDone, total: Math.max(practiceTotal, practiceAssigned) },
    main: { done: mainDone, total: mainAssigned + availableNow },
    open,
    finished: open === 0 && availableNow === 0 && practiceLeft === 0,
  };
}
