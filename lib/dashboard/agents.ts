import "server-only";
import { findAgentAnswers, findStudyAgents } from "@/lib/repos/agents";
import type { ModelRunSummary } from "@/lib/models/types";
import { AGENT_RUN_PREFIX, isAgentRun } from "@/lib/tasks/dashboard-port";

/**
 * Model agents on the dashboard (lib/participants/agents.ts): their answers are stored and scored as
 * a person's, but the figures of humans leave them out (never pooled), and each agent is shown
 * beside the humans as a run of its own, as an imported model run is, with the same per-kind
 * metrics and paired comparisons. A run id `agent:<userId>` tells an agent from an imported run.
 */

export { AGENT_RUN_PREFIX, isAgentRun };

/** The study's agents that answered, as runs, and the user ids of all its agents (left out of the humans' figures). */
export async function agentRuns(studyId: string): Promise<{ userIds: Set<string>; runs: ModelRunSummary[] }> {
  const rows = await findStudyAgents(studyId);
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
  return findAgentAnswers(studyId, AGENT_RUN_PREFIX);
}
