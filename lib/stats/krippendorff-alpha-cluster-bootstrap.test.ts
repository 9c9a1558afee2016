import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import type { AlphaValue } from "@/lib/stats/alpha-coincidences";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { krippendorffAlphaFromUnits, reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { krippendorffAlphaClusterBootstrap } from "@/lib/stats/krippendorff-alpha-cluster-bootstrap";
import { mulberry32, randomInt } from "@/lib/stats/rng";

const units = reliabilityMatrixToUnits(KRIPPENDORFF_2011);
const levels = ["nominal", "ordinal", "interval", "ratio"] as const;

describe("krippendorffAlphaClusterBootstrap", () => {
  it.each(levels)("%s: one unit per cluster reproduces the unit bootstrap draw for draw", (level) => {
    const clusterOf = units.map((_, i) => i);
    const a = krippendorffAlphaClusterBootstrap(units, clusterOf, level, mulberry32(9), { resamples: 300 });
    const b = krippendorffAlphaBootstrap(units, level, mulberry32(9), { resamples: 300 });
    expect(a.estimate.alpha).toBeCloseTo(b.estimate.alpha!, 12);
    expect(a.replicates.length).toBe(b.replicates.length);
    a.replicates.forEach((v, i) => expect(v).toBeCloseTo(b.replicates[i], 10));
    expect(a.ci).toEqual(b.ci);
  });

  it.each(levels)("%s: every replicate equals alpha on the raw units of the resampled clusters", (level) => {
    // Independent reference: items of 3 units each, drawn with the same seeded sequence, alpha
    // recomputed from the raw resampled units by krippendorffAlphaFromUnits.
    const items: AlphaValue[][][] = [];
    const rng0 = mulberry32(21);
    for (let i = 0; i < 25; i++) {
      const truth = [1 + randomInt(rng0, 5), 1 + randomInt(rng0, 5), 1 + randomInt(rng0, 5)];
      items.push(truth.map((t) => [t, rng0() < 0.8 ? t : 1 + randomInt(rng0, 5), rng0() < 0.7 ? t : 1 + randomInt(rng0, 5)]));
    }
    items.push([[2], [3], [4]]); // no pairable unit: not part of the resampled population
    const flat = items.flat();
    const clusterOf = items.flatMap((item, i) => item.map(() => i));
    const pairableItems = items.filter((item) => item.some((u) => u.length >= 2));
    const rng = mulberry32(4);
    const expected: number[] = [];
    for (let r = 0; r < 150; r++) {
      const sample: AlphaValue[][] = [];
      for (let i = 0; i < pairableItems.length; i++) sample.push(...pairableItems[randomInt(rng, pairableItems.length)]);
      const alpha = krippendorffAlphaFromUnits(sample, level).alpha;
      if (alpha !== null) expected.push(alpha);
    }
    expected.sort((x, y) => x - y);
    const got = krippendorffAlphaClusterBootstrap(flat, clusterOf, level, mulberry32(4), { resamples: 150 });
    expect(got.clusters).toBe(25);
    expect(got.estimate.alpha).toBeCloseTo(krippendorffAlphaFromUnits(flat, level).alpha!, 12);
    expect(got.replicates.length).toBe(expected.length);
    got.replicates.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 10));
    const [lo, hi] = percentileInterval(expected, 0.95);
    expect(got.ci![0]).toBeCloseTo(lo, 10);
    expect(got.ci![1]).toBeCloseTo(hi, 10);
    expect(got.description).toMatch(/150 resamples of 25 clusters/);
  });

  it("is reproducible by seed", () => {
    const clusterOf = units.map((_, i) => Math.floor(i / 2));
    const a = krippendorffAlphaClusterBootstrap(units, clusterOf, "ordinal", mulberry32(1));
    const b = krippendorffAlphaClusterBootstrap(units, clusterOf, "ordinal", mulberry32(1));
    expect(a.ci).toEqual(b.ci);
    expect(a.resamples).toBe(1000);
  });

  it("returns ci null with the reason when alpha is undefined, never 0 or 1", () => {
    const r = krippendorffAlphaClusterBootstrap(
      [
        [1, 1],
        [1, 1],
      ],
      [0, 1],
      "nominal",
      mulberry32(1),
    );
    expect(r.estimate.alpha).toBeNull();
    expect(r.ci).toBeNull();
    expect(r.reason).toMatch(/expected disagreement is 0/);
  });

  it("throws when cluster ids do not match the units", () => {
    expect(() => krippendorffAlphaClusterBootstrap([[1, 2]], [], "nominal", mulberry32(1))).toThrow(
      "krippendorffAlphaClusterBootstrap requires one cluster id per unit",
    );
  });
});
