import "server-only";
import type { Comparison } from "@/lib/dashboard/comparison";
import { ALL } from "@/lib/dashboard/accuracy";
import { visitStudyDashboard, type PendingDashboard } from "@/lib/dashboard/study-dashboard";
import { recordAudit } from "@/lib/audit/log";
import { csvRow } from "@/lib/exports/csv";

/**
 * comparison.csv: the dashboard's people-vs-model rows (lib/dashboard/comparison.ts), one per
 * kind x study condition (empty without one) x tag value (or all) x model, the figures as fractions or on their own scale (never
 * percent), empty where there is none (its reason in the *_reason column). Written by csvRow, as
 * every CSV.
 */
export const COMPARISON_COLUMNS = [
  "kind",
  "metric",
  "condition",
  "tag_key",
  "tag",
  "model",
  "model_run_id",
  "agent",
  "items",
  "people",
  "answers",
  "humans_estimate",
  "humans_ci_lower",
  "humans_ci_upper",
  "humans_reason",
  "humans_all_estimate",
  "humans_all_ci_lower",
  "humans_all_ci_upper",
  "humans_all_items",
  "model_estimate",
  "difference",
  "difference_ci_lower",
  "difference_ci_upper",
  "p",
  "difference_reason",
  "method",
  "generalise_over",
] as const;

export function comparisonCsv(comparison: Comparison, tagKey: string | null): string {
  const lines = [csvRow(COMPARISON_COLUMNS)];
  for (const row of comparison.rows) {
    lines.push(
      csvRow([
        row.kind,
        row.metric,
        row.condition ?? null,
        row.tag === ALL ? null : tagKey,
        row.tag === ALL ? "all" : row.tag,
        row.model.name,
        row.model.id,
        row.model.agent,
        row.items,
        row.people,
        row.answers,
        row.humans.estimate,
        row.humans.ci?.[0] ?? null,
        row.humans.ci?.[1] ?? null,
        row.humans.reason ?? null,
        row.humansAll.estimate,
        row.humansAll.ci?.[0] ?? null,
        row.humansAll.ci?.[1] ?? null,
        row.humansAll.items,
        row.modelEstimate,
        row.difference.estimate,
        row.difference.ci?.[0] ?? null,
        row.difference.ci?.[1] ?? null,
        row.difference.p,
        row.difference.reason ?? null,
        row.method,
        comparison.over,
      ]),
    );
  }
  return lines.join("");
}

/**
 * The comparison.csv of a dashboard view (the same search params as the page: tag, plan,
 * reviewed, participants; people are pooled whatever `annotator` says), from the view as a visit
 * gets it (a large study's stored view); null while the job worker has not computed it yet. The
 * download is written to the audit log, as every export.
 */
export async function comparisonExport(
  slug: string,
  searchParams: Record<string, string | string[] | undefined>,
  actorId: string,
): Promise<{ fileName: string; text: string } | PendingDashboard> {
  const view = await visitStudyDashboard(slug, searchParams);
  if ("pending" in view) return view;
  await recordAudit(actorId, "study.export", `study:${view.study.id}`, { slug, what: "comparison", format: "csv", tag: view.choices.tagKey });
  return {
    fileName: `${slug}-comparison${view.choices.tagKey ? `-by-${view.choices.tagKey}` : ""}.csv`,
    text: comparisonCsv(view.comparison, view.choices.tagKey),
  };
}
