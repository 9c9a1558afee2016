import type { ChoiceFigure, ChoiceSection } from "@/lib/tasks/choice/dashboard";
import { count, pctInterval, pctWithUnit } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import { WatchTable } from "@/components/tasks/shared/media/watch-table";
import { SeriesByTypeTable } from "@/components/tasks/shared/series-by-type-table";

/** Multiple choice on the dashboard (lib/tasks/choice/dashboard.ts): accuracy with chance beside it, pooled and per question type, people and model runs. */

function Cell({ figure }: { figure: ChoiceFigure | undefined }) {
  if (!figure || figure.accuracy === null) return <td className="px-2 py-1 text-right text-slate-300">–</td>;
  return (
    <td
      className="whitespace-nowrap px-2 py-1 text-right tabular-nums"
      title={`95% interval ${pctInterval(figure.ci, 1, figure.reason)}; ${figure.answers} answers to ${figure.items} items${figure.people !== undefined ? ` by ${figure.people} ${figure.people === 1 ? "person" : "people"}` : ""}${figure.effectiveN !== undefined ? `, effective n ${figure.effectiveN.toFixed(1)}` : ""}`}
    >
      <span className="font-medium">{pctWithUnit(figure.accuracy)}</span>
      <span className="ml-1 text-xs text-slate-500">chance {pctWithUnit(figure.chance)}</span>
      <div className="text-[11px] text-slate-400">
        {pctInterval(figure.ci, 1, figure.reason)} · n {count(figure.answers)}
      </div>
    </td>
  );
}

export const choiceDashboardSection: KindDashboardSection<ChoiceSection> = {
  id: "choice",
  title: () => "Multiple choice",
  description:
    "Accuracy with chance beside it (mean of 1/options over the same answers) and a 95% Wilson interval over people and items, or items only as the study's Generalise over says (a model run: over its items); by question type.",
  render: (section) => (
    <div className="space-y-2" data-testid="choice-section">
      {section.withheld.items > 0 ? (
        <p className="rounded border border-amber-200 bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="choice-withheld">
          {count(section.withheld.items)} of {count(section.withheld.totalItems)} items have no key (the benchmark withholds it): their{" "}
          {count(section.withheld.answers)} answers are not scored; export them in the benchmark&apos;s submission format.
        </p>
      ) : null}
      <SeriesByTypeTable types={section.types} series={section.series} cell={(figure, key) => <Cell key={key} figure={figure} />} modelBadge />
      <p className="text-xs text-slate-500" data-testid="choice-method">
        People&apos;s intervals: {section.method}; a model run&apos;s over its items.
      </p>
      {section.typeTag ? <p className="text-xs text-slate-500">Question types from the tag “{section.typeTag}”.</p> : null}
      {section.types.length > 1 ? (
        <div className="overflow-x-auto" data-testid="choice-mean-over-types">
          <table className="text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
                <th className="px-2 py-1">Who</th>
                <th className="px-2 py-1 text-right">{section.benchmarkTotal ? section.benchmarkTotal.label : `Mean over ${section.typeTag ?? "types"}`}</th>
                <th className="px-2 py-1 text-right">All answers pooled</th>
              </tr>
            </thead>
            <tbody>
              {section.series.map((series, index) => (
                <tr key={`${series.label}-${index}`} className="border-b border-slate-100">
                  <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-medium">
                    {series.label}
                  </th>
                  <td className="px-2 py-1 text-right font-semibold tabular-nums" data-mean-over-types={series.meanOverTypes ?? ""}>
                    {pctWithUnit(series.meanOverTypes)}
                  </td>
                  <td className="px-2 py-1 text-right tabular-nums">{pctWithUnit(series.pooled.accuracy)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-1 text-[11px] text-slate-500">
            {section.benchmarkTotal
              ? `BLINK's Total is the mean of the sub-tasks' accuracies, each sub-task weighing the same (${section.benchmarkTotal.source}); the pooled figure weighs each answer the same. Model outputs are read as BLINK's analyze_answer reads them: "B" or "(B)", or the one "(B)" of the output or of its last paragraph; outputs BLINK sends to GPT-3.5-turbo for matching are refused on import.`
              : "The mean of the types' accuracies, each type weighing the same, beside the pooled accuracy, which weighs each answer the same."}
          </p>
        </div>
      ) : null}
      {section.watch.pooled.watchSeconds ? <WatchTable figures={section.watch} /> : null}
    </div>
  ),
};
