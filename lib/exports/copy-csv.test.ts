import { describe, expect, it } from "vitest";
import { copyRowWriter, type CopyColumn } from "@/lib/exports/copy-csv";

/**
 * copyRowWriter keeps each column's last raw text and its CSV field: a column is written again
 * only when its text changed. These rows change a column to a text of the same length, to a
 * prefix and to an extension of the last, so that a comparison that looked only at lengths, or
 * at a prefix, would repeat the last field.
 */
describe("copyRowWriter", () => {
  const columns: CopyColumn[] = [
    { type: "text" },
    { type: "integer" },
    { type: "json", fields: ["a"] },
    { type: "json", fields: [], own: false },
    { type: "boolean" },
  ];

  it("writes each row's own fields, however the texts repeat", () => {
    const write = copyRowWriter(columns);
    const lines = [
      'ab\t1\t{"a": 1}\t{}\tt',
      'ac\t1\t{"a": 1}\t{}\tt',
      'a\t12\t{"a": 2}\t{}\tf',
      'ab\t12\t{"a": 2}\t{}\tf',
      "ab\t\\N\t\\N\t{}\t\\N",
      "=1\t-3\t[1]\t{}\tt",
    ];
    expect(lines.map(write)).toEqual([
      'ab,1,1,"{""a"":1}",true\r\n',
      'ac,1,1,"{""a"":1}",true\r\n',
      'a,12,2,"{""a"":2}",false\r\n',
      'ab,12,2,"{""a"":2}",false\r\n',
      "ab,,,,\r\n",
      '"\'=1",-3,,[1],true\r\n',
    ]);
  });

  it("refuses a row with too few or too many fields, naming both counts", () => {
    const write = copyRowWriter(columns);
    expect(() => write("ab\t1\t{}\t{}")).toThrow("COPY row with 4 fields where 5 were expected");
    expect(() => write("ab\t1\t{}\t{}\tt\tx")).toThrow("COPY row with 6 fields where 5 were expected");
  });

  it("leaves out a json column that writes no field, with its comma, wherever it stands", () => {
    const write = copyRowWriter([{ type: "json", fields: [], own: false }, { type: "text" }, { type: "text" }]);
    expect(write("{}\tx\ty")).toBe("x,y\r\n");
    expect(write("{}\tx\tz")).toBe("x,z\r\n");
  });
});
