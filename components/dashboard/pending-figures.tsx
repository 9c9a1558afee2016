"use client";

import { useRefreshWhile } from "@/components/dashboard/use-refresh-while";

/**
 * A large study's view that the job worker has not computed yet (the first minutes after a study
 * outgrows the inline size, or after an upgrade): says so and refreshes the page until the
 * figures are there. Nothing is computed on the visit: at this size that would hold the server for
 * seconds.
 */
export function PendingFigures({ answers }: { answers: string }) {
  useRefreshWhile(true);
  return (
    <p role="status" data-testid="figures-pending" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      This view&apos;s figures over {answers} answers are being computed in the background, the values first and then their intervals. They appear here when
      ready (this page refreshes itself); progress below is live.
    </p>
  );
}
