import "server-only";
import { db } from "@/lib/db";
import type { ModelRunSummary } from "@/lib/models/types";

/**
 * Model agents on the dashboard (lib/participants/agents.ts): their answers are stored and scored as
 * a person's, but the figures of humans leave them out (never pooled), and each agent is shown
 * beside the humans as a run of its own, as an imported model run is, with the same per-kind
 * metrics and paired comparisons. A run id `agent:<userId>` tells an agent from an imported run.
 */

export const AGENT_RUN_PREFIX = "agent:";

export function isAgentRun(runId: string): boolean {
  return runId.startsWith(AGENT_RUN_PREFIX);
}

/** The study's agents that answered, as runs, and the user ids of all its agents (left out of the humans' figures). */
export async function agentRuns(studyId: string): Promise<{ userIds: Set<string>; runs: ModelRunSummary[] }> {
  const rows = await db.$queryRaw<Array<{ id: string; name: string; model: string | null; createdAt: Date; answers: number }>>`
    SELECT u.id, u.name, u."agentModel" AS model, u."createdAt",
      (SELECT count(*)::int FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
       WHERE a."userId" = u.id AND a."studyId" = ${studyId} AND NOT i.practice) AS answers
    FROM "User" u
    WHERE u."isAgent" AND (u."externalStudyId" = ${studyId} OR EXISTS (SELECT 1 FROM "Assignment" a WHERE a."userId" = u.id AND a."studyId" = ${studyId}))
    ORDER BY u.name, u.id`;
  return {
    userIds: new Set(rows.map((row) => row.id)),
    runs: rows
      .filter((row) => row.answers > 0)
      .map((row) => ({
        id: AGENT_RUN_PREFIX + row.id,
        name: `Agent ${row.name}${row.model ? ` (${row.model})` : ""}`,
        createdAt: row.createdAt,
        predictions: row.answers,
        // an agent submits answers in the kind's shape, validated on submit: none is unparsed
        unparsed: 0,
        importedBy: null,
      })),
  };
}

/** The agents' answers to the study's main items, shaped as model predictions (the score is the one stored at submission), with their assignments' conditions. */
export async function loadAgentPredictions(
  studyId: string,
): Promise<Array<{ runId: string; itemId: string; answer: unknown; score: unknown; correct: boolean | null; condition: string | null }>> {
  return db.$queryRaw<Array<{ runId: string; itemId: string; answer: unknown; score: unknown; correct: boolean | null; condition: string | null }>>`
    SELECT ${AGENT_RUN_PREFIX} || a."userId" AS "runId", a."itemId", r.answer, r.score, r.correct, a.condition
    FROM "Response" r
    JOIN "Assignment" a ON a.id = r."assignmentId"
    JOIN "User" u ON u.id = a."userId"
    JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = ${studyId} AND u."isAgent" AND NOT i.practice`;
}
