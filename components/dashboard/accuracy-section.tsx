import { MetricLineChart, type LineSeries } from "@/components/charts/line-chart";
import { seriesColor } from "@/components/charts/palette";
import { CsvDownload } from "@/components/charts/csv-download";
import { count, metricInterval, metricValue } from "@/components/dashboard/format";
import type { AccuracyRow, KindInfo, MetricCell } from "@/lib/dashboard/accuracy";
import { ScrollBox } from "@/components/ui/scroll-box";
import { metricsOf, pointsScales } from "@/components/dashboard/kind-words";

const ALL = "__all__";

/** "ENACT forward world modeling" -> "forward world modeling" */
export function kindShort(kind: KindInfo): string {
  return kind.title.startsWith(`${kind.benchmark} `) ? kind.title.slice(kind.benchmark.length + 1) : kind.title;
}

/** For chart legends: "<benchmark>-forward" -> "forward" (the kind id without its benchmark prefix). */
function kindTiny(kind: KindInfo): string {
  const rest = kind.kind.split("-").slice(1).join("-");
  return rest || kind.kind;
}

/**
 * Accuracy in the shape of the ENACT paper's human table: one row per series (humans, each model)
 * x kind x study condition (where the study has conditions: ESI-Bench's table has a column per
 * condition) x metric, one column per tag value (step length) plus all, each cell the metric in
 * percent with its 95% interval and N.
 */
export function AccuracySection({
  rows,
  modelRows,
  kinds,
  tagKey,
  tagValues,
  slug,
}: {
  rows: AccuracyRow[];
  modelRows: AccuracyRow[];
  kinds: KindInfo[];
  tagKey: string | null;
  tagValues: string[];
  slug: string;
}) {
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const columns = [...tagValues, ALL];
  const allRows = [...rows, ...modelRows];
  const metricIds = [...new Set(kinds.flatMap((k) => k.metrics.map((m) => m.id)))];
  const tagTitle = tagKey ?? "tag";
  // the note's examples and scales are the study's kinds' own metrics (shared code names none)
  const metrics = metricsOf(kinds);
  const scales = pointsScales(metrics);
  const shareExample = metrics.find((m) => m.type === "proportion")?.id;
  const ratioExample = metrics.find((m) => m.type === "ratio")?.id;

  const csvRows: unknown[][] = [];
  for (const row of allRows) {
    const kind = kindOf.get(row.kind);
    for (const metric of kind?.metrics ?? []) {
      for (const column of columns) {
        const cell = row.cells[column];
        if (!cell) continue;
        const m = cell.metrics[metric.id];
        csvRows.push([
          row.label,
          row.kind,
          row.condition ?? null,
          metric.id,
          column === ALL ? "all" : column,
          cell.n,
          cell.withoutCorrectness ?? 0,
          m?.value ?? null,
          m?.ci?.[0] ?? null,
          m?.ci?.[1] ?? null,
          m?.interval ?? null,
        ]);
      }
    }
  }

  // one chart per metric: the metric (percent) against the tag value, one line per series x kind
  const charts = metricIds.map((metricId) => {
    const series: LineSeries[] = [];
    allRows.forEach((row, i) => {
      const kind = kindOf.get(row.kind);
      if (!kind?.metrics.some((m) => m.id === metricId)) return;
      series.push({
        key: `s${i}`,
        label: `${row.label}, ${kindTiny(kind)}${row.conditionLabel ? `, ${row.conditionLabel}` : ""}`,
        color: seriesColor(i),
        dashed: row.series !== "humans",
      });
    });
    const scale = kinds.flatMap((k) => k.metrics).find((m) => m.id === metricId)?.scale ?? "fraction";
    const data = tagValues.map((value) => {
      const point: Record<string, string | number | null> = { x: value };
      allRows.forEach((row, i) => {
        const v = row.cells[value]?.metrics[metricId]?.value;
        point[`s${i}`] = v === null || v === undefined ? null : scale === "points" ? Math.round(v * 100) / 100 : Math.round(v * 10000) / 100;
      });
      return point;
    });
    const label = kinds.flatMap((k) => k.metrics).find((m) => m.id === metricId)?.label ?? metricId;
    return { metricId, label, series, data };
  });

  return (
    <div className="space-y-5">
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-slate-500">
          Cells: the metric in %{scales ? `, or on its own scale (${scales})` : ""} · 95% interval by the method named above (Wilson at the effective n for
          shares{shareExample ? ` such as ${shareExample}` : ""}, estimate ± t·√V for means and ratios
          {ratioExample ? ` such as ${ratioExample}` : ""}, both from the two-way variance with t at min(people, items) − 1 df; a seeded pigeonhole bootstrap,
          1,000 resamples, for other figures; &quot;n/a (one item)&quot; or &quot;n/a (one person)&quot; where a cell holds one) · N answers, and how many of
          them have no correctness (an item without a key, an answer not graded yet), left out of the figure. A study&apos;s conditions are rows apart, never
          pooled. A model run is one fixed judge: its intervals are over items. Model rows are dashed in the charts.
        </p>
        <CsvDownload
          fileName={`${slug}-accuracy-by-${tagTitle}`}
          header={["series", "kind", "condition", "metric", tagTitle, "n", "without_correctness", "value", "ci_lower", "ci_upper", "interval"]}
          rows={csvRows}
          label="Table CSV"
        />
      </div>
      <ScrollBox className="rounded-md border border-slate-200" label="Accuracy table" edges="left">
        <table className="min-w-full text-sm" data-testid="accuracy-table">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                Who
              </th>
              <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                Task
              </th>
              <th scope="col" className="px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                Metric
              </th>
              {tagValues.map((value) => (
                <th key={value} scope="col" className="px-2 py-2 text-right text-xs font-semibold text-slate-500">
                  <span className="font-normal normal-case text-slate-400">{tagTitle} </span>
                  {value}
                </th>
              ))}
              {/* with many tag values the table scrolls sideways: from md on the all column stays in view; on a phone it would leave room for no other column */}
              <th
                scope="col"
                className="border-l border-slate-200 bg-slate-50 md:sticky md:right-0 md:shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.3)] px-2 py-2 text-right text-xs font-semibold uppercase tracking-wide text-slate-500"
              >
                All
              </th>
            </tr>
          </thead>
          <tbody>
            {allRows.map((row, r) => {
              const kind = kindOf.get(row.kind);
              const metrics = kind?.metrics ?? [];
              const firstOfSeries = r === 0 || allRows[r - 1].series !== row.series;
              return metrics.map((metric, m) => (
                <tr
                  key={`${row.series}-${row.kind}-${row.condition ?? ""}-${metric.id}`}
                  className={`${m === 0 ? "border-t border-slate-200" : ""} ${row.series === "humans" ? "" : "bg-amber-50/40"}`}
                >
                  {/* long labels wrap whole: participants' labels often differ only at their end */}
                  <td className="min-w-[7rem] max-w-[13rem] px-3 py-1.5 align-top text-slate-800 [overflow-wrap:anywhere]">
                    {m === 0 && firstOfSeries ? <span className={row.series === "humans" ? "font-medium" : "font-medium italic"}>{row.label}</span> : null}
                  </td>
                  <td className="min-w-[6rem] px-3 py-1.5 align-top text-slate-600">
                    {m === 0 && kind ? kindShort(kind) : null}
                    {/* a kind's answers under each study condition are a row apart, never pooled */}
                    {m === 0 && row.conditionLabel ? (
                      <div className="text-xs text-slate-500" data-testid="accuracy-condition">
                        {row.conditionLabel}
                      </div>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1.5 align-top text-slate-600" title={metric.description}>
                    {metric.id}
                  </td>
                  {columns.map((column) => {
                    const cell = row.cells[column];
                    const value = cell?.metrics[metric.id];
                    return (
                      <td
                        key={column}
                        className={`whitespace-nowrap px-2 py-1.5 text-right align-top tabular-nums ${column === ALL ? "border-l border-slate-200 bg-slate-50 md:sticky md:right-0 md:shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.3)]" : ""}`}
                      >
                        {cell && value ? (
                          <>
                            <div className="font-medium text-slate-900">{metricValue(value.value, metric.scale)}</div>
                            <div className="text-[11px] leading-tight text-slate-500" title={intervalTitle(value)}>
                              {metricInterval(value.ci, metric.scale, 1, value.reason?.split(":")[0])}
                            </div>
                            <div
                              className="text-[11px] leading-tight text-slate-400"
                              title={
                                cell.withoutCorrectness
                                  ? "answers without a correctness (an item without a key, an answer not graded yet) are in N but not in the figure"
                                  : undefined
                              }
                            >
                              N={count(cell.n)}
                              {cell.withoutCorrectness ? `, ${count(cell.withoutCorrectness)} without a correctness` : ""}
                            </div>
                          </>
                        ) : (
                          <span className="text-slate-300">–</span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ));
            })}
          </tbody>
        </table>
      </ScrollBox>
      {tagValues.length > 0 ? (
        <div className="grid gap-6 lg:grid-cols-2">
          {charts.map((chart) => (
            <MetricLineChart
              key={chart.metricId}
              title={`${chart.label} (${chart.metricId}) by ${tagTitle}`}
              data={chart.data}
              series={chart.series}
              xLabel={tagTitle}
              yLabel={`${chart.metricId} (%)`}
              fileName={`${slug}-${chart.metricId}-by-${tagTitle}`}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The method behind a cell's interval, for its tooltip. */
function intervalTitle(value: MetricCell): string {
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const sizes = [
    value.items === undefined ? null : plural(value.items, "item"),
    value.people === undefined ? null : plural(value.people, "person").replace("persons", "people"),
  ]
    .filter(Boolean)
    .join(", ");
  const items = sizes ? `, ${sizes}` : "";
  if (value.reason) return `no interval: ${value.reason}${items}`;
  if (value.interval === "wilson") return `95% Wilson interval at the effective n ${(value.effectiveN ?? 0).toFixed(1)} (two-way variance${items})`;
  if (value.interval === "two-way") return `95% t interval, two-way cluster-robust variance${items}`;
  return `95% percentile pigeonhole bootstrap interval${items}`;
}
