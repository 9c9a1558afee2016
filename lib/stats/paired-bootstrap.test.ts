import { describe, expect, it } from "vitest";
import { pairedBootstrapDifference } from "@/lib/stats/paired-bootstrap";
import { mulberry32 } from "@/lib/stats/rng";

describe("pairedBootstrapDifference", () => {
  it("gives the mean difference over pairs with both values, and drops the others", () => {
    const result = pairedBootstrapDifference(
      [
        [1, 0],
        [1, 1],
        [0, 0],
        [null, 1],
        [1, Number.NaN],
      ],
      mulberry32(1),
    );
    expect(result).toMatchObject({ n: 3, meanA: 2 / 3, meanB: 1 / 3, difference: 1 / 3 });
    expect(result.ci![0]).toBeLessThanOrEqual(1 / 3);
    expect(result.ci![1]).toBeGreaterThanOrEqual(1 / 3);
  });

  it("a constant difference has a degenerate interval; p is 0 away from zero and 1 at zero", () => {
    const shifted = pairedBootstrapDifference(Array.from({ length: 20 }, (_, i) => [i / 20 + 0.25, i / 20] as const), mulberry32(2), { resamples: 200 });
    expect(shifted.ci![0]).toBeCloseTo(0.25, 12);
    expect(shifted.ci![1]).toBeCloseTo(0.25, 12);
    expect(shifted.pValue).toBe(0);
    const same = pairedBootstrapDifference(Array.from({ length: 20 }, (_, i) => [i, i] as const), mulberry32(2), { resamples: 200 });
    expect(same).toMatchObject({ difference: 0, ci: [0, 0], pValue: 1 });
  });

  it("is seeded: the same rng seed gives the same interval; pairing matters", () => {
    const pairs = Array.from({ length: 30 }, (_, i) => [(i * 7) % 10 / 10, ((i * 7) % 10) / 10 - ((i % 3) - 1) * 0.05] as const);
    const a = pairedBootstrapDifference(pairs, mulberry32(9));
    const b = pairedBootstrapDifference(pairs, mulberry32(9));
    expect(a.ci).toEqual(b.ci);
    // the per-pair differences are small (|d| <= 0.05) although the values spread 0..0.9:
    // a paired interval is far narrower than the spread of either system
    expect(a.ci![1] - a.ci![0]).toBeLessThan(0.05);
  });

  it("returns nulls without pairs", () => {
    expect(pairedBootstrapDifference([], mulberry32(1))).toMatchObject({ n: 0, difference: null, ci: null, pValue: null });
  });
});
