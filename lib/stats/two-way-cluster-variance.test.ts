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
    expect(
      twoWayClusterVariance(
        grid(2, 2, (p) => (p === 0 ? 1 : 0)),
        "items",
      ).variance,
    ).toBeCloseTo(0, 12);
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
    expect(
      twoWayClusterVariance(
        grid(1, 3, (_, i) => i % 2),
        "items",
      ).variance,
    ).not.toBeNull();
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

  it("a mean's interval is estimate +- t(min(people, items) - 1) sqrt(V), or +- z sqrt(V) with a z given", () => {
    const answers = grid(6, 8, (p, i) => p * 0.1 + i * 0.05);
    const ci = twoWayMeanInterval(answers);
    const v = twoWayClusterVariance(answers).variance!;
    // 6 people, 8 items: df 5, t(5) 97.5% = 2.570582 (tables)
    expect(ci.df).toBe(5);
    expect(ci.ci![1] - ci.estimate).toBeCloseTo(2.5705818 * Math.sqrt(v), 6);
    expect(twoWayMeanInterval(answers, "items").df).toBe(7);
    const z = twoWayMeanInterval(answers, "people+items", 1.96);
    expect(z.ci![1] - z.estimate).toBeCloseTo(1.96 * Math.sqrt(v), 12);
  });

  it("unbalanced: a person with more answers weighs more in V_people", () => {
    // person a answers 3 items (all right), b answers 1 (wrong): residuals a: 3 x 0.25, b: -0.75
    const answers: CrossedAnswer[] = [
      { item: 1, person: "a", num: 1 },
      { item: 2, person: "a", num: 1 },
      { item: 3, person: "a", num: 1 },
      { item: 1, person: "b", num: 0 },
    ];
    const v = twoWayClusterVariance(answers);
    expect(v.estimate).toBe(0.75);
    expect(v.vPeople).toBeCloseTo((2 * (0.75 ** 2 + 0.75 ** 2)) / 16, 12);
    // items: item 1 sums 0.25 - 0.75 = -0.5, items 2 and 3 0.25 each
    expect(v.vItems).toBeCloseTo((1.5 * (0.25 + 0.0625 + 0.0625)) / 16, 12);
    expect(v.df).toBe(1);
  });

  it("all agree: V is 0 and the proportion's Wilson interval falls back to the fewest clusters", () => {
    const answers = grid(5, 12, () => 1);
    const ci = twoWayProportionInterval(answers);
    expect(ci.variance).toBe(0);
    expect(ci.effectiveN).toBe(5);
    expect(ci.ci![1]).toBe(1);
    expect(ci.ci![0]).toBeGreaterThan(0.3);
    expect(ci.ci![0]).toBeLessThan(0.8);
  });
});
