"use client";

import type { IntervalsState } from "@/lib/dashboard/study-dashboard";
import { useRefreshWhile } from "@/components/dashboard/use-refresh-while";

/**
 * A large study's bootstrap intervals come from a background job: while it runs, this says so and
 * refreshes the page (the server component reads the job's result); once they are there, it says
 * when they were computed, and whether newer data is being worked in.
 */
export function IntervalsStatus({ intervals, answers }: { intervals: IntervalsState; answers: string }) {
  const computing = intervals.state === "computing" || intervals.behind === true;
  useRefreshWhile(computing);

  if (intervals.state === "inline") return null;
  if (intervals.state === "ready" && intervals.behind) {
    const at = intervals.computedAt === undefined ? "" : ` at ${new Date(intervals.computedAt).toISOString().slice(11, 19)} UTC`;
    return (
      <p role="status" data-testid="intervals-status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        These figures, intervals included, were computed{at} from the {answers} answers then; newer data has arrived and the figures are being recomputed in the
        background (this page refreshes itself).
      </p>
    );
  }
  if (computing) {
    return (
      <p role="status" data-testid="intervals-status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        The values are final; their 95% bootstrap intervals over {answers} answers are being computed in the background and appear here when ready (this page
        refreshes itself).
      </p>
    );
  }
  const at = intervals.computedAt === undefined ? "" : ` at ${new Date(intervals.computedAt).toISOString().slice(11, 19)} UTC`;
  const took = intervals.computeMs === undefined ? "" : ` (in ${(intervals.computeMs / 1000).toFixed(1)} s)`;
  return (
    <p data-testid="intervals-status" className="text-xs text-slate-500">
      Bootstrap intervals computed in the background{at}
      {took}, from the same answers as the values.
    </p>
  );
}
