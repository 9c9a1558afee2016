import { describe, expect, it } from "vitest";
import {
  kendallTauAlphaMetric,
  kendallTauDeltaSquared,
  kendallTauDiscordantPairs,
  kendallTauDistance,
  parsePermutation,
  permutationKey,
} from "@/lib/stats/kendall-tau-distance";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { mulberry32, randomInt } from "@/lib/stats/rng";

/** Brute force over item pairs on rank vectors (positions), O(n^2). */
function bruteDiscordant(a: number[], b: number[]): number {
  const ra: number[] = [];
  const rb: number[] = [];
  a.forEach((item, pos) => (ra[item] = pos));
  b.forEach((item, pos) => (rb[item] = pos));
  let d = 0;
  for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if ((ra[i] - ra[j]) * (rb[i] - rb[j]) < 0) d++;
  return d;
}

function randomPermutation(rng: () => number, n: number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

describe("kendallTauDistance", () => {
  it("is 0 for identical and 1 for reversed orders", () => {
    expect(kendallTauDistance([2, 0, 1], "2,0,1")).toBe(0);
    expect(kendallTauDistance("0,1,2,3", "3,2,1,0")).toBe(1);
  });

  it("counts item pairs on rank vectors, not on the id sequences", () => {
    // Hand: [1,2,0] puts items at positions rank = [2,0,1]; [1,0,2] gives rank = [1,0,2].
    // Item pairs: {0,1} 0 after 1 in both; {0,2} after vs before (discordant); {1,2} before in both.
    // -> 1 discordant pair, distance 1/3. Reading the id sequences as numbers would give 3 (= 1).
    expect(kendallTauDiscordantPairs([1, 2, 0], [1, 0, 2])).toBe(1);
    expect(kendallTauDistance([1, 2, 0], [1, 0, 2])).toBeCloseTo(1 / 3, 12);
  });

  it("swapping two adjacent pairs (hand): [0,1,2,3] vs [1,0,3,2] -> 2 of 6 pairs", () => {
    expect(kendallTauDistance([0, 1, 2, 3], [1, 0, 3, 2])).toBeCloseTo(2 / 6, 12);
  });

  it("agrees with brute force on random permutations (merge-sort counting)", () => {
    const rng = mulberry32(5);
    for (let t = 0; t < 200; t++) {
      const n = 1 + randomInt(rng, 40);
      const a = randomPermutation(rng, n);
      const b = randomPermutation(rng, n);
      expect(kendallTauDiscordantPairs(a, b)).toBe(bruteDiscordant(a, b));
    }
  });

  it("is 0 for length 0 and 1", () => {
    expect(kendallTauDistance([], [])).toBe(0);
    expect(kendallTauDistance([0], "0")).toBe(0);
  });

  it("rejects non-permutations and unequal lengths", () => {
    expect(() => kendallTauDistance([0, 0, 1], [0, 1, 2])).toThrow(/kendallTauDistance requires a permutation of 0..n-1/);
    expect(() => kendallTauDistance("1,2,3", "0,1,2")).toThrow(/permutation of 0..n-1/);
    expect(() => kendallTauDistance("0,1", "0,1,2")).toThrow("kendallTauDistance requires permutations of equal length (got 2 and 3)");
    expect(() => parsePermutation("0,x")).toThrow(/parsePermutation requires a permutation/);
  });
});

describe("permutation helpers and the alpha metric", () => {
  it("parses and canonicalises permutation strings", () => {
    expect(parsePermutation("[2, 0, 1]")).toEqual([2, 0, 1]);
    expect(permutationKey(" 2 ,0,1 ")).toBe("2,0,1");
  });

  it("deltaSquared is the distance itself, not squared again (hand: one adjacent swap of 3 -> 1/3)", () => {
    expect(kendallTauDeltaSquared("0,1,2", "1,0,2")).toBeCloseTo(1 / 3, 12);
    expect(kendallTauAlphaMetric({ squared: true }).deltaSquared("0,1,2", "1,0,2")).toBeCloseTo(1 / 9, 12);
    expect(() => kendallTauDeltaSquared(1, 2)).toThrow(/strings like/);
  });

  it("works as a custom alpha metric (hand calculation)", () => {
    // Units ["0,1,2","0,1,2"] and ["0,1,2","1,0,2"]; n = 4; one off-diagonal pair with
    // o_ck + o_kc = 2 and delta^2 = 1/3 -> sum o delta = 2/3. Marginals 3 and 1:
    // sum_{c!=k} n_c n_k delta^2 = 2*3*1/3 = 2. alpha = 1 - 3*(2/3)/2 = 0.
    const r = krippendorffAlphaFromUnits(
      [
        ["0,1,2", "0,1,2"],
        ["0,1,2", "1,0,2"],
      ],
      kendallTauAlphaMetric(),
    );
    expect(r.alpha).toBeCloseTo(0, 12);
    expect(r.metric).toBe("kendall-tau");
  });

  it("unequal lengths: error by default, distance 1 on request", () => {
    const units = [
      ["0,1", "0,1"],
      ["0,1,2", "0,2,1"],
    ];
    expect(() => krippendorffAlphaFromUnits(units, kendallTauAlphaMetric())).toThrow(/equal length/);
    // Values "0,1" (2), "0,1,2" (1), "0,2,1" (1); delta^2: long pair 1/3, mixed pairs 1.
    // Observed: 2 * (1/3); expected: 2 * (2*1*1 + 2*1*1 + 1*1*1/3) = 26/3.
    // alpha = 1 - 3 * (2/3) / (26/3) = 1 - 6/26.
    const r = krippendorffAlphaFromUnits(units, kendallTauAlphaMetric({ unequalLength: "maximal" }));
    expect(r.alpha).toBeCloseTo(1 - 6 / 26, 12);
    // Squared variant: long pair 1/9 -> observed 2/9, expected 2 * (4 + 1/9) = 74/9; 1 - 3 * (2/9) / (74/9).
    const sq = krippendorffAlphaFromUnits(units, kendallTauAlphaMetric({ unequalLength: "maximal", squared: true }));
    expect(sq.alpha).toBeCloseTo(1 - 6 / 74, 12);
  });
});

describe("kendallTauAlphaMetric internals", () => {
  it("its deltaSquared equals kendallTauDistance (squared: its square) for short and long permutations", () => {
    const rng = mulberry32(8);
    const metric = kendallTauAlphaMetric({ squared: true });
    const plain = kendallTauAlphaMetric();
    for (const n of [2, 5, 32, 33, 60]) {
      for (let t = 0; t < 20; t++) {
        const a = randomPermutation(rng, n).join(",");
        const b = randomPermutation(rng, n).join(",");
        expect(metric.deltaSquared(a, b)).toBeCloseTo(kendallTauDistance(a, b) ** 2, 14);
        expect(plain.deltaSquared(a, b)).toBe(kendallTauDistance(a, b));
        expect(metric.deltaSquared(a, b)).toBeCloseTo((bruteDiscordant(parsePermutation(a), parsePermutation(b)) / ((n * (n - 1)) / 2)) ** 2, 14);
      }
    }
  });
});
