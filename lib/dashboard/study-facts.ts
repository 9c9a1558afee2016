import "server-only";
import { db } from "@/lib/db";

/**
 * Two facts about a study read without its answers: the kinds of its items, and how many answers
 * it has outside practice. They decide which of its dashboard views the job worker keeps computed
 * (lib/dashboard/view-refresh.ts) and whether a visit may compute a view itself (study-dashboard.ts).
 */

/** The kinds of a study's items outside practice (what its dashboard's encodings come from), by a skip scan of the (studyId, kind) index. */
export async function studyKinds(studyId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ kind: string }>>`
    WITH RECURSIVE k(kind) AS (
      SELECT min(kind) FROM "Item" WHERE "studyId" = ${studyId}
      UNION ALL
      SELECT (SELECT min(kind) FROM "Item" WHERE "studyId" = ${studyId} AND kind > k.kind) FROM k WHERE k.kind IS NOT NULL
    )
    SELECT k.kind FROM k WHERE k.kind IS NOT NULL AND EXISTS (SELECT 1 FROM "Item" i WHERE i."studyId" = ${studyId} AND i.kind = k.kind AND NOT i.practice)`;
  return rows.map((row) => row.kind);
}

/** Answers of the study outside practice, from the progress tallies (one row per annotator and purpose). */
export async function answersOutsidePractice(studyId: string): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ answers: bigint | null }>>`
    SELECT sum(done)::bigint AS answers FROM "ProgressUserTally" WHERE "studyId" = ${studyId} AND purpose <> 'PRACTICE'`;
  return Number(row?.answers ?? 0);
}
