import { describe, expect, it } from "vitest";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { mulberry32, randomInt } from "@/lib/stats/rng";
import { additiveStratifiedBootstrap, stratifiedClusterBootstrap, type AdditiveClusters } from "@/lib/stats/stratified-bootstrap";

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

// clusters (items) with their answers' values, in two strata
const clusters = [[1, 0, 1], [0], [1, 1], [0, 0], [1], [0, 1], [1, 1, 1], [0]];
const strata = [0, 0, 0, 1, 1, 1, 1, 0];

/** Independent reference: the documented draw order, statistics on raw resampled lists. */
function reference(resamples: number, seed: number) {
  const rng = mulberry32(seed);
  const members = [0, 1].map((s) => strata.map((x, c) => (x === s ? c : -1)).filter((c) => c >= 0));
  const reps: number[][] = [[], [], []];
  for (let r = 0; r < resamples; r++) {
    const all: number[] = [];
    members.forEach((ids, s) => {
      const sample: number[] = [];
      for (let i = 0; i < ids.length; i++) sample.push(...clusters[ids[randomInt(rng, ids.length)]]);
      reps[s].push(mean(sample)!);
      all.push(...sample);
    });
    reps[2].push(mean(all)!);
  }
  return reps.map((r) =>
    percentileInterval(
      r.sort((a, b) => a - b),
      0.95,
    ),
  );
}

describe("stratifiedClusterBootstrap", () => {
  it("resamples clusters within strata; groups pool their strata's draws", () => {
    const got = stratifiedClusterBootstrap(clusters, strata, 2, [[0, 1]], mean, mulberry32(3), { resamples: 400 });
    const [s0, s1, all] = reference(400, 3);
    expect(got.strata[0].ci![0]).toBeCloseTo(s0[0], 12);
    expect(got.strata[0].ci![1]).toBeCloseTo(s0[1], 12);
    expect(got.strata[1].ci).toEqual(s1.map((x) => expect.closeTo(x, 12)));
    expect(got.groups[0].ci![0]).toBeCloseTo(all[0], 12);
    expect(got.groups[0].ci![1]).toBeCloseTo(all[1], 12);
    expect(got.strata[0].estimate).toBeCloseTo(mean([1, 0, 1, 0, 1, 1, 0])!, 12);
    expect(got.groups[0].clusters).toBe(8);
  });

  it("reports undefined statistics with a reason", () => {
    const got = stratifiedClusterBootstrap([[1], [2]], [0, 0], 2, [[1]], () => null, mulberry32(1), { resamples: 10 });
    expect(got.strata[0].ci).toBeNull();
    expect(got.strata[0].reason).toMatch(/undefined on the observed data/);
    expect(got.groups[0].estimate).toBeNull();
  });

  it("checks its inputs", () => {
    expect(() => stratifiedClusterBootstrap([[1]], [], 1, [], mean, mulberry32(1))).toThrow("stratifiedClusterBootstrap requires one stratum id per cluster");
    expect(() => stratifiedClusterBootstrap([[1]], [3], 1, [], mean, mulberry32(1))).toThrow(/stratum ids from 0 to 0/);
  });
});

describe("additiveStratifiedBootstrap", () => {
  it("gives the same intervals as the list version for an additive statistic (sum / count)", () => {
    // each cluster -> [count, sum]
    const index: number[] = [];
    const value: number[] = [];
    const start = [0];
    for (const c of clusters) {
      index.push(0, 1);
      value.push(
        c.length,
        c.reduce((a, b) => a + b, 0),
      );
      start.push(index.length);
    }
    const data: AdditiveClusters = { dims: 2, start: Int32Array.from(start), index: Int32Array.from(index), value: Float64Array.from(value) };
    const got = additiveStratifiedBootstrap(data, strata, 2, [[0, 1], [1]], (sum) => (sum[0] > 0 ? sum[1] / sum[0] : null), mulberry32(3), { resamples: 400 });
    const list = stratifiedClusterBootstrap(clusters, strata, 2, [[0, 1], [1]], mean, mulberry32(3), { resamples: 400 });
    for (const [a, b] of [
      [got.strata[0], list.strata[0]],
      [got.strata[1], list.strata[1]],
      [got.groups[0], list.groups[0]],
      [got.groups[1], list.groups[1]],
    ]) {
      expect(a.estimate).toBeCloseTo(b.estimate!, 12);
      expect(a.ci![0]).toBeCloseTo(b.ci![0], 12);
      expect(a.ci![1]).toBeCloseTo(b.ci![1], 12);
    }
  });
});
