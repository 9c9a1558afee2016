import { describe, expect, it } from "vitest";
import { computeTime, spread } from "@/lib/dashboard/time";

describe("spread", () => {
  it("gives R's type-7 quartiles", () => {
    // R: quantile(c(1, 2, 3, 4, 10)) -> 1 2 3 4 10
    expect(spread([10, 1, 4, 2, 3])).toEqual({ n: 5, median: 3, q1: 2, q3: 4, min: 1, max: 10 });
    expect(spread([])).toBeNull();
  });
});

describe("computeTime", () => {
  it("compares annotators on time relative to each kind x steps cell and flags the far faster one", () => {
    const entries = [];
    for (const [annotator, ms] of [[0, 30_000], [1, 33_000], [2, 28_000], [3, 3_000]] as const) {
      for (const [tag, factor] of [["3", 1], ["10", 3]] as const) {
        for (let k = 0; k < 3; k++) entries.push({ kind: "enact-forward", tag, annotator, activeMs: ms * factor, wallMs: ms * factor + 1000 });
      }
    }
    const t = computeTime(entries);
    expect(t.cells.map((c) => c.tag)).toEqual(["3", "10"]);
    expect(t.cells[0].active.median).toBe(29_000);
    expect(t.perAnnotator.map((p) => p.farFaster)).toEqual([false, false, false, true]);
    expect(t.perAnnotator[3].relativeSpeed).toBeCloseTo(3_000 / 29_000, 12);
    expect(t.flagNote).toBeUndefined();
  });

  it("does not flag with fewer than 3 annotators, and says why", () => {
    const t = computeTime([
      { kind: "k", tag: null, annotator: 0, activeMs: 1000, wallMs: 1000 },
      { kind: "k", tag: null, annotator: 1, activeMs: 0, wallMs: 1000 },
    ]);
    expect(t.perAnnotator.every((p) => !p.farFaster)).toBe(true);
    expect(t.flagNote).toMatch(/at least 3 annotators/);
  });
});

describe("spread by selection", () => {
  it("equals the quartiles of the fully sorted values, on sizes where the positions fall on and between values", async () => {
    const { quantileSorted } = await import("@/lib/stats/descriptive");
    const { mulberry32, randomInt } = await import("@/lib/stats/rng");
    const rng = mulberry32(7);
    for (let n = 1; n <= 400; n += 1 + randomInt(rng, 7)) {
      for (const values of [Array.from({ length: n }, () => randomInt(rng, 50_000)), Array.from({ length: n }, () => randomInt(rng, 4))]) {
        const sorted = Float64Array.from(values).sort();
        const want = { n, median: quantileSorted(sorted, 0.5), q1: quantileSorted(sorted, 0.25), q3: quantileSorted(sorted, 0.75), min: sorted[0], max: sorted[n - 1] };
        expect(spread(values)).toEqual(want);
      }
    }
  });
});
