import "server-only";
import { readDb } from "@/lib/db/read";
import { ACTIVE_WINDOW_MINUTES, FOCUS_LOSS_EVENT_TYPES } from "@/lib/dashboard/constants";

/**
 * Progress figures, read from tallies kept up to date on write by PostgreSQL triggers (
 * docs/scaling.md, "Dashboard progress"): responses done against items x k
 * (x conditions: with Study.conditions every item x condition gets k, lib/assignment),
 * per annotator, per day, annotators active now (a trajectory event in the last few minutes), and
 * focus losses per annotator (a GROUP BY over events, never the events themselves). People
 * only: model agents' work (Assignment.agent) is on the study's Agents tab and the dashboard's model rows.
 */

export interface AnnotatorProgress {
  userId: string;
  name: string;
  member: boolean;
  /** MAIN assignments shown (started) or answered; prefetched-unseen and released-unanswered ones left out */
  mainAssigned: number;
  mainDone: number;
  agreementAssigned: number;
  agreementDone: number;
  practiceDone: number;
  /** epoch ms of the last non-practice response */
  lastResponseAt: number | null;
  activeNow: boolean;
}

export interface StudyProgress {
  overlap: number;
  /** ordinary items: neither practice nor gold (gold items hold no place and have no k) */
  items: number;
  /** gold (check) items, answered by any number of people: not in `items`, `expected` or `done` */
  gold: number;
  /** the study's conditions, 1 without any */
  conditions: number;
  /** items x conditions x k */
  expected: number;
  /** responses to MAIN assignments of ordinary items */
  done: number;
  /** ordinary items with at least k MAIN responses in every condition */
  itemsComplete: number;
  agreementAssigned: number;
  agreementDone: number;
  perAnnotator: AnnotatorProgress[];
  /** UTC days */
  perDay: Array<{ day: string; responses: number }>;
  activeNow: number;
  activeWindowMinutes: number;
}

const n = (value: bigint | number | null | undefined) => Number(value ?? 0);

type ProgressCounts = Array<{
  set: "user" | "day" | "totals";
  userId: string | null;
  purpose: string | null;
  day: string | null;
  assigned: bigint | null;
  done: bigint | null;
  last: Date | null;
  items: bigint | null;
  gold: bigint | null;
  conditions: number | null;
  complete: bigint | null;
}>;

/**
 * The study's counts from the progress tallies: rows kept up to date by PostgreSQL
 * triggers in the same transaction as every write (prisma/migrations/20261127201822_progress_tallies),
 * per annotator x purpose, annotator x day, item x condition, writer x item level and batch. Reading
 * them costs the study's annotators and days, not its items or responses.
 */
async function progressTallies(studyId: string, overlap: number) {
  return readDb.$queryRaw<ProgressCounts>`
    SELECT 'user' AS set, "userId", purpose::text AS purpose, NULL AS day, assigned::bigint AS assigned, done::bigint AS done, last,
      NULL::bigint AS items, NULL::bigint AS gold, NULL::int AS conditions, NULL::bigint AS complete
    FROM "ProgressUserTally" WHERE "studyId" = ${studyId} AND work > 0
    UNION ALL
    SELECT 'day', NULL, NULL, to_char(day, 'YYYY-MM-DD'), NULL, sum(responses)::bigint, NULL, NULL, NULL, NULL, NULL
    FROM "ProgressDayTally" WHERE "studyId" = ${studyId} GROUP BY day HAVING sum(responses) > 0
    UNION ALL
    SELECT 'totals', NULL, NULL, NULL, NULL,
      (SELECT coalesce(sum("mainDone"), 0)::bigint FROM "ProgressUserTally" WHERE "studyId" = ${studyId}),
      NULL,
      (SELECT coalesce(sum(items), 0)::bigint FROM "ProgressItemCount" WHERE "studyId" = ${studyId}),
      (SELECT coalesce(sum(gold), 0)::bigint FROM "ProgressItemCount" WHERE "studyId" = ${studyId}),
      (SELECT greatest(1, coalesce(array_length(conditions, 1), 0)) FROM "Study" WHERE id = ${studyId}),
      (SELECT coalesce(sum(items), 0)::bigint FROM "ProgressLevelTally" WHERE "studyId" = ${studyId} AND level >= ${overlap})`;
}

/**
 * The full recomputation of the study's counts from its assignments and responses, the reference
 * the tallies are tested against (progress-tallies.integration.test.ts). One pass: one GROUP BY
 * GROUPING SETS gives the per annotator x purpose, per day and per item x condition counts, and
 * the few practice and gold items are looked up in a hash instead of joining every item.
 */
export async function progressFullRecomputation(studyId: string, overlap: number) {
  return readDb.$queryRaw<ProgressCounts>`
    WITH study AS (
      SELECT greatest(1, coalesce(array_length(conditions, 1), 0)) AS conditions,
        ARRAY(SELECT DISTINCT coalesce(c, '') FROM unnest(CASE WHEN cardinality(conditions) > 0 THEN conditions::text[] ELSE ARRAY[NULL]::text[] END) AS c) AS conds
      FROM "Study" WHERE id = ${studyId}
    ),
    special AS (SELECT id, practice, gold FROM "Item" WHERE "studyId" = ${studyId} AND (practice OR gold)),
    g AS (
      SELECT a."userId", a.purpose, date_trunc('day', r."createdAt" AT TIME ZONE 'UTC') AS day, a."itemId", coalesce(a.condition, '') AS condition,
        GROUPING(a."userId", a.purpose) = 0 AS by_user, GROUPING(date_trunc('day', r."createdAt" AT TIME ZONE 'UTC')) = 0 AS by_day,
        -- per annotator (practice items only in practice work): main work counts once shown (STARTED) or answered, not prefetched or released unanswered
        count(*) FILTER (WHERE (sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AND (a.purpose <> 'MAIN' OR a.status IN ('STARTED', 'SUBMITTED') OR r.id IS NOT NULL)) AS assigned,
        count(r.id) FILTER (WHERE sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AS done,
        max(r."createdAt") FILTER (WHERE sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AS last,
        count(*) FILTER (WHERE sp.practice IS NOT TRUE OR a.purpose = 'PRACTICE') AS work,
        -- per day: answers outside practice; per item x condition: MAIN answers to ordinary items
        count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND sp.practice IS NOT TRUE) AS answers,
        count(r.id) FILTER (WHERE a.purpose = 'MAIN' AND sp.id IS NULL) AS main
      FROM "Assignment" a
      LEFT JOIN "Response" r ON r."assignmentId" = a.id
      LEFT JOIN special sp ON sp.id = a."itemId"
      WHERE a."studyId" = ${studyId} AND NOT a.agent
      GROUP BY GROUPING SETS ((a."userId", a.purpose), (date_trunc('day', r."createdAt" AT TIME ZONE 'UTC')), (a."itemId", coalesce(a.condition, '')))
    )
    SELECT 'user' AS set, "userId", purpose::text AS purpose, NULL AS day, assigned, done, last, NULL::bigint AS items, NULL::bigint AS gold, NULL::int AS conditions, NULL::bigint AS complete
    FROM g WHERE by_user AND work > 0
    UNION ALL
    SELECT 'day', NULL, NULL, to_char(day, 'YYYY-MM-DD'), NULL, answers, NULL, NULL, NULL, NULL, NULL FROM g WHERE by_day AND day IS NOT NULL AND answers > 0
    UNION ALL
    SELECT 'totals', NULL, NULL, NULL, NULL,
      (SELECT coalesce(sum(main), 0)::bigint FROM g WHERE NOT by_user AND NOT by_day),
      NULL,
      (SELECT count(*) FROM "Item" WHERE "studyId" = ${studyId}) - (SELECT count(*) FROM special WHERE practice OR gold),
      (SELECT count(*) FROM special WHERE NOT practice AND gold),
      (SELECT conditions FROM study),
      (SELECT count(*) FROM (
        SELECT g."itemId" FROM g, study
        WHERE NOT g.by_user AND NOT g.by_day AND g.main >= ${overlap} AND g.condition = ANY(study.conds)
        GROUP BY g."itemId" HAVING count(*) = (SELECT cardinality(conds) FROM study)
      ) c)`;
}

/**
 * The per-annotator rows from the counts per (annotator, purpose): every user given (members and
 * annotators with work), sorted by name; and the agreement totals.
 */
export function annotatorProgressRows(
  users: ReadonlyArray<{ id: string; name: string }>,
  memberIds: ReadonlySet<string>,
  active: ReadonlySet<string>,
  byUser: ReadonlyArray<{ userId: string; purpose: string | null; assigned: bigint | number | null; done: bigint | number | null; last: Date | null }>,
): { perAnnotator: AnnotatorProgress[]; agreementAssigned: number; agreementDone: number } {
  const rows = new Map<string, AnnotatorProgress>();
  for (const user of users) {
    rows.set(user.id, {
      userId: user.id,
      name: user.name,
      member: memberIds.has(user.id),
      mainAssigned: 0,
      mainDone: 0,
      agreementAssigned: 0,
      agreementDone: 0,
      practiceDone: 0,
      lastResponseAt: null,
      activeNow: active.has(user.id),
    });
  }
  let agreementAssigned = 0;
  let agreementDone = 0;
  for (const r of byUser) {
    const row = rows.get(r.userId);
    if (!row) continue;
    if (r.purpose === "MAIN") {
      row.mainAssigned += n(r.assigned);
      row.mainDone += n(r.done);
    } else if (r.purpose === "AGREEMENT") {
      row.agreementAssigned += n(r.assigned);
      row.agreementDone += n(r.done);
      agreementAssigned += n(r.assigned);
      agreementDone += n(r.done);
    } else {
      row.practiceDone += n(r.done);
      continue;
    }
    if (r.last) row.lastResponseAt = Math.max(row.lastResponseAt ?? 0, r.last.getTime());
  }
  return { perAnnotator: [...rows.values()].sort((a, b) => a.name.localeCompare(b.name)), agreementAssigned, agreementDone };
}

/** The dashboard's progress figures, from the tallies. */
export function getStudyProgress(studyId: string, overlap: number): Promise<StudyProgress> {
  return studyProgressFrom(progressTallies, studyId, overlap);
}

/** The same figures from the full recomputation (tests and checks: its cost grows with the study). */
export function recomputeStudyProgress(studyId: string, overlap: number): Promise<StudyProgress> {
  return studyProgressFrom(progressFullRecomputation, studyId, overlap);
}

async function studyProgressFrom(
  counting: (studyId: string, overlap: number) => Promise<ProgressCounts>,
  studyId: string,
  overlap: number,
): Promise<StudyProgress> {
  const [counts, active, members] = await Promise.all([
    counting(studyId, overlap),
    activeAnnotators(studyId),
    readDb.studyMember.findMany({ where: { studyId, user: { role: "ANNOTATOR", isAgent: false } }, select: { userId: true } }),
  ]);
  const byUser = counts.filter((r) => r.set === "user").map((r) => ({ ...r, userId: r.userId! }));
  const perDay = counts.filter((r) => r.set === "day").sort((x, y) => (x.day! < y.day! ? -1 : x.day! > y.day! ? 1 : 0));
  const totals = counts.find((r) => r.set === "totals")!;
  const itemsRow = { items: totals.items!, gold: totals.gold!, conditions: totals.conditions, done: totals.done! };
  // an item with no answers is complete only when no answer is needed
  const complete = { items: overlap <= 0 ? totals.items! : totals.complete! };
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
    perDay: perDay.map((d) => ({ day: d.day!, responses: n(d.done) })),
    activeNow: active.size,
    activeWindowMinutes: ACTIVE_WINDOW_MINUTES,
  };
}

/**
 * Users with a trajectory event in the last ACTIVE_WINDOW_MINUTES. Only assignments that can
 * still receive events are probed (not submitted, or submitted within the window), found through
 * the (studyId, status, submittedAt) index and each probed through the (assignmentId, seq) index,
 * so the cost does not grow with the study's finished work.
 */
export async function activeAnnotators(studyId: string): Promise<Set<string>> {
  const rows = await readDb.$queryRaw<Array<{ userId: string }>>`
    SELECT DISTINCT a."userId"
    FROM "Assignment" a
    WHERE a."studyId" = ${studyId} AND NOT a.agent
      AND (a.status IN ('ASSIGNED', 'STARTED', 'RELEASED') OR (a.status = 'SUBMITTED' AND a."submittedAt" > now() - interval '1 minute' * ${ACTIVE_WINDOW_MINUTES}))
      AND EXISTS (
        SELECT 1 FROM "Event" e
        WHERE e."assignmentId" = a.id AND e."serverTime" > now() - interval '1 minute' * ${ACTIVE_WINDOW_MINUTES}
      )`;
  return new Set(rows.map((r) => r.userId));
}

/** Focus losses (events of FOCUS_LOSS_EVENT_TYPES) per user in the study: one GROUP BY. */
export async function focusLossesByUser(studyId: string): Promise<Map<string, number>> {
  const rows = await readDb.$queryRaw<Array<{ userId: string; losses: bigint }>>`
    SELECT a."userId", count(*) AS losses
    FROM "Event" e
    JOIN "Assignment" a ON a.id = e."assignmentId"
    WHERE a."studyId" = ${studyId} AND e.type = ANY(${FOCUS_LOSS_EVENT_TYPES as string[]})
    GROUP BY 1`;
  return new Map(rows.map((r) => [r.userId, n(r.losses)]));
}

/** Answers of the study outside practice, from the tallies alone: whether a visit may compute a dashboard view itself (study-dashboard.ts) or leaves it to the job worker. */
export async function answersOutsidePractice(studyId: string): Promise<number> {
  const [row] = await readDb.$queryRaw<Array<{ answers: bigint | null }>>`
    SELECT sum(done)::bigint AS answers FROM "ProgressUserTally" WHERE "studyId" = ${studyId} AND purpose <> 'PRACTICE'`;
  return Number(row?.answers ?? 0);
}
