import { describe, expect, it } from "vitest";
import { ALL } from "@/lib/dashboard/accuracy";
import { agreementOfPrepared, allowedLevels, computeAgreement, encodingsForKinds, prepareAgreement, type AgreementItem } from "@/lib/dashboard/agreement";
import type { AlphaLevelChoice } from "@/lib/dashboard/params";
import { pairwiseAlpha } from "@/lib/stats/agreement-summary";
import type { AlphaValue } from "@/lib/stats/alpha-coincidences";
import { kendallPermutationDeltaSquared } from "@/lib/stats/kendall-permutation-alpha";
import { krippendorffAlpha, krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaClusterBootstrap } from "@/lib/stats/krippendorff-alpha-cluster-bootstrap";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { mulberry32, randomInt } from "@/lib/stats/rng";
import { shuffle } from "@/lib/stats/sample-without-replacement";
import { getTaskModule } from "@/lib/tasks";

/**
 * Items of orders of 3..2+lengths candidates answered by three coders. `shared`: equal answers are
 * one object, as the dashboard's snapshot gives them (its caches key on the object).
 */
function items(seed: number, count: number, lengths = 5, shared = false): AgreementItem[] {
  const rng = mulberry32(seed);
  const out: AgreementItem[] = [];
  for (let n = 0; n < count; n++) {
    const L = 3 + randomInt(rng, lengths);
    const truth = shuffle(
      Array.from({ length: L }, (_, i) => i),
      rng,
    );
    const truthAnswer = { order: truth };
    const ratings = [0, 1, 2].flatMap((coder) => {
      if (rng() < 0.15) return [];
      const order = rng() < 0.6 ? truth : shuffle(truth, rng);
      return [{ coder, answer: shared && order === truth ? truthAnswer : { order } }];
    });
    out.push({ kind: n % 2 ? "enact-forward" : "enact-inverse", tag: String(L), ratings });
  }
  return out;
}

describe("agreement encodings", () => {
  it("ENACT's item-kendall distance is still the metric the dedicated algorithm computes", () => {
    // if a colleague changes the encoding's distance, the fast path would silently disagree
    const encoding = getTaskModule("enact-forward").agreementEncodings.find((e) => e.id === "item-kendall")!;
    const rng = mulberry32(5);
    for (let t = 0; t < 300; t++) {
      const a = shuffle(
        Array.from({ length: 1 + randomInt(rng, 8) }, (_, i) => i),
        rng,
      );
      const b =
        rng() < 0.3
          ? shuffle(
              Array.from({ length: 1 + randomInt(rng, 8) }, (_, i) => i),
              rng,
            )
          : shuffle(a, rng);
      expect(encoding.distance!(a.join(","), b.join(","))).toBeCloseTo(kendallPermutationDeltaSquared(a, b), 12);
    }
  });

  it("offers the encodings every kind has and the levels that suit each", () => {
    expect(encodingsForKinds(["enact-forward", "enact-inverse"]).map((e) => e.id)).toEqual(["slot-nominal", "slot-ordinal", "item-kendall"]);
    expect(allowedLevels({ level: "custom" })).toEqual(["custom", "nominal"]);
    expect(allowedLevels({ level: "nominal" })).toEqual(["nominal"]);
    expect(allowedLevels({ level: "ordinal" })[0]).toBe("ordinal");
  });
});

describe("computeAgreement", () => {
  it("item-kendall (dedicated algorithm) equals the general algorithm on the encoding's own units and distance", () => {
    const data = items(3, 80);
    const result = computeAgreement(data, 3, { encodingId: "item-kendall", level: "custom", ci: "items", seedKey: "t", resamples: 200 })!;
    const encoding = getTaskModule("enact-forward").agreementEncodings.find((e) => e.id === "item-kendall")!;
    const units = data.map((item) => item.ratings.map((r) => encoding.units(r.answer as { order: number[] })[0].value));
    const reference = krippendorffAlphaFromUnits(units, { name: "d", deltaSquared: (a, b) => encoding.distance!(a, b) });
    expect(result.overall.alpha).toBeCloseTo(reference.alpha!, 12);
    expect(result.metricName).toMatch(/kendall/);
    expect(result.overall.ci![0]).toBeLessThan(result.overall.alpha!);
    expect(result.overall.ci![1]).toBeGreaterThan(result.overall.alpha!);
  });

  it("slot encodings resample whole items by default, and name it", () => {
    const data = items(4, 60);
    const r = computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "items", seedKey: "t", resamples: 200 })!;
    const kept = data.filter((i) => i.ratings.length >= 2).length;
    expect(r.overall.items).toBe(kept);
    expect(r.overall.units).toBeGreaterThan(kept);
    expect(r.overall.ciDescription).toBe(
      `95% percentile pigeonhole bootstrap (Owen 2007): items (each with all its units), resampled within each kind x tag cell, and annotators drawn independently (two copies of one annotator never paired) (200 resamples of ${kept} items)`,
    );
    const itemsOnly = computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "items", seedKey: "t", resamples: 200, over: "items" })!;
    expect(itemsOnly.overall.alpha).toBe(r.overall.alpha);
    expect(itemsOnly.overall.ciDescription).toBe(
      `95% percentile bootstrap over items (each with all its units), resampled within each kind x tag cell (these annotators taken as the population) (200 resamples of ${kept} items)`,
    );
    const units = computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "units", seedKey: "t", resamples: 200 })!;
    expect(units.overall.alpha).toBe(r.overall.alpha);
    expect(units.overall.ciDescription).toMatch(/over units/);
    // same seed key, same numbers
    expect(computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "items", seedKey: "t", resamples: 200 })!.overall.ci).toEqual(
      r.overall.ci,
    );
  });

  it("items only reproduces the item bootstrap of before; over people and items it is wider when annotators differ", () => {
    // one kind, one tag: 40 items of 3 ordered steps; coders 0 and 1 give the truth, coder 2 a shuffle 60% of the time
    const rng = mulberry32(12);
    const data: AgreementItem[] = [];
    for (let n = 0; n < 40; n++) {
      const truth = shuffle([0, 1, 2, 3], rng);
      data.push({
        kind: "enact-forward",
        tag: "4",
        ratings: [0, 1, 2].map((coder) => ({ coder, answer: { order: coder < 2 || rng() < 0.4 ? truth : shuffle(truth, rng) } })),
      });
    }
    const options = { encodingId: "slot-ordinal", level: "ordinal" as const, ci: "items" as const, seedKey: "t", resamples: 400 };
    const itemsOnly = computeAgreement(data, 3, { ...options, over: "items" })!;
    const both = computeAgreement(data, 3, options)!;
    // the interval of before: the cluster bootstrap over items, with its seed
    const encoding = getTaskModule("enact-forward").agreementEncodings.find((e) => e.id === "slot-ordinal")!;
    const units: AlphaValue[][] = [];
    const clusterOf: number[] = [];
    data.forEach((item, i) => {
      const byUnit = new Map<string, AlphaValue[]>();
      for (const r of item.ratings)
        for (const { unit, value } of encoding.units(r.answer as { order: number[] })) byUnit.set(unit, [...(byUnit.get(unit) ?? []), value]);
      for (const values of byUnit.values()) {
        units.push(values);
        clusterOf.push(i);
      }
    });
    const before = krippendorffAlphaClusterBootstrap(units, clusterOf, "ordinal", mulberry32(seedFromString("t|slot-ordinal|ordinal|items")), {
      resamples: 400,
    });
    expect(itemsOnly.overall.ci![0]).toBeCloseTo(before.ci![0], 10);
    expect(itemsOnly.overall.ci![1]).toBeCloseTo(before.ci![1], 10);
    expect(both.overall.alpha).toBe(itemsOnly.overall.alpha);
    const width = (ci: [number, number] | null) => ci![1] - ci![0];
    expect(width(both.overall.ci)).toBeGreaterThan(1.5 * width(itemsOnly.overall.ci));
    // a cell of one item: "one item" in words, either way
    const one = [...data.slice(0, 6), { ...data[6], tag: "alone" }];
    for (const over of ["items", "people+items"] as const)
      expect(computeAgreement(one, 3, { ...options, over })!.byKind[0].cells.alone).toMatchObject({ ci: null, ciReason: "one item" });
  });

  it("falls back to a level that suits the encoding and says so", () => {
    const r = computeAgreement(items(5, 20), 3, { encodingId: "slot-nominal", level: "interval", ci: "items", seedKey: "t", resamples: 50 })!;
    expect(r.level).toBe("nominal");
    expect(r.notes.join(" ")).toMatch(/level interval does not suit/);
  });

  it("breaks down by kind and tag value, with pairwise and leave-one-out alphas", () => {
    const r = computeAgreement(items(6, 90), 3, { encodingId: "slot-nominal", level: "nominal", ci: "items", seedKey: "t", resamples: 50 })!;
    expect(r.byKind.map((k) => k.kind)).toEqual(["enact-forward", "enact-inverse"]);
    expect(r.tagValues).toEqual(["3", "4", "5", "6", "7"]);
    expect(r.pairwise.matrix).toHaveLength(3);
    expect(r.pairwise.matrix[0][0]).toBeNull();
    expect(r.pairwise.matrix[0][1]).toBe(r.pairwise.matrix[1][0]);
    expect(r.leaveOneOut).toHaveLength(3);
  });

  it("returns null when no kind has the encoding", () => {
    expect(computeAgreement(items(7, 5), 3, { encodingId: "nope", level: "nominal", ci: "items", seedKey: "t" })).toBeNull();
  });
});

describe("prepared agreement (sliced by tag from sums)", () => {
  /** the general algorithm on a block's own units: the reference every block's alpha must equal */
  function reference(data: AgreementItem[], encodingId: string, level: AlphaLevelChoice, keep: (item: AgreementItem) => boolean) {
    const units: AlphaValue[][] = [];
    for (const item of data.filter(keep)) {
      const encoding = getTaskModule(item.kind).agreementEncodings.find((e) => e.id === encodingId)!;
      if (new Set(item.ratings.map((r) => r.coder)).size < 2) continue;
      const byUnit = new Map<string, AlphaValue[]>();
      for (const rating of [...item.ratings].sort((a, b) => a.coder - b.coder)) {
        for (const { unit, value } of encoding.units(rating.answer)) byUnit.set(unit, [...(byUnit.get(unit) ?? []), value]);
      }
      units.push(...byUnit.values());
    }
    const metric =
      level === "custom"
        ? {
            name: "d",
            deltaSquared: (a: AlphaValue, b: AlphaValue) => getTaskModule("enact-forward").agreementEncodings.find((e) => e.id === encodingId)!.distance!(a, b),
          }
        : level;
    return krippendorffAlphaFromUnits(units, metric);
  }

  for (const [encodingId, level] of [
    ["slot-nominal", "nominal"],
    ["slot-ordinal", "ordinal"],
    ["slot-ordinal", "interval"],
    ["item-kendall", "custom"],
    ["item-kendall", "nominal"],
  ] as Array<[string, AlphaLevelChoice]>) {
    it(`every cell, kind and overall alpha equals the general algorithm on its units, under any re-slicing (${encodingId}, ${level})`, () => {
      const data = items(11, 90);
      const prep = prepareAgreement(data, { encodingId, level })!;
      // two slicings of the same prepared table, the second after the first
      const byLength = data.map((item) => item.tag);
      const byParity = data.map((_, n) => (n % 3 === 0 ? "a" : "b"));
      for (const tags of [byLength, byParity]) {
        const result = agreementOfPrepared(prep, tags, { encodingId, level, ci: "items", seedKey: "t", intervals: false });
        const direct = computeAgreement(
          data.map((item, n) => ({ ...item, tag: tags[n] })),
          3,
          { encodingId, level, ci: "items", seedKey: "t", intervals: false },
        );
        expect(result).toEqual(direct);
        const close = (got: number | null, want: number | null) => (want === null ? expect(got).toBeNull() : expect(Math.abs(got! - want)).toBeLessThan(1e-12));
        close(result.overall.alpha, reference(data, encodingId, level, () => true).alpha);
        for (const { kind, cells } of result.byKind) {
          for (const [tag, block] of Object.entries(cells)) {
            const keep = (item: AgreementItem) => item.kind === kind && (tag === ALL || tags[data.indexOf(item)] === tag);
            close(block.alpha, reference(data, encodingId, level, keep).alpha);
          }
        }
      }
    });
  }

  for (const [encodingId, level] of [
    ["slot-nominal", "nominal"],
    ["slot-ordinal", "ordinal"],
    ["item-kendall", "custom"],
  ] as Array<[string, AlphaLevelChoice]>) {
    it(`items of up to 60 units and answers shared between coders give the general algorithm's alphas (${encodingId}, ${level})`, () => {
      // past 32 units an item's unit names are looked up in a Map; equal answer objects reuse their units
      const data = items(13, 40, 58, true);
      for (let round = 0; round < 2; round++) {
        const result = computeAgreement(data, 3, { encodingId, level, ci: "items", seedKey: "t", intervals: false })!;
        expect(Math.abs(result.overall.alpha! - reference(data, encodingId, level, () => true).alpha!)).toBeLessThan(1e-12);
        for (const { kind } of result.byKind) {
          expect(
            Math.abs(result.byKind.find((k) => k.kind === kind)!.cells[ALL].alpha! - reference(data, encodingId, level, (item) => item.kind === kind).alpha!),
          ).toBeLessThan(1e-12);
        }
      }
    });
  }

  it("counts an item as in perfect agreement when its answers are equal, whether or not they are one object", () => {
    const shared = { order: [1, 0, 2] };
    const data: AgreementItem[] = [
      { kind: "enact-forward", tag: null, ratings: [0, 1, 2].map((coder) => ({ coder, answer: shared })) },
      { kind: "enact-forward", tag: null, ratings: [0, 1, 2].map((coder) => ({ coder, answer: { order: [2, 0, 1] } })) },
      {
        kind: "enact-forward",
        tag: null,
        ratings: [
          { coder: 0, answer: shared },
          { coder: 1, answer: { order: [1, 0, 2] } },
          { coder: 2, answer: shared },
        ],
      },
      {
        kind: "enact-forward",
        tag: null,
        ratings: [
          { coder: 0, answer: shared },
          { coder: 1, answer: shared },
          { coder: 2, answer: { order: [0, 1, 2] } },
        ],
      },
      {
        kind: "enact-forward",
        tag: null,
        ratings: [
          { coder: 0, answer: { order: [0, 2, 1] } },
          { coder: 1, answer: shared },
          { coder: 2, answer: shared },
        ],
      },
    ];
    const result = computeAgreement(data, 3, { encodingId: "slot-nominal", level: "nominal", ci: "items", seedKey: "t", intervals: false })!;
    expect(result.overall.perfectItems).toEqual({ agreeing: 3, total: 5, share: 0.6 });
  });

  it("pairwise and leave-one-out alphas equal the general algorithm on the coders' rows (built-in levels)", () => {
    const data = items(12, 70);
    const encoding = getTaskModule("enact-forward").agreementEncodings.find((e) => e.id === "slot-ordinal")!;
    const result = computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "items", seedKey: "t", intervals: false })!;
    // the reliability matrix: a row per coder, a column per unit
    const columns: Array<Map<number, AlphaValue>> = [];
    for (const item of data) {
      if (new Set(item.ratings.map((r) => r.coder)).size < 2) continue;
      const byUnit = new Map<string, Map<number, AlphaValue>>();
      for (const rating of item.ratings)
        for (const { unit, value } of encoding.units(rating.answer)) byUnit.set(unit, (byUnit.get(unit) ?? new Map()).set(rating.coder, value));
      columns.push(...byUnit.values());
    }
    const matrix = result.coders.map((coder) => columns.map((column) => column.get(coder) ?? null));
    const pairwise = pairwiseAlpha(matrix, "ordinal");
    for (const pair of pairwise.pairs) {
      expect(Math.abs(result.pairwise.matrix[pair.a][pair.b]! - pair.result.alpha!)).toBeLessThan(1e-12);
      expect(result.pairwise.shared[pair.a][pair.b]).toBe(pair.result.units);
    }
    result.leaveOneOut.forEach((entry, i) => {
      const want = krippendorffAlpha(
        matrix.filter((_, j) => j !== i),
        "ordinal",
      );
      expect(Math.abs(entry.alpha! - want.alpha!)).toBeLessThan(1e-12);
    });
  });
});
