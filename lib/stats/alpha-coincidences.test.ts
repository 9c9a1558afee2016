import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import { alphaCoincidences, alphaDeltaSquared, alphaExpectedSum, coincidenceMatrix } from "@/lib/stats/alpha-coincidences";
import { reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";

const units = reliabilityMatrixToUnits(KRIPPENDORFF_2011);

describe("coincidenceMatrix", () => {
  it("reproduces the coincidence matrix of Krippendorff 2011 (section C)", () => {
    // Hand calculation, o_ck = sum_u n_uc n_uk / (m_u - 1):
    // o_11 = 3*2/2 (unit 1) + 3*2/3 (unit 8) + 2*1/1 (unit 11) = 7
    // o_12 = 1/3 (unit 6) + 3*1/3 (unit 8) = 4/3; o_13 = o_14 = 1/3 (unit 6)
    // o_22 = 3*2/3 + 4 + 4 = 10; o_23 = 3*1/3 + 1/3 = 4/3; o_24 = 1/3
    // o_33 = 4 + 4 = 8; o_34 = 1/3; o_44 = 4; o_55 = 3*2/2 = 3. Row sums 9, 13, 10, 5, 3.
    const t = 1 / 3;
    const expected = [
      [7, 4 * t, t, t, 0],
      [4 * t, 10, 4 * t, t, 0],
      [t, 4 * t, 8, t, 0],
      [t, t, t, 4, 0],
      [0, 0, 0, 0, 3],
    ];
    const got = coincidenceMatrix(units, "nominal");
    expect(got.values).toEqual([1, 2, 3, 4, 5]);
    expect(got.marginals).toEqual([9, 13, 10, 5, 3]);
    expect(got.n).toBe(40);
    got.matrix.forEach((row, c) => row.forEach((v, k) => expect(v).toBeCloseTo(expected[c][k], 12)));
  });

  it("orders numeric values ascending and leaves out values only seen in single-value units", () => {
    const got = coincidenceMatrix([[5, 1], [3], [1, 5, 5]], "interval");
    expect(got.values).toEqual([1, 5]);
  });
});

describe("alphaDeltaSquared", () => {
  it("ordinal differences depend on the marginals (Krippendorff 2011, section E)", () => {
    // n_g = 9, 13, 10, 5, 3. delta_12 = (9 + 13 - (9+13)/2)^2 = 11^2 = 121;
    // delta_13 = (9+13+10 - (9+10)/2)^2 = 22.5^2 = 506.25; delta_15 = (40 - 6)^2 = 1156;
    // delta_45 = (5 + 3 - 4)^2 = 16.
    const co = alphaCoincidences(units, "ordinal");
    const d = alphaDeltaSquared(co);
    expect(d(0, 1)).toBe(121);
    expect(d(0, 2)).toBe(506.25);
    expect(d(0, 4)).toBe(1156);
    expect(d(3, 4)).toBe(16);
    expect(d(4, 3)).toBe(16);
  });

  it("ratio differences are ((c-k)/(c+k))^2", () => {
    // Values sorted [0, 1, 3]: (0-3)/(0+3) = -1 -> 1; (1-3)/(1+3) = -0.5 -> 0.25; (0-1)/1 -> 1.
    const co = alphaCoincidences([[1, 3, 0]], "ratio");
    expect(co.values).toEqual([0, 1, 3]);
    const d = alphaDeltaSquared(co);
    expect(d(0, 2)).toBe(1);
    expect(d(1, 2)).toBe(0.25);
    expect(d(0, 1)).toBe(1);
  });
});

describe("alphaExpectedSum", () => {
  it("nominal is n^2 - sum n_c^2 (hand: 1600 - 384 = 1216)", () => {
    const co = alphaCoincidences(units, "nominal");
    expect(alphaExpectedSum(co, co.marginals, co.n, alphaDeltaSquared(co))).toBe(1216);
  });

  it("interval O(V) formula equals the O(V^2) sum over pairs", () => {
    const co = alphaCoincidences(units, "interval");
    let pairs = 0;
    const x = co.numeric!;
    for (let c = 0; c < x.length; c++) for (let k = 0; k < x.length; k++) pairs += co.marginals[c] * co.marginals[k] * (x[c] - x[k]) ** 2;
    expect(pairs).toBe(4480);
    expect(alphaExpectedSum(co, co.marginals, co.n, alphaDeltaSquared(co))).toBeCloseTo(4480, 9);
  });
});
