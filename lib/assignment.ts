import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
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
 *
 * Probe families (GridWM-Judge, issue 9 "Assignment for probes"). Consistency is measured within
 * a person, so the items of one base case (kind gridwm-judge, same `env` and `group` tags; items
 * without a `group` are ordinary items) go to the same annotator(s). The rule, for MAIN work only:
 * - Ownership: an annotator holds a base case once they have a MAIN assignment to any of its
 *   items. A base case has at most k holders; an annotator who does not hold it may take one of
 *   its items only while it has fewer than k holders (and then holds it). So with k = 1 a family
 *   is never split, and with k > 1 each of k annotators takes the whole family. The per-item
 *   count < k check stays as well, so no item passes k whatever the ownership says.
 * - Spacing: a further item of a held base case is due when at least g other items (any
 *   purpose) were assigned to the annotator since the last member of that base case (measured
 *   with Assignment.position), g = Study.probeMinGap, lowered to what the annotator's work
 *   allows so that members are spread evenly when there is too little else: (other items since
 *   the last member + other items they could still get) / items of the base case left, rounded
 *   down; never below 1 (never adjacent while anything else can separate them).
 *   Order of service: due family items; then new base cases (started early, so that the rest of
 *   the queue is there to space their members), those with the fewest holders first, so that
 *   with k > 1 every family reaches k holders; then ordinary items; all in the annotator's md5
 *   order. A held item that is not due is served only when nothing else is left for the
 *   annotator, the one that waited longest first: spacing is best effort, and an annotator whose
 *   only remaining work is one family gets its members back to back rather than stalling
 *   (nobody else may take them).
 * - Balance: an annotator may start a new base case only while they hold fewer than
 *   ceil(base cases x k / people) of them, people being the study's members (plus the asking
 *   annotator). This is a hard share, not a preference: if a member never works, their share of
 *   base cases waits for them (removing the member frees it); started families are always
 *   finished by their holders. Pre-assigned (AGREEMENT) items neither take nor need ownership;
 *   MAIN pre-assignments (assignItemsTo) are the researcher's explicit choice and are not checked
 *   against ownership.
 * Everything runs under the same study lock, so concurrent requests cannot break k or ownership.
 * Items of every other kind are assigned exactly as before.
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

/** The kind whose items form probe families (base cases). */
const PROBE_KIND = "gridwm-judge";

/**
 * SQL for an item's base case key, NULL for items outside probe families: the `env` and `group`
 * tags as a JSON array (an absent env is null), like baseCase() in lib/tasks/gridwm-judge.ts.
 */
function baseCaseSql(alias: string): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`baseCaseSql: "${alias}" is not a plain SQL alias`);
  const i = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(CASE WHEN ${i}."kind" = ${PROBE_KIND} AND ${i}."tags"->>'group' IS NOT NULL
    THEN json_build_array(${i}."tags"->>'env', ${i}."tags"->>'group')::text END)`;
}

/** Base cases and their holders: annotators with a MAIN assignment to one of the base case's items. */
function holdersSql(studyId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${baseCaseSql("hi")} AS base, ha."userId" AS "userId"
    FROM "Assignment" ha JOIN "Item" hi ON hi."id" = ha."itemId"
    WHERE ha."studyId" = ${studyId} AND ha."purpose" = 'MAIN' AND hi."kind" = ${PROBE_KIND} AND hi."tags"->>'group' IS NOT NULL
    GROUP BY 1, 2`;
}

/** May the annotator start a new base case: fewer held than their share, ceil(base cases x k / people). */
async function mayStartBaseCase(tx: Tx, studyId: string, userId: string, overlap: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ bases: bigint; held: bigint; people: bigint }>>`
    SELECT
      (SELECT count(DISTINCT ${baseCaseSql("i")}) FROM "Item" i
        WHERE i."studyId" = ${studyId} AND i."practice" = false AND i."kind" = ${PROBE_KIND} AND i."tags"->>'group' IS NOT NULL
          AND ${reviewExcludedItemFilter("i")}) AS bases,
      (SELECT count(*) FROM (${holdersSql(studyId)}) h WHERE h."userId" = ${userId}) AS held,
      (SELECT count(*) FROM (SELECT m."userId" FROM "StudyMember" m WHERE m."studyId" = ${studyId} UNION SELECT ${userId}) p) AS people`;
  const bases = Number(row?.bases ?? 0);
  if (bases === 0) return false;
  const people = Math.max(1, Number(row?.people ?? 1));
  return Number(row?.held ?? 0) < Math.ceil((bases * overlap) / people);
}

/**
 * The annotator's next main item: not had yet, fewer than k MAIN assignments, allowed by the
 * probe-family rules (see the top of this file); among those, due family items first, then
 * new base cases, then ordinary items, then family items that are not due yet; lowest
 * md5(userId:itemId) within each tier.
 */
async function nextMainItem(tx: Tx, studyId: string, userId: string, overlap: number, minGap: number): Promise<string | null> {
  const position = await nextPosition(tx, studyId, userId);
  const mayStart = await mayStartBaseCase(tx, studyId, userId, overlap);
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    WITH cand AS (
      SELECT i."id", ${baseCaseSql("i")} AS base FROM "Item" i
      WHERE i."studyId" = ${studyId} AND i."practice" = false
        AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
        AND (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i."id" AND a."purpose" = 'MAIN') < ${overlap}
        AND ${reviewExcludedItemFilter("i")}
    ),
    holders AS (
      SELECT h.base, count(*) AS n, bool_or(h."userId" = ${userId}) AS mine FROM (${holdersSql(studyId)}) h GROUP BY h.base
    ),
    lastpos AS (
      SELECT ${baseCaseSql("li")} AS base, max(la."position") AS p
      FROM "Assignment" la JOIN "Item" li ON li."id" = la."itemId"
      WHERE la."studyId" = ${studyId} AND la."userId" = ${userId} AND li."kind" = ${PROBE_KIND} AND li."tags"->>'group' IS NOT NULL
      GROUP BY 1
    ),
    eligible AS (
      SELECT c."id", c.base, coalesce(h.mine, false) AS mine, coalesce(h.n, 0) AS holders, l.p AS lastp
      FROM cand c LEFT JOIN holders h ON h.base = c.base LEFT JOIN lastpos l ON l.base = c.base
      WHERE c.base IS NULL OR coalesce(h.mine, false) OR (coalesce(h.n, 0) < ${overlap} AND ${mayStart})
    ),
    counted AS (
      SELECT e.*, count(*) OVER () AS total, count(*) OVER (PARTITION BY e.base) AS mates FROM eligible e
    ),
    ranked AS (
      SELECT k."id", k.lastp, k.holders,
        CASE
          WHEN k.mine AND (k.lastp IS NULL
            OR ${position} - k.lastp - 1 >= GREATEST(1, LEAST(${minGap}, floor((k.total - k.mates + ${position} - k.lastp - 1)::numeric / k.mates)))) THEN 0
          WHEN k.base IS NOT NULL AND NOT k.mine THEN 1
          WHEN k.base IS NULL THEN 2
          ELSE 3
        END AS tier
      FROM counted k
    )
    SELECT r."id" FROM ranked r
    ORDER BY r.tier, CASE WHEN r.tier = 1 THEN r.holders END, CASE WHEN r.tier = 3 THEN r.lastp END NULLS FIRST, md5(${userId} || ':' || r."id"), r."id"
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
  const study = await db.study.findUnique({ where: { id: studyId }, select: { status: true, overlap: true, probeMinGap: true } });
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

      const mainItem = await nextMainItem(tx, studyId, userId, study.overlap, study.probeMinGap);
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
 * not theirs yet, and for probe families not held by k others); it shrinks as other annotators
 * take the last places of items. The base-case share (balance rule) is not counted here.
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
        AND ${reviewExcludedItemFilter("i")}
        AND (${baseCaseSql("i")} IS NULL OR (
          SELECT count(*) FILTER (WHERE h."userId" <> ${userId}) < ${study.overlap} OR bool_or(h."userId" = ${userId}) IS TRUE
          FROM (${holdersSql(studyId)}) h WHERE h.base = ${baseCaseSql("i")}))`,
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
