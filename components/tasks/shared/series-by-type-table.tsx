import type { ReactNode } from "react";

/** One row of a kind's figures: people (the first series) or a model run, pooled and per question type. */
export interface TypedSeries<F> {
  label: string;
  pooled: F;
  byType: Record<string, F | undefined>;
}

/**
 * The generic kinds' table of figures by question type: a row per series (people first, then
 * model runs in italics), a column for all items and one per type; `cell` draws a figure's `<td>`.
 */
export function SeriesByTypeTable<F>({
  types,
  series,
  cell,
  modelBadge = false,
}: {
  types: readonly string[];
  series: ReadonlyArray<TypedSeries<F>>;
  cell: (figure: F | undefined, key?: string) => ReactNode;
  modelBadge?: boolean;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
            <th className="px-2 py-1">Who</th>
            <th className="px-2 py-1 text-right">All</th>
            {types.map((type) => (
              <th key={type} className="px-2 py-1 text-right font-mono font-normal">
                {type}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {series.map((row, index) => (
            <tr
              key={`${row.label}-${index}`}
              className={`border-b border-slate-100 ${index === 0 ? "bg-slate-50" : "italic text-slate-700"}`}
              data-series={row.label}
            >
              <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-medium">
                {row.label}
                {modelBadge && index > 0 ? (
                  <span className="ml-1 rounded bg-slate-100 px-1 text-[10px] font-normal not-italic text-slate-500">model</span>
                ) : null}
              </th>
              {cell(row.pooled)}
              {types.map((type) => cell(row.byType[type], type))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
