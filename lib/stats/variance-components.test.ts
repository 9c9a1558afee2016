import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/stats/rng";
import { simulateCrossedStudy } from "@/lib/stats/crossed-simulation";
import type { CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";
import { varianceComponents } from "@/lib/stats/variance-components";

const grid = (people: number, items: number, y: (p: number, i: number) => number): CrossedAnswer[] =>
  Array.from({ length: people * items }, (_, k) => ({ person: Math.floor(k / items), item: k % items, num: y(Math.floor(k / items), k % items) }));

/** The two-way ANOVA estimator of a complete P x I table, written out. */
function anova(P: number, I: number, y: (p: number, i: number) => number) {
  const cells = Array.from({ length: P }, (_, p) => Array.from({ length: I }, (_, i) => y(p, i)));
  const mean = cells.flat().reduce((s, v) => s + v, 0) / (P * I);
  const pm = cells.map((row) => row.reduce((s, v) => s + v, 0) / I);
  const im = Array.from({ length: I }, (_, i) => cells.reduce((s, row) => s + row[i], 0) / P);
  const msP = (I * pm.reduce((s, v) => s + (v - mean) ** 2, 0)) / (P - 1);
  const msI = (P * im.reduce((s, v) => s + (v - mean) ** 2, 0)) / (I - 1);
  let sse = 0;
  for (let p = 0; p < P; p++) for (let i = 0; i < I; i++) sse += (cells[p][i] - pm[p] - im[i] + mean) ** 2;
  const msE = sse / ((P - 1) * (I - 1));
  return { people: (msP - msE) / I, items: (msI - msE) / P, residual: msE };
}

describe("varianceComponents (Henderson's Method I)", () => {
  it("2 people x 2 items, one always right, one never: all of it the people's", () => {
    const c = varianceComponents(grid(2, 2, (p) => (p === 0 ? 1 : 0)));
    // MS_p = 2 * (0.25 + 0.25) = 1, MS_e = 0: people = 1/2
    expect(c.people).toBeCloseTo(0.5, 12);
    expect(c.items).toBeCloseTo(0, 12);
    expect(c.residual).toBeCloseTo(0, 12);
  });

  it("a complete table gives the two-way ANOVA estimator", () => {
    const y = (p: number, i: number) => Math.sin(p * 1.7 + 0.3) + 0.5 * Math.cos(i * 2.3) + 0.3 * Math.sin(p * i + 1);
    const c = varianceComponents(grid(5, 7, y));
    const expected = anova(5, 7, y);
    expect(c.people).toBeCloseTo(expected.people, 10);
    expect(c.items).toBeCloseTo(expected.items, 10);
    expect(c.residual).toBeCloseTo(expected.residual, 10);
    expect(c.truncated).toEqual([]);
  });

  it("a negative component is set to 0 and the others re-estimated without it", () => {
    // items identical, people nearly so: the ANOVA's item estimate is negative
    const y = (p: number, i: number) => ((p + i) % 2 === 0 ? 1 : 0) + (p === 0 ? 0.1 : 0);
    expect(anova(4, 4, y).items).toBeLessThan(0);
    const c = varianceComponents(grid(4, 4, y));
    expect(c.items).toBe(0);
    expect(c.truncated).toContain("items");
    expect(c.people! + c.residual!).toBeGreaterThan(0);
  });

  it("one person, one item, all agree", () => {
    const one = varianceComponents(grid(1, 6, (_, i) => i % 2));
    expect(one.people).toBeNull();
    // one answer per item: the item's own effect and the residual are not separable
    expect(one.items).toBeNull();
    expect(one.residual).toBeNull();
    // two people on one item: the people's and the residual are not separable either
    expect(varianceComponents(grid(2, 1, (p) => p)).people).toBeNull();
    const agree = varianceComponents(grid(3, 4, () => 1));
    expect([agree.people, agree.items, agree.residual]).toEqual([0, 0, 0]);
    expect(varianceComponents([]).residual).toBeNull();
    expect(() => varianceComponents([{ item: 1, person: 1, num: 1, den: 0 }])).toThrow(/answer 0/);
  });

  it("recovers known components from unbalanced, incomplete pilots (mean over 200 seeded pilots)", () => {
    const rng = mulberry32(11);
    const sums = { people: 0, items: 0, residual: 0 };
    const pilots = 200;
    for (let s = 0; s < pilots; s++) {
      const { answers } = simulateCrossedStudy(
        { outcome: "gaussian", people: 24, items: 30, itemsPerPerson: 10, mu: 0, sPerson: 0.8, sItem: 0.5, sResidual: 1 },
        rng,
      );
      // unbalanced: drop every 7th answer
      const c = varianceComponents(answers.filter((_, k) => k % 7 !== 3));
      sums.people += c.people! / pilots;
      sums.items += c.items! / pilots;
      sums.residual += c.residual! / pilots;
    }
    expect(sums.people).toBeCloseTo(0.64, 1);
    expect(sums.items).toBeCloseTo(0.25, 1);
    expect(sums.residual).toBeCloseTo(1, 1);
  });
});
