/**
 * Tunables of the research dashboards, in one place.
 */

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

/** Items sampled per kind x step length x annotator by the agreement plan (ENACT used 5). */
export const AGREEMENT_PLAN_PER_CELL = 5;

/** Fixed seed of the agreement plan's sampling (mixed with the study id). */
export const AGREEMENT_PLAN_SEED = 20251125;

/** Rows fetched per query when streaming responses, items or events. */
export const STREAM_BATCH_SIZE = 5000;
