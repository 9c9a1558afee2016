import { describe, expect, it } from "vitest";
import { incompleteBeta, lnGamma, normalQuantile, tCdf, tCritical } from "@/lib/stats/student-t";

describe("Student's t", () => {
  it("critical values match the tables (scipy.stats.t.ppf(0.975, df))", () => {
    const table: Array<[number, number]> = [
      [1, 12.706204736174694],
      [2, 4.302652729749462],
      [3, 3.1824463052837078],
      [4.5, 2.6589123472044034],
      [10, 2.228138851986274],
      [19, 2.0930240544083087],
      [100, 1.9839715185235518],
      [1e5, 1.9599877075346095],
    ];
    for (const [df, t] of table) expect(tCritical(df)).toBeCloseTo(t, 8);
    expect(tCritical(Infinity)).toBeCloseTo(1.959963984540054, 8);
    expect(tCritical(7, 0.9)).toBeCloseTo(1.8945786050900062, 9);
  });

  it("closed forms: the Cauchy (df 1) and df 2", () => {
    expect(tCdf(1, 1)).toBeCloseTo(0.75, 12);
    expect(tCdf(-1, 1)).toBeCloseTo(0.25, 12);
    // df 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2))
    expect(tCdf(1.5, 2)).toBeCloseTo(0.5 + 1.5 / (2 * Math.sqrt(2 + 2.25)), 12);
    expect(tCdf(0, 9)).toBe(0.5);
  });

  it("pieces", () => {
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(incompleteBeta(0.3, 2.5, 0.5)).toBeCloseTo(0.018927124071945658, 12);
    // I_x(1, 1) = x
    expect(incompleteBeta(0.42, 1, 1)).toBeCloseTo(0.42, 12);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 8);
    expect(() => tCritical(0)).toThrow(/df > 0/);
    expect(() => tCritical(5, 1)).toThrow(/confidence/);
  });
});
