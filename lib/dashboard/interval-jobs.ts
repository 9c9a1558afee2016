import "server-only";
import { z } from "zod";
import { getStudyDashboard, viewKeyOf } from "@/lib/dashboard/study-dashboard";
import { dashboardParamsSchema, parseDashboardParams } from "@/lib/dashboard/params";
import { readStoredIntervalsState } from "@/lib/dashboard/interval-store";
import { getStudyBySlug } from "@/lib/studies/studies";
import type { JobHandler } from "@/lib/jobs/types";

/**
 * The background job of a large study's dashboard view: computes the view with every bootstrap
 * interval (as a small study's page does inline) and stores them for the data version it read
 * (lib/dashboard/interval-store.ts); the page, polling, then shows them.
 *
 * A view with no row yet is one whose visitors wait, then see "pending" (visitStudyDashboard): its
 * job first stores the values without intervals (what a visit would have computed), then the
 * intervals, so the figures appear in the time of the values alone.
 */

const jobSchema = z.object({ slug: z.string().min(1).max(200), params: dashboardParamsSchema });

export const handleDashboardIntervalsJob: JobHandler = async (data) => {
  const job = jobSchema.parse(data);
  const params = Object.fromEntries(Object.entries(job.params).filter(([, value]) => value !== undefined)) as Record<string, string>;
  const study = await getStudyBySlug(job.slug);
  const viewKey = viewKeyOf(parseDashboardParams(params));
  const row = await readStoredIntervalsState(study.id, viewKey);
  let priorComputeMs = 0;
  if (!row) {
    const started = performance.now();
    const first = await getStudyDashboard(job.slug, params, { store: true });
    // a study under the inline size got its intervals with the values: nothing left to do
    if (first.intervals.state === "inline") return { study: study.id, intervals: "inline", steps: 1 };
    priorComputeMs = performance.now() - started;
  }
  const dashboard = await getStudyDashboard(job.slug, params, { intervals: "inline", store: true, priorComputeMs });
  return { study: dashboard.study.id, intervals: dashboard.intervals.state, steps: priorComputeMs > 0 ? 2 : 1 };
};
