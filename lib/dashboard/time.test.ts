import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UNTAGGED } from "@/lib/dashboard/accuracy";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { computeTime, computeTimeColumns, FAR_FASTER_MAX_RATIO, spread, type TimeEntry, type TimeResult } from "@/lib/dashboard/time";
import { flagFarFaster } from "@/lib/stats/descriptive";

const SEED = Number(process.env.FUZZ_SEED ?? 20261128);

/** computeTime as it was before it took columns: one object per answer, arrays pushed to */
function computeTimeBefore(entries: TimeEntry[]): TimeResult {
  type Cell = { kind: string; tag: string; active: number[]; wall: number[]; median: number };
  const byKind = new Map<string, Map<string, Cell>>();
  const byAnnotator = new Map<number, { active: number[]; wall: number[] }>();
  // each entry's cell, for the second pass
  const cellOf: Cell[] = new Array(entries.length);
  entries.forEach((e, i) => {
    const tag = e.tag ?? UNTAGGED;
    let tags = byKind.get(e.kind);
    if (!tags) byKind.set(e.kind, (tags = new Map()));
    let cell = tags.get(tag);
    if (!cell) tags.set(tag, (cell = { kind: e.kind, tag, active: [], wall: [], median: 0 }));
    cellOf[i] = cell;
    cell.active.push(e.activeMs);
    cell.wall.push(e.wallMs);
    let a = byAnnotator.get(e.annotator);
    if (!a) byAnnotator.set(e.annotator, (a = { active: [], wall: [] }));
    a.active.push(e.activeMs);
    a.wall.push(e.wallMs);
  });
  const sortedCells = [...byKind.values()].flatMap((tags) => [...tags.values()]).sort((a, b) => a.kind.localeCompare(b.kind) || compareTagValues(a.tag, b.tag));
  const cells = sortedCells.map((c) => {
    const active = spread(c.active)!;
    c.median = active.median;
    return { kind: c.kind, tag: c.tag, active, wall: spread(c.wall)! };
  });
  const ratios = new Map<number, number[]>();
  entries.forEach((e, i) => {
    const median = cellOf[i].median;
    let list = ratios.get(e.annotator);
    if (!list) ratios.set(e.annotator, (list = []));
    // a zero active time (or median) would break the log scale: floor both at 1 ms
    list.push(Math.max(e.activeMs, 1) / Math.max(median, 1));
  });
  const annotators = [...byAnnotator.keys()].sort((a, b) => a - b);
  const relative = annotators.map((a) => spread(ratios.get(a)!)!.median);
  let flags = annotators.map(() => false);
  let flagNote: string | undefined;
  if (annotators.length >= 3) flags = flagFarFaster(relative).flags.map((flag, i) => flag && relative[i] <= FAR_FASTER_MAX_RATIO);
  else flagNote = "Flagging needs at least 3 annotators.";
  return {
    cells,
    perAnnotator: annotators.map((annotator, i) => ({
      annotator,
      active: spread(byAnnotator.get(annotator)!.active)!,
      wall: spread(byAnnotator.get(annotator)!.wall)!,
      relativeSpeed: relative[i],
      farFaster: flags[i],
    })),
    ...(flagNote ? { flagNote } : {}),
  };
}

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
    for (const [annotator, ms] of [
      [0, 30_000],
      [1, 33_000],
      [2, 28_000],
      [3, 3_000],
    ] as const) {
      for (const [tag, factor] of [
        ["3", 1],
        ["10", 3],
      ] as const) {
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

  it("does not flag a small gap that only looks extreme among few people (x0.87 of three)", () => {
    const entries = [0, 1, 2].flatMap((annotator) =>
      [0, 1, 2].map(() => ({ kind: "k", tag: null, annotator, activeMs: annotator === 2 ? 26_100 : 30_000, wallMs: 31_000 })),
    );
    const t = computeTime(entries);
    expect(t.perAnnotator[2].relativeSpeed).toBeCloseTo(0.87, 12);
    expect(t.perAnnotator.map((p) => p.farFaster)).toEqual([false, false, false]);
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
        const want = {
          n,
          median: quantileSorted(sorted, 0.5),
          q1: quantileSorted(sorted, 0.25),
          q3: quantileSorted(sorted, 0.75),
          min: sorted[0],
          max: sorted[n - 1],
        };
        expect(spread(values)).toEqual(want);
      }
    }
  });
});

describe("computeTimeColumns", () => {
  it("gives what computeTime gave one object per answer", () => {
    const entry = fc.record({
      kind: fc.constantFrom("k-a", "k-b"),
      tag: fc.constantFrom(null, "1", "2", "10", "x", UNTAGGED),
      annotator: fc.integer({ min: 0, max: 5 }),
      activeMs: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(0, 1, 0.5)),
      wallMs: fc.integer({ min: 0, max: 200_000 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 300 }), (entries: TimeEntry[]) => {
        expect(computeTime(entries)).toEqual(computeTimeBefore(entries));
        // the columns as timeOf gives them: one cell per (kind, tag), answers pointing at them
        const cells = [...new Map(entries.map((e) => [`${e.kind}|${e.tag}`, { kind: e.kind, tag: e.tag }])).values()];
        const cell = entries.map((e) => cells.findIndex((c) => c.kind === e.kind && c.tag === e.tag));
        const columns = computeTimeColumns({
          count: entries.length,
          cell,
          cells,
          annotator: entries.map((e) => e.annotator),
          activeMs: entries.map((e) => e.activeMs),
          wallMs: entries.map((e) => e.wallMs),
        });
        expect(columns).toEqual(computeTimeBefore(entries));
        // cells no answer is in (items without answers) change nothing
        const unused = [
          { kind: "k-c", tag: null },
          { kind: "k-a", tag: "unused" },
        ];
        expect(
          computeTimeColumns({
            count: entries.length,
            cell,
            cells: [...cells, ...unused],
            annotator: entries.map((e) => e.annotator),
            activeMs: entries.map((e) => e.activeMs),
            wallMs: entries.map((e) => e.wallMs),
          }),
        ).toEqual(columns);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
