import { describe, expect, it } from "vitest";
import { crossedIndexes, expandByWeights, pigeonholeBootstrap } from "@/lib/stats/pigeonhole-bootstrap";
import { twoWayClusterVariance } from "@/lib/stats/two-way-cluster-variance";
import { mulberry32 } from "@/lib/stats/rng";

const rows = (people: number, items: number, y: (p: number, i: number) => number) =>
  Array.from({ length: people * items }, (_, k) => ({ person: Math.floor(k / items), item: k % items, y: y(Math.floor(k / items), k % items) }));

const weightedMean = (ys: number[]) => (w: Float64Array) => {
  let s = 0;
  let n = 0;
  for (let i = 0; i < ys.length; i++) {
    s += w[i] * ys[i];
    n += w[i];
  }
  return n === 0 ? null : s / n;
};

describe("pigeonholeBootstrap", () => {
  it("its standard error of a mean is close to the two-way variance's when people dominate", () => {
    const data = rows(12, 30, (p, i) => ((p * 7 + i) % 12 < p ? 1 : 0));
    const input = crossedIndexes(
      data,
      (r) => r.item,
      (r) => r.person,
    );
    const ys = data.map((r) => r.y);
    const result = pigeonholeBootstrap(input, weightedMean(ys), mulberry32(7), { resamples: 2000 });
    const v = twoWayClusterVariance(data.map((r) => ({ item: r.item, person: r.person, num: r.y })));
    const bootWidth = result.ci![1] - result.ci![0];
    const normalWidth = 2 * 1.96 * Math.sqrt(v.variance!);
    expect(bootWidth / normalWidth).toBeGreaterThan(0.8);
    expect(bootWidth / normalWidth).toBeLessThan(1.4);
  });

  it("over items only is narrower when people differ and items do not", () => {
    const data = rows(6, 20, (p) => (p < 3 ? 1 : 0));
    const input = crossedIndexes(
      data,
      (r) => r.item,
      (r) => r.person,
    );
    const stat = weightedMean(data.map((r) => r.y));
    const both = pigeonholeBootstrap(input, stat, mulberry32(1));
    const items = pigeonholeBootstrap(input, stat, mulberry32(1), { over: "items" });
    expect(both.ci).not.toBeNull();
    // every item has the same mean: resampling items alone changes nothing
    expect(items.reason).toBe("no spread");
  });

  it("names one item, one person, no answers, and counts undefined resamples", () => {
    expect(
      pigeonholeBootstrap(
        crossedIndexes(
          rows(3, 1, (p) => p),
          (r) => r.item,
          (r) => r.person,
        ),
        () => 1,
        mulberry32(1),
      ).reason,
    ).toBe("one item");
    expect(
      pigeonholeBootstrap(
        crossedIndexes(
          rows(1, 3, (_, i) => i),
          (r) => r.item,
          (r) => r.person,
        ),
        () => 1,
        mulberry32(1),
      ).reason,
    ).toBe("one person");
    expect(
      pigeonholeBootstrap(
        crossedIndexes(
          [],
          () => 0,
          () => 0,
        ),
        () => 1,
        mulberry32(1),
      ).reason,
    ).toBe("no answers");
    const data = rows(4, 4, (p, i) => p + i);
    let calls = 0;
    const r = pigeonholeBootstrap(
      crossedIndexes(
        data,
        (d) => d.item,
        (d) => d.person,
      ),
      (w) => (calls++ % 2 === 1 ? null : w[0]),
      mulberry32(3),
      { resamples: 100 },
    );
    expect(r.undefinedResamples).toBe(50);
  });

  it("is reproducible for a seed, and expandByWeights repeats answers", () => {
    const data = rows(5, 8, (p, i) => (p + i) % 2);
    const input = crossedIndexes(
      data,
      (r) => r.item,
      (r) => r.person,
    );
    const stat = weightedMean(data.map((r) => r.y));
    expect(pigeonholeBootstrap(input, stat, mulberry32(9)).ci).toEqual(pigeonholeBootstrap(input, stat, mulberry32(9)).ci);
    expect(expandByWeights(["a", "b", "c"], [0, 2, 1])).toEqual(["b", "b", "c"]);
  });
});
