import { describe, expect, it } from "vitest";
import { gridwmFigures, gridwmSection, type GridwmRow } from "@/lib/dashboard/gridwm";

const a = (annotator: string, correct: boolean, i: number): GridwmRow => ({ kind: "gridwm-next-obs", row: { itemId: `a${i}`, tags: {}, answer: { choice: "A" }, score: { correct }, annotator } });
const c = (annotator: string, group: string, temporal: string, verdict: string, correct = true): GridwmRow => ({
  kind: "gridwm-judge",
  row: { itemId: `${group}-${temporal}`, tags: { group, temporal }, answer: { verdict }, score: { correct }, annotator },
});

describe("gridwmFigures", () => {
  it("sizes Wilson intervals from answers and from complete probe families", () => {
    const rows = [a("x", true, 1), a("x", false, 2), c("x", "g1", "orig", "Success"), c("x", "g1", "rev", "Fail", false), c("x", "g2", "orig", "Fail"), c("x", "g2", "rev", "Fail")];
    const f = gridwmFigures(rows);
    expect(f.Acc_A).toMatchObject({ value: 0.5, successes: 1, trials: 2 });
    expect(f.JAcc_neu).toMatchObject({ value: 1, successes: 2, trials: 2 });
    expect(f.JCR.temporal).toMatchObject({ value: 0.5, successes: 1, trials: 2 });
    expect(f.flip.temporal.value).toBe(0.5);
    expect(f.flip.temporal.ci![0]).toBeCloseTo(1 - f.JCR.temporal.ci![1], 12);
    expect(f.JCR.visual.value).toBeNull();
    expect(f.nearRandom).toBe(false);
    expect(f.Acc_B.value).toBeNull();
  });
  it("flags near-random Task A accuracy", () => {
    expect(gridwmFigures([a("x", true, 1), a("x", false, 2), a("x", false, 3), a("x", false, 4)]).nearRandom).toBe(true); // 0.25 <= 0.28
    expect(gridwmFigures([]).nearRandom).toBeNull();
  });
});

describe("gridwmSection: WMC", () => {
  it("correlates Acc_A with JCR across annotators who did both", () => {
    const rows: GridwmRow[] = [];
    // Acc_A 1/4, 2/4, 4/4; JCR_temp 0/2, 1/2, 2/2: a perfect rank and linear relation
    const plan: Array<[string, number, number]> = [
      ["p", 1, 0],
      ["q", 2, 1],
      ["r", 4, 2],
    ];
    for (const [who, right, consistent] of plan) {
      for (let i = 0; i < 4; i++) rows.push(a(who, i < right, i));
      for (let g = 0; g < 2; g++) {
        rows.push(c(who, `g${g}`, "orig", "Success"));
        rows.push(c(who, `g${g}`, "rev", g < consistent ? "Success" : "Fail"));
      }
    }
    rows.push(a("only-a", true, 9));
    const section = gridwmSection(rows, ["p", "q", "r", "only-a"].map((id) => ({ id, name: id.toUpperCase() })));
    expect(section.annotators.map((x) => x.name)).toEqual(["P", "Q", "R", "ONLY-A"]);
    const temporal = section.wmc.find((w) => w.dimension === "temporal")!;
    expect(temporal.n).toBe(3);
    expect(temporal.spearman).toBeCloseTo(1, 12);
    // np.corrcoef([0.25, 0.5, 1], [0, 0.5, 1])[0, 1] = 0.9819805060619657
    expect(temporal.pearson).toBeCloseTo(0.9819805061, 9);
    expect(section.wmc.find((w) => w.dimension === "visual")).toEqual({ dimension: "visual", n: 0, pearson: null, spearman: null });
  });
});
