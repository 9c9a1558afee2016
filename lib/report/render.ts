import { CHECKLIST_SECTIONS, type ChecklistChoice } from "@/lib/report/checklist";
import type { StudyReport } from "@/lib/report/facts";

/**
 * The report as text for a paper's appendix (pure, browser-safe): Markdown, one table per
 * checklist section with the entries' own numbering and names, or LaTeX, one longtable per
 * section (the preamble needs \usepackage[T1]{fontenc} and \usepackage{longtable}), every
 * character of the values escaped.
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
  "≠": "$\\neq$",
  "×": "$\\times$",
  "√": "$\\surd$",
  "“": "``",
  "”": "''",
  "\n": " ",
  "\r": "",
  "\t": " ",
};

/** Greek letters (kappa, alpha, ... in the dashboard's words) as math: pdflatex has no text glyphs for them. */
const GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi o pi rho varsigma sigma tau upsilon phi chi psi omega".split(" ");
const GREEK_UPPER: Record<string, string> = {
  Γ: "Gamma",
  Δ: "Delta",
  Θ: "Theta",
  Λ: "Lambda",
  Ξ: "Xi",
  Π: "Pi",
  Σ: "Sigma",
  Υ: "Upsilon",
  Φ: "Phi",
  Ψ: "Psi",
  Ω: "Omega",
};

/**
 * Characters beyond ASCII that pdflatex prints with \usepackage[T1]{fontenc} and no other package
 * (its UTF-8 input declares them): Latin-1, Latin Extended-A but for the few it does not declare,
 * typographic quotes, the bullet, arrows, the euro and trade mark signs. Compiled and checked with
 * TeX Live 2022's pdflatex (docs/report.md).
 */
function printable(code: number): boolean {
  if (code >= 0x20 && code < 0x7f) return true;
  if (code >= 0xa0 && code <= 0xff) return true;
  if (code >= 0x100 && code <= 0x17f) return ![0x126, 0x127, 0x138, 0x13f, 0x140, 0x149, 0x166, 0x167, 0x17f].includes(code);
  return [0x2018, 0x2019, 0x201a, 0x201e, 0x2022, 0x00b7, 0x2190, 0x2192, 0x20ac, 0x2122].includes(code);
}

function latexChar(ch: string): string {
  const special = LATEX_SPECIAL[ch];
  if (special !== undefined) return special;
  const code = ch.codePointAt(0)!;
  if (printable(code)) return ch;
  if (code >= 0x3b1 && code <= 0x3c9) return GREEK[code - 0x3b1] === "o" ? "o" : `$\\${GREEK[code - 0x3b1]}$`;
  if (GREEK_UPPER[ch]) return `$\\${GREEK_UPPER[ch]}$`;
  // control characters carry nothing to print; anything else (other scripts, emoji) is named, as pdflatex would stop at it
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return "";
  return `[U+${code.toString(16).toUpperCase().padStart(4, "0")}]`;
}

/** Text as LaTeX that prints it as it is (no character of it is a command, none stops pdflatex). */
export function latexEscape(text: string): string {
  let out = "";
  for (const ch of text) out += latexChar(ch);
  return out;
}

export function renderLatex(report: StudyReport): string {
  const lines = [
    "% Human baseline report (Yardstick); needs \\usepackage[T1]{fontenc} and \\usepackage{longtable} (docs/report.md)",
    `\\section*{Human baseline report: ${latexEscape(report.study.title)}}`,
    `Study \\texttt{${latexEscape(report.study.slug)}}, generated ${latexEscape(report.generatedAt)} by Yardstick ${latexEscape(report.yardstick.version)}. Entries and numbering: the reporting checklist of Wei et al., ICML 2025 (arXiv 2506.13776).`,
  ];
  for (const { section, entries } of sectionsOf(report)) {
    lines.push(
      "",
      `\\subsection*{${latexEscape(`${section.number}. ${section.name}`)}}`,
      // each column's padding taken from its width, so that the four fill the line and no more
      `\\begin{longtable}{${[0.08, 0.24, 0.46, 0.22].map((w) => `p{\\dimexpr ${w}\\linewidth-2\\tabcolsep\\relax}`).join("")}}`,
      "\\# & Entry & Value & Source \\tabularnewline \\hline",
      "\\endhead",
    );
    // ragged right: narrow columns justified stretch their spaces or stick out; \tabularnewline
    // ends the row, as \raggedright makes \\ a line break of the cell
    for (const entry of entries)
      lines.push(
        `${[entry.number, entry.name, shownValue(entry), entry.source].map((cell) => `\\raggedright ${latexEscape(cell)}`).join(" & ")} \\tabularnewline`,
      );
    lines.push("\\end{longtable}");
  }
  return lines.join("\n") + "\n";
}

export function renderReport(report: StudyReport, format: ReportFormat): string {
  return format === "tex" ? renderLatex(report) : renderMarkdown(report);
}
