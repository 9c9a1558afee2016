import { parseFlags } from "@/lib/cli/flags";
import { REPORT_FORMATS } from "@/lib/validations/reporting";
import type { ReportFormat } from "@/lib/report/render";

/**
 * `yardstick report --study <slug> [--format md|tex]`: the study's human-baseline report
 * (lib/report), printed as Markdown (default) or LaTeX. The arguments are checked before the
 * database is opened.
 */

export const reportUsage = "usage: yardstick report --study <slug> [--format md|tex]";

export function parseReportArgs(args: readonly string[]): { study: string; format: ReportFormat } {
  const { flags } = parseFlags(args, ["study", "format"], reportUsage, "strict");
  if (!flags.study) throw new Error(`--study is required\n${reportUsage}`);
  const format = flags.format ?? "md";
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new Error(`--format must be md or tex, not "${format}"\n${reportUsage}`);
  return { study: flags.study, format: format as ReportFormat };
}

/** The report's text; needs the database (the CLI's withDatabase). */
export async function runReportCommand(args: readonly string[]): Promise<string> {
  const { study, format } = parseReportArgs(args);
  const { studyReportFile } = await import("@/lib/report");
  return (await studyReportFile(study, format)).text;
}
