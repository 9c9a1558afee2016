import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import { coincidenceMatrix, type AlphaValue } from "@/lib/stats/alpha-coincidences";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { krippendorffAlpha, krippendorffAlphaFromUnits, reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { alphaFailureProbability, krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { mulberry32, randomInt } from "@/lib/stats/rng";

const units = reliabilityMatrixToUnits(KRIPPENDORFF_2011);
const levels = ["nominal", "ordinal", "interval", "ratio"] as const;

describe("krippendorffAlphaBootstrap, unit resampling", () => {
  it.each(levels)("%s: every replicate equals alpha recomputed from the resampled raw units", (level) => {
    // Independent reference: draw units with the same seeded sequence (randomInt(rng, U), U times
    // per resample, over the pairable units), then run krippendorffAlphaFromUnits on raw data.
    const pairable = units.filter((u) => u.length >= 2);
    const rng = mulberry32(7);
    const expected: number[] = [];
    let undefinedCount = 0;
    for (let r = 0; r < 200; r++) {
      const sample: AlphaValue[][] = [];
      for (let i = 0; i < pairable.length; i++) sample.push(pairable[randomInt(rng, pairable.length)]);
      const a = krippendorffAlphaFromUnits(sample, level).alpha;
      if (a === null) undefinedCount++;
      else expected.push(a);
    }
    expected.sort((a, b) => a - b);
    const got = krippendorffAlphaBootstrap(units, level, mulberry32(7), { resamples: 200 });
    expect(got.method).toBe("unit-bootstrap");
    expect(got.undefinedResamples).toBe(undefinedCount);
    expect(got.replicates.length).toBe(expected.length);
    got.replicates.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 10));
    const [lo, hi] = percentileInterval(expected, 0.95);
    expect(got.ci![0]).toBeCloseTo(lo, 10);
    expect(got.ci![1]).toBeCloseTo(hi, 10);
  });

  it("is reproducible by seed and brackets the estimate on the paper data", () => {
    const a = krippendorffAlphaBootstrap(units, "ordinal", mulberry32(1));
    const b = krippendorffAlphaBootstrap(units, "ordinal", mulberry32(1));
    const c = krippendorffAlphaBootstrap(units, "ordinal", mulberry32(2));
    expect(a.ci).toEqual(b.ci);
    expect(a.ci).not.toEqual(c.ci);
    expect(a.resamples).toBe(1000);
    expect(a.confidence).toBe(0.95);
    expect(a.estimate.alpha).toBeCloseTo(0.815, 3);
    expect(a.ci![0]).toBeLessThan(a.estimate.alpha!);
    expect(a.ci![1]).toBeGreaterThan(a.estimate.alpha!);
    expect(a.description).toMatch(/percentile bootstrap over units/);
  });

  it("works with a custom metric (cached delta) like the interval level", () => {
    const custom = { name: "sq", deltaSquared: (x: AlphaValue, y: AlphaValue) => ((x as number) - (y as number)) ** 2 };
    const a = krippendorffAlphaBootstrap(units, custom, mulberry32(3), { resamples: 300 });
    const b = krippendorffAlphaBootstrap(units, "interval", mulberry32(3), { resamples: 300 });
    a.replicates.forEach((v, i) => expect(v).toBeCloseTo(b.replicates[i], 10));
  });

  it("returns ci null with a reason when alpha is undefined", () => {
    const r = krippendorffAlphaBootstrap(
      [
        [1, 1],
        [1, 1, 1],
      ],
      "nominal",
      mulberry32(1),
    );
    expect(r.ci).toBeNull();
    expect(r.reason).toMatch(/alpha is undefined on the full data/);
  });

  it("counts resamples on which alpha is undefined", () => {
    // Two pairable units, [1,1] and [2,2]: a resample that draws the same unit twice has a
    // single value and undefined alpha; probability 1/2 per resample.
    const r = krippendorffAlphaBootstrap(
      [
        [1, 1],
        [2, 2],
      ],
      "nominal",
      mulberry32(5),
      { resamples: 400 },
    );
    expect(r.undefinedResamples).toBeGreaterThan(140);
    expect(r.undefinedResamples).toBeLessThan(260);
    expect(r.ci).toEqual([1, 1]);
  });

  it("rejects bad options", () => {
    expect(() => krippendorffAlphaBootstrap(units, "nominal", mulberry32(1), { resamples: 0 })).toThrow(
      "krippendorffAlphaBootstrap requires at least 1 resample",
    );
    expect(() => krippendorffAlphaBootstrap(units, "nominal", mulberry32(1), { confidence: 1.5 })).toThrow(/confidence in \(0, 1\)/);
  });
});

/**
 * Independent re-implementation of the KALPHA bootstrap following the Stata port's Mata code
 * (r-stata/tssc ssc/kalpha/kalpha.ado, after Krippendorff 2013): the dense lower triangle in
 * vech order with a linear scan over the cumulative probabilities.
 */
function referenceKalpha(level: "nominal" | "interval", seed: number, reps: number, coders: number): number[] {
  const { values, matrix, marginals, n } = coincidenceMatrix(units, level);
  const V = values.length;
  const d2 = (c: number, k: number) => (c === k ? 0 : level === "nominal" ? 1 : ((values[c] as number) - (values[k] as number)) ** 2);
  let De = 0;
  for (let c = 0; c < V; c++) for (let k = 0; k < V; k++) De += marginals[c] * marginals[k] * d2(c, k);
  De /= n * (n - 1);
  let nonzero = 0;
  for (let c = 0; c < V; c++) for (let k = 0; k < V; k++) if (matrix[c][k] > 0) nonzero++;
  const M = Math.min(25 * nonzero, Math.round((n * (coders - 1)) / 2));
  const cum: number[] = [];
  const f: number[] = [];
  let acc = 0;
  for (let k = 0; k < V; k++)
    for (let c = k; c < V; c++) {
      acc += (c === k ? matrix[c][k] : 2 * matrix[c][k]) / n;
      cum.push(acc);
      f.push(d2(c, k) / (M * De));
    }
  const rng = mulberry32(seed);
  const out: number[] = [];
  for (let r = 0; r < reps; r++) {
    let s = 0;
    for (let i = 0; i < M; i++) {
      const u = rng();
      let j = 0;
      while (j < cum.length - 1 && u > cum[j]) j++;
      s += f[j];
    }
    out.push(Math.max(-1, 1 - s));
  }
  return out.sort((a, b) => a - b);
}

describe("krippendorffAlphaBootstrap, Krippendorff's KALPHA algorithm", () => {
  it.each(["nominal", "interval"] as const)("%s: replicates match a Mata-style reference", (level) => {
    const got = krippendorffAlphaBootstrap(units, level, mulberry32(11), { method: "kalpha", resamples: 300 });
    const expected = referenceKalpha(level, 11, 300, 4);
    expect(got.method).toBe("kalpha-bootstrap");
    // M = min(25 * non-zero cells, round(40 * (4 - 1) / 2)) = min(25 * 17, 60) = 60
    expect(got.draws).toBe(60);
    got.replicates.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 10));
    // KALPHA's order statistics: 1-based sorted[0.025 * 300] and sorted[floor(0.975 * 300 + 1)].
    expect(got.ci).toEqual([expected[7 - 1], expected[293 - 1]]);
  });

  it("is centred on alpha (E[1 - mean delta / D_e] = 1 - D_o / D_e)", () => {
    const got = krippendorffAlphaBootstrap(units, "nominal", mulberry32(3), { method: "kalpha", resamples: 2000 });
    const mean = got.replicates.reduce((a, b) => a + b, 0) / got.replicates.length;
    // sd of one replicate is about sqrt(60 * 0.2 * 0.8) / (60 * 0.779) = 0.066; of the mean 0.0015
    expect(Math.abs(mean - krippendorffAlpha(KRIPPENDORFF_2011, "nominal").alpha!)).toBeLessThan(0.01);
  });

  it("turns all-agreement replicates into 0 when only one diagonal cell is non-zero", () => {
    // Units [1,1] and [1,2]: diagonal o_11 = 2 only; off-diagonal o_12 + o_21 = 2; n = 4.
    // With draws = 1, a replicate draws a (1,1) cell (alpha* = 1 -> corrected to 0) or the
    // (1,2) cell (alpha* = 1 - 1/D_e with D_e = (16 - 9 - 1)/12 = 0.5 -> -1).
    const r = krippendorffAlphaBootstrap(
      [
        [1, 1],
        [1, 2],
      ],
      "nominal",
      mulberry32(9),
      { method: "kalpha", resamples: 100, draws: 1 },
    );
    for (const v of r.replicates) expect([0, -1]).toContain(v);
  });
});

describe("alphaFailureProbability", () => {
  it("is the share of replicates below the minimum (hand count)", () => {
    const sorted = [0.5, 0.6, 0.7, 0.8, 0.8, 0.9];
    expect(alphaFailureProbability(sorted, 0.8)).toBeCloseTo(3 / 6, 12);
    expect(alphaFailureProbability(sorted, 0.95)).toBe(1);
    expect(alphaFailureProbability(sorted, 0.1)).toBe(0);
  });
});
