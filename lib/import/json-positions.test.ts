import { describe, expect, it } from "vitest";
import { entryPlace, jsonEntryLines } from "@/lib/import/json-positions";

describe("jsonEntryLines", () => {
  it("gives the start line of each entry of a pretty-printed list, strings with brackets and escapes aside", () => {
    const value = [{ a: "x[,]{" }, { b: 'say "hi", [1]' }, 3];
    const text = JSON.stringify(value, null, 2);
    const lines = jsonEntryLines(text);
    expect(lines.map((entry) => entry.line)).toEqual([2, 5, 8]);
    expect(lines[0].children).toEqual([3]);
    expect(entryPlace(lines, 1)).toBe("entry 2 (line 5)");
  });

  it("reads an object's members at their keys, and their lists' entries as children", () => {
    const text = '{"v1": [\n {"id": 1},\n {"id": 2}\n],\n"v2": []}';
    const lines = jsonEntryLines(text);
    expect(lines).toEqual([
      { line: 1, children: [2, 3] },
      { line: 5, children: [] },
    ]);
    expect(entryPlace(lines, 0, 1)).toBe("entry 1.2 (line 3)");
  });

  it("gives one line for every entry of a one-line file", () => {
    expect(jsonEntryLines('{"a": 1, "b": 2, "c": 3}').map((entry) => entry.line)).toEqual([1, 1, 1]);
    expect(jsonEntryLines("[]")).toEqual([]);
    expect(jsonEntryLines('"text"')).toEqual([]);
  });
});
