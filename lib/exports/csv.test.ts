import { describe, expect, it } from "vitest";
import { csvField, csvRow, parseCsv } from "@/lib/exports/csv";

describe("csvField", () => {
  it("quotes only what RFC 4180 needs and doubles quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(" padded")).toBe('" padded"');
    expect(csvField("-1")).toBe("-1");
  });

  it("defuses spreadsheet formulas (OWASP CSV injection): a text starting with = + - @ tab or CR gets a leading quote and is quoted", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+cmd")).toBe('"\'+cmd"');
    expect(csvField("-2+3+cmd|' /C calc'!A0")).toBe("\"'-2+3+cmd|' /C calc'!A0\"");
    expect(csvField("@SUM(A1:A2)")).toBe('"\'@SUM(A1:A2)"');
    expect(csvField("\t=1+1")).toBe('"\'\t=1+1"');
    expect(csvField("\r=1+1")).toBe('"\'\r=1+1"');
    expect(csvField({ a: "=1" })).toBe('"{""a"":""=1""}"');
    // plain numbers are data, not formulas: kept as they are
    expect(csvField("-1")).toBe("-1");
    expect(csvField("+2.5e3")).toBe("+2.5e3");
    expect(csvField(-3)).toBe("-3");
  });

  it("writes numbers, booleans, dates, JSON and empties", () => {
    expect(csvField(0.25)).toBe("0.25");
    expect(csvField(Number.NaN)).toBe("");
    expect(csvField(true)).toBe("true");
    expect(csvField(12n)).toBe("12");
    expect(csvField(new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(csvField({ order: [2, 0, 1] })).toBe('"{""order"":[2,0,1]}"');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });
});

describe("csvRow and parseCsv", () => {
  it("round-trip awkward values", () => {
    const values = ["id,1", 'q"uote', "multi\r\nline", "", "x", '{"a":[1,2]}'];
    const text = csvRow(["h1", "h2", "h3", "h4", "h5", "h6"]) + csvRow(values);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual([["h1", "h2", "h3", "h4", "h5", "h6"], values]);
  });
});
