import "server-only";
import { studyReport } from "@/lib/report/facts";
import { renderReport, type ReportFormat } from "@/lib/report/render";

/**
 * The report as a file for a paper's appendix (GET /api/studies/<slug>/report, the CLI's
 * `yardstick report`): Markdown or LaTeX of lib/report/facts.ts's entries.
 */

export const REPORT_CONTENT_TYPES: Record<ReportFormat, string> = { md: "text/markdown; charset=utf-8", tex: "application/x-tex; charset=utf-8" };

export async function studyReportFile(slug: string, format: ReportFormat): Promise<{ text: string; fileName: string; contentType: string }> {
  const report = await studyReport(slug);
  return { text: renderReport(report, format), fileName: `${report.study.slug}-human-baseline-report.${format}`, contentType: REPORT_CONTENT_TYPES[format] };
}
