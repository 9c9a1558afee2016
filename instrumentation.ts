/**
 * Next.js runs register() once when a server process starts. With a scorer LLM configured
 * (SCORER_LLM_URL), the background scoring runner resumes jobs that a restart interrupted
 * (lib/scoring/runner.ts); without one it does nothing.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.SCORER_LLM_URL) return;
  const { startScoringRunnerOnBoot } = await import("@/lib/scoring/runner");
  startScoringRunnerOnBoot();
}
