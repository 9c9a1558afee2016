import "server-only";
import { z } from "zod";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { dashboardParamsSchema } from "@/lib/dashboard/params";
import type { JobHandler } from "@/lib/jobs/types";

/**
 * The background job of a large study's dashboard view: computes the view with every bootstrap
 * interval (as a small study's page does inline) and stores them for the data version it read
 * (lib/dashboard/interval-store.ts); the page, polling, then shows them.
 */

const jobSchema = z.object({ slug: z.string().min(1).max(200), params: dashboardParamsSchema });

export const handleDashboardIntervalsJob: JobHandler = async (data) => {
  const job = jobSchema.parse(data);
  const params = Object.fromEntries(Object.entries(job.params).filter(([, value]) => value !== undefined)) as Record<string, string>;
  const dashboard = await getStudyDashboard(job.slug, params, { intervals: "inline", store: true });
  return { study: dashboard.study.id, intervals: dashboard.intervals.state };
};
