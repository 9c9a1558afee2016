import "server-only";
import { findStudiesWithMoreAnswersThan, findStudyKinds } from "@/lib/repos/dashboard-views";
import { tunableFromEnv } from "@/lib/dashboard/constants";
import { inlineIntervalsMaxAnswers, refreshedViews, requestViewsIfBehind } from "@/lib/dashboard/study-dashboard";

/**
 * Keeps each large study's most visited dashboard views computed ahead of their visitors (issue
 * 21). A study above the inline size (INLINE_INTERVALS_MAX_ANSWERS answers) serves a view from the
 * row its background job stored, marked "as of" that row while a newer one is computed; a view
 * with no row yet waits on its job, or is "pending", on a visit (visitStudyDashboard). The job
 * worker therefore
 * asks, every YARDSTICK_DASHBOARD_REFRESH_SECONDS (default 60), for the views of every large study
 * (refreshedViews: the default view and each other agreement encoding's) whose row is missing, of
 * another format or of older figures, so that opening a dashboard, or choosing another encoding,
 * reads a row whatever the study's size. The cost stays bounded: a study's rows are not computed
 * again sooner than REFRESH_COST_FACTOR times the time their last computations took together (a
 * study answered all day, whose views take 30 s in all, is recomputed at most every 300 s: a
 * tenth of one core).
 */

export const REFRESH_COST_FACTOR = 10;

const DEFAULT_REFRESH_SECONDS = 60;

/** Seconds between two refresh passes (YARDSTICK_DASHBOARD_REFRESH_SECONDS; 0 turns them off). */
export function dashboardRefreshSeconds(): number {
  return tunableFromEnv("YARDSTICK_DASHBOARD_REFRESH_SECONDS", DEFAULT_REFRESH_SECONDS, { integer: false });
}

/**
 * One refresh pass: asks the job queue for the refreshed views of every study with more than
 * `minAnswers` answers (outside practice, from the progress tallies) whose stored rows are behind.
 * Returns the views it asked for. A study that fails is logged and the others go on.
 */
export async function refreshStudyViews(options: { minAnswers?: number; now?: number } = {}): Promise<Array<{ slug: string; viewKey: string }>> {
  const minAnswers = options.minAnswers ?? inlineIntervalsMaxAnswers();
  const now = options.now ?? Date.now();
  const studies = await findStudiesWithMoreAnswersThan(minAnswers);
  const minAgeMs = (computeMs: number) => REFRESH_COST_FACTOR * computeMs;
  const asked: Array<{ slug: string; viewKey: string }> = [];
  for (const study of studies) {
    try {
      const views = refreshedViews(await findStudyKinds(study.id));
      for (const viewKey of await requestViewsIfBehind(study.id, study.slug, views, minAgeMs, now)) asked.push({ slug: study.slug, viewKey });
    } catch (error) {
      console.error(`dashboard refresh: study ${study.slug}:`, error instanceof Error ? error.message : error);
    }
  }
  return asked;
}
