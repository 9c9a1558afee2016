import { describe, expect, it } from "vitest";
import { entryPlace, jsonEntryLines, lineAt } from "@/lib/import/json-positions";

describe("jsonEntryLines", () => {
  it("gives the start line of each entry of a pretty-printed list, strings with brackets and escapes aside", () => {
    const text = JSON.stringify([{ a: "x[,]{" }, { b: 'say "hi", [1]' }, 3], null, 2);
    const lines = jsonEntryLines(text);
    expect(lines.map((entry) => entry.line)).toEqual([2, 5, 8]);
    expect(lines[0].children.map((entry) => entry.line)).toEqual([3]);
    expect(entryPlace(lines, [1])).toBe("entry 2 (line 5)");
  });

  it("reads an object's members at their keys, and the entries of their values below them", () => {
    const text = '{"v1": {\n "metadata": {},\n "mc_question": [\n  {"id": 1},\n  {"id": 2}\n ]\n},\n"v2": []}';
    const lines = jsonEntryLines(text);
    expect(lines.map((entry) => entry.line)).toEqual([1, 8]);
    expect(lineAt(lines, [0, 1])).toBe(3);
    expect(lineAt(lines, [0, 1, 1])).toBe(5);
    expect(entryPlace(lines, [0, 1, 0])).toBe("entry 1.2.1 (line 4)");
    expect(entryPlace(lines, [3])).toBe("entry 4");
  });

  it("gives one line for every entry of a one-line file, and nothing for a value without entries", () => {
    expect(jsonEntryLines('{"a": 1, "b": 2, "c": 3}').map((entry) => entry.line)).toEqual([1, 1, 1]);
    expect(jsonEntryLines("[]")).toEqual([]);
    expect(jsonEntryLines('"text"')).toEqual([]);
  });

  it("stops recording below maxDepth", () => {
    expect(jsonEntryLines("[[1, [2]]]", 1)).toEqual([{ line: 1, children: [] }]);
  });
});
