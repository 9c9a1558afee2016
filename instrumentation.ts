/**
 * Next.js runs register() once when a server process starts. Stored EXPLORE-Bench structured
 * scores of an older scorer version are rescored in the background (lib/scoring/explore-rescore.ts;
 * nothing to do, one query). The job worker (imports, LLM scoring) starts on the job queue unless
 * YARDSTICK_JOB_WORKER=off (lib/jobs/worker.ts), as the production server sets it for its app
 * processes when it runs the worker in a process of its own (scripts/serve.mjs).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { rescoreStaleExploreScoresOnBoot } = await import("@/lib/scoring/explore-rescore");
  rescoreStaleExploreScoresOnBoot();
  const { startWorkerOnBoot } = await import("@/lib/jobs/worker");
  startWorkerOnBoot();
}
