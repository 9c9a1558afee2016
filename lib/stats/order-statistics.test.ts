import { describe, expect, it } from "vitest";
import { orderStatistics } from "@/lib/stats/order-statistics";
import { mulberry32, randomInt } from "@/lib/stats/rng";

/** what a full sort holds at each position: the reference */
const bySort = (values: number[], positions: number[]) => {
  const sorted = Float64Array.from(values).sort();
  return new Map(positions.map((k) => [k, sorted[k]]));
};

describe("orderStatistics", () => {
  it("gives the sorted array's values at the positions asked, on data of every shape", () => {
    const rng = mulberry32(20261128);
    for (let t = 0; t < 300; t++) {
      const n = 1 + randomInt(rng, t < 100 ? 200 : 5000);
      const shape = t % 5;
      const values = Array.from({ length: n }, (_, i) =>
        shape === 0 ? rng() * 1e6 : shape === 1 ? randomInt(rng, 7) : shape === 2 ? i : shape === 3 ? n - i : Math.round(rng() * 100) / 4 - 10,
      );
      const positions = Array.from({ length: 1 + randomInt(rng, 6) }, () => randomInt(rng, n));
      expect(orderStatistics(values, positions)).toEqual(bySort(values, positions));
    }
  });

  it("orders NaN and -0 as Float64Array's sort does", () => {
    const values = [3, NaN, -0, 0, 2, ...Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 0 : i % 3 === 1 ? -0 : i))];
    const positions = [0, 1, 2, 40, 100, 104];
    const got = orderStatistics(values, positions);
    for (const [k, v] of bySort(values, positions)) expect(Object.is(got.get(k), v)).toBe(true);
  });

  it("holds on a sawtooth that defeats median-of-three pivots (falls back to a sort)", () => {
    const n = 20000;
    const values = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i : n - i));
    const positions = [0, n >> 2, n >> 1, (3 * n) >> 2, n - 1];
    expect(orderStatistics(values, positions)).toEqual(bySort(values, positions));
  });

  it("rejects a position outside the data", () => {
    expect(() => orderStatistics([1, 2, 3], [3])).toThrow(/position 3 is outside 0..2/);
    expect(() => orderStatistics([1, 2, 3], [0.5])).toThrow(/outside/);
  });
});
