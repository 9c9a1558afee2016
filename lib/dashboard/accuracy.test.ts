import { describe, expect, it } from "vitest";
import { ALL, accuracyRows, metricCells, metricShape, pooledConditionLabels, tagColumns, UNTAGGED } from "@/lib/dashboard/accuracy";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { mulberry32 } from "@/lib/stats/rng";
import { tCritical } from "@/lib/stats/student-t";
import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { aggregateScoredAnswers, getTaskModule } from "@/lib/tasks";
import type { ScoredAnswer } from "@/lib/tasks/types";

const s = (accepted: boolean, correctPairs: number, L: number) => ({ accepted, exact: accepted, correctPairs, L, semanticAvailable: false });
let n = 0;
const row = (score: unknown): ScoredAnswer => ({ itemId: `i${n++}`, tags: {}, answer: null, score });

/** 5 people x 24 items, person p right on `rights[p]` items spread over the items (each item's answers differ little), ENACT scores */
function peopleDominated(rights = [24, 24, 14, 1, 1]) {
  return Array.from({ length: 24 }, (_, i) =>
    rights.map((k, p) => {
      const right = (i + 5 * p) % 24 < k;
      return { ...row(s(right, right ? 4 : 1, 4)), annotator: `p${p}` };
    }),
  );
}

describe("metricCells", () => {
  it("gives TA a Wilson interval at the effective n and PA (a ratio of sums) a normal one, both from the two-way variance", () => {
    // 4 items, one answer each, by 4 people: V_items = V_people = V_cells, so V = (4/3) sum (y - p)^2 / 16 = 1/12 and n_eff = 0.25 / V = 3
    const scores = [s(true, 3, 3), s(false, 1, 3), s(true, 4, 4), s(false, 0, 4)];
    const cell = metricCells(
      "enact-forward",
      scores.map((x, i) => [{ ...row(x), annotator: `p${i}` }]),
      "seed",
      300,
    );
    expect(cell.n).toBe(4);
    expect(cell.metrics.TA).toMatchObject({ value: 0.5, interval: "wilson", items: 4, people: 4 });
    expect(cell.metrics.TA.effectiveN).toBeCloseTo(3, 10);
    // Wilson at n = 3, p = 0.5 with t(3)'s critical value (4 people, 4 items: df = 3): centre 0.5,
    // half-width (t / (1 + t^2 / 3)) sqrt(0.25 / 3 + t^2 / 36)
    const t = tCritical(3);
    const half = (t / (1 + (t * t) / 3)) * Math.sqrt(0.25 / 3 + (t * t) / 36);
    expect(cell.metrics.TA.ci![0]).toBeCloseTo(0.5 - half, 10);
    expect(cell.metrics.TA.ci![1]).toBeCloseTo(0.5 + half, 10);
    // PA = 8 / 14; residuals r = c - PA L; V = (4/3) sum r^2 / 14^2
    const PA = 8 / 14;
    const r2 = [3 - PA * 3, 1 - PA * 3, 4 - PA * 4, 0 - PA * 4].reduce((sum, r) => sum + r * r, 0);
    const se = Math.sqrt(((4 / 3) * r2) / 196);
    expect(cell.metrics.PA).toMatchObject({ interval: "two-way", items: 4 });
    expect(cell.metrics.PA.value).toBeCloseTo(PA, 12);
    expect(PA - t * se).toBeLessThan(0);
    expect(cell.metrics.PA.ci![0]).toBe(0);
    // cut at 0 and 1: a ratio of sums never leaves the range of the answers' own ratios (0 to 1 here)
    expect(PA + t * se).toBeGreaterThan(1);
    expect(cell.metrics.PA.ci![1]).toBe(1);
  });

  it("people who differ widen TA: 5 people x 24 items, accuracies 1.00 to 0.04, give about [0.13, 0.90] over people and items (t with 4 df), the narrow item-only interval when these people are the population", () => {
    const items = peopleDominated();
    const both = metricCells("enact-forward", items, "seed", 300);
    const itemsOnly = metricCells("enact-forward", items, "seed", 300, "items");
    expect(both.metrics.TA.value).toBeCloseTo(64 / 120, 12);
    expect(both.metrics.TA.people).toBe(5);
    // V = V_people: the people's sums of residuals, (24 - 12.8, 24 - 12.8, 14 - 12.8, 1 - 12.8, 1 - 12.8) / 120
    const sums = [24, 24, 14, 1, 1].map((k) => k - 24 * (64 / 120));
    const vPeople = ((5 / 4) * sums.reduce((a, x) => a + x * x, 0)) / 120 ** 2;
    expect(both.metrics.TA.effectiveN).toBeCloseTo(((64 / 120) * (56 / 120)) / vPeople, 9);
    expect(both.metrics.TA.ci![0]).toBeGreaterThan(0.1);
    expect(both.metrics.TA.ci![0]).toBeLessThan(0.17);
    expect(both.metrics.TA.ci![1]).toBeGreaterThan(0.85);
    expect(both.metrics.TA.ci![1]).toBeLessThan(0.93);
    // items only: every item has 2 or 3 of 5 right, so items barely differ: the effective n is all 120
    // answers and the interval Wilson(64, 120) = [0.4444, 0.6202], the narrow one people were taken as fixed for
    const width = (ci: [number, number] | null) => ci![1] - ci![0];
    expect(itemsOnly.metrics.TA.effectiveN).toBe(120);
    // (Wilson(64, 120) = [0.4444, 0.6202] at 1.96; at t(23), 24 items' df, a little wider)
    const [low, high] = wilsonBounds(64 / 120, 120, tCritical(23));
    expect(itemsOnly.metrics.TA.ci![0]).toBeCloseTo(low, 10);
    expect(itemsOnly.metrics.TA.ci![1]).toBeCloseTo(high, 10);
    expect(low).toBeCloseTo(0.4396, 4);
    expect(width(both.metrics.TA.ci) / width(itemsOnly.metrics.TA.ci)).toBeGreaterThan(3);
    expect(width(both.metrics.PA.ci) / width(itemsOnly.metrics.PA.ci)).toBeGreaterThan(3);
  });

  it("one person's answers: no interval over people ('one person'), an interval over items when these people are the population", () => {
    const items = Array.from({ length: 6 }, (_, i) => [{ ...row(s(i % 2 === 0, i % 2 === 0 ? 3 : 1, 3)), annotator: "solo" }]);
    const cell = metricCells("enact-forward", items, "seed", 300);
    expect(cell.metrics.TA).toMatchObject({ value: 0.5, ci: null, reason: "one person", people: 1 });
    expect(cell.metrics.PA).toMatchObject({ ci: null, reason: "one person" });
    const fixed = metricCells("enact-forward", items, "seed", 300, "items");
    expect(fixed.metrics.TA.ci![0]).toBeLessThan(0.5);
    expect(fixed.metrics.TA.ci![1]).toBeGreaterThan(0.5);
  });

  it("a metric that is not a ratio of score fields gets a seeded pigeonhole bootstrap over people and items", () => {
    const rows: ScoredAnswer[][] = Array.from({ length: 30 }, (_, i) =>
      ["a", "b", "c"].map((who, p) => ({
        itemId: `j${i}`,
        tags: { variant: "full", framing: i % 3 === 0 ? "neutral" : "positive", visual: "clean", temporal: "orig" },
        answer: { verdict: "A" },
        score: { correct: (i + p) % (p + 2) !== 0 },
        annotator: who,
      })),
    );
    const first = metricCells("gridwm-judge", rows, "seed", 300).metrics.JAcc_neu;
    expect(first.interval).toBe("bootstrap");
    expect(first.people).toBe(3);
    expect(first.ci![0]).toBeLessThan(first.value!);
    expect(first.ci![1]).toBeGreaterThan(first.value!);
    expect(metricCells("gridwm-judge", rows, "seed", 300).metrics.JAcc_neu.ci).toEqual(first.ci);
    expect(metricCells("gridwm-judge", rows, "other", 300).metrics.JAcc_neu.ci).not.toEqual(first.ci);
    // with resamples 0 (the background job's first step) the value now, the interval "computing"
    expect(metricCells("gridwm-judge", rows, "seed", 0).metrics.JAcc_neu).toMatchObject({ value: first.value, ci: null, reason: "computing" });
    // the closed forms are never deferred
    expect(metricCells("gridwm-judge", rows, "seed", 0).metrics.Acc_C.ci).toEqual(metricCells("gridwm-judge", rows, "seed", 300).metrics.Acc_C.ci);
  });
});

describe("intervals that account for answers to the same item", () => {
  it("TA over items: 25 of 50 answers from 10 items x 5 agreeing people gets the interval of 10 items, not Wilson(25, 50) = [0.366, 0.634]", () => {
    const items = Array.from({ length: 10 }, (_, i) => Array.from({ length: 5 }, (_, p) => ({ ...row(s(i < 5, i < 5 ? 3 : 0, 3)), annotator: `p${p}` })));
    const cell = metricCells("enact-forward", items, "seed", 300, "items");
    expect(cell.metrics.TA.value).toBe(0.5);
    // V_items = (10/9) * 10 * 2.5^2 / 50^2 = 1/36: n_eff = 9 (10 items, with the small-sample factor 10/9)
    expect(cell.metrics.TA.effectiveN).toBeCloseTo(9, 10);
    expect(cell.metrics.TA.deff).toBeCloseTo(50 / 9, 10);
    expect(cell.metrics.TA.items).toBe(10);
    expect(cell.metrics.TA.ci![0]).toBeLessThan(0.25);
    // people agree on every item: over people and items the variance is the same (people do not
    // differ), the interval wider only by t's fewer degrees of freedom (5 people: 4, not 9)
    const both = metricCells("enact-forward", items, "seed", 300);
    expect(both.metrics.TA.effectiveN).toBeCloseTo(9, 10);
    expect(both.metrics.TA.ci![0]).toBeCloseTo(wilsonBounds(0.5, 9, tCritical(4))[0], 10);
  });

  it("one item answered by several people: no interval, 'one item' (Wilson and ratio alike), never a zero-width one", () => {
    const items = [[row(s(true, 3, 3)), row(s(false, 1, 3)), row(s(true, 3, 3))].map((r, p) => ({ ...r, annotator: `p${p}` }))];
    const cell = metricCells("enact-forward", items, "seed", 300);
    expect(cell.metrics.TA).toMatchObject({ value: 2 / 3, ci: null, reason: "one item" });
    expect(cell.metrics.PA).toMatchObject({ ci: null, reason: "one item" });
    expect(cell.metrics.PA.value).toBeCloseTo(7 / 9, 12);
  });

  it("a figure that cannot vary (every answer the same ratio) gives no zero-width interval", () => {
    const items = Array.from({ length: 4 }, (_, i) => [{ ...row(s(true, 3, 3)), annotator: `p${i}` }]);
    const cell = metricCells("enact-forward", items, "seed", 300);
    expect(cell.metrics.PA.value).toBe(1);
    expect(cell.metrics.PA.ci).toBeNull();
    expect(cell.metrics.PA.reason).toBe("no spread: every item the same");
  });
});

describe("accuracyRows", () => {
  it("groups by kind and tag value, pools an ALL column, and orders tag columns numerically", () => {
    const rows = accuracyRows(
      [
        { kind: "enact-forward", tag: "10", item: 1, row: row(s(true, 10, 10)) },
        { kind: "enact-forward", tag: "9", item: 2, row: row(s(false, 0, 9)) },
        { kind: "enact-inverse", tag: null, row: row(s(true, 3, 3)) },
      ],
      "humans",
      "Humans",
      "k",
    );
    expect(rows.map((r) => r.kind)).toEqual(["enact-forward", "enact-inverse"]);
    expect(rows[0].cells[ALL].n).toBe(2);
    expect(rows[0].cells[ALL].metrics.PA.value).toBeCloseTo(10 / 19, 12);
    expect(rows[1].cells[UNTAGGED].n).toBe(1);
    expect(rows[1].cells[ALL]).toBe(rows[1].cells[UNTAGGED]);
    expect(tagColumns(rows)).toEqual(["9", "10", UNTAGGED]);
  });

  it("gives a kind's answers under each study condition a row apart, none first, never pooled (a kind without KindConditions: the names as they are)", () => {
    const rows = accuracyRows(
      [
        { kind: "enact-forward", tag: "3", condition: "b-arm", item: 1, row: { ...row(s(true, 3, 3)), annotator: "p" } },
        { kind: "enact-forward", tag: "3", condition: "a-arm", item: 1, row: { ...row(s(false, 0, 3)), annotator: "q" } },
        { kind: "enact-forward", tag: "3", condition: null, item: 2, row: { ...row(s(true, 3, 3)), annotator: "p" } },
        { kind: "enact-forward", tag: "3", condition: "b-arm", item: 3, row: { ...row(s(true, 3, 3)), annotator: "q" } },
      ],
      "humans",
      "Humans",
      "k",
    );
    expect(rows.map((r) => [r.condition ?? null, r.conditionLabel ?? null, r.cells[ALL].n, r.cells[ALL].metrics.TA.value])).toEqual([
      [null, null, 1, 1],
      ["a-arm", "a-arm", 1, 0],
      ["b-arm", "b-arm", 2, 1],
    ]);
  });

  it("counts beside N the answers without a correctness (an item without a key), which the metric leaves out", () => {
    const choice = (correct: boolean | null) => ({ correct, score: correct === null ? null : correct ? 1 : 0, options: 4 });
    const rows = accuracyRows(
      [
        { kind: "choice", tag: "a", item: 1, row: { ...row(choice(true)), annotator: "p" } },
        { kind: "choice", tag: "a", item: 2, row: { ...row(choice(null)), annotator: "p" } },
        { kind: "choice", tag: "b", item: 3, row: { ...row(choice(false)), annotator: "q" } },
      ],
      "humans",
      "Humans",
      "k",
      50,
    );
    expect(rows[0].cells.a).toMatchObject({ n: 2, withoutCorrectness: 1 });
    expect(rows[0].cells.a.metrics.accuracy.value).toBe(1);
    expect(rows[0].cells.b).toMatchObject({ n: 1 });
    expect(rows[0].cells.b.withoutCorrectness).toBeUndefined();
    expect(rows[0].cells[ALL]).toMatchObject({ n: 3, withoutCorrectness: 1 });
  });

  it("orders tag values numbers first, numerically", () => {
    expect(["right", "10", "3", "left", "4"].sort(compareTagValues)).toEqual(["3", "4", "10", "left", "right"]);
  });
});

describe("metricShape", () => {
  const scores = Array.from({ length: 40 }, (_, i) => s(i % 3 === 0, i % 4, 3 + (i % 5))).map(row);

  it("finds ENACT's TA = mean of accepted and PA = sum of correctPairs / sum of L", () => {
    expect(metricShape("enact-forward", "TA", [scores.slice(0, 20), scores.slice(20)])).toEqual({
      kind: "ratio",
      numerator: "accepted",
      denominator: "(count)",
    });
    expect(metricShape("enact-forward", "PA", [scores])).toEqual({ kind: "ratio", numerator: "correctPairs", denominator: "L" });
  });

  it("finds nothing for a metric that is not a ratio of score fields (then the bootstrap recomputes it)", () => {
    // GridWM Task C's JAcc_neu: accuracy over the neutral probes only, which needs the tags
    const judge = getTaskModule("gridwm-judge");
    const rows: ScoredAnswer[] = Array.from({ length: 30 }, (_, i) => ({
      itemId: `j${i}`,
      tags: { variant: "full", framing: i % 3 === 0 ? "neutral" : "positive", visual: "clean", temporal: "orig" },
      answer: { verdict: i % 2 ? "A" : "B" },
      score: { correct: i % 4 !== 0 },
      annotator: "x",
    }));
    expect(aggregateScoredAnswers(judge, rows).JAcc_neu).toBeCloseTo(7 / 10, 12); // neutral: i = 0, 3, ..., 27; wrong when i % 4 = 0
    expect(metricShape("gridwm-judge", "JAcc_neu", [rows])).toBeNull();
    expect(metricShape("gridwm-judge", "Acc_C", [rows])).toEqual({ kind: "ratio", numerator: "correct", denominator: "(count)" });
  });
});

describe("accuracyRows with shapes kept per scope", () => {
  it("gives the same rows as shapes checked on each slicing's cells, under two slicings in turn", () => {
    const random = mulberry32(21);
    const entries = Array.from({ length: 400 }, (_, i) => {
      const L = 3 + (i % 6);
      const correctPairs = Math.floor(random() * (L + 1));
      return {
        kind: i % 2 ? "enact-forward" : "enact-inverse",
        item: Math.floor(i / 3),
        steps: String(L),
        hand: i % 5 ? "left" : "right",
        row: row(s(correctPairs === L, correctPairs, L)),
      };
    });
    for (const tag of ["steps", "hand", "steps"] as const) {
      const sliced = entries.map((e) => ({ kind: e.kind, tag: e[tag], item: e.item, row: e.row }));
      const kept = accuracyRows(sliced, "humans", "Humans", "seed", 200, "version-1|all");
      const checkedOnCells = accuracyRows(sliced, "humans", "Humans", "seed", 200);
      expect(kept).toEqual(checkedOnCells);
    }
  });
});

describe("pooledConditionLabels", () => {
  const row = (series: string, condition?: string, conditionLabel?: string) => ({ series, label: series, kind: "k", condition, conditionLabel, cells: {} });
  it("names the people's conditions once each, in the table's order, and nothing for a study without conditions", () => {
    expect(
      pooledConditionLabels([
        row("humans", "active", "Active exploration"),
        row("run-1", "passive"),
        row("humans", "passive", "Passive"),
        row("humans", "active", "Active exploration"),
      ]),
    ).toEqual(["Active exploration", "Passive"]);
    expect(pooledConditionLabels([row("humans"), row("run-1", "x", "X")])).toEqual([]);
  });
});
