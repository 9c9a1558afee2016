import { describe, expect, it } from "vitest";
import { normalCdf, pairedDifference } from "@/lib/stats/paired-difference";
import { twoWayClusterVariance, type CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";

const grid = (people: number, items: number, y: (p: number, i: number) => number): CrossedAnswer[] =>
  Array.from({ length: people * items }, (_, k) => ({ person: Math.floor(k / items), item: k % items, num: y(Math.floor(k / items), k % items) }));

describe("pairedDifference", () => {
  it("a model equal to people on every item: D = 0, p = 1", () => {
    const humans = grid(4, 6, (_, i) => (i % 2 === 0 ? 1 : 0));
    const model = Array.from({ length: 6 }, (_, i) => ({ item: i, score: i % 2 === 0 ? 1 : 0 }));
    const d = pairedDifference(humans, model);
    expect(d.difference).toBe(0);
    expect(d.p).toBe(1);
  });

  it("only shared items count, and items hard for both narrow the interval over the unpaired one", () => {
    // item difficulty shared by people and the model, people alike
    const humans = grid(8, 20, (p, i) => (i < 10 !== ((p + i) % 5 === 0) ? 1 : 0));
    const model = Array.from({ length: 20 }, (_, i) => ({ item: i, score: i < 10 ? 1 : 0 })).concat([{ item: 99, score: 1 }]);
    const d = pairedDifference(humans, model);
    expect(d.items).toBe(20);
    expect(d.humans).toBeCloseTo(0.5, 12);
    expect(d.difference).toBeCloseTo(0, 12);
    expect(d.model).toBeCloseTo(0.5, 12);
    const humanSe = Math.sqrt(twoWayClusterVariance(humans).variance!);
    expect(d.se!).toBeLessThan(humanSe);
  });

  it("several samples per item enter through their item mean", () => {
    const humans = grid(3, 2, () => 1);
    const d = pairedDifference(humans, [
      { item: 0, score: 1 },
      { item: 0, score: 0 },
      { item: 1, score: 0 },
    ]);
    expect(d.model).toBeCloseTo(0.25, 12);
    expect(d.difference).toBeCloseTo(0.75, 12);
  });

  it("names no shared items and one item", () => {
    expect(
      pairedDifference(
        grid(2, 2, () => 1),
        [{ item: 5, score: 1 }],
      ).reason,
    ).toBe("no shared items");
    expect(
      pairedDifference(
        grid(2, 2, () => 1),
        [{ item: 0, score: 1 }],
      ).reason,
    ).toBe("one item");
  });

  it("a ratio of sums: D weighs each answer by its denominator", () => {
    // people: item 1 (den 3) 2/3 and 1/3 right, item 2 (den 1) 1 and 0; the model 1/3 on item 1, 1 on item 2
    const humans: CrossedAnswer[] = [
      { item: 1, person: "a", num: 2, den: 3 },
      { item: 2, person: "a", num: 1, den: 1 },
      { item: 1, person: "b", num: 1, den: 3 },
      { item: 2, person: "b", num: 0, den: 1 },
    ];
    const d = pairedDifference(humans, [
      { item: 1, score: 1 / 3 },
      { item: 2, score: 1 },
    ]);
    expect(d.humans).toBeCloseTo(4 / 8, 12);
    // the model weighted as people's answers: (1/3 * 3 * 2 + 1 * 1 * 2) / 8
    expect(d.model).toBeCloseTo(4 / 8, 12);
    expect(d.difference).toBeCloseTo(0, 12);
  });

  it("p < 0.05 exactly when the 95% interval leaves out 0 (t with min(people, items) - 1 df)", () => {
    for (let shift = 0; shift < 12; shift++) {
      const humans = grid(6, 10, (p, i) => ((p * 3 + i * 7) % 10 < 5 + (shift % 5) ? 1 : 0));
      const model = Array.from({ length: 10 }, (_, i) => ({ item: i, score: (i + shift) % 3 === 0 ? 1 : 0 }));
      const d = pairedDifference(humans, model);
      expect(d.df).toBe(5);
      const excludes = d.ci![0] > 0 || d.ci![1] < 0;
      expect(d.p! < 0.05).toBe(excludes);
    }
    // with a z given, the normal reference: p = 2 (1 - Phi(|D| / se))
    const humans = grid(6, 10, (p, i) => ((p + i) % 3 === 0 ? 1 : 0));
    const z = pairedDifference(
      humans,
      Array.from({ length: 10 }, (_, i) => ({ item: i, score: 1 })),
      "people+items",
      1.96,
    );
    expect(z.p).toBeCloseTo(2 * (1 - normalCdf(Math.abs(z.difference) / z.se!)), 12);
  });

  it("normalCdf", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 6);
  });
});
