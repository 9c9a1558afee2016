import { describe, expect, it } from "vitest";
import {
  PEOPLE_DIFFER_BEFORE,
  PEOPLE_DIFFER_ITEMS_ONLY,
  PEOPLE_DIFFER_TWO_WAY,
  peopleDifferAnswers,
  peopleDifferRight,
} from "@/lib/stats/__fixtures__/people-differ";
import { clusteredWilsonInterval, wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { tCritical } from "@/lib/stats/student-t";
import { gridwmFigures, gridwmSection, type GridwmRow } from "@/lib/tasks/shared/gridwm/dashboard";

const a = (annotator: string, correct: boolean, i: number): GridwmRow => ({
  kind: "gridwm-next-obs",
  row: { itemId: `a${i}`, tags: {}, answer: { choice: "A" }, score: { correct }, annotator },
});
const c = (annotator: string, group: string, temporal: string, verdict: string, correct = true): GridwmRow => ({
  kind: "gridwm-judge",
  row: { itemId: `${group}-${temporal}`, tags: { group, temporal }, answer: { verdict }, score: { correct }, annotator },
});

describe("gridwmFigures", () => {
  it("sizes Wilson intervals from answers and from complete probe families (one person's: over items only)", () => {
    const rows = [
      a("x", true, 1),
      a("x", false, 2),
      c("x", "g1", "orig", "Success"),
      c("x", "g1", "rev", "Fail", false),
      c("x", "g2", "orig", "Fail"),
      c("x", "g2", "rev", "Fail"),
    ];
    const f = gridwmFigures(rows, "items");
    expect(f.Acc_A).toMatchObject({ value: 0.5, successes: 1, trials: 2 });
    expect(f.JAcc_neu).toMatchObject({ value: 1, successes: 2, trials: 2 });
    expect(f.JCR.temporal).toMatchObject({ value: 0.5, successes: 1, trials: 2 });
    expect(f.flip.temporal.value).toBe(0.5);
    expect(f.flip.temporal.ci![0]).toBeCloseTo(1 - f.JCR.temporal.ci![1], 12);
    expect(f.JCR.visual.value).toBeNull();
    expect(f.nearRandom).toBe(false);
    expect(f.Acc_B.value).toBeNull();
  });
  it("pooled over people: 25 of 50 Task A answers from 10 items x 5 agreeing people gets the interval of 10 items, not Wilson(25, 50)", () => {
    const rows: GridwmRow[] = [];
    for (let i = 0; i < 10; i++) for (const who of ["p", "q", "r", "s", "t"]) rows.push(a(who, i < 5, i));
    // people agree, so V = V_items = (10/9) 10 x 2.5^2 / 50^2 = 1/36: effective n 9, over items and people alike; t(9) items only, t(min(10, 5) - 1 = 4) over both
    for (const [over, df] of [
      ["items", 9],
      ["people+items", 4],
    ] as const) {
      const f = gridwmFigures(rows, over);
      expect(f.Acc_A).toMatchObject({ value: 0.5, successes: 25, trials: 50, items: 10, people: 5 });
      expect(f.Acc_A.effectiveN).toBeCloseTo(9, 9);
      const want = wilsonBounds(0.5, 9, tCritical(df));
      expect(f.Acc_A.ci![0]).toBeCloseTo(want[0], 9);
      expect(f.Acc_A.ci![1]).toBeCloseTo(want[1], 9);
    }
    // Task C answers cluster by item too
    const judged = gridwmFigures(["p", "q", "r"].flatMap((who) => [c(who, "g1", "orig", "Success"), c(who, "g2", "orig", "Fail", false)]));
    expect(judged.Acc_C).toMatchObject({ value: 0.5, items: 2 });
    expect(judged.Acc_C.ci![0]).toBeLessThan(0.1);
  });
  it("hand-worked: people differ wholly, items not at all (lib/stats/__fixtures__/people-differ.ts)", () => {
    const rows = peopleDifferAnswers().map(({ item, person }) => a(person, peopleDifferRight(person), item));
    const f = gridwmFigures(rows);
    expect(f.Acc_A).toMatchObject({ value: 0.5, items: 10, people: 4 });
    expect(f.Acc_A.ci![0]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[0], 5);
    expect(f.Acc_A.ci![1]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[1], 5);
    // at least as wide as either one-way form: items only, and the interval before ([0.352, 0.648])
    const itemsOnly = gridwmFigures(rows, "items").Acc_A;
    expect(itemsOnly.ci![0]).toBeCloseTo(PEOPLE_DIFFER_ITEMS_ONLY[0], 5);
    expect(f.Acc_A.ci![0]).toBeLessThan(PEOPLE_DIFFER_BEFORE[0]);
    expect(f.Acc_A.ci![1]).toBeGreaterThan(PEOPLE_DIFFER_BEFORE[1]);
    // an annotator's own row: one person says nothing of the spread between people
    const section = gridwmSection(rows, [{ id: "p", name: "P" }]);
    expect(section.annotators[0].figures.Acc_A).toMatchObject({ value: 1, ci: null, reason: "one person" });
    expect(section.method).toMatch(/people and items/);
  });
  it("items only reproduces the item-only design-effect Wilson, up to G/(G-1) and t(G-1)", () => {
    const rows: GridwmRow[] = [];
    const right = [5, 4, 3, 5, 0, 1, 2, 5, 4, 1, 3, 2];
    right.forEach((k, i) => ["p", "q", "r", "s", "t"].forEach((who, j) => rows.push(a(who, j < k, i))));
    const old = clusteredWilsonInterval(right.map((k) => ({ successes: k, trials: 5 })));
    const G = right.length;
    const want = wilsonBounds(old.estimate, (old.effectiveN! * (G - 1)) / G, tCritical(G - 1));
    const got = gridwmFigures(rows, "items").Acc_A.ci!;
    expect(got[0]).toBeCloseTo(want[0], 10);
    expect(got[1]).toBeCloseTo(want[1], 10);
  });
  it("JCR's units are complete probe families, clustered by their probe and their person", () => {
    // 3 people x 4 base cases, temporal families: person p consistent on all, q on half, r on none
    const rows: GridwmRow[] = [];
    const consistent: Record<string, number> = { p: 4, q: 2, r: 0 };
    for (const who of ["p", "q", "r"])
      for (let g = 0; g < 4; g++) rows.push(c(who, `g${g}`, "orig", "Success"), c(who, `g${g}`, "rev", g < consistent[who] ? "Success" : "Fail"));
    const f = gridwmFigures(rows);
    expect(f.JCR.temporal).toMatchObject({ value: 0.5, successes: 6, trials: 12, items: 4, people: 3 });
    expect(f.JCR.temporal.ci![1] - f.JCR.temporal.ci![0]).toBeGreaterThan(
      gridwmFigures(rows, "items").JCR.temporal.ci![1] - gridwmFigures(rows, "items").JCR.temporal.ci![0],
    );
  });
  it("one item (or one probe family) gives no interval: 'one item', and the flip rate none either", () => {
    const f = gridwmFigures([a("p", true, 1), a("q", false, 1), a("r", true, 1), c("x", "g1", "orig", "Success"), c("x", "g1", "rev", "Success")]);
    expect(f.Acc_A).toMatchObject({ value: 2 / 3, ci: null, reason: "one item" });
    expect(f.JCR.temporal).toMatchObject({ value: 1, ci: null, reason: "one item" });
    expect(f.flip.temporal).toMatchObject({ value: 0, ci: null, reason: "one item" });
  });
  it("shows Task B's Acc_B beside the share of readable fields right and the ceiling the frames allow", () => {
    const b = (annotator: string, item: string, exact: boolean, right: number, of: number, ceilingExact: boolean): GridwmRow => ({
      kind: "gridwm-scene-json",
      row: {
        itemId: item,
        tags: {},
        answer: {},
        score: {
          exact,
          correct: exact,
          componentScore: exact ? 1 : 0.15,
          readable: { right, of },
          ceiling: { exact: ceilingExact, componentScore: ceilingExact ? 1 : 0.15 },
        },
        annotator,
      },
    });
    // two egocentric items (3 readable fields each, ceiling 0) and one whole-grid item (7 fields, ceiling 1)
    const f = gridwmFigures([b("p", "e1", false, 3, 3, false), b("p", "e2", false, 2, 3, false), b("p", "m1", true, 7, 7, true)]);
    expect(f.Acc_B).toMatchObject({ value: 1 / 3, successes: 1, trials: 3 });
    expect(f.readableFields).toMatchObject({ successes: 12, trials: 13, items: 3 });
    expect(f.Acc_B_ceiling).toMatchObject({ value: 1 / 3, successes: 1, trials: 3 });
    // answers scored before the classification are left out of the two, not counted wrong
    const old: GridwmRow = {
      kind: "gridwm-scene-json",
      row: { itemId: "o1", tags: {}, answer: {}, score: { exact: true, correct: true, componentScore: 1 }, annotator: "p" },
    };
    expect(gridwmFigures([old]).readableFields).toMatchObject({ value: null, trials: 0 });
    expect(gridwmFigures([old]).Acc_B_ceiling).toMatchObject({ value: null, trials: 0 });
  });
  it("flags near-random Task A accuracy", () => {
    expect(gridwmFigures([a("x", true, 1), a("x", false, 2), a("x", false, 3), a("x", false, 4)]).nearRandom).toBe(true); // 0.25 <= 0.28
    // one person's 6 of 20 (0.30): over items only its upper bound says nothing below 0.30 either; over people no interval, by the value alone
    const six = Array.from({ length: 20 }, (_, i) => a("x", i < 6, i));
    expect(gridwmFigures(six).nearRandom).toBe(false);
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
    const section = gridwmSection(
      rows,
      ["p", "q", "r", "only-a"].map((id) => ({ id, name: id.toUpperCase() })),
    );
    expect(section.annotators.map((x) => x.name)).toEqual(["P", "Q", "R", "ONLY-A"]);
    const temporal = section.wmc.find((w) => w.dimension === "temporal")!;
    expect(temporal.n).toBe(3);
    expect(temporal.spearman).toBeCloseTo(1, 12);
    // np.corrcoef([0.25, 0.5, 1], [0, 0.5, 1])[0, 1] = 0.9819805060619657
    expect(temporal.pearson).toBeCloseTo(0.9819805061, 9);
    expect(section.wmc.find((w) => w.dimension === "visual")).toEqual({ dimension: "visual", n: 0, pearson: null, spearman: null });
  });
});
