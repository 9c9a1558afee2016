import { describe, expect, it } from "vitest";
import { parseRange } from "@/lib/assets/range";

describe("parseRange (RFC 9110 section 14)", () => {
  const size = 1000;
  it("reads first bytes, a middle span, an open end and a suffix", () => {
    expect(parseRange("bytes=0-99", size)).toEqual({ kind: "range", start: 0, end: 99 });
    expect(parseRange("bytes=400-599", size)).toEqual({ kind: "range", start: 400, end: 599 });
    expect(parseRange("bytes=900-", size)).toEqual({ kind: "range", start: 900, end: 999 });
    expect(parseRange("bytes=-100", size)).toEqual({ kind: "range", start: 900, end: 999 });
    expect(parseRange(" bytes = 5 - 9 ", size)).toEqual({ kind: "range", start: 5, end: 9 });
  });

  it("clips an end past the last byte and a suffix longer than the body", () => {
    expect(parseRange("bytes=990-5000", size)).toEqual({ kind: "range", start: 990, end: 999 });
    expect(parseRange("bytes=-5000", size)).toEqual({ kind: "range", start: 0, end: 999 });
  });

  it("answers only the first range of a multi-range request", () => {
    expect(parseRange("bytes=0-9, 20-29", size)).toEqual({ kind: "range", start: 0, end: 9 });
  });

  it("is unsatisfiable when the range starts past the end, or asks for the last 0 bytes", () => {
    expect(parseRange("bytes=1000-", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=5000-6000", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", size)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores what does not parse (the whole body): other units, reversed, garbage, overlong", () => {
    for (const header of [
      null,
      "items=0-9",
      "bytes=9-0",
      "bytes=abc",
      "bytes=-",
      "bytes",
      "bytes=1-2-3",
      `bytes=0-${"9".repeat(2000)}`,
      "bytes=99999999999999999999-",
    ]) {
      expect(parseRange(header, size), String(header)).toEqual({ kind: "whole" });
    }
  });
});
