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

  it("a constant difference has no interval (no spread); p is never 0 but reported below 1/B, and 1 at zero", () => {
    const shifted = pairedBootstrapDifference(
      Array.from({ length: 20 }, (_, i) => [i / 20 + 0.25, i / 20] as const),
      mulberry32(2),
      { resamples: 200 },
    );
    expect(shifted.difference).toBeCloseTo(0.25, 12);
    expect(shifted).toMatchObject({ ci: null, reason: "no spread: every item the same", pValue: 1 / 200, pBelow: true });
    const same = pairedBootstrapDifference(
      Array.from({ length: 20 }, (_, i) => [i, i] as const),
      mulberry32(2),
      { resamples: 200 },
    );
    expect(same).toMatchObject({ difference: 0, ci: null, pValue: 1, pBelow: false });
  });

  it("resamples clusters (episodes) when given: the task units of one episode move together", () => {
    // 6 episodes of 4 task units each; within an episode the units agree. Resampling units would
    // treat 24 units as independent and give a narrower interval than the 6 episodes support.
    const pairs: Array<readonly [number, number]> = [];
    const episodes: string[] = [];
    for (let e = 0; e < 6; e++)
      for (let t = 0; t < 4; t++) {
        pairs.push([e % 2 === 0 ? 1 : 0, e % 3 === 0 ? 1 : 0]);
        episodes.push(`ep${e}`);
      }
    const byEpisode = pairedBootstrapDifference(pairs, mulberry32(3), { resamples: 2000, clusters: episodes });
    const byUnit = pairedBootstrapDifference(pairs, mulberry32(3), { resamples: 2000 });
    expect(byEpisode).toMatchObject({ n: 24, clusters: 6, method: "paired bootstrap over episodes (percentile interval)" });
    expect(byUnit.clusters).toBe(24);
    expect(byEpisode.difference).toBeCloseTo(byUnit.difference!, 12);
    expect(byEpisode.ci![1] - byEpisode.ci![0]).toBeGreaterThan(1.6 * (byUnit.ci![1] - byUnit.ci![0]));
    // one episode, however many units: no interval and no p
    const one = pairedBootstrapDifference(pairs.slice(0, 4), mulberry32(3), { clusters: episodes.slice(0, 4) });
    expect(one).toMatchObject({ n: 4, clusters: 1, ci: null, reason: "one item", pValue: null });
    expect(() => pairedBootstrapDifference(pairs, mulberry32(3), { clusters: episodes.slice(1) })).toThrow(/one cluster per pair/);
  });

  it("is seeded: the same rng seed gives the same interval; pairing matters", () => {
    const pairs = Array.from({ length: 30 }, (_, i) => [((i * 7) % 10) / 10, ((i * 7) % 10) / 10 - ((i % 3) - 1) * 0.05] as const);
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
