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

describe("renderLatex", () => {
  it("has one longtable per section and one row per entry, every value and the title escaped", () => {
    const tex = renderLatex(reportWith((n) => `value & 50% for ${n} _x_ #`));
    expect(tex.match(/\\begin\{longtable\}/gu)).toHaveLength(CHECKLIST_SECTIONS.length);
    expect(tex).toContain("\\section*{Human baseline report: R\\&D 100\\% of \\_items\\_ \\#1 for \\$5");
    expect(tex).toContain("2.7.2.1 & Baseliner Testing Performance Bonus Amount & value \\& 50\\% for 2.7.2.1 \\_x\\_ \\# & source of 2.7.2.1 \\\\");
    const rows = tex.split("\n").filter((line) => / & .* \\\\$/u.test(line) && !line.startsWith("\\#"));
    expect(rows).toHaveLength(72);
    for (const row of rows) expect(withoutEscapes(row.replace(/ & /gu, " ").replace(/ \\\\$/u, ""))).not.toMatch(/[\\&%$#_{}]/u);
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
