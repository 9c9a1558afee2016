import "server-only";
import { endParticipation, listMembersPastSessionLimit, releaseExpiredLeasesOfStudy } from "@/lib/repos/assignments";
import { inTransaction } from "@/lib/repos/transactions";

/**
 * Housekeeping for a whole study (the participant table, a periodic job): open MAIN assignments
 * whose lease has passed become RELEASED, and ACTIVE participants past the session time limit
 * become TIMED_OUT (their open work released). Claims do the first lazily item by item, and
 * next-item does the second for the participant who asks, so this only makes the stored state
 * current for people who never come back. Safe at any time: releasing only frees places.
 */
export async function sweepStudy(studyId: string): Promise<{ released: number; timedOut: number }> {
  const released = await releaseExpiredLeasesOfStudy(studyId);
  const over = await listMembersPastSessionLimit(studyId);
  let timedOut = 0;
  for (const row of over) {
    const reason = `session time limit of ${row.limit >= 120 ? `${Math.round(row.limit / 60)} minutes` : `${row.limit} seconds`} reached`;
    if (await inTransaction((tx) => endParticipation(tx, studyId, row.userId, "TIMED_OUT", reason))) timedOut++;
  }
  return { released, timedOut };
}
