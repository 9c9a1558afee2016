import { describe, expect, it } from "vitest";
import { twoWayClusterVariance, twoWayMeanInterval, twoWayProportionInterval, type CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";
import { clusteredWilsonInterval } from "@/lib/stats/clustered-wilson-interval";

const grid = (people: number, items: number, y: (p: number, i: number) => number): CrossedAnswer[] =>
  Array.from({ length: people * items }, (_, k) => ({ person: Math.floor(k / items), item: k % items, num: y(Math.floor(k / items), k % items) }));

describe("twoWayClusterVariance", () => {
  it("2 people x 2 items, one always right, one never: by hand", () => {
    const v = twoWayClusterVariance(grid(2, 2, (p) => (p === 0 ? 1 : 0)));
    expect(v.estimate).toBe(0.5);
    expect(v.vItems).toBeCloseTo(0, 12);
    // people: sums +1 and -1, 2/(2-1) * 2 / 16
    expect(v.vPeople).toBeCloseTo(0.25, 12);
    // cells: four residuals of 0.5, 4/3 * 1 / 16
    expect(v.vCells).toBeCloseTo(1 / 12, 12);
    // V_items + V_people - V_cells = 1/6 < V_people: floored
    expect(v.variance).toBeCloseTo(0.25, 12);
    expect(twoWayClusterVariance(grid(2, 2, (p) => (p === 0 ? 1 : 0)), "items").variance).toBeCloseTo(0, 12);
  });

  it("a ratio of sums linearises around R", () => {
    const answers: CrossedAnswer[] = [
      { item: 1, person: "a", num: 2, den: 3 },
      { item: 2, person: "a", num: 1, den: 1 },
      { item: 1, person: "b", num: 0, den: 3 },
      { item: 2, person: "b", num: 1, den: 1 },
    ];
    const v = twoWayClusterVariance(answers, "items");
    const R = 4 / 8;
    const item1 = 2 - R * 3 + (0 - R * 3);
    const item2 = 1 - R + (1 - R);
    expect(v.estimate).toBe(R);
    expect(v.variance).toBeCloseTo((2 * (item1 ** 2 + item2 ** 2)) / 64, 12);
  });

  it("names one item and one person instead of a variance", () => {
    expect(twoWayClusterVariance(grid(3, 1, (p) => p % 2)).reason).toBe("one item");
    expect(twoWayClusterVariance(grid(1, 3, (_, i) => i % 2)).reason).toBe("one person");
    expect(twoWayClusterVariance(grid(1, 3, (_, i) => i % 2), "items").variance).not.toBeNull();
    expect(twoWayClusterVariance([]).reason).toBe("no answers");
    expect(() => twoWayClusterVariance([{ item: 1, person: 1, num: NaN }])).toThrow(/answer 0/);
  });

  it("people who differ far more than items widen the interval over the items-only form", () => {
    // 5 people x 24 items, people's accuracies 1.00 .. 0.04, items alike
    const rates = [1, 0.75, 0.5, 0.25, 0.04];
    const answers = grid(5, 24, (p, i) => (i < Math.round(rates[p] * 24) ? 1 : 0));
    const both = twoWayProportionInterval(answers, "people+items");
    const items = twoWayProportionInterval(answers, "items");
    const width = (ci: [number, number] | null) => (ci ? ci[1] - ci[0] : 0);
    expect(width(both.ci)).toBeGreaterThan(2.5 * width(items.ci));
  });

  it("items only agrees with the design-effect Wilson when clusters are items", () => {
    const answers = grid(4, 10, (p, i) => (i % 3 === 0 || (p === 0 && i === 1) ? 1 : 0));
    const byItem = Array.from({ length: 10 }, (_, i) => ({ successes: answers.filter((a) => a.item === i && a.num === 1).length, trials: 4 }));
    const old = clusteredWilsonInterval(byItem);
    const next = twoWayProportionInterval(answers, "items");
    // the same variance up to the G/(G-1) small-sample factor
    expect(old.deff!).toBeGreaterThan(1.5);
    expect(next.effectiveN! * (10 / 9)).toBeCloseTo(old.effectiveN!, 6);
  });

  it("a mean's interval is estimate +- 1.96 sqrt(V)", () => {
    const answers = grid(6, 8, (p, i) => p * 0.1 + i * 0.05);
    const ci = twoWayMeanInterval(answers);
    const v = twoWayClusterVariance(answers).variance!;
    expect(ci.ci![1] - ci.estimate).toBeCloseTo(1.96 * Math.sqrt(v), 12);
  });
});
