/**
 * Next.js runs register() once when a server process starts. Stored EXPLORE-Bench structured
 * scores of an older scorer version are rescored in the background (lib/scoring/explore-rescore.ts;
 * nothing to do, one query). With a scorer LLM configured (SCORER_LLM_URL), the background scoring
 * runner resumes jobs that a restart interrupted (lib/scoring/runner.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { rescoreStaleExploreScoresOnBoot } = await import("@/lib/scoring/explore-rescore");
  rescoreStaleExploreScoresOnBoot();
  if (!process.env.SCORER_LLM_URL) return;
  const { startScoringRunnerOnBoot } = await import("@/lib/scoring/runner");
  startScoringRunnerOnBoot();
}
