import "server-only";
import { MAX_OPEN_ASSIGNMENTS } from "@/lib/assignment/limits";
import type { MineRow, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { newRowId, sqlNow } from "@/lib/db/sql";
import type { AssignmentPurpose } from "@/lib/generated/prisma/enums";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

/**
 * A model agent's queue (User.isAgent, issue 23). An agent answers beside the people, never in
 * their place: its assignments are marked `agent` and hold none of an item's k places, so every
 * place count of lib/assignment leaves them out. It is given every ordinary item of the study once,
 * in import order (as a model run covers the benchmark, and so that runs are comparable), whatever
 * the places, the quota, practice and gold say (those are rules about people); with conditions,
 * its items rotate through them from its own index (a Latin square over its items). Its open
 * assignments have no lease and are never released: there is no place to give back.
 */
export type AgentNext = { status: "assigned"; assignmentId: string; purpose: AssignmentPurpose; created: boolean } | { status: "done" } | { status: "wait" };

export async function nextForAgent(tx: Tx, studyId: string, userId: string, study: StudyState, exclude: ReadonlySet<string>): Promise<AgentNext> {
  const open = study.mine.filter((row) => row.status === "ASSIGNED" || row.status === "STARTED");
  const servable = open.filter((row) => !exclude.has(row.id)).sort((a, b) => a.position - b.position);
  if (servable.length > 0) return { status: "assigned", assignmentId: servable[0].id, purpose: servable[0].purpose, created: false };
  if (open.length >= MAX_OPEN_ASSIGNMENTS) return { status: "wait" };

  const position = study.mine.reduce((max, row) => Math.max(max, row.position), -1) + 1;
  const ordinaryHad = study.mine.filter((row: MineRow) => row.purpose === "MAIN" && !row.gold).length;
  const condition = study.conditions.length > 0 ? study.conditions[(ordinaryHad + study.participantIndex) % study.conditions.length] : null;
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", condition, agent)
    SELECT ${newRowId()}, ${studyId}, n.id, ${userId}, 'ASSIGNED', 'MAIN', ${position}, ${sqlNow}, ${condition}::text, true
    FROM (
      SELECT i.id FROM "Item" i
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
      ORDER BY i."createdAt", i."externalId"
      LIMIT 1
    ) n
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  if (rows[0]) {
    if (study.isMember && !study.memberStarted) {
      await tx.$executeRaw`UPDATE "StudyMember" SET "startedAt" = ${sqlNow} WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND "startedAt" IS NULL`;
    }
    return { status: "assigned", assignmentId: rows[0].id, purpose: "MAIN", created: true };
  }
  return open.length > 0 ? { status: "wait" } : { status: "done" };
}
