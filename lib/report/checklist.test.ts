import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKLIST, CHECKLIST_SECTIONS } from "@/lib/report/checklist";

/** The checklist's entries as the file lists them: "## <n>. <section>" headings and "- <number> <name> [note]" lines. */
function parseChecklistFile(text: string) {
  const sections: Array<{ number: string; name: string }> = [];
  const entries: Array<{ number: string; section: string; name: string }> = [];
  for (const line of text.split("\n")) {
    const heading = /^## (\d+)\. (.+)$/.exec(line);
    if (heading) {
      sections.push({ number: heading[1], name: heading[2].trim() });
      continue;
    }
    const entry = /^- (\d+(?:\.\d+)*) (.+?)(?: \[.+\])?$/.exec(line);
    if (entry && sections.length > 0) entries.push({ number: entry[1], section: sections[sections.length - 1].number, name: entry[2].trim() });
  }
  return { sections, entries };
}

describe("the reporting checklist (lib/report/checklist.ts)", () => {
  const file = readFileSync(path.join(import.meta.dirname, "__fixtures__", "human-baselines-checklist.md"), "utf8");
  const parsed = parseChecklistFile(file);

  it("has the file's 72 entries, in its order, with its numbering, names and sections", () => {
    expect(parsed.entries).toHaveLength(72);
    expect(CHECKLIST).toHaveLength(72);
    expect(CHECKLIST.map((e) => ({ ...e }))).toEqual(parsed.entries);
  });

  it("has the file's six sections", () => {
    expect(CHECKLIST_SECTIONS.map((s) => ({ ...s }))).toEqual(parsed.sections);
    expect(CHECKLIST_SECTIONS.map((s) => s.number)).toEqual(["0", "1", "2", "3", "4", "5"]);
  });

  it("numbers every entry once, each under its own section", () => {
    expect(new Set(CHECKLIST.map((e) => e.number)).size).toBe(72);
    for (const entry of CHECKLIST) expect(entry.number.split(".")[0]).toBe(entry.section);
  });
});
