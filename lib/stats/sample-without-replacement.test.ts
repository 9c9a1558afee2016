import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/stats/rng";
import { sampleWithoutReplacement, shuffle } from "@/lib/stats/sample-without-replacement";

describe("shuffle", () => {
  it("returns a permutation of a copy, reproducible by seed", () => {
    const input = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const a = shuffle(input, mulberry32(5));
    expect([...a].sort((x, y) => x - y)).toEqual(input);
    expect(input).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(shuffle(input, mulberry32(5))).toEqual(a);
    expect(shuffle(input, mulberry32(6))).not.toEqual(a);
  });

  it("is uniform over the 6 orders of 3 values (chi-square well under the 1% critical value)", () => {
    const rng = mulberry32(11);
    const counts = new Map<string, number>();
    const draws = 60_000;
    for (let i = 0; i < draws; i++) {
      const key = shuffle(["a", "b", "c"], rng).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    const expected = draws / 6;
    let chi2 = 0;
    for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected;
    expect(chi2).toBeLessThan(15.09); // qchisq(0.99, 5) in R
  });
});

describe("sampleWithoutReplacement", () => {
  it("draws k distinct values, all of them when k >= n", () => {
    const values = ["a", "b", "c", "d", "e"];
    const s = sampleWithoutReplacement(values, 3, mulberry32(1));
    expect(s).toHaveLength(3);
    expect(new Set(s).size).toBe(3);
    for (const v of s) expect(values).toContain(v);
    expect([...sampleWithoutReplacement(values, 9, mulberry32(1))].sort()).toEqual(values);
    expect(sampleWithoutReplacement(values, 0, mulberry32(1))).toEqual([]);
  });

  it("gives every value the same inclusion probability k/n", () => {
    const rng = mulberry32(3);
    const hits = new Array<number>(10).fill(0);
    const draws = 20_000;
    for (let i = 0; i < draws; i++) for (const v of sampleWithoutReplacement([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 3, rng)) hits[v]++;
    for (const h of hits) expect(h / draws).toBeCloseTo(0.3, 1);
  });

  it("throws on a bad k", () => {
    expect(() => sampleWithoutReplacement([1], -1, mulberry32(1))).toThrow("sampleWithoutReplacement requires k to be a non-negative integer");
    expect(() => sampleWithoutReplacement([1], 1.5, mulberry32(1))).toThrow();
  });
});
