import { describe, expect, it } from "vitest";
import { clusteredWilsonInterval, wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { wilsonInterval } from "@/lib/stats/wilson-interval";

const items = (specs: Array<[number, number]>) => specs.map(([successes, trials]) => ({ successes, trials }));

describe("clusteredWilsonInterval", () => {
  it("25 of 50 answers from 10 items x 5 agreeing people is not Wilson(25, 50) = [0.366, 0.634]: n_eff = 10, [0.2366, 0.7634] (hand)", () => {
    // p = 0.5; residuals y_i - p m_i = +-2.5; variance = 10 * 6.25 / 50^2 = 0.025;
    // n_eff = 0.25 / 0.025 = 10 (deff = 5, the number of people); Wilson at n = 10: centre 0.5,
    // half = 1.96 / 1.38416 * sqrt(0.025 + 3.8416/400) = 0.263410.
    const w = clusteredWilsonInterval(items([...Array(5).fill([5, 5]), ...Array(5).fill([0, 5])]));
    expect(w.estimate).toBe(0.5);
    expect(w.effectiveN).toBeCloseTo(10, 10);
    expect(w.deff).toBeCloseTo(5, 10);
    expect(w.ci![0]).toBeCloseTo(0.2365896, 6);
    expect(w.ci![1]).toBeCloseTo(0.7634104, 6);
    const naive = wilsonInterval(25, 50);
    expect(naive.lower).toBeCloseTo(0.366, 3);
    expect(w.ci![1] - w.ci![0]).toBeGreaterThan(1.9 * (naive.upper - naive.lower));
  });

  it("one answer per item is the ordinary Wilson interval (deff floored at 1)", () => {
    const w = clusteredWilsonInterval(items([...Array(7).fill([1, 1]), ...Array(3).fill([0, 1])]));
    const plain = wilsonInterval(7, 10);
    expect(w.effectiveN).toBeCloseTo(10, 10);
    expect(w.ci![0]).toBeCloseTo(plain.lower, 12);
    expect(w.ci![1]).toBeCloseTo(plain.upper, 12);
  });

  it("people who disagree within items in the same way everywhere: no between-item spread, n_eff = n", () => {
    const w = clusteredWilsonInterval(
      items([
        [1, 2],
        [1, 2],
        [1, 2],
      ]),
    );
    expect(w.effectiveN).toBe(6);
    const plain = wilsonInterval(3, 6);
    expect(w.ci![0]).toBeCloseTo(plain.lower, 12);
  });

  it("everyone right on every item: n_eff = items, Wilson(10, 10), not Wilson(50, 50)", () => {
    const w = clusteredWilsonInterval(items(Array(10).fill([5, 5])));
    expect(w.effectiveN).toBe(10);
    expect(w.ci![1]).toBe(1);
    expect(w.ci![0]).toBeCloseTo(wilsonInterval(10, 10).lower, 12);
    expect(w.ci![0]).toBeLessThan(wilsonInterval(50, 50).lower);
  });

  it("one item, however many answers: no interval, reason 'one item'", () => {
    const w = clusteredWilsonInterval(items([[3, 7]]));
    expect(w).toMatchObject({ estimate: 3 / 7, ci: null, reason: "one item", n: 7, clusters: 1 });
    // empty clusters do not count as items
    expect(
      clusteredWilsonInterval(
        items([
          [3, 7],
          [0, 0],
        ]),
      ).ci,
    ).toBeNull();
  });

  it("rejects bad counts and no answers, naming the cluster", () => {
    expect(() =>
      clusteredWilsonInterval(
        items([
          [1, 1],
          [3, 2],
        ]),
      ),
    ).toThrow(/cluster 1: 3 of 2/);
    expect(() => clusteredWilsonInterval([])).toThrow(/at least 1 answer/);
  });

  it("wilsonBounds at an integer n equals wilsonInterval", () => {
    const [lo, hi] = wilsonBounds(0.3, 20);
    expect(lo).toBeCloseTo(wilsonInterval(6, 20).lower, 12);
    expect(hi).toBeCloseTo(wilsonInterval(6, 20).upper, 12);
  });
});
