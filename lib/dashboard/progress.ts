import "server-only";
import {
  countEventsByUser,
  findActiveAnnotatorIds,
  findAnnotatorMemberIds,
  findProgressTallies,
  findUserNames,
  recomputeProgressCounts,
  sumAnswersOutsidePractice,
  type ProgressCounts,
} from "@/lib/repos/dashboard-progress";
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
  return studyProgressFrom(findProgressTallies, studyId, overlap);
}

/** The same figures from the full recomputation (tests and checks: its cost grows with the study). */
export function recomputeStudyProgress(studyId: string, overlap: number): Promise<StudyProgress> {
  return studyProgressFrom(recomputeProgressCounts, studyId, overlap);
}

async function studyProgressFrom(
  counting: (studyId: string, overlap: number) => Promise<ProgressCounts>,
  studyId: string,
  overlap: number,
): Promise<StudyProgress> {
  const [counts, active, members] = await Promise.all([counting(studyId, overlap), activeAnnotators(studyId), findAnnotatorMemberIds(studyId)]);
  const byUser = counts.filter((r) => r.set === "user").map((r) => ({ ...r, userId: r.userId! }));
  const perDay = counts.filter((r) => r.set === "day").sort((x, y) => (x.day! < y.day! ? -1 : x.day! > y.day! ? 1 : 0));
  const totals = counts.find((r) => r.set === "totals")!;
  const itemsRow = { items: totals.items!, gold: totals.gold!, conditions: totals.conditions, done: totals.done! };
  // an item with no answers is complete only when no answer is needed
  const complete = { items: overlap <= 0 ? totals.items! : totals.complete! };
  const memberIds = new Set(members.map((m) => m.userId));
  const userIds = new Set([...byUser.map((r) => r.userId), ...memberIds]);
  const users = await findUserNames([...userIds]);
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

/** Users with a trajectory event in the last ACTIVE_WINDOW_MINUTES (on assignments that can still receive events). */
export async function activeAnnotators(studyId: string): Promise<Set<string>> {
  const rows = await findActiveAnnotatorIds(studyId, ACTIVE_WINDOW_MINUTES);
  return new Set(rows.map((r) => r.userId));
}

/** Focus losses (events of FOCUS_LOSS_EVENT_TYPES) per user in the study: one GROUP BY. */
export async function focusLossesByUser(studyId: string): Promise<Map<string, number>> {
  const rows = await countEventsByUser(studyId, FOCUS_LOSS_EVENT_TYPES);
  return new Map(rows.map((r) => [r.userId, n(r.losses)]));
}

/** Answers of the study outside practice, from the tallies alone: whether a visit may compute a dashboard view itself (study-dashboard.ts) or leaves it to the job worker. */
export async function answersOutsidePractice(studyId: string): Promise<number> {
  const row = await sumAnswersOutsidePractice(studyId);
  return Number(row?.answers ?? 0);
}
