import { CsvDownload } from "@/components/charts/csv-download";
import { count, metricInterval, metricValue } from "@/components/dashboard/format";
import { ScrollBox } from "@/components/ui/scroll-box";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import { ENACT_OVERALL_METRICS, type EnactOverallCell, type EnactOverallMetric, type EnactSection } from "@/lib/tasks/shared/enact/dashboard";

/**
 * ENACT overall (lib/tasks/shared/enact/dashboard.ts): TA, PA and PA per item over the answers of
 * both tasks, for the people and each model run, beside the accuracy table's per-task rows.
 */

const LABELS: Record<EnactOverallMetric, { title: string; description: string }> = {
  TA: { title: "TA", description: "Task accuracy: share of answers the verifier accepts, over both tasks' answers" },
  PA: { title: "PA", description: "Pairwise accuracy: passing steps over all steps of both tasks (the paper's micro-average)" },
  PA_item: { title: "PA per item", description: "The mean over answers of each answer's share of passing steps (the released report's pairwise_accuracy)" },
};

const shortKind = (kind: string) => kind.replace(/^enact-/, "");

function intervalTitle(cell: EnactOverallCell): string {
  const sizes = `${cell.items} item${cell.items === 1 ? "" : "s"}, ${cell.people} ${cell.people === 1 ? "person" : "people"}`;
  if (!cell.ci) return `no interval: ${cell.reason ?? "none"} (${sizes})`;
  return cell.interval === "wilson"
    ? `95% Wilson interval at the effective n ${(cell.effectiveN ?? 0).toFixed(1)} (two-way variance; ${sizes})`
    : `95% t interval, two-way cluster-robust variance (${sizes})`;
}

function Cell({ cell }: { cell: EnactOverallCell }) {
  return (
    <td className="whitespace-nowrap px-3 py-1.5 text-right align-top tabular-nums">
      <div className="font-medium text-slate-900">{metricValue(cell.value)}</div>
      <div className="text-[11px] leading-tight text-slate-500" title={intervalTitle(cell)}>
        {metricInterval(cell.ci, "fraction", 1, cell.reason)}
      </div>
    </td>
  );
}

function EnactOverallTable({ section, slug }: { section: EnactSection; slug: string }) {
  const csvRows = section.rows.flatMap((row) =>
    ENACT_OVERALL_METRICS.map((metric) => [
      row.label,
      row.condition ?? "",
      metric,
      row.answers,
      row[metric].value,
      row[metric].ci?.[0] ?? null,
      row[metric].ci?.[1] ?? null,
      row[metric].interval,
      row[metric].reason ?? null,
    ]),
  );
  return (
    <div className="space-y-3" data-testid="enact-overall">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-3xl text-xs text-slate-500">
          Every answer of both tasks ({section.kinds.map(shortKind).join(" and ")}) pooled: each answer weighs the same in TA and PA per item, each step in PA,
          so the task with more answers (and, for PA, longer items) weighs more. In % with the 95% interval from the two-way variance (
          {section.over === "people+items" ? "people and items" : "items alone"}; over items for a model run), as in the accuracy table.
        </p>
        <CsvDownload
          fileName={`${slug}-enact-overall`}
          header={["series", "condition", "metric", "n", "value", "ci_lower", "ci_upper", "interval", "reason"]}
          rows={csvRows}
          label="Table CSV"
        />
      </div>
      <ScrollBox className="rounded-md border border-slate-200" label="ENACT overall table">
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50">
            <tr className="text-xs font-semibold uppercase tracking-wide text-slate-500">
              <th scope="col" className="px-3 py-2 text-left">
                Who
              </th>
              {ENACT_OVERALL_METRICS.map((metric) => (
                <th key={metric} scope="col" className="px-3 py-2 text-right" title={LABELS[metric].description}>
                  <span className="normal-case">{LABELS[metric].title}</span>
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right">
                N
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {section.rows.map((row) => (
              <tr key={`${row.series}|${row.condition ?? ""}`} data-series={row.series} className={row.series === "humans" ? "" : "bg-amber-50/40"}>
                <th
                  scope="row"
                  className={`min-w-[7rem] max-w-[14rem] px-3 py-1.5 text-left align-top font-medium text-slate-800 [overflow-wrap:anywhere] ${row.series === "humans" ? "" : "italic"}`}
                >
                  {row.label}
                  {row.condition !== null ? <span className="block text-xs font-normal not-italic text-slate-500">condition {row.condition}</span> : null}
                </th>
                {ENACT_OVERALL_METRICS.map((metric) => (
                  <Cell key={metric} cell={row[metric]} />
                ))}
                <td className="whitespace-nowrap px-3 py-1.5 text-right align-top text-xs tabular-nums text-slate-500">
                  {count(row.answers)}
                  <div className="text-[11px] text-slate-400">
                    {section.kinds.map((kind) => `${shortKind(kind)} ${count(row.byKind[kind] ?? 0)}`).join(" + ")}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </div>
  );
}

export const enactDashboardSection: KindDashboardSection<EnactSection> = {
  id: "enact-overall",
  title: () => "ENACT overall: both tasks pooled",
  description:
    "TA, PA and PA per item over forward and inverse world modeling together, for the people and each model run; the accuracy table above has each task on its own.",
  render: (section, slug) =>
    section.rows.length === 0 ? <p className="text-sm text-slate-500">No answers to ENACT items yet.</p> : <EnactOverallTable section={section} slug={slug} />,
};
