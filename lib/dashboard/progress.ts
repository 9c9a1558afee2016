import "server-only";
import { readDb } from "@/lib/db/read";
import { ACTIVE_WINDOW_MINUTES, FOCUS_LOSS_EVENT_TYPES } from "@/lib/dashboard/constants";

/**
 * Progress figures, all SQL aggregates (nothing row by row): responses done against items x k
 * (x conditions: with Study.conditions every item x condition gets k, lib/assignment),
 * per annotator, per day, annotators active now (a trajectory event in the last few minutes), and
 * focus losses per annotator (a GROUP BY over events, never the events themselves).
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

export async function getStudyProgress(studyId: string, overlap: number): Promise<StudyProgress> {
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
    perAnnotator: [...rows.values()].sort((a, b) => a.name.localeCompare(b.name)),
    perDay: perDay.map((d) => ({ day: d.day, responses: n(d.responses) })),
    activeNow: active.size,
    activeWindowMinutes: ACTIVE_WINDOW_MINUTES,
  };
}

/**
 * Users with a trajectory event in the last ACTIVE_WINDOW_MINUTES. Only assignments that can
 * still receive events are probed (not submitted, or submitted within the window), each through
 * the (assignmentId, seq) index, so the cost does not grow with the study's finished work.
 */
export async function activeAnnotators(studyId: string): Promise<Set<string>> {
  const rows = await readDb.$queryRaw<Array<{ userId: string }>>`
    SELECT DISTINCT a."userId"
    FROM "Assignment" a
    WHERE a."studyId" = ${studyId}
      AND (a.status <> 'SUBMITTED' OR a."submittedAt" > now() - interval '1 minute' * ${ACTIVE_WINDOW_MINUTES})
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
