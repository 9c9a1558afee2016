import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import { agreementSummary, pairwiseAlpha, perfectAgreementShare } from "@/lib/stats/agreement-summary";
import { krippendorffAlpha, reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { mulberry32 } from "@/lib/stats/rng";
import { wilsonInterval } from "@/lib/stats/wilson-interval";

describe("pairwiseAlpha", () => {
  it("coders A and B of Krippendorff 2011, nominal (hand calculation)", () => {
    // Units coded by both: 1-9 -> pairs (1,1) (2,2) (3,3) (3,3) (2,2) (1,2) (4,4) (1,1) (2,2).
    // n = 18; one disagreeing unit -> o_12 + o_21 = 2. Marginals 1:5, 2:7, 3:4, 4:2 ->
    // 18^2 - (25 + 49 + 16 + 4) = 230. alpha = 1 - 17 * 2 / 230 = 196/230.
    const r = pairwiseAlpha(KRIPPENDORFF_2011, "nominal");
    expect(r.matrix[0][1]).toBeCloseTo(196 / 230, 12);
    expect(r.matrix[1][0]).toBeCloseTo(196 / 230, 12);
    expect(r.matrix[0][0]).toBeNull();
    expect(r.pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(r.pairs[0].result.n).toBe(18);
  });

  it("each entry equals alpha on the two-row matrix", () => {
    const r = pairwiseAlpha(KRIPPENDORFF_2011, "interval");
    expect(r.matrix[2][3]).toBe(krippendorffAlpha([KRIPPENDORFF_2011[2], KRIPPENDORFF_2011[3]], "interval").alpha);
  });

  it("rejects a single coder", () => {
    expect(() => pairwiseAlpha([[1, 2]], "nominal")).toThrow("pairwiseAlpha requires at least 2 coders");
  });
});

describe("perfectAgreementShare", () => {
  it("Krippendorff 2011 data: 8 of 11 pairable units agree fully (hand count)", () => {
    // agree: units 1, 3, 4, 5, 7, 9, 10, 11; disagree: 2, 6, 8; unit 12 not pairable.
    const r = perfectAgreementShare(reliabilityMatrixToUnits(KRIPPENDORFF_2011));
    expect(r).toEqual({ agreeing: 8, units: 11, share: 8 / 11, interval: wilsonInterval(8, 11) });
  });

  it("compares strings exactly and ignores nulls", () => {
    const r = perfectAgreementShare([["2,0,1", "2,0,1", null], ["2,0,1", "2,1,0"], ["a"]]);
    expect(r.agreeing).toBe(1);
    expect(r.units).toBe(2);
  });

  it("gives null share without pairable units", () => {
    expect(perfectAgreementShare([[1], []]).share).toBeNull();
  });
});

describe("agreementSummary", () => {
  it("bundles alpha with CI, pairwise alphas and perfect agreement", () => {
    const s = agreementSummary(KRIPPENDORFF_2011, "ordinal", mulberry32(1), { resamples: 200 });
    expect(s.alpha.estimate.alpha).toBeCloseTo(0.815, 3);
    expect(s.alpha.ci).not.toBeNull();
    expect(s.alpha.resamples).toBe(200);
    expect(s.pairwise.pairs).toHaveLength(6);
    expect(s.perfectAgreement.agreeing).toBe(8);
  });
});
