import { ScrollBox } from "@/components/ui/scroll-box";
import { CsvDownload } from "@/components/charts/csv-download";
import { kindShort } from "@/components/dashboard/accuracy-section";
import { count, fixed, interval, pct, share } from "@/components/dashboard/format";
import type { KindInfo } from "@/lib/dashboard/accuracy";
import type { AgreementResult, AlphaBlock } from "@/lib/dashboard/agreement";
import { INTERVAL_COMPUTING } from "@/lib/dashboard/constants";

const ALL = "__all__";

/** Background of a pairwise cell: white at 0 or below, deeper blue towards 1. */
function heat(alpha: number | null): string {
  if (alpha === null) return "transparent";
  const t = Math.max(0, Math.min(1, alpha));
  return `rgba(35, 88, 196, ${(0.08 + 0.42 * t).toFixed(2)})`;
}

export function levelName(level: string): string {
  return level === "custom" ? "normalised Kendall tau distance" : level;
}

/** One alpha with its interval, or the reason it is undefined (never a 0 or 1 in its place). */
export function AlphaValue({ block, size = "md" }: { block: Pick<AlphaBlock, "alpha" | "reason" | "ci" | "ciReason">; size?: "md" | "lg" }) {
  if (block.alpha === null) {
    return (
      <span className="text-sm text-amber-800" title={block.reason}>
        undefined: {block.reason}
      </span>
    );
  }
  return (
    <span className="tabular-nums">
      <span className={size === "lg" ? "text-2xl font-semibold text-slate-900" : "font-medium text-slate-900"}>{fixed(block.alpha)}</span>{" "}
      <span className={size === "lg" ? "text-sm text-slate-600" : "text-xs text-slate-500"} title={block.ciReason}>
        {block.ci ? interval(block.ci) : block.ciReason === INTERVAL_COMPUTING ? "(interval computing…)" : `(no interval: ${block.ciReason ?? "n/a"})`}
      </span>
    </span>
  );
}

/**
 * Pairwise alphas as a matrix (annotator names, never emails). Columns are numbered (the rows say
 * who each number is), so that eight or more annotators fit beside the headline; the matrix
 * scrolls sideways in its own box when even that is too wide.
 */
export function PairwiseMatrix({ names, matrix, shared, fileName }: { names: string[]; matrix: (number | null)[][]; shared: number[][]; fileName: string }) {
  return (
    <div className="min-w-0">
      <div className="mb-1 flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">Pairwise alpha</span>
        <CsvDownload fileName={fileName} header={["annotator", ...names]} rows={names.map((name, i) => [name, ...matrix[i].map((v) => v)])} />
      </div>
      <div className="overflow-x-auto">
        <table className="text-sm" data-testid="pairwise-matrix">
          <thead>
            <tr>
              <th />
              {names.map((name, j) => (
                <th key={name} scope="col" className="whitespace-nowrap px-2 py-1 text-right text-xs font-medium text-slate-500" title={name}>
                  <span aria-hidden>{j + 1}</span>
                  <span className="sr-only">{name}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((name, i) => (
              <tr key={name}>
                {/* long labels wrap whole: participants' labels often differ only at their end */}
                <th scope="row" className="px-2 py-1 text-left text-xs font-medium text-slate-600" title={name}>
                  <span className="flex items-baseline">
                    <span className="mr-1 inline-block w-4 shrink-0 text-right tabular-nums text-slate-400">{i + 1}</span>
                    <span className="min-w-[6rem] max-w-[11rem] [overflow-wrap:anywhere]">{name}</span>
                  </span>
                </th>
                {matrix[i].map((value, j) => (
                  <td
                    key={j}
                    className="px-2 py-1 text-right tabular-nums text-slate-800"
                    style={{ background: i === j ? "#f1f5f9" : heat(value) }}
                    title={i === j ? undefined : `${names[i]} and ${names[j]}: ${count(shared[i][j])} shared units`}
                  >
                    {i === j ? "" : fixed(value, 3)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function AgreementSection({
  agreement,
  annotatorNames,
  kinds,
  tagKey,
  slug,
}: {
  agreement: AgreementResult;
  annotatorNames: string[];
  kinds: KindInfo[];
  tagKey: string | null;
  slug: string;
}) {
  const { overall } = agreement;
  const names = agreement.coders.map((c) => annotatorNames[c] ?? `#${c}`);
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const columns = [...agreement.tagValues, ALL];
  // the encoding's own unit when an item holds several (a slot, a check); otherwise items alone are counted
  const unitNoun = agreement.encoding.unitNoun ?? null;
  const cellRows: unknown[][] = [];
  for (const row of agreement.byKind) {
    for (const column of columns) {
      const b = row.cells[column];
      if (!b) continue;
      cellRows.push([
        row.kind,
        column === ALL ? "all" : column,
        b.items,
        b.units,
        b.alpha,
        b.reason ?? null,
        b.ci?.[0] ?? null,
        b.ci?.[1] ?? null,
        b.perfectItems.agreeing,
        b.perfectItems.total,
      ]);
    }
  }
  return (
    <div className="space-y-5">
      {/* the headline keeps at least 20rem beside the matrix; a wider matrix scrolls in its box */}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(20rem,1fr)_minmax(0,max-content)]">
        <div className="rounded-md bg-slate-50 px-4 py-3" data-testid="alpha-headline">
          <div className="text-xs font-medium uppercase tracking-wide text-slate-500">Krippendorff&apos;s alpha · {levelName(agreement.level)}</div>
          <div className="text-sm text-slate-700">Encoding: {agreement.encoding.label}</div>
          <div className="mt-1">
            <AlphaValue block={overall} size="lg" />
          </div>
          <div className="mt-1 text-xs text-slate-500">{overall.ci || overall.ciReason ? `Interval: ${overall.ciDescription}.` : null}</div>
          <div className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
            <span>
              Perfect agreement: <strong>{share(overall.perfectItems.agreeing, overall.perfectItems.total, "item")}</strong>
            </span>
            {unitNoun ? <span>{share(overall.perfectUnits.agreeing, overall.perfectUnits.total, unitNoun)}</span> : null}
            <span className="text-slate-500">
              {count(overall.items)} item{overall.items === 1 ? "" : "s"} with 2+ answers · {count(overall.values)} pairable value
              {overall.values === 1 ? "" : "s"}
            </span>
          </div>
          {agreement.notes.length > 0 ? <p className="mt-2 text-xs text-amber-800">{agreement.notes.join("; ")}</p> : null}
        </div>
        {names.length >= 2 ? (
          <PairwiseMatrix
            names={names}
            matrix={agreement.pairwise.matrix}
            shared={agreement.pairwise.shared}
            fileName={`${slug}-pairwise-alpha-${agreement.encoding.id}-${agreement.level}`}
          />
        ) : (
          <p className="text-sm text-slate-500">Pairwise alphas need two annotators on shared items.</p>
        )}
      </div>

      <div className="min-w-0">
        <div className="mb-1 flex items-center justify-between gap-2">
          <span className="text-sm font-medium text-slate-700">Alpha by task and {tagKey ?? "tag"}</span>
          <CsvDownload
            fileName={`${slug}-alpha-by-${tagKey ?? "tag"}-${agreement.encoding.id}-${agreement.level}`}
            header={["kind", tagKey ?? "tag", "items", "units", "alpha", "undefined_reason", "ci_lower", "ci_upper", "perfect_items", "items_with_2plus"]}
            rows={cellRows}
          />
        </div>
        <ScrollBox className="rounded-md border border-slate-200" label="Alpha by cell" edges="left">
          <table className="min-w-full text-sm" data-testid="alpha-by-cell">
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                  Task
                </th>
                {agreement.tagValues.map((v) => (
                  <th key={v} scope="col" className="px-2 py-2 text-right text-xs font-semibold text-slate-500">
                    {v}
                  </th>
                ))}
                <th
                  scope="col"
                  className="border-l border-slate-200 bg-slate-50 md:sticky md:right-0 md:shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.3)] px-2 py-2 text-right text-xs font-semibold uppercase tracking-wide text-slate-500"
                >
                  All
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {agreement.byKind.map((row) => (
                <tr key={row.kind}>
                  <td className="whitespace-nowrap px-3 py-1.5 align-top text-slate-700">
                    {kindOf.get(row.kind) ? kindShort(kindOf.get(row.kind)!) : row.kind}
                  </td>
                  {columns.map((column) => {
                    const b = row.cells[column];
                    return (
                      <td
                        key={column}
                        className={`whitespace-nowrap px-2 py-1.5 text-right align-top tabular-nums ${column === ALL ? "border-l border-slate-200 bg-slate-50 md:sticky md:right-0 md:shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.3)]" : ""}`}
                      >
                        {b ? (
                          <>
                            <div className="font-medium text-slate-900" title={b.reason}>
                              {b.alpha === null ? <span className="text-amber-700">undef.</span> : fixed(b.alpha, 3)}
                            </div>
                            <div className="text-[11px] leading-tight text-slate-500" title={b.ciReason}>
                              {b.ci ? interval(b.ci, 2) : b.ciReason === INTERVAL_COMPUTING ? "computing…" : ""}
                            </div>
                            <div className="text-[11px] leading-tight text-slate-400" title="items on which every answer is the same / items with 2+ answers">
                              {b.perfectItems.agreeing}/{b.items} same
                            </div>
                          </>
                        ) : (
                          <span className="text-slate-300">–</span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
        <p className="mt-1 text-xs text-slate-500">
          Each cell: alpha, its interval, and how many items every annotator answered the same. Hover an undefined cell for the reason (e.g. every answer the
          same: no variation to agree on beyond chance). Same answers overall: {pct(overall.perfectItems.share)}%.
        </p>
      </div>
    </div>
  );
}
