import "server-only";
import { db } from "@/lib/db";
import { readDb } from "@/lib/db/read";

/**
 * Data access for the stored dashboard views of large studies (DashboardIntervals: one row per
 * study and view, of one data version) and the refresh pass that keeps them computed. What a row
 * holds and when it is behind is lib/dashboard's.
 */

/** The view's row (its figures as stored text), from the read replica when there is one; null when there is none. */
export async function findStoredIntervals(studyId: string, viewKey: string) {
  return readDb.dashboardIntervals.findUnique({
    where: { studyId_viewKey: { studyId, viewKey } },
    select: { version: true, figures: true, computedAt: true, computeMs: true },
  });
}

/** The version and age of the view's row on the primary, and whether its figures' text starts with `prefix`, without reading them (substr reads only the text's first bytes). */
export async function findStoredIntervalsState(
  studyId: string,
  viewKey: string,
  prefix: string,
): Promise<{ version: string; computedAt: Date; computeMs: number; current: boolean } | undefined> {
  const [row] = await db.$queryRaw<Array<{ version: string; computedAt: Date; computeMs: number; current: boolean }>>`
    SELECT version, "computedAt", "computeMs", substr(figures, 1, ${prefix.length}) = ${prefix} AS current
    FROM "DashboardIntervals" WHERE "studyId" = ${studyId} AND "viewKey" = ${viewKey}`;
  return row;
}

export async function upsertStoredIntervals(studyId: string, viewKey: string, version: string, text: string, computeMs: number): Promise<void> {
  await db.dashboardIntervals.upsert({
    where: { studyId_viewKey: { studyId, viewKey } },
    create: { studyId, viewKey, version, figures: text, computeMs },
    update: { version, figures: text, computeMs, computedAt: new Date() },
  });
}

/** The kinds of a study's items outside practice, by a skip scan of the (studyId, kind) index. */
export async function findStudyKinds(studyId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ kind: string }>>`
    WITH RECURSIVE k(kind) AS (
      SELECT min(kind) FROM "Item" WHERE "studyId" = ${studyId}
      UNION ALL
      SELECT (SELECT min(kind) FROM "Item" WHERE "studyId" = ${studyId} AND kind > k.kind) FROM k WHERE k.kind IS NOT NULL
    )
    SELECT k.kind FROM k WHERE k.kind IS NOT NULL AND EXISTS (SELECT 1 FROM "Item" i WHERE i."studyId" = ${studyId} AND i.kind = k.kind AND NOT i.practice)`;
  return rows.map((row) => row.kind);
}

/** The studies with more than `minAnswers` answers outside practice (from the progress tallies), by slug. */
export async function findStudiesWithMoreAnswersThan(minAnswers: number) {
  return db.$queryRaw<Array<{ id: string; slug: string }>>`
    SELECT s.id, s.slug FROM "Study" s JOIN "ProgressUserTally" t ON t."studyId" = s.id
    WHERE t.purpose <> 'PRACTICE' GROUP BY s.id, s.slug HAVING sum(t.done) > ${minAnswers} ORDER BY s.slug`;
}

/** How fresh the read replica's rows are (the dashboard's "figures as of" note). */
export { readFreshness, type ReadFreshness } from "@/lib/db/read";
