import { describe, expect, it } from "vitest";
import type { AlphaValue } from "@/lib/stats/alpha-coincidences";
import { kendallPermutationAlpha, kendallPermutationAlphaStratifiedBootstrap } from "@/lib/stats/kendall-permutation-alpha";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaPigeonhole } from "@/lib/stats/krippendorff-alpha-pigeonhole";
import { krippendorffAlphaStratifiedBootstrap } from "@/lib/stats/krippendorff-alpha-stratified-bootstrap";
import { mulberry32, randomInt } from "@/lib/stats/rng";

const levels = ["nominal", "ordinal", "interval", "ratio"] as const;

/** Items of 3 slot units each, rated 1..5 by `coders` coders of whom each agrees with the item's value with its own probability. */
function slotItems(seed: number, count: number, agree: readonly number[]) {
  const rng = mulberry32(seed);
  const units: AlphaValue[][] = [];
  const coders: number[][] = [];
  const itemOf: number[] = [];
  for (let i = 0; i < count; i++) {
    for (let s = 0; s < 3; s++) {
      const t = 1 + randomInt(rng, 5);
      units.push(agree.map((p) => (rng() < p ? t : 1 + randomInt(rng, 5))));
      coders.push(agree.map((_, c) => c));
      itemOf.push(i);
    }
  }
  return { units, coders, itemOf };
}

const width = (ci: [number, number] | null) => (ci ? ci[1] - ci[0] : NaN);

describe("krippendorffAlphaPigeonhole", () => {
  it.each(levels)("%s: the estimate (every weight 1) is Krippendorff's alpha", (level) => {
    const { units, coders, itemOf } = slotItems(3, 20, [0.9, 0.8, 0.6, 0.5]);
    // some values missing: units of two and three coders
    units[1][0] = null as unknown as AlphaValue;
    units[5][2] = null as unknown as AlphaValue;
    const got = krippendorffAlphaPigeonhole({ metric: level, units }, coders, itemOf, () => 0, 1, [[0]], mulberry32(1), { resamples: 20 });
    expect(got.strata[0].estimate).toBeCloseTo(krippendorffAlphaFromUnits(units, level).alpha!, 12);
    expect(got.groups[0].estimate).toBeCloseTo(krippendorffAlphaFromUnits(units, level).alpha!, 12);
  });

  it.each(levels)("%s: items only is the stratified item bootstrap, draw for draw", (level) => {
    const { units, coders, itemOf } = slotItems(2, 30, [0.9, 0.8, 0.7]);
    const stratumOf = (item: number) => (item < 12 ? 0 : 1);
    const want = krippendorffAlphaStratifiedBootstrap(units, itemOf, stratumOf, 2, [[0, 1]], level, mulberry32(8), { resamples: 300 });
    const got = krippendorffAlphaPigeonhole({ metric: level, units }, coders, itemOf, stratumOf, 2, [[0, 1]], mulberry32(8), { resamples: 300, over: "items" });
    for (const [a, b] of [
      [got.strata[0], want.strata[0]],
      [got.strata[1], want.strata[1]],
      [got.groups[0], want.groups[0]],
    ] as const) {
      expect(a.estimate).toBeCloseTo(b.estimate!, 12);
      expect(a.ci![0]).toBeCloseTo(b.ci![0], 10);
      expect(a.ci![1]).toBeCloseTo(b.ci![1], 10);
    }
  });

  it("kendall-permutation: the estimate and items only match kendallPermutationAlpha and its stratified bootstrap", () => {
    const rng = mulberry32(4);
    const orders: number[][][] = [];
    const coders: number[][] = [];
    const itemOf: number[] = [];
    const shuffle = (L: number) => {
      const a = Array.from({ length: L }, (_, i) => i);
      for (let i = L - 1; i > 0; i--) {
        const j = randomInt(rng, i + 1);
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    };
    for (let i = 0; i < 25; i++) {
      const L = 3 + (i % 3);
      const truth = shuffle(L);
      orders.push([truth, rng() < 0.7 ? truth : shuffle(L), rng() < 0.5 ? truth : shuffle(rng() < 0.1 ? L + 1 : L)]);
      coders.push([0, 1, 2]);
      itemOf.push(i);
    }
    const got = krippendorffAlphaPigeonhole({ metric: "kendall-permutation", units: orders }, coders, itemOf, (i) => i % 2, 2, [[0, 1]], mulberry32(9), {
      resamples: 200,
      over: "items",
    });
    const want = kendallPermutationAlphaStratifiedBootstrap(orders, itemOf, (i) => i % 2, 2, [[0, 1]], mulberry32(9), { resamples: 200 });
    expect(got.groups[0].estimate).toBeCloseTo(kendallPermutationAlpha(orders).alpha!, 12);
    expect(got.groups[0].ci![0]).toBeCloseTo(want.groups[0].ci![0], 10);
    expect(got.groups[0].ci![1]).toBeCloseTo(want.groups[0].ci![1], 10);
    expect(got.strata[1].ci![1]).toBeCloseTo(want.strata[1].ci![1], 10);
  });

  it("hand-worked: two careful people and two careless ones, items alike, is wider than either one-way form", () => {
    // 40 items of one unit, values 1..5; people 0 and 1 always give the item's value, 2 and 3 a random one 60% of the time
    const { units, coders, itemOf } = slotItems(7, 40, [1, 1, 0.4, 0.4]);
    const run = (options: Parameters<typeof krippendorffAlphaPigeonhole>[7]) =>
      krippendorffAlphaPigeonhole({ metric: "nominal", units }, coders, itemOf, () => 0, 1, [[0]], mulberry32(5), { resamples: 1000, ...options }).groups[0];
    const both = run({});
    const itemsOnly = run({ over: "items" });
    const peopleOnly = run({ drawItems: false });
    expect(width(both.ci)).toBeGreaterThanOrEqual(width(itemsOnly.ci));
    expect(width(both.ci)).toBeGreaterThanOrEqual(width(peopleOnly.ci) * 0.95);
    // the people dominate: drawing them widens the item-only interval more than twice
    expect(width(both.ci)).toBeGreaterThan(2 * width(itemsOnly.ci));
    // a replicate that draws one person only has no pairs: left out and counted
    expect(both.undefinedResamples).toBeGreaterThan(0);
    expect(both.undefinedResamples).toBeLessThan(30);
  });

  it("never pairs two copies of one person: two people who always agree give alpha 1 on every replicate", () => {
    const units: AlphaValue[][] = [];
    const coders: number[][] = [];
    const itemOf: number[] = [];
    for (let i = 0; i < 10; i++) {
      units.push([i % 3, i % 3, (i + 1) % 3]);
      coders.push([0, 1, 2]);
      itemOf.push(i);
    }
    // person 2 always disagrees; a replicate of people {0, 0, 1} must not count 0 with itself
    const got = krippendorffAlphaPigeonhole({ metric: "nominal", units }, coders, itemOf, () => 0, 1, [[0]], mulberry32(2), { resamples: 400 });
    expect(got.groups[0].ci![1]).toBeCloseTo(1, 12);
    expect(got.groups[0].ci![0]).toBeLessThan(got.groups[0].estimate!);
  });

  it("words, not an interval: one item, one person (a fixed judge and one drawn grader)", () => {
    const one = krippendorffAlphaPigeonhole({ metric: "interval", units: [[1, 2, 2]] }, [[0, 1, 2]], [0], () => 0, 1, [[0]], mulberry32(1), { resamples: 50 });
    expect(one.groups[0]).toMatchObject({ ci: null, reason: "one item" });
    const units = [
      [1, 2],
      [3, 3],
      [2, 4],
      [5, 4],
    ];
    const judge = krippendorffAlphaPigeonhole(
      { metric: "interval", units },
      units.map(() => [0, 1]),
      [0, 1, 2, 3],
      () => 0,
      1,
      [[0]],
      mulberry32(1),
      { resamples: 50, fixedCoders: new Set([0]) },
    );
    expect(judge.groups[0]).toMatchObject({ ci: null, reason: "one person", people: 1 });
    const itemsOnly = krippendorffAlphaPigeonhole(
      { metric: "interval", units },
      units.map(() => [0, 1]),
      [0, 1, 2, 3],
      () => 0,
      1,
      [[0]],
      mulberry32(1),
      { resamples: 50, fixedCoders: new Set([0]), over: "items" },
    );
    expect(itemsOnly.groups[0].ci).not.toBeNull();
  });
});
