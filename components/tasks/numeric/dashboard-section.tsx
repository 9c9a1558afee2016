import type { NumericFigure, NumericSection } from "@/lib/tasks/numeric/dashboard";
import { count, pctWithUnit } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import { WatchTable } from "@/components/tasks/shared/media/watch-table";
import { SeriesByTypeTable } from "@/components/tasks/shared/series-by-type-table";

/** Numbers on the dashboard (lib/tasks/numeric/dashboard.ts): mean score (MRA) per question type and VSI-Bench's overall, people and model runs. */

function Cell({ figure }: { figure: NumericFigure | undefined }) {
  if (!figure || figure.score === null) return <td className="px-2 py-1 text-right text-slate-300">–</td>;
  return (
    <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums" title={`${figure.answers} answers, ${figure.invalid} not a number (scored 0)`}>
      <span className="font-medium">{pctWithUnit(figure.score)}</span>
      <div className="text-[11px] text-slate-400">
        n {count(figure.answers)}
        {figure.invalid > 0 ? ` · ${count(figure.invalid)} invalid` : ""}
      </div>
    </td>
  );
}

export const numericDashboardSection: KindDashboardSection<NumericSection> = {
  id: "numeric",
  title: () => "Numbers",
  description:
    "Mean score per answer (MRA for VSI-Bench-style items, 1/0 for exact and tolerance items), by question type; VSI-Bench's overall as its released code computes it (vsibench_aggregate_results), multiple-choice types included.",
  render: (section) => {
    const vsiTypes = [...new Set(section.series.flatMap((series) => series.vsi.types.map((t) => t.type)))];
    return (
      <div className="space-y-3" data-testid="numeric-section">
        <SeriesByTypeTable types={section.types} series={section.series} cell={(figure, key) => <Cell key={key} figure={figure} />} />
        {vsiTypes.length > 0 ? (
          <div className="overflow-x-auto" data-testid="vsi-overall">
            <h3 className="text-sm font-semibold text-slate-800">VSI-Bench overall</h3>
            <table className="min-w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
                  <th className="px-2 py-1">Who</th>
                  <th className="px-2 py-1 text-right">Overall (released)</th>
                  <th className="px-2 py-1 text-right">Direction types merged</th>
                  {vsiTypes.map((type) => (
                    <th key={type} className="px-2 py-1 text-right font-mono font-normal">
                      {type}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {section.series.map((series, index) => (
                  <tr key={`${series.label}-${index}`} className="border-b border-slate-100">
                    <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-medium">
                      {series.label}
                    </th>
                    <td className="px-2 py-1 text-right font-semibold tabular-nums" data-vsi-overall={series.vsi.overall ?? ""}>
                      {series.vsi.overall === null && series.vsi.releasedError ? (
                        <span title={series.vsi.releasedError}>none (KeyError)</span>
                      ) : (
                        pctWithUnit(series.vsi.overall)
                      )}
                    </td>
                    <td className="px-2 py-1 text-right tabular-nums" data-vsi-merged={series.vsi.mergedPresent ?? ""}>
                      {pctWithUnit(series.vsi.mergedPresent)}
                    </td>
                    {vsiTypes.map((type) => {
                      const cell = series.vsi.types.find((t) => t.type === type);
                      return (
                        <td key={type} className="whitespace-nowrap px-2 py-1 text-right tabular-nums" title={cell ? `${cell.answers} answers` : undefined}>
                          {cell ? pctWithUnit(cell.score) : "–"}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="mt-1 text-[11px] text-slate-500">
              Overall (released): the mean over question types as lmms_eval/tasks/vsibench/utils.py computes it: the three object_rel_direction types become one
              entry only when the easy one is present (and then need medium and hard: without them the released code stops with a KeyError); without easy,
              medium and hard stay two entries. Direction types merged: the mean with whichever direction types are present merged into one; the two differ only
              on a subset without easy direction questions. Model outputs are read with the released parser, split(&apos; &apos;)[0], so an output with a
              leading space (&quot; B&quot;, &quot; 11&quot;) scores 0.
            </p>
          </div>
        ) : null}
        {section.watch.pooled.watchSeconds ? <WatchTable figures={section.watch} /> : null}
      </div>
    );
  },
};
