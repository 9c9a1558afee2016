import "server-only";
import { MAX_OPEN_ASSIGNMENTS } from "@/lib/assignment/limits";
import type { MineRow, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import type { AssignmentPurpose } from "@/lib/generated/prisma/enums";
import { claimAgentItem, markMemberStarted } from "@/lib/repos/assignments";

/**
 * A model agent's queue (User.isAgent). An agent answers beside the people, never in
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
  const assignmentId = await claimAgentItem(tx, studyId, userId, position, condition);
  if (assignmentId) {
    if (study.isMember && !study.memberStarted) await markMemberStarted(tx, studyId, userId);
    return { status: "assigned", assignmentId, purpose: "MAIN", created: true };
  }
  return open.length > 0 ? { status: "wait" } : { status: "done" };
}
