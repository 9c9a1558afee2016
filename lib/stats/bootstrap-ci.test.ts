import { describe, expect, it } from "vitest";
import { bootstrapCi, percentileInterval } from "@/lib/stats/bootstrap-ci";
import { mulberry32, randomInt } from "@/lib/stats/rng";

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("percentileInterval", () => {
  it("uses type-7 percentiles (hand: 1..10 at 0.05 -> 1 + 0.05*9 = 1.45, at 0.95 -> 1 + 0.95*9 = 9.55)", () => {
    const [lo, hi] = percentileInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9);
    expect(lo).toBeCloseTo(1.45, 12);
    expect(hi).toBeCloseTo(9.55, 12);
  });

  it("rejects empty input and bad confidence", () => {
    expect(() => percentileInterval([], 0.95)).toThrow("percentileInterval requires at least 1 data point");
    expect(() => percentileInterval([1], 1)).toThrow(/confidence in \(0, 1\)/);
  });
});

describe("bootstrapCi", () => {
  it("follows the documented draw order (reference resampling with the same seed)", () => {
    const data = [3, 1, 4, 1, 5, 9, 2, 6];
    const rng = mulberry32(17);
    const reps: number[] = [];
    for (let r = 0; r < 500; r++) reps.push(mean(Array.from(data, () => data[randomInt(rng, data.length)])));
    reps.sort((a, b) => a - b);
    const got = bootstrapCi(data, mean, mulberry32(17), { resamples: 500 });
    expect(got.estimate).toBeCloseTo(31 / 8, 12);
    expect(got.ci).toEqual(percentileInterval(reps, 0.95));
    expect(got.method).toMatch(/percentile bootstrap/);
  });

  it("gives a degenerate interval for constant data", () => {
    expect(bootstrapCi([2, 2, 2], mean, mulberry32(1)).ci).toEqual([2, 2]);
  });

  it("covers the whole range for a two-point sample (exact: mean of 2 draws is 0, 0.5, 1 w.p. 1/4, 1/2, 1/4)", () => {
    // P(fewer than 25 of 1000 resamples give 0) is about 1e-80, so the 2.5% point is 0.
    const r = bootstrapCi([0, 1], mean, mulberry32(3));
    expect(r.ci).toEqual([0, 1]);
  });

  it("counts undefined replicates and reports when all are undefined", () => {
    const r = bootstrapCi([1, 2], () => null, mulberry32(1), { resamples: 10 });
    expect(r.ci).toBeNull();
    expect(r.undefinedResamples).toBe(10);
    expect(r.reason).toMatch(/undefined on every resample/);
  });

  it("rejects empty data", () => {
    expect(() => bootstrapCi([], mean, mulberry32(1))).toThrow("bootstrapCi requires at least 1 data point");
  });
});
