import "server-only";
import { processCache } from "@/lib/assignment/process-cache";
import { AppError } from "@/lib/errors";
import type { ParticipantStatus } from "@/lib/generated/prisma/enums";
import { countAvailableItems, listFreeItemIds, readProgressRow } from "@/lib/repos/assignments";

export interface Progress {
  practice: { done: number; total: number };
  /** non-practice work: done, and the most this annotator can still reach (done + open + available now, within the quota) */
  main: { done: number; total: number };
  /** assignments created and not submitted (nor released) */
  open: number;
  /** nothing open and nothing left to hand out (quota reached, or no item available) */
  finished: boolean;
  /** the participant's standing (null: not a member) */
  participantStatus: ParticipantStatus | null;
}

/**
 * Ordinary items the participant could be given now: a free place in some condition (lease-expired
 * places count as free), not theirs yet, not excluded by review, and for probe families not held
 * by as many others as a base case may have. At most `cap` are counted.
 */
async function availableCount(
  studyId: string,
  userId: string,
  study: { overlap: number; conditions: string[]; hasProbes: boolean },
  cap: number,
): Promise<number> {
  if (cap <= 0) return 0;
  return countAvailableItems(studyId, userId, study, cap);
}

/**
 * Items of a study with a free place (any condition), not excluded by review: the study-wide part
 * of availableCount, kept per process. next-item asks for the progress on every call, and the
 * exact count is a pass over every item of the study per request (about a third of next-item's
 * time in bench/load); this set is computed once a second per process instead, and less often for
 * large studies (a second per 10,000 items, at most 15 s: at 100,000 items one pass costs about
 * 200 ms of database time), by one request at a time (the others use the previous set meanwhile).
 */
interface FreeItems {
  key: string;
  ids: Set<string>;
  /** Date.now() when it was read */
  at: number;
}
/** how long a free-item set of `size` items is used: 1 s, plus 1 s per 10,000 items, at most 15 s */
export function freeItemsTtlMs(size: number): number {
  return Math.min(15_000, 1_000 * Math.max(1, Math.ceil(size / 10_000)));
}
/** below this many, the exact count is made (the end of a study, small studies): `finished` and the last items stay exact */
export const APPROXIMATE_AVAILABLE_ABOVE = 200;
const MAX_CACHED_STUDIES = 64;
const freeItemsCache = processCache<FreeItems>("free-items", { max: MAX_CACHED_STUDIES, ttl: 15_000 });
const freeItemsReads = new Map<string, Promise<FreeItems>>();

async function readFreeItems(studyId: string, study: { overlap: number; conditions: string[] }, key: string): Promise<FreeItems> {
  const ids = await listFreeItemIds(studyId, study);
  const entry = { key, ids: new Set(ids), at: Date.now() };
  freeItemsCache.set(studyId, entry);
  return entry;
}

async function freeItems(studyId: string, study: { overlap: number; conditions: string[]; itemsVersion: string }): Promise<Set<string>> {
  const key = `${study.overlap}|${study.conditions.join("\u0000")}|${study.itemsVersion}`;
  const cached = freeItemsCache.get(studyId);
  const current = cached && cached.key === key ? cached : undefined;
  if (current && Date.now() - current.at < freeItemsTtlMs(current.ids.size)) return current.ids;
  let reading = freeItemsReads.get(studyId);
  if (!reading) {
    reading = readFreeItems(studyId, study, key).finally(() => freeItemsReads.delete(studyId));
    reading.catch(() => undefined); // read in the background for the requests that go on with the previous set; an awaiting request gets the error
    freeItemsReads.set(studyId, reading);
  }
  // a set of the same study setup that is due for a refresh is still good for this request
  if (current) return current.ids;
  const fresh = await reading;
  return fresh.key === key ? fresh.ids : (await readFreeItems(studyId, study, key)).ids;
}

/** Forget the per-process free-item sets (tests that look at the approximate path). */
export function forgetFreeItemsForTest(): void {
  freeItemsCache.clear();
}

/**
 * availableCount, from the per-process free-item set when that leaves more than
 * APPROXIMATE_AVAILABLE_ABOVE items (then it may lag the truth by the places taken in the last
 * second, which a progress bar's total can bear); the exact count otherwise, and always for
 * studies with probe families (their rule depends on the participant).
 */
async function availableForProgress(
  studyId: string,
  userId: string,
  study: { overlap: number; conditions: string[]; hasProbes: boolean; itemsVersion: string; had: string[] },
  cap: number,
): Promise<number> {
  if (cap <= 0) return 0;
  if (!study.hasProbes) {
    const free = await freeItems(studyId, study);
    let available = free.size;
    for (const itemId of study.had) if (free.has(itemId)) available--;
    if (available > APPROXIMATE_AVAILABLE_ABOVE) return Math.min(cap, available);
  }
  return availableCount(studyId, userId, study, cap);
}

/**
 * The annotator's progress ("12 of 40"). The total is what this annotator can still reach: their
 * submitted and open items plus the items they could be given now (within the quota); it shrinks
 * as other annotators take the last places of items. Gold items count once given; the base-case
 * share (balance rule) is not counted here.
 */
export async function progressFor(studyId: string, userId: string): Promise<Progress> {
  const row = await readProgressRow(studyId, userId);
  if (!row) throw new AppError("NOT_FOUND", `No study with id ${studyId}`);
  const quotaLeft = row.itemsPerParticipant === null ? Number.POSITIVE_INFINITY : Math.max(0, row.itemsPerParticipant - row.queue);
  const stopped = row.participantStatus === "EXCLUDED" || row.participantStatus === "TIMED_OUT" || row.participantStatus === "RETURNED";
  const available = stopped ? 0 : await availableForProgress(studyId, userId, row, Number.isFinite(quotaLeft) ? quotaLeft : 2_147_483_647);
  const practiceLeft = stopped ? 0 : Math.max(0, row.practiceTotal - row.practiceAssigned);
  return {
    practice: { done: row.practiceDone, total: Math.max(row.practiceTotal, row.practiceAssigned) },
    main: { done: row.mainDone, total: row.mainAssigned + available },
    open: row.open,
    finished: !stopped && row.open === 0 && available === 0 && practiceLeft === 0,
    participantStatus: row.participantStatus,
  };
}
