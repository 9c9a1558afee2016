import { describe, expect, it } from "vitest";
import {
  flagFarFaster,
  interquartileRange,
  mean,
  median,
  medianAbsoluteDeviation,
  quantile,
  quantileSorted,
  type QuantileMethod,
} from "@/lib/stats/descriptive";

const oneToTen = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

describe("mean and median", () => {
  it("hand values", () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(mean([0.1, 0.2, 0.3])).toBeCloseTo(0.2, 15);
    expect(median([3, 1, 4, 1])).toBe(2);
    expect(median([5, 3, 1])).toBe(3);
  });

  it("reject empty input", () => {
    expect(() => mean([])).toThrow("mean requires at least 1 data point");
    expect(() => median([])).toThrow("median requires at least 1 data point");
    expect(() => mean([1, NaN])).toThrow(/finite numbers/);
  });
});

describe("quantile", () => {
  // Hand calculation from Hyndman & Fan 1996 for x = 1..10, p = 0.25 (n p = 2.5):
  // type 1: j = 2, g > 0 -> x3 = 3; type 2: same -> 3; type 3: np - 1/2 = 2, g = 0, j even -> x2 = 2;
  // type 4: 2.5; type 5: 3; type 6: 0.25 * 11 = 2.75; type 7: 1 + 0.25 * 9 = 3.25;
  // type 8: 1/3 + 0.25 * (11 - 2/3) = 2.916667; type 9: 3/8 + 0.25 * 10.25 = 2.9375.
  // (R: quantile(1:10, 0.25, type = k) gives the same.)
  it.each([
    ["type-1", 3],
    ["type-2", 3],
    ["type-3", 2],
    ["type-4", 2.5],
    ["type-5", 3],
    ["type-6", 2.75],
    ["type-7", 3.25],
    ["type-8", 2.9166666666666665],
    ["type-9", 2.9375],
  ] as [QuantileMethod, number][])("%s", (method, expected) => {
    expect(quantile(oneToTen, 0.25, method)).toBeCloseTo(expected, 12);
  });

  it("type 2 averages at an exact order statistic (n p = 5 -> (x5 + x6)/2 = 5.5)", () => {
    expect(quantile(oneToTen, 0.5, "type-2")).toBe(5.5);
  });

  it("applies R's fuzz: type 1 at p = 0.3 with n = 10 is x3, although 10 * 0.3 = 3.0000000000000004", () => {
    expect(quantile(oneToTen, 0.3, "type-1")).toBe(3);
  });

  it("returns the extremes at p = 0 and 1", () => {
    expect(quantile([4, 2, 9], 0, "type-7")).toBe(2);
    expect(quantile([4, 2, 9], 1, "type-6")).toBe(9);
    expect(quantileSorted([2, 4, 9], 0, "type-1")).toBe(2);
  });

  it("rejects p outside [0, 1]", () => {
    expect(() => quantile([1], 1.5)).toThrow(/p in \[0, 1\]/);
  });
});

describe("IQR and MAD", () => {
  it("hand values", () => {
    expect(interquartileRange(oneToTen)).toBeCloseTo(7.75 - 3.25, 12); // type 7: Q3 = 1 + .75*9
    // median 3; |x - 3| = 2, 1, 0, 1, 97 -> median 1
    expect(medianAbsoluteDeviation([1, 2, 3, 4, 100])).toBe(1);
    expect(medianAbsoluteDeviation([1, 2, 3, 4, 100], 1.4826)).toBeCloseTo(1.4826, 12);
  });
});

describe("flagFarFaster", () => {
  it("flags a response far faster than the rest on the log scale (hand: modified z-scores)", () => {
    const d = [30, 32, 35, 31, 29, 33, 2];
    // log scale: median = log 31; |log x - log 31| sorted: 0, log(32/31), log(31/30), log(33/31),
    // log(31/29), log(35/31), log(31/2) -> MAD = log(33/31).
    const mad = Math.log(33 / 31);
    const z2 = (0.6745 * (Math.log(2) - Math.log(31))) / mad; // about -29.6
    const z29 = (0.6745 * (Math.log(29) - Math.log(31))) / mad; // about -0.72
    const r = flagFarFaster(d);
    expect(r.flags).toEqual([false, false, false, false, false, false, true]);
    expect(r.scores[6]).toBeCloseTo(z2, 10);
    expect(r.scores[4]).toBeCloseTo(z29, 10);
    expect(r.spreadMethod).toBe("mad");
  });

  it("falls back to the mean absolute deviation when MAD is 0 (hand)", () => {
    // median 10, MAD 0; MeanAD = 9/5 = 1.8; score of 1 = (1 - 10)/(1.253314 * 1.8) = -3.98939
    const r = flagFarFaster([10, 10, 10, 10, 1], { logScale: false });
    expect(r.spreadMethod).toBe("meanad");
    expect(r.scores[4]).toBeCloseTo(-9 / (1.253314 * 1.8), 10);
    expect(r.flags).toEqual([false, false, false, false, true]);
  });

  it("flags nothing when every value is equal", () => {
    const r = flagFarFaster([5, 5, 5]);
    expect(r.flags).toEqual([false, false, false]);
    expect(r.spreadMethod).toBe("none");
  });

  it("rejects non-positive durations on the log scale", () => {
    expect(() => flagFarFaster([1, 0])).toThrow(/positive durations on the log scale/);
  });
});
