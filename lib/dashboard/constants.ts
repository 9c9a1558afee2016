/**
 * Tunables of the research dashboards, in one place.
 */

/** A tunable set in the environment: its number when that is >= 0 (and whole, where asked), else `fallback` (unset, empty or not such a number). */
export function tunableFromEnv(name: string, fallback: number, options: { integer: boolean }): number {
  const text = process.env[name]?.trim();
  const value = text ? Number(text) : NaN;
  return (options.integer ? Number.isInteger(value) : Number.isFinite(value)) && value >= 0 ? value : fallback;
}

/**
 * Event types that mean the annotator left the page (focus losses on the Annotators page): the
 * annotator flow's "page_hidden" (lib/validations/annotate.ts: tab switched, window minimised,
 * page left). Change this list if the flow names page-visibility events differently.
 */
export const FOCUS_LOSS_EVENT_TYPES: readonly string[] = ["page_hidden"];

/** "Active now": annotators with a trajectory event in the last this many minutes. */
export const ACTIVE_WINDOW_MINUTES = 5;

/** The tag the accuracy table and the agreement plan slice by when none is chosen. */
export const DEFAULT_TAG = "steps";

/** Bootstrap resamples for every interval on the dashboards. */
export const BOOTSTRAP_RESAMPLES = 1000;

/**
 * Studies with more answers than this (in the figures' snapshot) get their bootstrap intervals
 * from a background job (lib/dashboard/interval-jobs.ts): the page shows the point estimates at
 * once and the intervals as "computing" until the job has stored them. At this size the inline
 * bootstraps take about a second on a 2-core machine (bench/dashboard.ts).
 */
export const INLINE_INTERVALS_MAX_ANSWERS = 20_000;

/** The reason shown in place of an interval that a background job is computing. */
export const INTERVAL_COMPUTING = "computing";

/** Items sampled per kind x step length x annotator by the agreement plan (ENACT used 5). */
export const AGREEMENT_PLAN_PER_CELL = 5;

/** Fixed seed of the agreement plan's sampling (mixed with the study id). */
export const AGREEMENT_PLAN_SEED = 20251125;

/** Rows fetched per query when streaming responses, items or events. */
export const STREAM_BATCH_SIZE = 5000;
