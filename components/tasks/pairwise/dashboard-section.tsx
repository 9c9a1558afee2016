import { fixed, interval, pct, pctInterval } from "@/components/dashboard/format";
import { WatchTable } from "@/components/tasks/shared/media/watch-table";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import type { PairwiseSection } from "@/lib/tasks/pairwise/dashboard";

/**
 * The pairwise section (lib/tasks/pairwise/dashboard.ts): per dimension, each model's win rate and
 * Bradley-Terry strength with intervals over people and items (or items only, the study's
 * setting; section.method names them), the position-bias share, and the
 * correlation of human strength with the items' automatic metric per model; watch figures per pair.
 */
function PairwiseDashboardSection({ section }: { section: PairwiseSection }) {
  return (
    <div className="space-y-5" data-testid="pairwise-section">
      <p className="text-xs text-slate-500">
        {section.answers} answer{section.answers === 1 ? "" : "s"} to {section.items} pair{section.items === 1 ? "" : "s"} that name their models. Win rate:
        share of a model&apos;s comparisons it won, ties half. Strength: Bradley-Terry (MM algorithm, Hunter 2004; ties half to each), normalised to sum 1.
        Intervals: win rates {section.method.winRate}; strengths {section.method.strength}, {section.resamples} resamples.
      </p>
      {section.dimensions.map((dimension) => (
        <div key={dimension.id} className="overflow-x-auto rounded-md border border-slate-200" data-dimension={dimension.id}>
          <table className="min-w-full text-sm" aria-label={`Models on ${dimension.label}`}>
            <caption className="px-2 py-1.5 text-left text-sm font-semibold text-slate-800">
              {dimension.label}{" "}
              <span className="font-normal text-slate-500">
                ({dimension.answers} choices, {dimension.ties} ties)
              </span>
            </caption>
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1.5 text-left font-medium">Model</th>
                <th className="px-2 py-1.5 text-right font-medium">Comparisons</th>
                <th className="px-2 py-1.5 text-right font-medium">Win rate (%)</th>
                <th className="px-2 py-1.5 text-right font-medium">95 % interval</th>
                <th className="px-2 py-1.5 text-right font-medium">BT strength</th>
                <th className="px-2 py-1.5 text-right font-medium">95 % interval</th>
                {section.metricName ? <th className="px-2 py-1.5 text-right font-medium">{section.metricName} (mean)</th> : null}
              </tr>
            </thead>
            <tbody>
              {dimension.models.map((model) => (
                <tr key={model.model} className="border-t border-slate-100" data-model={model.model}>
                  <th scope="row" className="px-2 py-1 text-left font-mono text-xs font-normal">
                    {model.model}
                  </th>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{model.comparisons}</td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{pct(model.winRate, 1)}</td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                    {pctInterval(model.winRateCi, 1, model.winRateCi ? undefined : (model.winRateReason ?? "one item"))}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{fixed(model.strength, 3)}</td>
                  <td className="min-w-40 px-2 py-1 text-right tabular-nums">
                    {model.strength === null
                      ? (dimension.strengthReason ?? "")
                      : interval(model.strengthCi, 3, model.strengthCi ? undefined : (model.strengthCiReason ?? "one item"))}
                  </td>
                  {section.metricName ? <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{fixed(model.metric, 3)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="px-2 py-1 text-[11px] text-slate-500">
            Video 1 (shown first) chosen in {dimension.firstShown.chosen} of {dimension.firstShown.of} non-tie choices
            {dimension.firstShown.of > 0 ? ` (${pct(dimension.firstShown.chosen / dimension.firstShown.of, 1)} %)` : ""}.
            {dimension.strengthResamples
              ? ` Strength intervals from ${dimension.strengthResamples.fitted} of ${dimension.strengthResamples.fitted + dimension.strengthResamples.unfitted} resamples; ${dimension.strengthResamples.unfitted} had no Bradley-Terry fit (a model never won or never lost in them) and are left out.`
              : ""}
            {dimension.correlation
              ? ` Human strength vs ${section.metricName} across ${dimension.correlation.n} models: Pearson (log strength) ${fixed(dimension.correlation.pearson, 3)}, Spearman ${fixed(dimension.correlation.spearman, 3)}${dimension.correlation.n < 3 ? " (needs 3 models)" : ""}.`
              : ""}
          </p>
        </div>
      ))}
      <div>
        <h3 className="mb-1 text-sm font-semibold text-slate-800">Watching</h3>
        <WatchTable figures={section.watch} pairs />
      </div>
    </div>
  );
}

export const pairwiseDashboardSection: KindDashboardSection<PairwiseSection> = {
  id: "pairwise",
  title: () => "Pairwise preferences: win rates, Bradley-Terry strengths, metric correlation",
  description:
    "Per dimension, each model's win rate (two-way variance) and Bradley-Terry strength (pigeonhole bootstrap) with intervals over people and items, or items only as the study's Generalise over says, the share of choices for the side shown first, the correlation of human strength with the imported automatic metric per model, and watch figures per pair.",
  render: (section) => <PairwiseDashboardSection section={section} />,
};
