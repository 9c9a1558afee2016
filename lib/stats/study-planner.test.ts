import { describe, expect, it } from "vitest";
import {
  answersPerItem,
  bernoulliItemVariance,
  peopleForAnswersPerItem,
  peopleForDifference,
  peopleForHalfWidth,
  predictedHalfWidth,
  predictedPower,
  predictedVariance,
} from "@/lib/stats/study-planner";
import { tCritical } from "@/lib/stats/student-t";

const c = { items: 0.01, people: 0.04, residual: 0.2 };

describe("study planner", () => {
  it("the variance of the mean: s_i^2 / I + s_p^2 / P + s_e^2 / (P m), by hand", () => {
    // 50 items, 20 people, 25 items each: 0.01/50 + 0.04/20 + 0.2/500
    expect(predictedVariance(c, { items: 50, people: 20, itemsPerPerson: 25 })).toBeCloseTo(0.0002 + 0.002 + 0.0004, 15);
    expect(predictedHalfWidth(c, { items: 50, people: 20, itemsPerPerson: 25 })).toBeCloseTo(tCritical(19) * Math.sqrt(0.0026), 12);
    expect(answersPerItem({ items: 50, people: 20, itemsPerPerson: 25 })).toBe(10);
    // places = 50 x 3 = 150, people = 150 / 25 = 6
    expect(peopleForAnswersPerItem(50, 25, 3)).toBe(6);
    expect(peopleForAnswersPerItem(50, 20, 3)).toBe(8); // 7.5 rounded up
  });

  it("people for a half-width: the smallest P that reaches it", () => {
    const plan = peopleForHalfWidth(c, 50, 25, 0.06);
    expect(plan.people).not.toBeNull();
    const at = (P: number) => predictedHalfWidth(c, { items: 50, people: P, itemsPerPerson: 25 });
    expect(at(plan.people!)).toBeLessThanOrEqual(0.06);
    expect(at(plan.people! - 1)).toBeGreaterThan(0.06);
    expect(plan.k).toBeCloseTo((plan.people! * 25) / 50, 12);
  });

  it("a half-width the items alone exceed is not reachable, and says so", () => {
    // items: t(49) sqrt(0.01 / 50) = 0.0284
    const plan = peopleForHalfWidth(c, 50, 25, 0.02);
    expect(plan.people).toBeNull();
    expect(plan.reason).toMatch(/items alone give a half-width of 0.0284/);
  });

  it("power: at d = 0 it is alpha; people for power 0.8 are the fewest that reach it", () => {
    const v = bernoulliItemVariance(0.6);
    expect(v).toBeCloseTo(0.24, 12);
    expect(predictedPower(c, { items: 400, people: 30, itemsPerPerson: 100 }, 0, v)).toBeCloseTo(0.05, 12);
    const plan = peopleForDifference(c, 400, 100, 0.1, v);
    const power = (P: number) => predictedPower(c, { items: 400, people: P, itemsPerPerson: 100 }, 0.1, v);
    expect(power(plan.people!)).toBeGreaterThanOrEqual(0.8);
    expect(power(plan.people! - 1)).toBeLessThan(0.8);
    // too few items for the model's own per-item spread
    expect(peopleForDifference(c, 20, 20, 0.1, v).people).toBeNull();
  });

  it("bad input names the figure", () => {
    expect(() => predictedVariance({ ...c, people: -1 }, { items: 5, people: 2, itemsPerPerson: 5 })).toThrow(/people component/);
    expect(() => predictedVariance(c, { items: 5, people: 2, itemsPerPerson: 6 })).toThrow(/items per person/);
    expect(() => peopleForHalfWidth(c, 5, 5, 0)).toThrow(/half-width/);
    expect(() => bernoulliItemVariance(2)).toThrow(/model's score/);
  });
});
