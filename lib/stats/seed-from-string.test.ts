import { describe, expect, it } from "vitest";
import { seedFromString } from "@/lib/stats/seed-from-string";

describe("seedFromString", () => {
  it("matches the published FNV-1a 32-bit test vectors", () => {
    // Vectors from the FNV reference (Landon Curt Noll, "FNV test vectors", fnv1a32 column)
    expect(seedFromString("")).toBe(0x811c9dc5);
    expect(seedFromString("a")).toBe(0xe40c292c);
    expect(seedFromString("foobar")).toBe(0xbf9cf968);
  });

  it("is stable and separates near texts", () => {
    expect(seedFromString("study|TA|steps=3")).toBe(seedFromString("study|TA|steps=3"));
    expect(seedFromString("study|TA|steps=3")).not.toBe(seedFromString("study|TA|steps=4"));
  });

  it("throws on non-strings", () => {
    expect(() => seedFromString(3 as unknown as string)).toThrow("seedFromString requires a string");
  });
});
