import "server-only";
import { QUEUES } from "@/lib/jobs/queue";
import { workUntilIdle } from "@/lib/jobs/worker";
import { createLlmScoringJob, runQueuedScoringJob, type ScoringJobView, type ScoringRunOptions } from "@/lib/scoring/llm-jobs";

/**
 * Starting LLM scoring: the job is queued (lib/jobs/queue.ts) and a job worker runs it, in this
 * or another app instance or in `npm run worker` (lib/jobs/worker.ts).
 */

/** POST /api/studies/[slug]/scoring-jobs: jobs for the study's unscored answers of `kind` (without one: of every LLM-scored kind it has), queued. */
export async function startLlmScoring(
  studySlug: string,
  userId: string,
  kind?: string,
): Promise<{ job: ScoringJobView; created: boolean; jobs: ScoringJobView[] }> {
  return createLlmScoringJob(studySlug, userId, undefined, undefined, kind);
}

/** Runs the queued scoring jobs that are ready, here and now, with the given scorer (tests, the CLI); returns how many ran. */
export async function runScoringJobsUntilIdle(options: ScoringRunOptions & { runnerId?: string } = {}): Promise<number> {
  return workUntilIdle({ queues: [QUEUES.llmScoring.name], id: options.runnerId, handler: (data, context) => runQueuedScoringJob(data, context, options) });
}
