import "server-only";
import { endParticipation } from "@/lib/assignment/participant-status";
import { db } from "@/lib/db";
import { sqlNow } from "@/lib/db/sql";

/**
 * Housekeeping for a whole study (the participant table, a periodic job): open MAIN assignments
 * whose lease has passed become RELEASED, and ACTIVE participants past the session time limit
 * become TIMED_OUT (their open work released). Claims do the first lazily item by item, and
 * next-item does the second for the participant who asks, so this only makes the stored state
 * current for people who never come back. Safe at any time: releasing only frees places.
 */
export async function sweepStudy(studyId: string): Promise<{ released: number; timedOut: number }> {
  const released = await db.$executeRaw`
    UPDATE "Assignment" SET status = 'RELEASED'
    WHERE "studyId" = ${studyId} AND purpose = 'MAIN' AND NOT agent AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${sqlNow}`;
  const over = await db.$queryRaw<Array<{ userId: string; limit: number }>>`
    SELECT m."userId", s."sessionTimeLimitSeconds" AS limit FROM "StudyMember" m JOIN "Study" s ON s.id = m."studyId"
    WHERE m."studyId" = ${studyId} AND m.status = 'ACTIVE' AND m."startedAt" IS NOT NULL AND s."sessionTimeLimitSeconds" IS NOT NULL
      AND ${sqlNow} >= m."startedAt" + make_interval(secs => s."sessionTimeLimitSeconds")`;
  let timedOut = 0;
  for (const row of over) {
    const reason = `session time limit of ${row.limit >= 120 ? `${Math.round(row.limit / 60)} minutes` : `${row.limit} seconds`} reached`;
    if (await db.$transaction((tx) => endParticipation(tx, studyId, row.userId, "TIMED_OUT", reason))) timedOut++;
  }
  return { released, timedOut };
}
