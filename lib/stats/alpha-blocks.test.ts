import { describe, expect, it } from "vitest";
import { blockEstimate, blockParts, unionOfParts, type AlphaBlockTable } from "@/lib/stats/alpha-blocks";
import { alphaCoincidences, type AlphaValue } from "@/lib/stats/alpha-coincidences";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";

/** One item per unit, every unit pairable; `withSums`: the built-in level's per-unit coincidences, else the units re-read. */
function table(units: AlphaValue[][], withSums: boolean): AlphaBlockTable {
  return {
    metric: "nominal",
    table: { units, unitCoders: units.map((unit) => unit.map((_, coder) => coder)), unitItem: units.map((_, u) => u) },
    itemUnits: units.map((_, u) => [u]),
    itemAgrees: units.map((unit) => unit.every((v) => v === unit[0])),
    coders: [0, 1, 2],
    fast: false,
    orders: null,
    kendallUnits: null,
    coincidences: withSums ? alphaCoincidences(units, "nominal", { perUnit: true }) : null,
    pairableIndex: Int32Array.from(units.map((_, u) => u)),
    unitSame: Uint8Array.from(units.map((unit) => (unit.every((v) => v === unit[0]) ? 1 : 0))),
  };
}

describe("alpha of blocks from their summed parts", () => {
  const units: AlphaValue[][] = [
    ["a", "a"],
    ["a", "b"],
    ["b", "b", "b"],
    ["a", "b", "b"],
    ["c", "c"],
  ];
  // Expected by hand (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section C): o_ab = o_ba = 2,
  // n = 12, n_a = 4, n_b = 6, n_c = 2, so alpha = 1 - (n - 1) (o_ab + o_ba) / (n^2 - sum n_c^2) = 1 - 11 * 4 / 88 = 0.5.
  const expected = 0.5;

  it("is what alpha over the same units is", () => {
    expect(krippendorffAlphaFromUnits(units, "nominal").alpha).toBeCloseTo(expected, 12);
  });

  it.each([true, false])("gives the alpha of the block's units (per-unit sums: %s)", (withSums) => {
    const t = table(units, withSums);
    const estimate = blockEstimate(t, blockParts(t, [0, 1, 2, 3, 4]));
    expect(estimate.alpha).toBeCloseTo(expected, 12);
    expect(estimate.units).toBe(5);
    expect(estimate.perfectUnits).toEqual({ agreeing: 3, total: 5, share: 0.6 });
  });

  it.each([true, false])("sums disjoint blocks into their union (per-unit sums: %s)", (withSums) => {
    const t = table(units, withSums);
    const union = unionOfParts([blockParts(t, [0, 3]), blockParts(t, [1]), blockParts(t, [2, 4])]);
    expect(blockEstimate(t, union).alpha).toBeCloseTo(expected, 12);
    expect(union.items).toBe(5);
  });
});
