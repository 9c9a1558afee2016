import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { llmScorerFromEnv } from "@/lib/scoring/llm-chat";
import { claimScoringJob, createLlmScoringJob, HEARTBEAT_STALE_MS, hasUnfinishedScoringJobs, runScoringJob, type ScoringJobView, type ScoringRunOptions } from "@/lib/scoring/llm-jobs";

/**
 * The scoring runner of this server process: claims scoring jobs one at a time and runs them in
 * the background, outside any request. It is started when a researcher asks for LLM scoring and,
 * through instrumentation.ts, when the server starts (to resume a job a restart interrupted); while
 * a job it cannot claim is unfinished (another process's, or one whose heartbeat is not stale yet)
 * it looks again every HEARTBEAT_STALE_MS.
 */

interface RunnerState {
  id: string;
  active: Promise<void> | null;
  again: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

const holder = globalThis as unknown as { yardstickScoringRunner?: RunnerState };

function runnerState(): RunnerState {
  holder.yardstickScoringRunner ??= { id: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, active: null, again: false, timer: null };
  return holder.yardstickScoringRunner;
}

/** Claims and runs jobs until none can be claimed; returns how many it ran. */
export async function runScoringJobsUntilIdle(options: ScoringRunOptions & { runnerId?: string } = {}): Promise<number> {
  const runnerId = options.runnerId ?? runnerState().id;
  let ran = 0;
  for (;;) {
    const jobId = await claimScoringJob(runnerId, options.staleMs ?? HEARTBEAT_STALE_MS);
    if (!jobId) return ran;
    await runScoringJob(jobId, runnerId, options);
    ran += 1;
  }
}

/** Starts the runner in the background unless it is running (then it looks once more when done). */
export function kickScoringRunner(): void {
  const state = runnerState();
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = null;
  }
  if (state.active) {
    state.again = true;
    return;
  }
  state.again = false;
  state.active = runScoringJobsUntilIdle()
    .catch((error: unknown) => console.error("scoring runner:", error))
    .then(async () => {
      state.active = null;
      if (state.again) return kickScoringRunner();
      if (await hasUnfinishedScoringJobs().catch(() => false)) {
        state.timer = setTimeout(kickScoringRunner, HEARTBEAT_STALE_MS);
        state.timer.unref?.();
      }
    });
}

/** POST /api/studies/[slug]/scoring-jobs: a job for the study's unscored answers of an LLM-scored kind, started in the background. */
export async function startLlmScoring(studySlug: string, userId: string, kind?: string): Promise<{ job: ScoringJobView; created: boolean }> {
  const result = await createLlmScoringJob(studySlug, userId, undefined, undefined, kind);
  kickScoringRunner();
  return result;
}

/** instrumentation.ts: resume interrupted or pending jobs when the server starts, if a scorer LLM is configured. */
export function startScoringRunnerOnBoot(): void {
  if (!llmScorerFromEnv()) return;
  const timer = setTimeout(kickScoringRunner, 2_000);
  timer.unref?.();
}
