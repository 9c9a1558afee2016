import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import { krippendorffAlpha, krippendorffAlphaFromUnits, reliabilityMatrixToUnits, type AlphaLevel, type AlphaValue } from "@/lib/stats/krippendorff-alpha";
import { mulberry32 } from "@/lib/stats/rng";

describe("krippendorffAlpha on the Krippendorff 2011 worked example", () => {
  // Expected values: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections C-E.
  it.each([
    ["nominal", 0.743],
    ["ordinal", 0.815],
    ["interval", 0.849],
    ["ratio", 0.797],
  ] as const)("%s alpha is %d", (level, expected) => {
    const r = krippendorffAlpha(KRIPPENDORFF_2011, level);
    expect(r.alpha!.toFixed(3)).toBe(expected.toFixed(3));
    expect(r.n).toBe(40); // paper: n.. = 40
    expect(r.units).toBe(11); // unit 12 holds a single value and is not pairable
    expect(r.metric).toBe(level);
  });

  it("nominal matches the hand calculation exactly", () => {
    // Off-diagonal coincidences: unit 2 (2,2,3,2): 2*3*1/3 = 2; unit 6 (1,2,3,4): 12/3 = 4;
    // unit 8 (1,1,2,1): 2; total 8, so D_o = 8/40 = 0.2.
    // Marginals n_c = 9, 13, 10, 5, 3 -> D_e = (40^2 - (81+169+100+25+9)) / (40*39) = 1216/1560.
    // alpha = 1 - 0.2 / (1216/1560) = 1 - 312/1216 = 0.743421052631579.
    const r = krippendorffAlpha(KRIPPENDORFF_2011, "nominal");
    expect(r.observedDisagreement).toBeCloseTo(0.2, 12);
    expect(r.expectedDisagreement).toBeCloseTo(1216 / 1560, 12);
    expect(r.alpha).toBeCloseTo(1 - 312 / 1216, 12);
  });

  it("interval matches the hand calculation exactly", () => {
    // Off-diagonal o_ck + o_kc times (c-k)^2: (1,2) 8/3*1, (1,3) 2/3*4, (1,4) 2/3*9, (2,3) 8/3*1,
    // (2,4) 2/3*4, (3,4) 2/3*1 -> sum 52/3. Expected: mean 100/40 = 2.5,
    // sum n_c (c - 2.5)^2 = 9*2.25 + 13*.25 + 10*.25 + 5*2.25 + 3*6.25 = 56, so
    // sum_{c!=k} n_c n_k (c-k)^2 = 2*40*56 = 4480 and alpha = 1 - 39*(52/3)/4480 = 1 - 676/4480.
    const r = krippendorffAlpha(KRIPPENDORFF_2011, "interval");
    expect(r.alpha).toBeCloseTo(1 - 676 / 4480, 12);
    expect(r.observedDisagreement).toBeCloseTo(52 / 3 / 40, 12);
    expect(r.expectedDisagreement).toBeCloseTo(4480 / (40 * 39), 12);
  });

  it("units form gives the same result as the matrix form", () => {
    const units = reliabilityMatrixToUnits(KRIPPENDORFF_2011);
    for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
      expect(krippendorffAlphaFromUnits(units, level)).toEqual(krippendorffAlpha(KRIPPENDORFF_2011, level));
    }
  });

  it("strings work for nominal data (same result as the numeric codes)", () => {
    const letters = KRIPPENDORFF_2011.map((row) => row.map((v) => (v === null ? null : "abcde"[v - 1])));
    expect(krippendorffAlpha(letters, "nominal").alpha).toBeCloseTo(1 - 312 / 1216, 12);
  });

  it("a custom distance equal to the interval metric reproduces the interval alpha", () => {
    const custom = { name: "squared difference", deltaSquared: (a: AlphaValue, b: AlphaValue) => ((a as number) - (b as number)) ** 2 };
    const r = krippendorffAlpha(KRIPPENDORFF_2011, custom);
    expect(r.metric).toBe("squared difference");
    expect(r.alpha).toBeCloseTo(krippendorffAlpha(KRIPPENDORFF_2011, "interval").alpha!, 12);
    expect(r.alpha).toBeCloseTo(1 - 676 / 4480, 12);
  });
});

describe("krippendorffAlpha edge cases", () => {
  it("handles missing data (hand calculation)", () => {
    // Units: [1,1], [1,2,1], [3,3], [2,2]; n = 9. Unit 2: 2*2*1/(3-1) = 2 off-diagonal.
    // Marginals 1:4, 2:3, 3:2 -> sum_{c!=k} n_c n_k = 81 - 29 = 52; alpha = 1 - 8*2/52 = 9/13.
    const r = krippendorffAlpha(
      [
        [1, 1, null, 2],
        [1, 2, 3, 2],
        [null, 1, 3, null],
      ],
      "nominal",
    );
    expect(r.n).toBe(9);
    expect(r.units).toBe(4);
    expect(r.alpha).toBeCloseTo(9 / 13, 12);
  });

  it("skips a unit with a single value", () => {
    const base = [
      [1, 1, null, 2],
      [1, 2, 3, 2],
      [null, 1, 3, null],
    ];
    const withLonely = base.map((row, i) => [...row, i === 1 ? 7 : null]);
    const a = krippendorffAlpha(base, "interval");
    const b = krippendorffAlpha(withLonely, "interval");
    expect(b).toEqual(a);
  });

  it("returns null with a reason when every value agrees (expected disagreement 0)", () => {
    const r = krippendorffAlpha(
      [
        [3, 3, 3],
        [3, 3, 3],
      ],
      "nominal",
    );
    expect(r.alpha).toBeNull();
    expect(r.reason).toMatch(/expected disagreement is 0/);
    expect(r.n).toBe(6);
    expect(r.expectedDisagreement).toBe(0);
  });

  it("returns null (not a rounding artefact) for identical non-integer interval values", () => {
    const r = krippendorffAlpha(
      [
        [0.1, 0.1, 0.1],
        [0.1, 0.1, 0.1],
        [0.1, 0.1, null],
      ],
      "interval",
    );
    expect(r.alpha).toBeNull();
  });

  it("returns null with a reason when nothing is pairable", () => {
    const r = krippendorffAlpha(
      [
        [1, null],
        [null, 2],
      ],
      "nominal",
    );
    expect(r.alpha).toBeNull();
    expect(r.reason).toMatch(/no pairable values/);
    expect(r.n).toBe(0);
    expect(r.units).toBe(0);
  });

  it("gives a negative alpha for systematic disagreement (hand calculation)", () => {
    // Units [1,2] and [2,1]: each contributes 2*1*1/1 = 2 off-diagonal, total 4; n = 4;
    // marginals 2, 2 -> 16 - 8 = 8; alpha = 1 - 3*4/8 = -0.5.
    expect(
      krippendorffAlpha(
        [
          [1, 2],
          [2, 1],
        ],
        "nominal",
      ).alpha,
    ).toBeCloseTo(-0.5, 12);
    // Units [1,2], [2,3], [3,1]: off-diagonal 6, n = 6, marginals 2,2,2 -> 36 - 12 = 24;
    // alpha = 1 - 5*6/24 = -0.25.
    expect(
      krippendorffAlpha(
        [
          [1, 2, 3],
          [2, 3, 1],
        ],
        "nominal",
      ).alpha,
    ).toBeCloseTo(-0.25, 12);
  });

  it("perfect agreement with variation gives exactly 1", () => {
    expect(
      krippendorffAlpha(
        [
          [1, 2, 3],
          [1, 2, 3],
        ],
        "ordinal",
      ).alpha,
    ).toBe(1);
  });

  it("throws readable errors", () => {
    expect(() => krippendorffAlpha([[1, 2]], "nominal")).toThrow("krippendorffAlpha requires at least 2 coders");
    expect(() => krippendorffAlpha([[1, 2], [1]], "nominal")).toThrow(/same number of units/);
    expect(() =>
      krippendorffAlpha(
        [
          ["a", "b"],
          ["a", "b"],
        ],
        "interval",
      ),
    ).toThrow('krippendorffAlpha requires numbers for the interval level (got "a" in unit 0)');
    expect(() =>
      krippendorffAlpha(
        [
          [-1, 2],
          [1, 2],
        ],
        "ratio",
      ),
    ).toThrow(/non-negative numbers for the ratio level/);
    expect(() =>
      krippendorffAlpha(
        [
          [NaN, 2],
          [1, 2],
        ],
        "nominal",
      ),
    ).toThrow(/finite numbers/);
    expect(() => krippendorffAlpha([[1], [2]], "cardinal" as AlphaLevel)).toThrow(/level of nominal, ordinal/);
    const bad = { name: "bad", deltaSquared: () => -1 };
    expect(() =>
      krippendorffAlpha(
        [
          [1, 2],
          [2, 1],
        ],
        bad,
      ),
    ).toThrow(/deltaSquared to return a finite non-negative number/);
  });
});

/**
 * Reference implementation straight from the definition over pairable values (Krippendorff 2011,
 * section B: D_o = (1/n) sum_u 1/(m_u - 1) sum over ordered pairs of values in u of delta^2;
 * D_e = 1/(n(n-1)) sum over ordered pairs of all pairable values of delta^2), O(n^2).
 */
function naiveAlpha(units: (number | null)[][], level: AlphaLevel): number | null {
  const pairable = units.map((u) => u.filter((v): v is number => v !== null)).filter((u) => u.length >= 2);
  const all = pairable.flat();
  const n = all.length;
  const count = new Map<number, number>();
  for (const v of all) count.set(v, (count.get(v) ?? 0) + 1);
  const sortedValues = [...count.keys()].sort((a, b) => a - b);
  const delta = (a: number, b: number): number => {
    if (a === b) return 0;
    if (level === "nominal") return 1;
    if (level === "interval") return (a - b) ** 2;
    if (level === "ratio") return ((a - b) / (a + b)) ** 2;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    let s = 0;
    for (const g of sortedValues) if (g >= lo && g <= hi) s += count.get(g)!;
    return (s - (count.get(lo)! + count.get(hi)!) / 2) ** 2;
  };
  let o = 0;
  for (const u of pairable) {
    let s = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) s += delta(u[i], u[j]);
    o += s / (u.length - 1);
  }
  let e = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) e += delta(all[i], all[j]);
  if (e === 0) return null;
  return 1 - o / n / (e / (n * (n - 1)));
}

describe("krippendorffAlpha against a from-the-definition reference on random data", () => {
  it.each(["nominal", "ordinal", "interval", "ratio"] as const)("%s", (level) => {
    const rng = mulberry32(42);
    for (let trial = 0; trial < 20; trial++) {
      const coders = 2 + Math.floor(rng() * 4);
      const unitsCount = 1 + Math.floor(rng() * 25);
      const V = 2 + Math.floor(rng() * 6);
      const matrix: (number | null)[][] = Array.from({ length: coders }, () =>
        Array.from({ length: unitsCount }, () => (rng() < 0.2 ? null : 1 + Math.floor(rng() * V))),
      );
      const units = reliabilityMatrixToUnits(matrix) as number[][];
      const expected = naiveAlpha(units, level);
      const got = krippendorffAlpha(matrix, level).alpha;
      if (expected === null) expect(got).toBeNull();
      else expect(got).toBeCloseTo(expected, 10);
    }
  });
});
