import { describe, expect, it } from "vitest";
import { aggregatePairwise, pairwiseAnswerSchemaFor, pairwiseModule, pairwisePublicSchema, scorePairwise } from "@/lib/tasks/pairwise";
import { pairwiseFigures, type PairwiseRow } from "@/lib/tasks/pairwise/figures";
import { bradleyTerry } from "@/lib/stats/bradley-terry";

const dims = [
  { id: "quality", label: "Visual quality" },
  { id: "physics", label: "Physics" },
];

describe("pairwise items", () => {
  it("refuses one model on both sides and duplicate dimensions, naming the place", () => {
    const bad = pairwisePublicSchema.safeParse({ a: {}, b: {}, dimensions: [dims[0], dims[0]], models: { a: "m", b: "m" } });
    expect(bad.error!.issues.map((issue) => issue.path.join("."))).toEqual(expect.arrayContaining(["models.b", "dimensions.1.id"]));
  });

  it("scores A's share per dimension and agreement with a reference; the view hides models and metric", () => {
    const pub = { a: {}, b: {}, dimensions: dims, models: { a: "gen-a", b: "gen-b" }, metric: { name: "VBench", a: 0.8, b: 0.7 } };
    const score = scorePairwise({ prefs: { quality: "b", physics: "tie" } }, { reference: { quality: "b", physics: "a" } }, pub);
    expect(score).toEqual({ a: { quality: 0, physics: 0.5 }, models: { a: "gen-a", b: "gen-b" }, agree: 0.5 });
    const view = JSON.stringify(pairwiseModule.publicView({ id: "x", kind: "pairwise", public: pub, key: {}, tags: {} }, { playback: "once" }));
    expect(view).not.toContain("gen-a");
    expect(view).not.toContain("VBench");
    expect(view).toContain('"playback":"once"');
  });

  it("gives an answer to an item without a reference preference no correctness (null), not a wrong one", () => {
    const pub = { a: {}, b: {}, dimensions: dims };
    expect(pairwiseModule.correct(scorePairwise({ prefs: { quality: "b", physics: "tie" } }, {}, pub))).toBeNull();
    expect(pairwiseModule.correct(scorePairwise({ prefs: { quality: "b", physics: "a" } }, { reference: { quality: "b", physics: "a" } }, pub))).toBe(true);
    expect(pairwiseModule.correct(scorePairwise({ prefs: { quality: "a", physics: "a" } }, { reference: { quality: "b", physics: "a" } }, pub))).toBe(false);
  });

  it("takes a complete answer only", () => {
    const schema = pairwiseAnswerSchemaFor(dims);
    expect(schema.safeParse({ prefs: { quality: "a", physics: "tie" } }).success).toBe(true);
    expect(schema.safeParse({ prefs: { quality: "a" } }).error!.issues[0].path).toEqual(["prefs", "physics"]);
    expect(schema.safeParse({ prefs: { quality: "left", physics: "a" } }).success).toBe(false);
  });

  it("aggregates win rates per model with ties half", () => {
    const models = { a: "x", b: "y" };
    const scores = [
      { a: { quality: 1, physics: 0.5 }, models, agree: null },
      { a: { quality: 0, physics: null }, models, agree: null },
    ];
    // x: 1 + 0.5 + 0 over 3 comparisons; y: 0 + 0.5 + 1 over 3
    expect(aggregatePairwise(scores)).toEqual({ agree: null, win_x: 0.5, win_y: 0.5, bt_x: 0.5, bt_y: 0.5 });
  });
});

describe("pairwise figures", () => {
  it("gives each model's win rate and the Bradley-Terry strengths of the same comparisons, with position bias and metric correlation", () => {
    const items = new Map([
      ["i1", { dimensions: [dims[0]], models: { a: "A", b: "B" }, metric: { name: "M", a: 3, b: 2 } }],
      ["i2", { dimensions: [dims[0]], models: { a: "A", b: "C" }, metric: { name: "M", a: 3, b: 1 } }],
      ["i3", { dimensions: [dims[0]], models: { a: "B", b: "C" }, metric: { name: "M", a: 2, b: 1 } }],
    ]);
    const row = (itemId: string, value: "a" | "b" | "tie", left: "a" | "b"): PairwiseRow => ({ itemId, answer: { prefs: { quality: value } }, left });
    // the (4, 2, 1) / 7 data of the Bradley-Terry test, as answers
    const rows = [
      row("i1", "a", "a"),
      row("i1", "a", "b"),
      row("i1", "b", "a"),
      row("i2", "a", "a"),
      row("i2", "a", "a"),
      row("i2", "a", "b"),
      row("i2", "a", "b"),
      row("i2", "b", "b"),
      row("i3", "a", "a"),
      row("i3", "a", "b"),
      row("i3", "b", "a"),
    ];
    const f = pairwiseFigures(items, rows, "seed", 200, "items");
    const quality = f.dimensions[0];
    expect(quality.models.map((m) => m.model)).toEqual(["A", "B", "C"]);
    expect(quality.models[0].winRate).toBeCloseTo(6 / 8, 12);
    expect(quality.models[1].winRate).toBeCloseTo(3 / 6, 12);
    expect(quality.models[2].winRate).toBeCloseTo(2 / 8, 12);
    const bt = bradleyTerry(3, [
      ...Array.from({ length: 2 }, () => ({ i: 0, j: 1, outcome: 1 as const })),
      { i: 0, j: 1, outcome: 0 as const },
      ...Array.from({ length: 4 }, () => ({ i: 0, j: 2, outcome: 1 as const })),
      { i: 0, j: 2, outcome: 0 as const },
      ...Array.from({ length: 2 }, () => ({ i: 1, j: 2, outcome: 1 as const })),
      { i: 1, j: 2, outcome: 0 as const },
    ]);
    quality.models.forEach((m, index) => expect(m.strength).toBeCloseTo(bt.strengths![index], 9));
    expect(quality.models[0].strength).toBeCloseTo(4 / 7, 8);
    for (const m of quality.models) {
      expect(m.winRateCi![0]).toBeLessThanOrEqual(m.winRate!);
      expect(m.winRateCi![1]).toBeGreaterThanOrEqual(m.winRate!);
    }
    // non-tie choices of the side shown first: i1 a/a yes, a/b no, b/a no; i2 a/a yes x2, a/b no x2, b/b yes; i3 a/a yes, a/b no, b/a no
    expect(quality.firstShown).toEqual({ chosen: 5, of: 11 });
    expect(quality.models.map((m) => m.metric)).toEqual([3, 2, 1]);
    expect(quality.correlation).toMatchObject({ n: 3 });
    expect(quality.correlation!.spearman).toBeCloseTo(1, 12);
  });
});

describe("pairwise figures: the bootstrap's unfitted resamples", () => {
  it("counts the resamples whose Bradley-Terry fit does not exist instead of dropping them silently", () => {
    // two items, A beats B on one and B beats A on the other: a resample that draws one item twice
    // has a model that never loses (no MLE); about half the resamples
    const items = new Map([
      ["i1", { dimensions: [dims[0]], models: { a: "A", b: "B" } }],
      ["i2", { dimensions: [dims[0]], models: { a: "A", b: "B" } }],
    ]);
    const rows: PairwiseRow[] = [
      { itemId: "i1", answer: { prefs: { quality: "a" } }, left: "a" },
      { itemId: "i2", answer: { prefs: { quality: "b" } }, left: "a" },
    ];
    const f = pairwiseFigures(items, rows, "seed", 400, "items");
    const quality = f.dimensions[0];
    expect(quality.models[0].strength).toBeCloseTo(0.5, 9);
    const { fitted, unfitted } = quality.strengthResamples!;
    expect(fitted + unfitted).toBe(400);
    // P(both draws the same item) = 1/2
    expect(unfitted).toBeGreaterThan(150);
    expect(unfitted).toBeLessThan(250);
  });
});

describe("pairwise figures over people and items", () => {
  // 8 people x 12 pairs of A against B: person j prefers A on 2 + j pairs (2/12 to 9/12), laid end to end
  // around the 12 pairs so that every pair gets A from 3 or 4 of the 8 people (pairs barely differ)
  const items = new Map(Array.from({ length: 12 }, (_, i) => [`i${i}`, { dimensions: [dims[0]], models: { a: "A", b: "B" } }]));
  const rows: PairwiseRow[] = [];
  let start = 0;
  for (let j = 0; j < 8; j++) {
    for (let i = 0; i < 12; i++)
      rows.push({ itemId: `i${i}`, person: `p${j}`, answer: { prefs: { quality: (i - start + 12) % 12 < 2 + j ? "a" : "b" } }, left: "a" });
    start = (start + 2 + j) % 12;
  }
  const width = (ci: [number, number] | null) => ci![1] - ci![0];

  it("win rates: the two-way interval is at least as wide as either one-way form (hand-worked people-only t interval)", () => {
    const both = pairwiseFigures(items, rows, "seed", 200).dimensions[0].models[0];
    const itemsOnly = pairwiseFigures(items, rows, "seed", 200, "items").dimensions[0].models[0];
    const wins = rows.map((r) => (r.answer.prefs.quality === "a" ? 1 : 0));
    const mean = wins.reduce((a: number, b) => a + b, 0) / wins.length;
    expect(both.winRate).toBeCloseTo(mean, 12);
    // clustered by person alone: V = 8/7 sum_j (sum of person j's residuals)^2 / 96^2, t(7)
    let sumSq = 0;
    for (let j = 0; j < 8; j++) {
      const r = wins.slice(j * 12, j * 12 + 12).reduce((s: number, y) => s + y - mean, 0);
      sumSq += r * r;
    }
    const peopleHalf = 2.364624252 * Math.sqrt(((8 / 7) * sumSq) / 96 ** 2);
    expect(width(both.winRateCi)).toBeGreaterThanOrEqual(2 * peopleHalf - 1e-9);
    expect(width(both.winRateCi)).toBeGreaterThanOrEqual(width(itemsOnly.winRateCi));
    // the people differ: the item-only interval is far too narrow
    expect(width(both.winRateCi)).toBeGreaterThan(2 * width(itemsOnly.winRateCi));
  });

  it("strengths: the pigeonhole bootstrap is wider than the item bootstrap when people differ; one person says so in words", () => {
    const both = pairwiseFigures(items, rows, "seed", 400).dimensions[0];
    const itemsOnly = pairwiseFigures(items, rows, "seed", 400, "items").dimensions[0];
    expect(both.models[0].strength).toBeCloseTo(itemsOnly.models[0].strength!, 12);
    expect(width(both.models[0].strengthCi)).toBeGreaterThan(1.5 * width(itemsOnly.models[0].strengthCi));
    const one = pairwiseFigures(
      items,
      rows.filter((r) => r.person === "p3"),
      "seed",
      100,
    ).dimensions[0].models[0];
    expect(one).toMatchObject({ winRateCi: null, winRateReason: "one person", strengthCi: null, strengthCiReason: "one person" });
  });
});
