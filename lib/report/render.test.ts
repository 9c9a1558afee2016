import { describe, expect, it } from "vitest";
import { CHECKLIST, CHECKLIST_SECTIONS } from "@/lib/report/checklist";
import type { StudyReport } from "@/lib/report/facts";
import { latexEscape, markdownCell, renderLatex, renderMarkdown, shownValue } from "@/lib/report/render";

const title = "R&D 100% of _items_ #1 for $5 {ok} ~ ^ \\ | <x>";

function reportWith(value: (number: string) => string): StudyReport {
  return {
    study: { slug: "pilot-1", title },
    generatedAt: "2026-12-02T08:00:00.000Z",
    yardstick: { version: "0.1.0", commit: null },
    entries: CHECKLIST.map((entry) => ({ ...entry, value: value(entry.number), source: `source of ${entry.number}`, reported: true })),
    comparison: null,
    methodLine: null,
  };
}

/** The text with every escape sequence of latexEscape removed: what is left must hold no special character. */
function withoutEscapes(tex: string): string {
  return tex
    .replace(/\\text(backslash|asciitilde|asciicircum|less|greater|bar)\{\}/gu, "")
    .replace(/\\[&%$#_{}]/gu, "")
    .replace(/\$\\(pm|geq|leq|times)\$|\$-\$/gu, "")
    .replace(/\\ldots\{\}/gu, "");
}

describe("latexEscape", () => {
  it("escapes & % _ # $ and the other special characters of a title so that LaTeX prints them", () => {
    const escaped = latexEscape(title);
    expect(escaped).toBe(
      "R\\&D 100\\% of \\_items\\_ \\#1 for \\$5 \\{ok\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\textbar{} \\textless{}x\\textgreater{}",
    );
    expect(withoutEscapes(escaped)).not.toMatch(/[\\&%$#_{}~^|<>]/u);
  });

  it("writes the method line's signs as LaTeX and keeps a line to one line", () => {
    expect(latexEscape("± t, min(people, items) − 1 df; 2–3 … ≥ 5\nnext")).toBe("$\\pm$ t, min(people, items) $-$ 1 df; 2--3 \\ldots{} $\\geq$ 5 next");
  });
});

/** The cells of a report row of the LaTeX: `\raggedright <cell> & ... \tabularnewline`. */
function latexCells(row: string): string[] {
  return row
    .replace(/ \\tabularnewline$/u, "")
    .split(" & ")
    .map((cell) => cell.replace(/^\\raggedright /u, ""));
}

/** The environments of a LaTeX text in order; a stack that must end empty, every \end closing the last \begin. */
function unbalancedEnvironments(tex: string): string[] {
  const open: string[] = [];
  const problems: string[] = [];
  for (const [, kind, name] of tex.matchAll(/\\(begin|end)\{([^}]*)\}/gu)) {
    if (kind === "begin") open.push(name);
    else if (open.pop() !== name) problems.push(`\\end{${name}}`);
  }
  return [...problems, ...open.map((name) => `\\begin{${name}} not ended`)];
}

/** Braces of a LaTeX text once the escaped ones (\{ \}) are left out: each group closed, none closed twice. */
function bracesBalance(tex: string): boolean {
  let depth = 0;
  for (const ch of tex.replace(/\\[{}]/gu, "")) {
    if (ch === "{") depth++;
    if (ch === "}" && --depth < 0) return false;
  }
  return depth === 0;
}

describe("latexEscape, one character at a time", () => {
  it.each([
    ["_", "\\_"],
    ["%", "\\%"],
    ["&", "\\&"],
    ["#", "\\#"],
    ["$", "\\$"],
    ["{", "\\{"],
    ["}", "\\}"],
    ["~", "\\textasciitilde{}"],
    ["^", "\\textasciicircum{}"],
    ["\\", "\\textbackslash{}"],
    ["<", "\\textless{}"],
    [">", "\\textgreater{}"],
    ["|", "\\textbar{}"],
  ])("escapes %s", (ch, tex) => {
    expect(latexEscape(`a${ch}b`)).toBe(`a${tex}b`);
    expect(latexEscape(`${ch}${ch}`)).toBe(`${tex}${tex}`);
  });

  it("keeps the letters pdflatex prints (Latin-1, Latin Extended-A) and writes the signs and Greek letters it has no text glyph for as math", () => {
    expect(latexEscape("Müller, Zoë, naïve café, Łódź, O'Brien")).toBe("Müller, Zoë, naïve café, Łódź, O'Brien");
    expect(latexEscape("κ = 0.8, α ≠ 1, √2, Δ")).toBe("$\\kappa$ = 0.8, $\\alpha$ $\\neq$ 1, $\\surd$2, $\\Delta$");
  });

  it("names what pdflatex would stop at (other scripts, emoji) and drops control characters", () => {
    expect(latexEscape("日本 😀 ħ")).toBe("[U+65E5][U+672C] [U+1F600] [U+0127]");
    expect(latexEscape("a\tb\r\nc\u0007d")).toBe("a b cd");
  });
});

describe("renderLatex", () => {
  it("has one longtable per section and one row per entry, every value and the title escaped", () => {
    const tex = renderLatex(reportWith((n) => `value & 50% for ${n} _x_ #`));
    expect(tex.match(/\\begin\{longtable\}/gu)).toHaveLength(CHECKLIST_SECTIONS.length);
    expect(tex).toContain("\\section*{Human baseline report: R\\&D 100\\% of \\_items\\_ \\#1 for \\$5");
    const rows = tex.split("\n").filter((line) => line.startsWith("\\raggedright "));
    expect(rows).toHaveLength(72);
    expect(rows.map((row) => latexCells(row)[0])).toEqual(CHECKLIST.map((entry) => entry.number));
    expect(latexCells(rows.find((row) => row.startsWith("\\raggedright 2.7.2.1 "))!)).toEqual([
      "2.7.2.1",
      "Baseliner Testing Performance Bonus Amount",
      "value \\& 50\\% for 2.7.2.1 \\_x\\_ \\#",
      "source of 2.7.2.1",
    ]);
    for (const row of rows) {
      const cells = latexCells(row);
      expect(cells, row).toHaveLength(4);
      for (const cell of cells) expect(withoutEscapes(cell)).not.toMatch(/[\\&%$#_{}]/u);
    }
  });

  it("stays well-formed whatever the study's words: environments balanced, braces balanced, one row per entry", () => {
    const tricky = "R&D_team 100% #1 $5 {a} } { ~ ^ \\ \\end{longtable} \\begin{document} κ 日 😀\nline two";
    const report = reportWith((n) => (n === "0.1" ? tricky : `value of ${n}`));
    report.study.title = tricky;
    report.study.slug = "study_1";
    report.yardstick.commit = "abc_1";
    const tex = renderLatex(report);
    expect(unbalancedEnvironments(tex)).toEqual([]);
    expect([...tex.matchAll(/\\begin\{(\w+)\}/gu)].map((m) => m[1])).toEqual(CHECKLIST_SECTIONS.map(() => "longtable"));
    expect(bracesBalance(tex)).toBe(true);
    const rows = tex.split("\n").filter((line) => line.startsWith("\\raggedright "));
    expect(rows).toHaveLength(72);
    for (const row of rows) expect(row).toMatch(/ \\tabularnewline$/u);
    // no character outside what pdflatex prints with T1 and longtable alone
    expect(tex).not.toMatch(/[^\x20-\x7e\n\u00a0-\u017f]/u);
  });
});

describe("renderMarkdown", () => {
  it("has a table per section with the entries' own numbering and names", () => {
    const md = renderMarkdown(reportWith((n) => `value of ${n}`));
    for (const section of CHECKLIST_SECTIONS)
      expect(md).toContain(`\n## ${section.number}. ${section.name}\n\n| # | Entry | Value | Source |\n|---|---|---|---|\n`);
    const rows = md.split("\n").filter((line) => /^\| \d/u.test(line));
    expect(rows).toHaveLength(72);
    expect(rows.map((row) => row.split(" | ")[0].slice(2))).toEqual(CHECKLIST.map((entry) => entry.number));
    expect(md).toContain("| 3.3.1 | GUI vs. API | value of 3.3.1 | source of 3.3.1 |");
  });

  it("escapes a value's pipes and keeps it on its row", () => {
    const md = renderMarkdown(reportWith((n) => (n === "0.1" ? "a | b\nc" : "x")));
    expect(md).toContain("| 0.1 | Paper Title | a \\| b c | source of 0.1 |");
    expect(md.split("\n")[0]).toBe("# Human baseline report: R&D 100% of \\_items\\_ #1 for $5 {ok} ~ ^ \\\\ \\| \\<x>");
    expect(markdownCell("a *b* `c` <i>")).toBe("a \\*b\\* \\`c\\` \\<i>");
  });
});

describe("shownValue", () => {
  it("puts the checklist's choice before the words, once", () => {
    expect(shownValue({ choice: "Yes", value: "IRB 2026-14" })).toBe("Yes: IRB 2026-14");
    expect(shownValue({ choice: "Yes", value: "Yes" })).toBe("Yes");
    expect(shownValue({ choice: "Partial", value: "Partial: agents through the API" })).toBe("Partial: agents through the API");
    expect(shownValue({ choice: "Unknown-Unreported", value: "not reported: no demographics collected" })).toBe("not reported: no demographics collected");
    expect(shownValue({ value: "12 items" })).toBe("12 items");
  });
});
