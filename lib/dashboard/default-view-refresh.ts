import "server-only";
import { db } from "@/lib/db";
import { tunableFromEnv } from "@/lib/dashboard/constants";
import { inlineIntervalsMaxAnswers, requestDefaultViewIfBehind } from "@/lib/dashboard/study-dashboard";

/**
 * Keeps each large study's default dashboard view computed ahead of its visitors (issue 21). A
 * study above the inline size (INLINE_INTERVALS_MAX_ANSWERS answers) serves a view from the row its
 * background job stored, marked "as of" that row while a newer one is computed; only a view with no
 * row at all is computed on the request, over every answer. The job worker therefore asks, every
 * YARDSTICK_DASHBOARD_REFRESH_SECONDS (default 60), for the default view of every large study
 * whose row is missing, of another format or of older figures, so that opening a dashboard reads a
 * row whatever the study's size. The cost stays bounded: a row is not recomputed sooner than
 * REFRESH_COST_FACTOR times the time its last computation took (a study answered all day, whose
 * view takes 10 s, is recomputed at most every 100 s: a tenth of one core).
 */

export const REFRESH_COST_FACTOR = 10;

const DEFAULT_REFRESH_SECONDS = 60;

/** Seconds between two refresh passes (YARDSTICK_DASHBOARD_REFRESH_SECONDS; 0 turns them off). */
export function dashboardRefreshSeconds(): number {
  return tunableFromEnv("YARDSTICK_DASHBOARD_REFRESH_SECONDS", DEFAULT_REFRESH_SECONDS, { integer: false });
}

/**
 * One refresh pass: asks the job queue for the default view of every study with more than
 * `minAnswers` answers (outside practice, from the progress tallies) whose stored row is behind.
 * Returns the slugs it asked for. A study that fails is logged and the others go on.
 */
export async function refreshDefaultViews(options: { minAnswers?: number; now?: number } = {}): Promise<string[]> {
  const minAnswers = options.minAnswers ?? inlineIntervalsMaxAnswers();
  const now = options.now ?? Date.now();
  const studies = await db.$queryRaw<Array<{ id: string; slug: string }>>`
    SELECT s.id, s.slug FROM "Study" s JOIN "ProgressUserTally" t ON t."studyId" = s.id
    WHERE t.purpose <> 'PRACTICE' GROUP BY s.id, s.slug HAVING sum(t.done) > ${minAnswers} ORDER BY s.slug`;
  const minAgeMs = (computeMs: number) => REFRESH_COST_FACTOR * computeMs;
  const asked: string[] = [];
  for (const study of studies) {
    try {
      if (await requestDefaultViewIfBehind(study.id, study.slug, minAgeMs, now)) asked.push(study.slug);
    } catch (error) {
      console.error(`dashboard refresh: study ${study.slug}:`, error instanceof Error ? error.message : error);
    }
  }
  return asked;
}
