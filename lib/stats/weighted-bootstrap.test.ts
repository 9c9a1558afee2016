import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import { kendallPermutationAlphaBootstrap, kendallPermutationAlphaStratifiedBootstrap } from "@/lib/stats/kendall-permutation-alpha";
import { reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { krippendorffAlphaClusterBootstrap } from "@/lib/stats/krippendorff-alpha-cluster-bootstrap";
import { krippendorffAlphaStratifiedBootstrap } from "@/lib/stats/krippendorff-alpha-stratified-bootstrap";
import { mulberry32, randomInt, type Rng } from "@/lib/stats/rng";
import { forEachWeightedResample, multinomialWeights, stratifiedMultinomialWeights, weightedBootstrapReplicates } from "@/lib/stats/weighted-bootstrap";

/** sha256 of the replicates' Float64 bytes: equal only when every replicate is bit for bit equal */
const fingerprint = (xs: ArrayLike<number>) =>
  createHash("sha256")
    .update(new Uint8Array(Float64Array.from(xs).buffer))
    .digest("hex")
    .slice(0, 16);

const units = reliabilityMatrixToUnits(KRIPPENDORFF_2011);
const levels = ["nominal", "ordinal", "interval", "ratio"] as const;

function permutationUnits(rng: Rng, count: number): Array<Array<number[] | null>> {
  const out: Array<Array<number[] | null>> = [];
  for (let u = 0; u < count; u++) {
    const base = [0, 1, 2, 3];
    const coders: Array<number[] | null> = [];
    for (let c = 0; c < 3; c++) {
      const order = base.slice();
      if (randomInt(rng, 3) > 0) {
        const i = randomInt(rng, 4);
        const j = randomInt(rng, 4);
        [order[i], order[j]] = [order[j], order[i]];
      }
      coders.push(randomInt(rng, 6) === 0 ? null : order);
    }
    out.push(coders);
  }
  return out;
}

// Fingerprints recorded from the four weighted resample loops as they were written out by hand
// (before lib/stats/weighted-bootstrap.ts): the same seed must keep giving the same numbers.
const recorded = {
  units: { nominal: "97d6f1105933b7a7", ordinal: "dcc1d5254317eaa7", interval: "15ae60151f69949b", ratio: "8553e7d43c60fbdc" } as Record<string, string>,
  cluster: { nominal: "b79d5d386262b4a9", ordinal: "18aabbe522d34f3e", interval: "ee3fdf95094255b2", ratio: "455fc650b29525b1" } as Record<string, string>,
  stratified: { nominal: "0a0c6b50a3ce4e49", ordinal: "c9fc4c515dee8f12", interval: "3311fe1341c0a3a5", ratio: "d64a8285c986f98f" } as Record<string, string>,
  kendall: "5e796e9f62af397a",
  kendallStratified: "402d07636c8b8beb",
};

describe("the bootstrap loops give the numbers they gave before sharing one resampler", () => {
  it.each(levels)("krippendorffAlphaBootstrap (units), %s", (level) => {
    const got = krippendorffAlphaBootstrap(units, level, mulberry32(11), { resamples: 400 });
    expect(fingerprint([...got.replicates, got.undefinedResamples, ...(got.ci ?? [])])).toBe(recorded.units[level]);
  });

  it.each(levels)("krippendorffAlphaClusterBootstrap, %s", (level) => {
    const clusterOf = units.map((_, i) => Math.floor(i / 2));
    const got = krippendorffAlphaClusterBootstrap(units, clusterOf, level, mulberry32(12), { resamples: 400 });
    expect(fingerprint([...got.replicates, got.undefinedResamples, ...(got.ci ?? [])])).toBe(recorded.cluster[level]);
  });

  it.each(levels)("krippendorffAlphaStratifiedBootstrap (additive), %s", (level) => {
    const clusterOf = units.map((_, i) => Math.floor(i / 2));
    const got = krippendorffAlphaStratifiedBootstrap(
      units,
      clusterOf,
      (item) => item % 3,
      3,
      [
        [0, 1],
        [0, 1, 2],
      ],
      level,
      mulberry32(13),
      { resamples: 300 },
    );
    const blocks = [...got.strata, ...got.groups];
    expect(fingerprint(blocks.flatMap((b) => [b.estimate ?? NaN, ...(b.ci ?? [NaN, NaN]), b.undefinedResamples, b.clusters]))).toBe(recorded.stratified[level]);
  });

  it("kendallPermutationAlphaBootstrap", () => {
    const got = kendallPermutationAlphaBootstrap(permutationUnits(mulberry32(3), 40), mulberry32(14), { resamples: 300 });
    expect(fingerprint([...got.replicates, got.undefinedResamples, ...(got.ci ?? [])])).toBe(recorded.kendall);
  });

  it("kendallPermutationAlphaStratifiedBootstrap", () => {
    const data = permutationUnits(mulberry32(4), 60);
    const clusterOf = data.map((_, i) => Math.floor(i / 3));
    const got = kendallPermutationAlphaStratifiedBootstrap(data, clusterOf, (item) => item % 4, 4, [[0, 1, 2, 3]], mulberry32(15), { resamples: 200 });
    const blocks = [...got.strata, ...got.groups];
    expect(fingerprint(blocks.flatMap((b) => [b.estimate ?? NaN, ...(b.ci ?? [NaN, NaN]), b.undefinedResamples, b.clusters]))).toBe(recorded.kendallStratified);
  });
});

describe("weight drawers", () => {
  it("multinomialWeights counts n draws of randomInt(rng, n), in that order", () => {
    const weights = new Int32Array(5);
    multinomialWeights(5)(weights, mulberry32(1));
    const expected = new Int32Array(5);
    const rng = mulberry32(1);
    for (let i = 0; i < 5; i++) expected[randomInt(rng, 5)]++;
    expect(weights).toEqual(expected);
    expect(weights.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("stratifiedMultinomialWeights keeps each stratum's total at its size and draws strata in order", () => {
    const members = [[0, 3], [1, 2, 4], []];
    const weights = new Int32Array(5);
    stratifiedMultinomialWeights(members)(weights, mulberry32(3));
    expect(weights[0] + weights[3]).toBe(2);
    expect(weights[1] + weights[2] + weights[4]).toBe(3);
    const rng = mulberry32(3);
    const expected = new Int32Array(5);
    for (const ids of members) for (let i = 0; i < ids.length; i++) expected[ids[randomInt(rng, ids.length)]]++;
    expect(weights).toEqual(expected);
  });

  it("forEachWeightedResample hands fresh weights to every resample", () => {
    const totals: number[] = [];
    forEachWeightedResample(4, multinomialWeights(4), mulberry32(4), 50, (w) => totals.push(w.reduce((a, b) => a + b, 0)));
    expect(totals).toEqual(new Array(50).fill(4));
  });

  it("weightedBootstrapReplicates sorts the defined replicates and counts the undefined ones", () => {
    const values = [1, 2, 3, 4];
    const mean = (w: Int32Array) => (w[0] === 4 ? null : w.reduce((s, x, i) => s + x * values[i], 0) / 4);
    const got = weightedBootstrapReplicates(4, multinomialWeights(4), mean, mulberry32(5), 200);
    expect(got.replicates.length + got.undefinedResamples).toBe(200);
    for (let i = 1; i < got.replicates.length; i++) expect(got.replicates[i]).toBeGreaterThanOrEqual(got.replicates[i - 1]);
  });

  it("multinomialWeights requires a non-negative integer size", () => {
    expect(() => multinomialWeights(-1)).toThrow("multinomialWeights requires a non-negative integer size");
  });
});
