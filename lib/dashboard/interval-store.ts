import "server-only";
import { findStoredIntervals, findStoredIntervalsState, upsertStoredIntervals } from "@/lib/repos/dashboard-views";
import { enqueueOnce, jobIdFor, jobState, QUEUES } from "@/lib/jobs/queue";
import type { DashboardParams } from "@/lib/dashboard/params";
import { decodeStoredView, encodeStoredView, STORED_VIEW_FORMAT, STORED_VIEW_PREFIX } from "@/lib/dashboard/stored-json";

/**
 * Where the background job's bootstrap intervals of a large study's dashboard are kept
 * (DashboardIntervals: one row per study and view, for one data version), and how the page asks
 * for them. The job is lib/dashboard/interval-jobs.ts.
 */

export interface StoredIntervals<T> {
  figures: T;
  /** the figures' version (see figuresVersionOf in study-dashboard.ts): current or older */
  version: string;
  computedAt: Date;
  computeMs: number;
}

/** The view's stored figures (of the version they were computed from), or null. */
export async function readStoredIntervals<T>(studyId: string, viewKey: string): Promise<StoredIntervals<T> | null> {
  const row = await findStoredIntervals(studyId, viewKey);
  const figures = row ? decodeStoredView<T>(row.figures) : null;
  if (!row || figures === null) return null;
  return { figures, version: row.version, computedAt: row.computedAt, computeMs: row.computeMs };
}

/**
 * The version and age of the view's stored figures without reading them, on the primary (what
 * decides whether to compute them again; substr reads only the text's first bytes), or null when there is no row or it is of another format.
 */
export async function readStoredIntervalsState(studyId: string, viewKey: string): Promise<Omit<StoredIntervals<never>, "figures"> | null> {
  const row = await findStoredIntervalsState(studyId, viewKey, STORED_VIEW_PREFIX);
  return row && row.current ? { version: row.version, computedAt: row.computedAt, computeMs: row.computeMs } : null;
}

export async function storeIntervals(studyId: string, viewKey: string, version: string, figures: unknown, computeMs: number): Promise<void> {
  const text = encodeStoredView(figures);
  await upsertStoredIntervals(studyId, viewKey, version, text, computeMs);
}

export interface DashboardIntervalsJob {
  slug: string;
  params: DashboardParams;
}

/**
 * Asks the job queue for the view at this version: once (the same view and version, the same
 * job); when that job is done and yet the page found no row for it (the row was removed, or
 * written in another format), again, at most once a minute.
 */
export async function requestIntervals(studyId: string, viewKey: string, version: string, job: DashboardIntervalsJob): Promise<void> {
  const queue = QUEUES.dashboardIntervals;
  const work = `dashboard-intervals|${STORED_VIEW_FORMAT}|${studyId}|${viewKey}|${version}`;
  if (await enqueueOnce(queue, jobIdFor(work), job)) return;
  const state = await jobState(queue.name, jobIdFor(work));
  if (state && (state.state === "created" || state.state === "retry" || state.state === "active")) return;
  await enqueueOnce(queue, jobIdFor(`${work}|again|${Math.floor(Date.now() / 60_000)}`), job);
}
