import { fixed, pct } from "@/components/dashboard/format";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";

/**
 * Watch time and share watched per item (lib/tasks/shared/media/watch.ts), for the generic kinds'
 * dashboard sections: the pooled means first, then one row per item with a clip. `pairs` adds the
 * count of people who saw side A on the left.
 */
export function WatchTable({ figures, pairs = false }: { figures: WatchFigures; pairs?: boolean }) {
  const rows = figures.items.filter((row) => row.people > 0);
  return (
    <div className="space-y-2" data-testid="watch-table">
      <p className="text-xs text-slate-500">
        Watch time: seconds of playback per person (media seconds played / speed). Share watched: the union of the stretches played over the clip&apos;s length
        (after cutAt), per person. Pooled over {figures.pooled.people} answer
        {figures.pooled.people === 1 ? "" : "s"}: watch time {fixed(figures.pooled.watchSeconds, 1)} s, share watched {pct(figures.pooled.shareWatched, 1)} %.
      </p>
      {rows.length > 0 ? (
        <div className="max-h-80 overflow-auto rounded-md border border-slate-200">
          <table className="min-w-full text-sm" aria-label="Watch time per item">
            <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1.5 text-left font-medium">Item</th>
                <th className="px-2 py-1.5 text-right font-medium">People</th>
                <th className="px-2 py-1.5 text-right font-medium">Watch time (s)</th>
                <th className="px-2 py-1.5 text-right font-medium">Share watched (%)</th>
                <th className="px-2 py-1.5 text-right font-medium" title="people who reached the end">
                  Ended
                </th>
                <th className="px-2 py-1.5 text-right font-medium">Replays</th>
                <th className="px-2 py-1.5 text-right font-medium" title="seeks (blocked seeks under watch-once)">
                  Seeks
                </th>
                {pairs ? (
                  <th className="px-2 py-1.5 text-right font-medium" title="people who saw video A on the left">
                    A left
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.itemId} className="border-t border-slate-100">
                  <th scope="row" className="px-2 py-1 text-left font-mono text-xs font-normal">
                    {row.externalId}
                  </th>
                  <td className="px-2 py-1 text-right tabular-nums">{row.people}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{fixed(row.watchSeconds, 1)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{pct(row.shareWatched, 1)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{row.ended}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{row.replays}</td>
                  <td className="px-2 py-1 text-right tabular-nums">
                    {row.seeks}
                    {row.blockedSeeks > 0 ? <span className="text-slate-500"> ({row.blockedSeeks} blocked)</span> : null}
                  </td>
                  {pairs ? <td className="px-2 py-1 text-right tabular-nums">{row.aLeft}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
