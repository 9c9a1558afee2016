import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import type { AlphaValue } from "@/lib/stats/alpha-coincidences";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { kendallPermutationAlpha, kendallPermutationAlphaStratifiedBootstrap } from "@/lib/stats/kendall-permutation-alpha";
import { krippendorffAlphaFromUnits, reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaClusterBootstrap } from "@/lib/stats/krippendorff-alpha-cluster-bootstrap";
import { alphaClusterTotals, krippendorffAlphaStratifiedBootstrap } from "@/lib/stats/krippendorff-alpha-stratified-bootstrap";
import { mulberry32, randomInt } from "@/lib/stats/rng";
import { shuffle } from "@/lib/stats/sample-without-replacement";

const levels = ["nominal", "ordinal", "interval", "ratio"] as const;
const paper = reliabilityMatrixToUnits(KRIPPENDORFF_2011);

/** Items of 3 slot units each, rated 1..5 by three coders who mostly agree. */
function slotItems(seed: number, count: number) {
  const rng = mulberry32(seed);
  const units: AlphaValue[][] = [];
  const clusterOf: number[] = [];
  for (let i = 0; i < count; i++) {
    for (let s = 0; s < 3; s++) {
      const t = 1 + randomInt(rng, 5);
      units.push([t, rng() < 0.8 ? t : 1 + randomInt(rng, 5), rng() < 0.7 ? t : 1 + randomInt(rng, 5)]);
      clusterOf.push(i);
    }
  }
  return { units, clusterOf };
}

describe("alphaClusterTotals", () => {
  it.each(levels)("%s: the statistic on all totals is krippendorffAlpha (Krippendorff 2011 data)", (level) => {
    const { data, statistic } = alphaClusterTotals(
      paper,
      paper.map((_, i) => Math.floor(i / 3)),
      level,
    );
    const sum = new Float64Array(data.dims);
    const touched = new Int32Array(data.dims);
    let count = 0;
    for (let j = 0; j < data.index.length; j++) {
      if (sum[data.index[j]] === 0) touched[count++] = data.index[j];
      sum[data.index[j]] += data.value[j];
    }
    expect(statistic(sum, touched, count)).toBeCloseTo(krippendorffAlphaFromUnits(paper, level).alpha!, 12);
  });
});

describe("krippendorffAlphaStratifiedBootstrap", () => {
  it.each(levels)("%s: one stratum equals the cluster bootstrap draw for draw", (level) => {
    const { units, clusterOf } = slotItems(2, 30);
    const stratified = krippendorffAlphaStratifiedBootstrap(units, clusterOf, () => 0, 1, [[0]], level, mulberry32(8), { resamples: 300 });
    const cluster = krippendorffAlphaClusterBootstrap(units, clusterOf, level, mulberry32(8), { resamples: 300 });
    expect(stratified.strata[0].estimate).toBeCloseTo(cluster.estimate.alpha!, 12);
    expect(stratified.strata[0].ci![0]).toBeCloseTo(cluster.ci![0], 10);
    expect(stratified.strata[0].ci![1]).toBeCloseTo(cluster.ci![1], 10);
    expect(stratified.groups[0].ci![0]).toBeCloseTo(cluster.ci![0], 10);
  });

  it("gives each stratum and the pooled group alpha on raw resampled units (independent reference)", () => {
    const { units, clusterOf } = slotItems(4, 24);
    const stratumOf = (item: number) => (item < 10 ? 0 : 1);
    const got = krippendorffAlphaStratifiedBootstrap(units, clusterOf, stratumOf, 2, [[0, 1]], "ordinal", mulberry32(5), { resamples: 200 });
    const rng = mulberry32(5);
    const itemsOf = [Array.from({ length: 10 }, (_, i) => i), Array.from({ length: 14 }, (_, i) => 10 + i)];
    const reps: number[][] = [[], [], []];
    for (let r = 0; r < 200; r++) {
      const all: AlphaValue[][] = [];
      itemsOf.forEach((ids, s) => {
        const sample: AlphaValue[][] = [];
        for (let i = 0; i < ids.length; i++) {
          const item = ids[randomInt(rng, ids.length)];
          sample.push(...units.filter((_, u) => clusterOf[u] === item));
        }
        reps[s].push(krippendorffAlphaFromUnits(sample, "ordinal").alpha!);
        all.push(...sample);
      });
      reps[2].push(krippendorffAlphaFromUnits(all, "ordinal").alpha!);
    }
    const [s0, s1, all] = reps.map((r) =>
      percentileInterval(
        r.sort((a, b) => a - b),
        0.95,
      ),
    );
    expect(got.strata[0].ci![0]).toBeCloseTo(s0[0], 10);
    expect(got.strata[1].ci![1]).toBeCloseTo(s1[1], 10);
    expect(got.groups[0].ci![0]).toBeCloseTo(all[0], 10);
    expect(got.groups[0].ci![1]).toBeCloseTo(all[1], 10);
    expect(got.groups[0].estimate).toBeCloseTo(krippendorffAlphaFromUnits(units, "ordinal").alpha!, 12);
  });
});

describe("kendallPermutationAlphaStratifiedBootstrap", () => {
  it("matches kendallPermutationAlpha on the observed data and on raw resampled units", () => {
    const rng0 = mulberry32(12);
    const units: number[][][] = [];
    const lengths: number[] = [];
    for (let i = 0; i < 40; i++) {
      const L = 3 + (i % 4);
      const truth = shuffle(
        Array.from({ length: L }, (_, k) => k),
        rng0,
      );
      units.push([truth, rng0() < 0.6 ? truth : shuffle(truth, rng0), rng0() < 0.5 ? truth : shuffle(truth, rng0)]);
      lengths.push(L);
    }
    const clusterOf = units.map((_, i) => i);
    const stratumOf = (i: number) => lengths[i] - 3;
    const got = kendallPermutationAlphaStratifiedBootstrap(units, clusterOf, stratumOf, 4, [[0, 1, 2, 3]], mulberry32(6), { resamples: 150 });
    expect(got.groups[0].estimate).toBeCloseTo(kendallPermutationAlpha(units).alpha!, 12);
    expect(got.strata[2].estimate).toBeCloseTo(kendallPermutationAlpha(units.filter((_, i) => lengths[i] === 5)).alpha!, 12);
    const rng = mulberry32(6);
    const members = [0, 1, 2, 3].map((s) => clusterOf.filter((i) => stratumOf(i) === s));
    const pooled: number[] = [];
    for (let r = 0; r < 150; r++) {
      const all: number[][][] = [];
      for (const ids of members) for (let k = 0; k < ids.length; k++) all.push(units[ids[randomInt(rng, ids.length)]]);
      pooled.push(kendallPermutationAlpha(all).alpha!);
    }
    const [lo, hi] = percentileInterval(
      pooled.sort((a, b) => a - b),
      0.95,
    );
    expect(got.groups[0].ci![0]).toBeCloseTo(lo, 10);
    expect(got.groups[0].ci![1]).toBeCloseTo(hi, 10);
  });
});
