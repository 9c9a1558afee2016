import { describe, expect, it } from "vitest";
import { pairwiseAlpha } from "@/lib/stats/agreement-summary";
import type { AlphaValue } from "@/lib/stats/alpha-coincidences";
import { kendallTauDistance } from "@/lib/stats/kendall-tau-distance";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import {
  kendallPermutationAlpha,
  addKendallPermutationSums,
  kendallPermutationAlphaOfSums,
  kendallPermutationAlphaOfUnits,
  kendallPermutationSumsOfUnits,
  kendallPermutationBetweenCoders,
  kendallPermutationUnits,
  kendallPermutationAlphaBootstrap,
  kendallPermutationDeltaSquared,
  kendallPermutationPairwiseAlpha,
} from "@/lib/stats/kendall-permutation-alpha";
import { mulberry32, randomInt, type Rng } from "@/lib/stats/rng";
import { shuffle } from "@/lib/stats/sample-without-replacement";

// The reference is the general algorithm (krippendorffAlphaFromUnits / krippendorffAlphaBootstrap,
// checked against Krippendorff 2011 in their own tests) with the same metric written as a custom
// delta^2 on strings, its distances from lib/stats/kendall-tau-distance.ts.
const customMetric = {
  name: "kendall (reference)",
  deltaSquared: (a: AlphaValue, b: AlphaValue) => {
    const pa = String(a) === "" ? [] : String(a).split(",");
    const pb = String(b) === "" ? [] : String(b).split(",");
    return pa.length !== pb.length ? 1 : kendallTauDistance(String(a), String(b));
  },
};
const toStrings = (units: Array<Array<number[] | null>>) => units.map((u) => u.filter((v): v is number[] => v !== null).map((v) => v.join(",")));

function swapOnce(order: number[], rng: Rng): number[] {
  const out = order.slice();
  const i = randomInt(rng, out.length);
  const j = randomInt(rng, out.length);
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** Items of lengths 1..7, three coders who mostly agree, some missing answers. */
function designedUnits(seed: number, count: number): Array<Array<number[] | null>> {
  const rng = mulberry32(seed);
  const units: Array<Array<number[] | null>> = [];
  for (let u = 0; u < count; u++) {
    const L = 1 + randomInt(rng, 7);
    const truth = shuffle(
      Array.from({ length: L }, (_, i) => i),
      rng,
    );
    units.push([0, 1, 2].map(() => (rng() < 0.1 ? null : rng() < 0.6 ? truth : swapOnce(truth, rng))));
  }
  return units;
}

describe("kendallPermutationDeltaSquared", () => {
  it("is the normalised Kendall distance, 1 across lengths", () => {
    expect(kendallPermutationDeltaSquared([0, 1, 2], [1, 0, 2])).toBeCloseTo(1 / 3, 12);
    expect(kendallPermutationDeltaSquared([0, 1, 2, 3], [3, 2, 1, 0])).toBe(1);
    expect(kendallPermutationDeltaSquared([0, 1], [0, 1, 2])).toBe(1);
    expect(kendallPermutationDeltaSquared([0], [0])).toBe(0);
    expect(() => kendallPermutationDeltaSquared([0, 0], [0, 1])).toThrow("requires permutations");
  });
});

describe("kendallPermutationAlpha", () => {
  it.each([1, 2, 3, 4])("equals the general algorithm with the custom metric (seed %i, mixed lengths)", (seed) => {
    const units = designedUnits(seed, 60);
    const fast = kendallPermutationAlpha(units);
    const reference = krippendorffAlphaFromUnits(toStrings(units), customMetric);
    expect(fast.alpha).toBeCloseTo(reference.alpha!, 12);
    expect(fast.n).toBe(reference.n);
    expect(fast.units).toBe(reference.units);
    expect(fast.observedDisagreement).toBeCloseTo(reference.observedDisagreement!, 12);
    expect(fast.expectedDisagreement).toBeCloseTo(reference.expectedDisagreement!, 12);
  });

  it("works out a small case by hand", () => {
    // Two units of length 3. Unit 1: [0,1,2] twice (O_1 = 0). Unit 2: [0,1,2] and [1,0,2] at
    // distance 1/3: O_2 = 2 * (1/3) / 1 = 2/3. n = 4. Expected over ordered pairs of the 4 values
    // (three [0,1,2], one [1,0,2]): 2 * 3 * 1 * (1/3) = 2. alpha = 1 - 3 * (2/3) / 2 = 0.
    const r = kendallPermutationAlpha([
      [
        [0, 1, 2],
        [0, 1, 2],
      ],
      [
        [0, 1, 2],
        [1, 0, 2],
      ],
    ]);
    expect(r.alpha).toBeCloseTo(0, 12);
    expect(r.observedDisagreement).toBeCloseTo(2 / 3 / 4, 12);
    expect(r.expectedDisagreement).toBeCloseTo(2 / 12, 12);
  });

  it("gives null with a reason, never 0 or 1, when alpha is undefined", () => {
    const same = kendallPermutationAlpha([
      [
        [0, 1],
        [0, 1],
      ],
      [
        [0, 1],
        [0, 1],
      ],
    ]);
    expect(same.alpha).toBeNull();
    expect(same.reason).toMatch(/expected disagreement is 0/);
    const lonely = kendallPermutationAlpha([[[0, 1]], [null, [1, 0]]]);
    expect(lonely.alpha).toBeNull();
    expect(lonely.reason).toMatch(/no pairable values/);
  });

  it("refuses values that are not permutations", () => {
    expect(() =>
      kendallPermutationAlpha([
        [
          [0, 0],
          [0, 1],
        ],
      ]),
    ).toThrow("kendallPermutationAlpha requires permutations of 0..n-1 (unit 0");
  });
});

describe("kendallPermutationAlphaBootstrap", () => {
  it("reproduces the general unit bootstrap draw for draw", () => {
    const units = designedUnits(7, 40);
    const fast = kendallPermutationAlphaBootstrap(units, mulberry32(3), { resamples: 200 });
    const reference = krippendorffAlphaBootstrap(toStrings(units), customMetric, mulberry32(3), { resamples: 200 });
    expect(fast.undefinedResamples).toBe(reference.undefinedResamples);
    expect(fast.replicates.length).toBe(reference.replicates.length);
    fast.replicates.forEach((v, i) => expect(v).toBeCloseTo(reference.replicates[i], 10));
    expect(fast.ci![0]).toBeCloseTo(reference.ci![0], 10);
    expect(fast.ci![1]).toBeCloseTo(reference.ci![1], 10);
    expect(fast.description).toBe(reference.description);
  });

  it("is reproducible by seed and uses 1,000 resamples by default", () => {
    const units = designedUnits(8, 30);
    const a = kendallPermutationAlphaBootstrap(units, mulberry32(1));
    expect(a.resamples).toBe(1000);
    expect(kendallPermutationAlphaBootstrap(units, mulberry32(1)).ci).toEqual(a.ci);
  });
});

describe("kendallPermutationPairwiseAlpha", () => {
  it("matches pairwiseAlpha with the custom metric", () => {
    const units = designedUnits(11, 50);
    const matrix = [0, 1, 2].map((c) => units.map((u) => u[c]));
    const fast = kendallPermutationPairwiseAlpha(matrix);
    const reference = pairwiseAlpha(
      matrix.map((row) => row.map((v) => (v ? v.join(",") : null))),
      customMetric,
    );
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 3; b++) {
        if (a === b) expect(fast.matrix[a][b]).toBeNull();
        else expect(fast.matrix[a][b]).toBeCloseTo(reference.matrix[a][b]!, 12);
      }
    expect(fast.pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  });
});

describe("kendallPermutationAlphaOfUnits", () => {
  it("gives the alpha of any subset of prepared units as kendallPermutationAlpha of the subset does", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rng = mulberry32(500 + seed);
      const units = Array.from({ length: 4 + Math.floor(rng() * 40) }, () => {
        const L = 1 + Math.floor(rng() * 5);
        const truth = shuffle(
          Array.from({ length: L }, (_, i) => i),
          rng,
        );
        return Array.from({ length: 1 + Math.floor(rng() * 4) }, () =>
          rng() < 0.1
            ? null
            : rng() < 0.5
              ? truth
              : rng() < 0.1
                ? shuffle(
                    Array.from({ length: L + 1 }, (_, i) => i),
                    rng,
                  )
                : shuffle(truth, rng),
        );
      });
      const prepared = kendallPermutationUnits(units);
      const pairable: number[] = [];
      let p = 0;
      for (const unit of units) pairable.push(unit.filter((v) => v !== null).length >= 2 ? p++ : -1);
      for (let trial = 0; trial < 5; trial++) {
        const chosen = units.map((_, u) => u).filter(() => rng() < 0.5);
        const want = kendallPermutationAlpha(chosen.map((u) => units[u]));
        const ids = chosen.map((u) => pairable[u]).filter((x) => x >= 0);
        // the whole, and the sums of two disjoint parts of it added up
        const half = ids.filter(() => rng() < 0.5);
        const sums = kendallPermutationSumsOfUnits(prepared, half);
        addKendallPermutationSums(
          sums,
          kendallPermutationSumsOfUnits(
            prepared,
            ids.filter((id) => !half.includes(id)),
          ),
        );
        for (const got of [kendallPermutationAlphaOfUnits(prepared, ids), kendallPermutationAlphaOfSums(prepared, sums)]) {
          expect(got.n).toBe(want.n);
          expect(got.units).toBe(want.units);
          expect(got.reason).toBe(want.reason);
          if (want.alpha === null) expect(got.alpha).toBeNull();
          else expect(Math.abs(got.alpha! - want.alpha)).toBeLessThan(1e-12);
        }
      }
    }
  });
});

describe("kendallPermutationBetweenCoders", () => {
  it("gives exactly the pairwise alphas and the alphas without each coder of the per-pair and per-coder computations", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const rng = mulberry32(900 + seed);
      const C = 2 + Math.floor(rng() * 4);
      const U = 3 + Math.floor(rng() * 40);
      const matrix = Array.from({ length: C }, () => new Array<number[] | null>(U).fill(null));
      for (let u = 0; u < U; u++) {
        const L = 1 + Math.floor(rng() * 6);
        const truth = shuffle(
          Array.from({ length: L }, (_, i) => i),
          rng,
        );
        for (let c = 0; c < C; c++) {
          if (rng() < 0.15) continue;
          matrix[c][u] =
            rng() < 0.05
              ? shuffle(
                  Array.from({ length: L + 1 }, (_, i) => i),
                  rng,
                )
              : rng() < 0.5
                ? truth
                : shuffle(truth, rng);
        }
      }
      const between = kendallPermutationBetweenCoders(matrix);
      const pairwise = kendallPermutationPairwiseAlpha(matrix);
      expect(between.pairwise).toEqual(pairwise);
      if (C < 3) expect(between.leaveOneOut).toBeNull();
      else {
        between.leaveOneOut!.forEach((result, left) => {
          const rest = matrix.filter((_, c) => c !== left);
          expect(result).toEqual(kendallPermutationAlpha(Array.from({ length: U }, (_, u) => rest.map((row) => row[u]))));
        });
      }
    }
  });
});
