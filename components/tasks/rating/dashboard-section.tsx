import { fixed, interval } from "@/components/dashboard/format";
import { WatchTable } from "@/components/tasks/shared/media/watch-table";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";
import type { RatingSection } from "@/lib/tasks/rating/dashboard";
import type { MeanCell } from "@/lib/tasks/rating/figures";

/**
 * The rating section (lib/tasks/rating/dashboard.ts): mean points per dimension and in total for
 * people, per generator (the items' `model` tag) and per imported judge run; mean points per
 * rubric entry; Krippendorff's alpha per dimension with its interval; watch time per item.
 */

function Cell({ cell, digits = 2 }: { cell: MeanCell | undefined; digits?: number }) {
  return (
    <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums" title={cell ? `n = ${cell.n}` : undefined}>
      {fixed(cell?.mean ?? null, digits)}
    </td>
  );
}

function RatingDashboardSection({ section }: { section: RatingSection }) {
  const columns = [...section.dimensions.map((d) => ({ id: d.id, label: `${d.id} (0–${d.maxPoints})` })), { id: "total", label: "total" }];
  return (
    <div className="space-y-5" data-testid="rating-section">
      <p className="text-xs text-slate-500">
        {section.answers} rating{section.answers === 1 ? "" : "s"} by {section.people} {section.people === 1 ? "person" : "people"}. Points: a Likert
        entry&apos;s value; a check 1 when answered as its pass value (WorldModelBench). A dimension&apos;s points are the sum of its entries per answer; the
        table shows their mean over answers.
      </p>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm" aria-label="Mean points per dimension">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1.5 text-left font-medium">Who / what</th>
              {columns.map((column) => (
                <th key={column.id} className="px-2 py-1.5 text-right font-medium">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr className="border-t border-slate-100 bg-slate-50 font-medium" data-row="people">
              <th scope="row" className="px-2 py-1 text-left">
                People (pooled)
              </th>
              {columns.map((column) => (
                <Cell key={column.id} cell={section.pooled[column.id]} />
              ))}
            </tr>
            {section.byGenerator.map((row) => (
              <tr key={row.model} className="border-t border-slate-100" data-row="generator">
                <th scope="row" className="px-2 py-1 text-left font-normal">
                  Generator <span className="font-mono">{row.model}</span> (people)
                </th>
                {columns.map((column) => (
                  <Cell key={column.id} cell={row.cells[column.id]} />
                ))}
              </tr>
            ))}
            {section.judges.map((row) => (
              <tr key={row.id} className="border-t border-slate-100 bg-violet-50/40" data-row="judge">
                <th scope="row" className="px-2 py-1 text-left font-normal">
                  {row.name} <span className="ml-1 rounded bg-violet-100 px-1 text-[10px] font-semibold text-violet-800">model run</span>
                </th>
                {columns.map((column) => (
                  <Cell key={column.id} cell={row.cells[column.id]} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm" aria-label="Agreement per dimension">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1.5 text-left font-medium">Dimension</th>
              <th className="px-2 py-1.5 text-left font-medium">Level</th>
              <th className="px-2 py-1.5 text-right font-medium">Krippendorff&apos;s α</th>
              <th className="px-2 py-1.5 text-right font-medium">95 % interval</th>
              <th className="px-2 py-1.5 text-right font-medium">Units / items</th>
            </tr>
          </thead>
          <tbody>
            {section.alpha.map((row) => (
              <tr key={row.dimension} className="border-t border-slate-100" data-dimension={row.dimension}>
                <th scope="row" className="px-2 py-1 text-left font-normal">
                  {row.dimension}
                </th>
                <td className="px-2 py-1">{row.level}</td>
                <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{fixed(row.alpha, 3)}</td>
                <td className="min-w-40 px-2 py-1 text-right tabular-nums" title={row.description}>
                  {interval(row.ci, 3, row.reason)}
                </td>
                <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                  {row.units} / {row.items}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="px-2 py-1 text-[11px] text-slate-500">
          Units: each item × rubric entry of the dimension, one value per person; ordinal for Likert dimensions, nominal for checks. Interval:{" "}
          {section.alphaMethod}.
        </p>
      </div>

      <details className="rounded-md border border-slate-200 p-2">
        <summary className="cursor-pointer text-sm font-medium text-slate-800">Mean points per rubric entry</summary>
        <table className="mt-2 min-w-full text-sm" aria-label="Mean points per rubric entry">
          <thead className="text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1 text-left font-medium">Entry</th>
              <th className="px-2 py-1 text-left font-medium">Dimension</th>
              <th className="px-2 py-1 text-left font-medium">Scale</th>
              <th className="px-2 py-1 text-right font-medium">Mean</th>
              <th className="px-2 py-1 text-right font-medium">n</th>
            </tr>
          </thead>
          <tbody>
            {section.entries.map((entry) => (
              <tr key={entry.id} className="border-t border-slate-100">
                <td className="px-2 py-1">{entry.label}</td>
                <td className="px-2 py-1">{entry.dimension}</td>
                <td className="px-2 py-1">{entry.scale}</td>
                <Cell cell={entry.people} />
                <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{entry.people.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>

      <div>
        <h3 className="mb-1 text-sm font-semibold text-slate-800">Watching</h3>
        <WatchTable figures={section.watch} />
      </div>
    </div>
  );
}

export const ratingDashboardSection: KindDashboardSection<RatingSection> = {
  id: "rating",
  title: () => "Rubric ratings: points per dimension, agreement, watching",
  description:
    "Mean points per dimension and in total for people (pooled and per generator) and imported judge runs, Krippendorff's alpha per dimension with a pigeonhole bootstrap interval over people and items (or items only, as the study's Generalise over says), mean points per rubric entry, and watch time and share watched per item.",
  render: (section) => <RatingDashboardSection section={section} />,
};
