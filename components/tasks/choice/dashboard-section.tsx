import type { ChoiceFigure, ChoiceSection } from "@/lib/tasks/choice/dashboard";
import { count, pctInterval, pctWithUnit } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import { WatchTable } from "@/components/tasks/shared/media/watch-table";
import { SeriesByTypeTable } from "@/components/tasks/shared/series-by-type-table";

/** Multiple choice on the dashboard (lib/tasks/choice/dashboard.ts): accuracy with chance beside it, pooled and per question type, people and model runs. */

function Cell({ figure }: { figure: ChoiceFigure | undefined }) {
  if (!figure || figure.accuracy === null) return <td className="px-2 py-1 text-right text-slate-300">–</td>;
  return (
    <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums" title={`95% interval ${pctInterval(figure.ci)}, item as the unit; ${figure.answers} answers to ${figure.items} items`}>
      <span className="font-medium">{pctWithUnit(figure.accuracy)}</span>
      <span className="ml-1 text-xs text-slate-500">chance {pctWithUnit(figure.chance)}</span>
      <div className="text-[11px] text-slate-400">
        {pctInterval(figure.ci)} · n {count(figure.answers)}
      </div>
    </td>
  );
}

export const choiceDashboardSection: KindDashboardSection<ChoiceSection> = {
  id: "choice",
  title: () => "Multiple choice",
  description: "Accuracy with chance beside it (mean of 1/options over the same answers) and a 95% Wilson interval with the item as the unit; by question type.",
  render: (section) => (
    <div className="space-y-2" data-testid="choice-section">
      {section.withheld.items > 0 ? (
        <p className="rounded border border-amber-200 bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="choice-withheld">
          {count(section.withheld.items)} of {count(section.withheld.totalItems)} items have no key (the benchmark withholds it): their {count(section.withheld.answers)} answers are not scored; export them in the
          benchmark&apos;s submission format.
        </p>
      ) : null}
      <SeriesByTypeTable types={section.types} series={section.series} cell={(figure, key) => <Cell key={key} figure={figure} />} modelBadge />
      {section.typeTag ? <p className="text-xs text-slate-500">Question types from the tag “{section.typeTag}”.</p> : null}
      {section.watch.pooled.watchSeconds ? <WatchTable figures={section.watch} /> : null}
    </div>
  ),
};
