import { describe, expect, it } from "vitest";
import { ALL, accuracyRows, kindCells, metricCells, metricShape, tagColumns, UNTAGGED } from "@/lib/dashboard/accuracy";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { stratifiedClusterBootstrap } from "@/lib/stats/stratified-bootstrap";
import { aggregateScoredAnswers, getTaskModule } from "@/lib/tasks";
import type { ScoredAnswer } from "@/lib/tasks/types";

const s = (accepted: boolean, correctPairs: number, L: number) => ({ accepted, exact: accepted, correctPairs, L, semanticAvailable: false });
let n = 0;
const row = (score: unknown): ScoredAnswer => ({ itemId: `i${n++}`, tags: {}, answer: null, score });

describe("metricCells", () => {
  it("gives TA with a Wilson interval and PA (micro-average) with a seeded bootstrap", () => {
    const scores = [s(true, 3, 3), s(false, 1, 3), s(true, 4, 4), s(false, 0, 4)];
    const cell = metricCells("enact-forward", scores.map((x) => [row(x)]), "seed", 300);
    expect(cell.n).toBe(4);
    expect(cell.metrics.TA).toMatchObject({ value: 0.5, interval: "wilson" });
    // R: prop.test(2, 4, correct = FALSE)$conf.int = 0.1500357 0.8499643
    expect(cell.metrics.TA.ci![0]).toBeCloseTo(0.1500357, 6);
    expect(cell.metrics.TA.ci![1]).toBeCloseTo(0.8499643, 6);
    expect(cell.metrics.PA.value).toBeCloseTo(8 / 14, 12);
    expect(cell.metrics.PA.interval).toBe("bootstrap");
    expect(cell.metrics.PA.ci![0]).toBeLessThan(8 / 14);
    expect(cell.metrics.PA.ci![1]).toBeGreaterThan(8 / 14);
    // seeded: the same key gives the same bounds, another key other bounds
    const many = Array.from({ length: 30 }, (_, i) => s(i % 3 === 0, i % 4, 3 + (i % 5)));
    const items = many.map((x) => [row(x)]);
    const first = metricCells("enact-forward", items, "seed", 300).metrics.PA.ci;
    expect(metricCells("enact-forward", items, "seed", 300).metrics.PA.ci).toEqual(first);
    expect(metricCells("enact-forward", items, "other", 300).metrics.PA.ci).not.toEqual(first);
    // an item's answers move together: 15 items of 2 identical answers give the interval of the
    // 15 answers on their own (the same ratio on every resample), not a narrower one
    const paired = metricCells("enact-forward", many.slice(0, 15).map((x) => [row(x), row(x)]), "seed", 300).metrics.PA.ci;
    const single = metricCells("enact-forward", many.slice(0, 15).map((x) => [row(x)]), "seed", 300).metrics.PA.ci;
    expect(paired![0]).toBeCloseTo(single![0], 12);
    expect(paired![1]).toBeCloseTo(single![1], 12);
  });
});

describe("intervals that account for answers to the same item", () => {
  it("TA: 25 of 50 answers from 10 items x 5 agreeing people gets the interval of 10 items ([0.2366, 0.7634]), not Wilson(25, 50) = [0.366, 0.634]", () => {
    const items = Array.from({ length: 10 }, (_, i) => Array.from({ length: 5 }, () => row(s(i < 5, i < 5 ? 3 : 0, 3))));
    const cell = metricCells("enact-forward", items, "seed", 300);
    expect(cell.metrics.TA.value).toBe(0.5);
    expect(cell.metrics.TA.ci![0]).toBeCloseTo(0.2365896, 6);
    expect(cell.metrics.TA.ci![1]).toBeCloseTo(0.7634104, 6);
    expect(cell.metrics.TA.deff).toBeCloseTo(5, 10);
    expect(cell.metrics.TA.items).toBe(10);
  });

  it("one item answered by several people: no interval, 'one item' (Wilson and bootstrap alike), never a zero-width one", () => {
    const items = [[row(s(true, 3, 3)), row(s(false, 1, 3)), row(s(true, 3, 3))]];
    const cell = metricCells("enact-forward", items, "seed", 300);
    expect(cell.metrics.TA).toMatchObject({ value: 2 / 3, ci: null, reason: "one item" });
    expect(cell.metrics.PA).toMatchObject({ ci: null, reason: "one item" });
    expect(cell.metrics.PA.value).toBeCloseTo(7 / 9, 12);
  });

  it("a bootstrap that cannot vary (every item the same ratio) gives no zero-width interval", () => {
    const items = Array.from({ length: 4 }, () => [row(s(true, 3, 3))]);
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

  it("orders tag values numbers first, numerically", () => {
    expect(["right", "10", "3", "left", "4"].sort(compareTagValues)).toEqual(["3", "4", "10", "left", "right"]);
  });
});

describe("metricShape", () => {
  const scores = Array.from({ length: 40 }, (_, i) => s(i % 3 === 0, i % 4, 3 + (i % 5))).map(row);

  it("finds ENACT's TA = mean of accepted and PA = sum of correctPairs / sum of L", () => {
    expect(metricShape("enact-forward", "TA", [scores.slice(0, 20), scores.slice(20)])).toEqual({ kind: "ratio", numerator: "accepted", denominator: "(count)" });
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

  it("the additive fast path draws like the generic one: same bounds as aggregate() on every resample", () => {
    const items = scores.map((x, i) => (i % 2 ? [x, scores[(i + 7) % 40]] : [x]));
    const strata = [{ tag: "a", items: items.slice(0, 25) }, { tag: "b", items: items.slice(25) }];
    const fast = kindCells("enact-forward", strata, "k", 300);
    const generic = stratifiedClusterBootstrap(
      items,
      items.map((_, i) => (i < 25 ? 0 : 1)),
      2,
      [[0, 1]],
      (sample) => getTaskModule("enact-forward").aggregate(sample.map((r) => r.score)).PA,
      mulberry32(seedFromString("k|PA")),
      { resamples: 300 },
    );
    expect(fast.a.metrics.PA.ci![0]).toBeCloseTo(generic.strata[0].ci![0], 12);
    expect(fast.b.metrics.PA.ci![1]).toBeCloseTo(generic.strata[1].ci![1], 12);
    expect(fast[ALL].metrics.PA.ci![0]).toBeCloseTo(generic.groups[0].ci![0], 12);
    expect(fast[ALL].metrics.PA.ci![1]).toBeCloseTo(generic.groups[0].ci![1], 12);
  });
});

describe("accuracyRows with shapes kept per scope (issue 21)", () => {
  it("gives the same rows as shapes checked on each slicing's cells, under two slicings in turn", () => {
    const random = mulberry32(21);
    const entries = Array.from({ length: 400 }, (_, i) => {
      const L = 3 + (i % 6);
      const correctPairs = Math.floor(random() * (L + 1));
      return { kind: i % 2 ? "enact-forward" : "enact-inverse", item: Math.floor(i / 3), steps: String(L), hand: i % 5 ? "left" : "right", row: row(s(correctPairs === L, correctPairs, L)) };
    });
    for (const tag of ["steps", "hand", "steps"] as const) {
      const sliced = entries.map((e) => ({ kind: e.kind, tag: e[tag], item: e.item, row: e.row }));
      const kept = accuracyRows(sliced, "humans", "Humans", "seed", 200, "version-1|all");
      const checkedOnCells = accuracyRows(sliced, "humans", "Humans", "seed", 200);
      expect(kept).toEqual(checkedOnCells);
    }
  });
});
