import type { ExploreScorerTable, ExploreSection } from "@/lib/tasks/shared/explore/dashboard";
import {
  EXPLORE_ABNORMAL_METRICS,
  EXPLORE_PAPER_DIFFERENCES,
  EXPLORE_SUBSET_COLUMNS,
  EXPLORE_TABLE_METRICS,
  type ExploreMeans,
  type ExploreTableRow,
} from "@/lib/tasks/shared/explore/tables";
import type { AlphaResult } from "@/lib/stats/krippendorff-alpha";
import { CsvDownload } from "@/components/charts/csv-download";
import { ExploreLlmPanel } from "@/components/dashboard/explore-llm-panel";
import { count, fixed } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";

/**
 * EXPLORE-Bench on the dashboard (lib/dashboard/explore.ts): the paper's table (S_obj, S_att,
 * S_rel, S_uni by Short / Medium / Long / Full) per scorer, humans pooled and per annotator beside
 * model runs and the paper's human baseline; abnormal-outcome items apart with S_key and S_abn;
 * agreement over annotators; the LLM scorer's controls and progress.
 */

type Metric = (typeof EXPLORE_ABNORMAL_METRICS)[number];
const METRIC_TITLES: Record<Metric, string> = {
  S_obj: "Object level, 0-100: soft coverage of the annotated categories (one pass of mutual maxima)",
  S_att: "Attribute level, 0-5",
  S_rel: "Relation level, 0-5",
  S_uni: "0.25 S_obj + 0.35 (20 S_att) + 0.40 (20 S_rel), 0-100",
  S_key: "Key states of abnormal outcomes, 0-5",
  S_abn: "0.1 S_uni + 0.9 (20 S_key), 0-100",
};

function value(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  return v.toFixed(2);
}

const groupClass = "border-l border-slate-200";

function rowClass(row: ExploreTableRow): string {
  if (row.participant.group === "pooled") return "bg-slate-50 font-medium";
  if (row.participant.group === "model") return "text-slate-700 italic";
  return "";
}

function NameCell({ row }: { row: ExploreTableRow }) {
  return (
    <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-medium">
      {row.participant.label}
      {row.participant.group === "model" ? (
        <span className="ml-1 rounded bg-slate-100 px-1 text-[10px] font-normal not-italic text-slate-500">model</span>
      ) : null}
    </th>
  );
}

function MeansCells({ means, metrics }: { means: ExploreMeans | null; metrics: readonly Metric[] }) {
  return (
    <>
      {metrics.map((metric, i) => (
        <td
          key={metric}
          className={`px-1.5 py-1 text-right tabular-nums ${i === 0 ? groupClass : ""}`}
          title={means ? `${metric}: mean over ${means.n} answer${means.n === 1 ? "" : "s"}` : undefined}
        >
          {means && means.n > 0 ? value(means[metric]) : <span className="text-slate-300">–</span>}
        </td>
      ))}
    </>
  );
}

function alphaText(result: AlphaResult | null, what: string): string {
  if (!result) return `${what}: no item with two annotators' answers yet`;
  return `${what} = ${fixed(result.alpha, 3)}${result.alpha === null && result.reason ? ` (${result.reason})` : ""} over ${count(result.units)} unit${result.units === 1 ? "" : "s"}`;
}

function ScorerTable({ table, section, slug }: { table: ExploreScorerTable; section: ExploreSection; slug: string }) {
  const abnormalRows = table.rows.filter((row) => row.abnormal !== null);
  const csvRows = table.rows.flatMap((row) =>
    EXPLORE_SUBSET_COLUMNS.map((subset) => [
      row.participant.label,
      row.participant.group,
      subset,
      row.cells[subset].n,
      ...EXPLORE_TABLE_METRICS.map((m) => row.cells[subset][m]),
    ]),
  );
  return (
    <div className="space-y-2" data-testid={`explore-table-${table.scorer}`} data-scorer={table.title}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold">
          {table.title}
          {table.promptVersion ? <span className="ml-2 text-xs font-normal text-slate-500">prompts {table.promptVersion}</span> : null}
        </h3>
        <div className="flex items-center gap-3 text-xs text-slate-500">
          <span>
            {count(table.scored)} of {count(table.answers)} answers scored
          </span>
          <CsvDownload
            fileName={`${slug}-explore-${table.id.replace(/[^a-z0-9]+/gi, "-")}`}
            header={["participant", "group", "subset", "n", ...EXPLORE_TABLE_METRICS]}
            rows={csvRows}
          />
        </div>
      </div>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-xs">
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th rowSpan={2} className="px-2 py-1 text-left font-medium">
                Who
              </th>
              <th rowSpan={2} className="px-1.5 py-1 text-right font-medium" title="answers (all subsets, abnormal items apart)">
                n
              </th>
              {EXPLORE_SUBSET_COLUMNS.map((subset) => (
                <th key={subset} colSpan={EXPLORE_TABLE_METRICS.length} className={`px-1.5 py-1 text-center font-semibold ${groupClass}`}>
                  {subset}
                </th>
              ))}
            </tr>
            <tr>
              {EXPLORE_SUBSET_COLUMNS.flatMap((subset) =>
                EXPLORE_TABLE_METRICS.map((metric, i) => (
                  <th key={`${subset}-${metric}`} className={`px-1.5 py-1 text-right font-medium ${i === 0 ? groupClass : ""}`} title={METRIC_TITLES[metric]}>
                    {metric}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.participant.id} className={`border-t border-slate-100 ${rowClass(row)}`}>
                <NameCell row={row} />
                <td className="px-1.5 py-1 text-right tabular-nums text-slate-500">{count(row.cells.Full.n)}</td>
                {EXPLORE_SUBSET_COLUMNS.map((subset) => (
                  <MeansCells key={subset} means={row.cells[subset]} metrics={EXPLORE_TABLE_METRICS} />
                ))}
              </tr>
            ))}
            <tr className="border-t border-slate-300 text-slate-500" data-testid="explore-paper-row">
              <th
                scope="row"
                className="whitespace-nowrap px-2 py-1 text-left font-normal"
                title={`The EXPLORE-Bench paper's human baseline on its 100-item tiny subset, scored with ${section.paper.scorer}`}
              >
                {section.paper.label}
                <sup className="ml-0.5 text-[10px]">†</sup>
              </th>
              <td className="px-1.5 py-1 text-right">100</td>
              {EXPLORE_SUBSET_COLUMNS.map((subset) =>
                EXPLORE_TABLE_METRICS.map((metric, i) => (
                  <td key={`${subset}-${metric}`} className={`px-1.5 py-1 text-right tabular-nums ${i === 0 ? groupClass : ""}`}>
                    {section.paper.cells[subset][metric].toFixed(2)}
                  </td>
                )),
              )}
            </tr>
          </tbody>
        </table>
      </div>
      {abnormalRows.length > 0 ? (
        <div className="overflow-x-auto rounded-md border border-slate-200" data-testid={`explore-abnormal-${table.scorer}`}>
          <table className="min-w-full text-xs">
            <caption className="bg-slate-50 px-2 py-1 text-left text-xs font-semibold text-slate-700">
              Abnormal outcomes (items with key states; {count(section.abnormalItems)} item{section.abnormalItems === 1 ? "" : "s"}), {table.title}
            </caption>
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th className="px-2 py-1 text-left font-medium">Who</th>
                <th className="px-1.5 py-1 text-right font-medium">n</th>
                {EXPLORE_ABNORMAL_METRICS.map((metric, i) => (
                  <th key={metric} className={`px-1.5 py-1 text-right font-medium ${i === 0 ? groupClass : ""}`} title={METRIC_TITLES[metric]}>
                    {metric}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {abnormalRows.map((row) => (
                <tr key={row.participant.id} className={`border-t border-slate-100 ${rowClass(row)}`}>
                  <NameCell row={row} />
                  <td className="px-1.5 py-1 text-right tabular-nums text-slate-500">{count(row.abnormal?.n ?? 0)}</td>
                  <MeansCells means={row.abnormal} metrics={EXPLORE_ABNORMAL_METRICS} />
                </tr>
              ))}
              <tr className="border-t border-slate-300 text-slate-500">
                <th
                  scope="row"
                  className="whitespace-nowrap px-2 py-1 text-left font-normal"
                  title={`The EXPLORE-Bench paper's humans on its 20 abnormal-outcome videos, scored with ${section.paper.scorer}`}
                >
                  Paper: humans (abnormal set)
                  <sup className="ml-0.5 text-[10px]">†</sup>
                </th>
                <td className="px-1.5 py-1 text-right">20</td>
                {EXPLORE_ABNORMAL_METRICS.map((metric, i) => (
                  <td key={metric} className={`px-1.5 py-1 text-right tabular-nums ${i === 0 ? groupClass : ""}`}>
                    {section.paper.abnormal[metric].toFixed(2)}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      ) : null}
      <p className="text-xs text-slate-600" data-testid={`explore-alpha-${table.scorer}`}>
        Agreement over annotators: Krippendorff&apos;s {alphaText(table.sUniAlpha, "α on S_uni (interval; each item a unit)")}.
      </p>
    </div>
  );
}

export function ExploreDashboardSection({ section, slug }: { section: ExploreSection; slug: string }) {
  return (
    <div className="space-y-5" data-testid="explore-section">
      <ExploreLlmPanel slug={slug} initial={section.llm} kind="explore-scene" />
      {section.tables.map((table) => (
        <ScorerTable key={table.id} table={table} section={section} slug={slug} />
      ))}
      <div className="space-y-1 text-xs text-slate-500">
        <p data-testid="explore-presence-alpha">
          Per-object presence: Krippendorff&apos;s {alphaText(section.presenceAlpha, "α (nominal; each item × annotated category a unit, present or absent)")},
          from the structured scorer&apos;s object matching.
        </p>
        <p>
          Means over answers; Full is every item that is not an abnormal-outcome item ({count(section.items - section.abnormalItems)} items
          {section.otherSubsetItems > 0 ? `, ${count(section.otherSubsetItems)} of them without a Short / Medium / Long subset tag` : ""}). S_att and S_rel are
          0-5. Every answer&apos;s S_uni is Eq. 1 on its own parts, so every row&apos;s S_uni is Eq. 1 on the row&apos;s S_obj, S_att and S_rel. † The
          paper&apos;s human baseline (100-item tiny subset; 20 abnormal videos), scored with the paper&apos;s own scorer (Sentence-BERT and Qwen3-8B): a
          reference, not a figure of this study. The paper&apos;s best model reached S_uni {section.paper.bestModelFullSUni.toFixed(2)} (Full).
        </p>
        <div data-testid="explore-differences">
          <p className="font-medium text-slate-600">Where these numbers differ from the paper&apos;s protocol</p>
          <ul className="ml-4 list-disc">
            {EXPLORE_PAPER_DIFFERENCES.map((difference) => (
              <li key={difference}>{difference}</li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}

export const exploreDashboardSection: KindDashboardSection<ExploreSection> = {
  id: "explore",
  title: () => "EXPLORE-Bench: the paper's table, per scorer",
  description:
    "S_obj, S_att, S_rel and S_uni by subset for humans (pooled and per annotator) and imported model runs, scored by Yardstick's structured scorer and, once run, by the LLM scorer with the paper's prompts; never the paper's own numbers but for its human row, marked.",
  render: (section, slug) => <ExploreDashboardSection section={section} slug={slug} />,
};
