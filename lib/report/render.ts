import { CHECKLIST_SECTIONS, type ChecklistChoice } from "@/lib/report/checklist";
import type { StudyReport } from "@/lib/report/facts";

/**
 * The report as text for a paper's appendix (pure, browser-safe): Markdown, one table per
 * checklist section with the entries' own numbering and names, or LaTeX, one longtable per
 * section (the preamble needs \usepackage{longtable}), every character of the values escaped.
 */

export type ReportFormat = "md" | "tex";

/** The value as the report shows it: the checklist's choice first when it adds to the words. */
export function shownValue(entry: { choice?: ChecklistChoice; value: string }): string {
  if (!entry.choice || entry.value === entry.choice || entry.value.startsWith(`${entry.choice}:`) || entry.value.startsWith("not reported")) return entry.value;
  return `${entry.choice}: ${entry.value}`;
}

/** Text that Markdown prints as it is, on one table row: the characters that would start emphasis, code, HTML or a new cell escaped. */
export function markdownCell(text: string): string {
  return text.replace(/[\\|*_`<]/gu, (ch) => `\\${ch}`).replace(/\r?\n/gu, " ");
}

function sectionsOf(report: StudyReport) {
  return CHECKLIST_SECTIONS.map((section) => ({ section, entries: report.entries.filter((entry) => entry.section === section.number) }));
}

export function renderMarkdown(report: StudyReport): string {
  const lines = [
    `# Human baseline report: ${markdownCell(report.study.title)}`,
    "",
    `Study \`${report.study.slug}\`, generated ${report.generatedAt} by Yardstick ${report.yardstick.version}. Entries and numbering: the reporting checklist of Wei et al., ICML 2025 (arXiv 2506.13776).`,
  ];
  for (const { section, entries } of sectionsOf(report)) {
    lines.push("", `## ${section.number}. ${section.name}`, "", "| # | Entry | Value | Source |", "|---|---|---|---|");
    for (const entry of entries)
      lines.push(`| ${entry.number} | ${markdownCell(entry.name)} | ${markdownCell(shownValue(entry))} | ${markdownCell(entry.source)} |`);
  }
  return lines.join("\n") + "\n";
}

const LATEX_SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
  "–": "--",
  "—": "---",
  "…": "\\ldots{}",
  "±": "$\\pm$",
  "−": "$-$",
  "≥": "$\\geq$",
  "≤": "$\\leq$",
  "×": "$\\times$",
  "“": "``",
  "”": "''",
  "\n": " ",
};

/** Text as LaTeX that prints it as it is (no character of it is a command). */
export function latexEscape(text: string): string {
  let out = "";
  for (const ch of text) out += LATEX_SPECIAL[ch] ?? ch;
  return out;
}

export function renderLatex(report: StudyReport): string {
  const lines = [
    "% Human baseline report (Yardstick); needs \\usepackage{longtable}",
    `\\section*{Human baseline report: ${latexEscape(report.study.title)}}`,
    `Study \\texttt{${latexEscape(report.study.slug)}}, generated ${latexEscape(report.generatedAt)} by Yardstick ${latexEscape(report.yardstick.version)}. Entries and numbering: the reporting checklist of Wei et al., ICML 2025 (arXiv 2506.13776).`,
  ];
  for (const { section, entries } of sectionsOf(report)) {
    lines.push(
      "",
      `\\subsection*{${latexEscape(`${section.number}. ${section.name}`)}}`,
      "\\begin{longtable}{p{0.07\\linewidth}p{0.22\\linewidth}p{0.43\\linewidth}p{0.18\\linewidth}}",
      "\\# & Entry & Value & Source \\\\ \\hline",
      "\\endhead",
    );
    for (const entry of entries)
      lines.push(`${latexEscape(entry.number)} & ${latexEscape(entry.name)} & ${latexEscape(shownValue(entry))} & ${latexEscape(entry.source)} \\\\`);
    lines.push("\\end{longtable}");
  }
  return lines.join("\n") + "\n";
}

export function renderReport(report: StudyReport, format: ReportFormat): string {
  return format === "tex" ? renderLatex(report) : renderMarkdown(report);
}
