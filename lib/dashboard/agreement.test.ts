import { describe, expect, it } from "vitest";
import { allowedLevels, computeAgreement, encodingsForKinds, type AgreementItem } from "@/lib/dashboard/agreement";
import { kendallPermutationDeltaSquared } from "@/lib/stats/kendall-permutation-alpha";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { mulberry32, randomInt } from "@/lib/stats/rng";
import { shuffle } from "@/lib/stats/sample-without-replacement";
import { getTaskModule } from "@/lib/tasks";

function items(seed: number, count: number): AgreementItem[] {
  const rng = mulberry32(seed);
  const out: AgreementItem[] = [];
  for (let n = 0; n < count; n++) {
    const L = 3 + randomInt(rng, 5);
    const truth = shuffle(Array.from({ length: L }, (_, i) => i), rng);
    const ratings = [0, 1, 2].flatMap((coder) => {
      if (rng() < 0.15) return [];
      const order = rng() < 0.6 ? truth : shuffle(truth, rng);
      return [{ coder, answer: { order } }];
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
      const a = shuffle(Array.from({ length: 1 + randomInt(rng, 8) }, (_, i) => i), rng);
      const b = rng() < 0.3 ? shuffle(Array.from({ length: 1 + randomInt(rng, 8) }, (_, i) => i), rng) : shuffle(a, rng);
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
    expect(r.overall.ciDescription).toBe(`95% percentile bootstrap over items (each with all its units), resampled within each kind x tag cell (200 resamples of ${kept} items)`);
    const units = computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "units", seedKey: "t", resamples: 200 })!;
    expect(units.overall.alpha).toBe(r.overall.alpha);
    expect(units.overall.ciDescription).toMatch(/over units/);
    // same seed key, same numbers
    expect(computeAgreement(data, 3, { encodingId: "slot-ordinal", level: "ordinal", ci: "items", seedKey: "t", resamples: 200 })!.overall.ci).toEqual(r.overall.ci);
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
