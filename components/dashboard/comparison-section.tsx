import type { Comparison, ComparisonMetric, ComparisonRow } from "@/lib/dashboard/comparison";
import type { IntervalMethod } from "@/lib/dashboard/method";
import type { KindInfo } from "@/lib/dashboard/accuracy";
import { ALL } from "@/lib/dashboard/accuracy";
import { count, metricInterval, metricValue } from "@/components/dashboard/format";
import { kindShort } from "@/components/dashboard/accuracy-section";

/**
 * People against each model on the same items (lib/dashboard/comparison.ts): the headline a paper
 * can state, one line per kind, and the table of every model x tag value, sorted by difference.
 * Shares in percent (their difference in points), other scales as they are.
 */

/** The one line naming the intervals' method (every view shows it). */
export function MethodLine({ method }: { method: IntervalMethod }) {
  return (
    <p data-testid="method-line" className="text-xs text-slate-600">
      <span className="font-medium text-slate-700">Intervals:</span> {method.line}
    </p>
  );
}

/** A p-value as a paper writes it: "p = 0.042", "p < 0.001". */
export function pText(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return "p n/a";
  return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}

function unitOf(metric: ComparisonMetric): string {
  return metric.scale === "fraction" ? "%" : "";
}

/** A difference: percentage points for fractions ("+13.3 points"), raw otherwise, with its sign. */
function signed(value: number | null, metric: ComparisonMetric, digits: number): string {
  if (value === null || !Number.isFinite(value)) return "–";
  const text = metricValue(Math.abs(value), metric.scale, digits);
  return `${value < 0 ? "−" : value > 0 ? "+" : ""}${text}`;
}

function differenceInterval(row: ComparisonRow, metric: ComparisonMetric, digits: number): string {
  const ci = row.difference.ci;
  if (!ci) return metricInterval(null, metric.scale, digits, row.difference.reason);
  const bound = (v: number) => (v < 0 ? `−${metricValue(-v, metric.scale, digits)}` : metricValue(v, metric.scale, digits));
  return `[${bound(ci[0])}, ${bound(ci[1])}]`;
}

/** The sentence of one comparison: "People 53.3% [19.8, 84.1] vs M 40.0% on the same 24 items: difference +13.3 points [−5.2, 31.8], p = 0.160". */
export function headlineText(row: ComparisonRow, metric: ComparisonMetric): string {
  const digits = metric.scale === "fraction" ? 1 : 2;
  const unit = unitOf(metric);
  const people = `${metricValue(row.humans.estimate, metric.scale, digits)}${unit} ${metricInterval(row.humans.ci, metric.scale, digits, row.humans.reason)}`;
  const model = `${metricValue(row.modelEstimate, metric.scale, digits)}${unit}`;
  const points = metric.scale === "fraction" ? " points" : "";
  return `People ${people} vs ${row.model.name} ${model} on the same ${count(row.items)} item${row.items === 1 ? "" : "s"}: difference ${signed(row.difference.estimate, metric, digits)}${points} ${differenceInterval(row, metric, digits)}, ${pText(row.difference.p)}`;
}

/** The headline of each kind: its first overall row (the model closest to, or furthest above, people). */
export function ComparisonHeadline({ comparison, kinds }: { comparison: Comparison; kinds: KindInfo[] }) {
  // one line per kind and study condition: the first overall row of each
  const lines = comparison.metrics.flatMap((metric) => {
    const firsts = new Map<string, ComparisonRow>();
    for (const r of comparison.rows) if (r.kind === metric.kind && r.tag === ALL && !firsts.has(r.condition ?? "")) firsts.set(r.condition ?? "", r);
    return [...firsts.values()].map((row) => ({ metric, row }));
  });
  if (lines.length === 0) return null;
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  return (
    <div data-testid="comparison-headline" className="rounded-md border border-slate-300 bg-white px-4 py-3 shadow-sm">
      {lines.map(({ metric, row }) => (
        <p key={`${metric.kind}|${row.condition ?? ""}`} className="text-sm leading-relaxed text-slate-800">
          <span className="mr-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
            {kindOf.has(metric.kind) ? kindShort(kindOf.get(metric.kind)!) : metric.kind}
            {row.conditionLabel ? ` · ${row.conditionLabel}` : ""} · {metric.metric}
          </span>
          <span className="font-medium">{headlineText(row, metric)}</span>
        </p>
      ))}
    </div>
  );
}

/** Every model x tag value, by kind; empty when no model answered an item people answered. */
export function ComparisonTable({
  comparison,
  kinds,
  tagKey,
  slug,
  search,
}: {
  comparison: Comparison;
  kinds: KindInfo[];
  tagKey: string | null;
  slug: string;
  search: string;
}) {
  if (comparison.rows.length === 0)
    return <p className="text-sm text-slate-500">No model run or agent has answered an item people answered yet: import a run (below) or let an agent play.</p>;
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const metricOf = new Map(comparison.metrics.map((m) => [m.kind, m]));
  const th = "px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-500">
          Each kind&apos;s headline metric on the items both people and the model answered; difference = people − model (in points for shares), its 95% interval
          and two-sided p. Sorted by difference within each {tagKey ?? "tag"} value. People on all items: the accuracy table&apos;s figure.
        </p>
        <a className="text-xs font-medium text-brand-700 hover:underline" href={`/api/studies/${slug}/comparison.csv${search}`} data-testid="comparison-csv">
          comparison.csv
        </a>
      </div>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm" data-testid="comparison-table">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={`${th} text-left`}>
                Task
              </th>
              <th scope="col" className={`${th} text-left`}>
                {tagKey ?? "tag"}
              </th>
              <th scope="col" className={`${th} text-left`}>
                Model
              </th>
              <th scope="col" className={`${th} text-right`}>
                Items
              </th>
              <th scope="col" className={`${th} text-right`}>
                People, same items
              </th>
              <th scope="col" className={`${th} text-right`}>
                People, all items
              </th>
              <th scope="col" className={`${th} text-right`}>
                Model
              </th>
              <th scope="col" className={`${th} text-right`}>
                Difference
              </th>
              <th scope="col" className={`${th} text-right`}>
                p
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {comparison.rows.map((row) => {
              const metric = metricOf.get(row.kind)!;
              const digits = metric.scale === "fraction" ? 1 : 2;
              const kind = kindOf.get(row.kind);
              return (
                <tr
                  key={`${row.kind}|${row.condition ?? ""}|${row.tag}|${row.model.id}`}
                  data-testid="comparison-row"
                  className={row.tag === ALL ? "bg-slate-50/60" : undefined}
                >
                  <td className="whitespace-nowrap px-3 py-1.5 text-slate-700">
                    {kind ? kindShort(kind) : row.kind} <span className="text-xs text-slate-500">{row.metric}</span>
                    {row.conditionLabel ? <div className="text-xs text-slate-500">{row.conditionLabel}</div> : null}
                  </td>
                  <td className="px-3 py-1.5">{row.tag === ALL ? "all" : row.tag}</td>
                  <td className="whitespace-nowrap px-3 py-1.5 font-medium">{row.model.name}</td>
                  <td className="px-3 py-1.5 text-right" title={`${row.people} people, ${row.answers} answers on these items`}>
                    {count(row.items)}
                  </td>
                  <td className="px-3 py-1.5 text-right">
                    {metricValue(row.humans.estimate, metric.scale, digits)}
                    <div className="text-[11px] leading-tight text-slate-500">{metricInterval(row.humans.ci, metric.scale, digits, row.humans.reason)}</div>
                  </td>
                  <td className="px-3 py-1.5 text-right text-slate-600">
                    {metricValue(row.humansAll.estimate, metric.scale, digits)}
                    <div className="text-[11px] leading-tight text-slate-500">
                      {metricInterval(row.humansAll.ci, metric.scale, digits, row.humansAll.reason)} · {count(row.humansAll.items)} items
                    </div>
                  </td>
                  <td className="px-3 py-1.5 text-right">{metricValue(row.modelEstimate, metric.scale, digits)}</td>
                  <td className="px-3 py-1.5 text-right font-medium">
                    {signed(row.difference.estimate, metric, digits)}
                    <div className="text-[11px] font-normal leading-tight text-slate-500">{differenceInterval(row, metric, digits)}</div>
                  </td>
                  <td className="whitespace-nowrap px-3 py-1.5 text-right text-slate-600">{pText(row.difference.p).replace(/^p (= )?/, "")}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
