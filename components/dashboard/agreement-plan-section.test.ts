import { describe, expect, it } from "vitest";
import { pairwiseAlphaPairs, pairwiseRangeText } from "@/components/dashboard/agreement-plan-section";

describe("the agreement plan's pairwise alphas", () => {
  const names = ["Ada", "Ben", "Cleo", "Dmitri"];
  const matrix = [
    [null, 0.9, 0.8, 0.7],
    [0.9, null, null, 0.6],
    [0.8, null, null, 0.5],
    [0.7, 0.6, 0.5, null],
  ];

  it("names every pair once, from the upper triangle", () => {
    expect(pairwiseAlphaPairs(matrix, names)).toEqual([
      { alpha: 0.9, names: "Ada–Ben" },
      { alpha: 0.8, names: "Ada–Cleo" },
      { alpha: 0.7, names: "Ada–Dmitri" },
      { alpha: null, names: "Ben–Cleo" },
      { alpha: 0.6, names: "Ben–Dmitri" },
      { alpha: 0.5, names: "Cleo–Dmitri" },
    ]);
  });

  it("reads many pairs as their range and median, counting the undefined ones", () => {
    expect(pairwiseRangeText(pairwiseAlphaPairs(matrix, names))).toBe(
      "pairwise alphas from 0.5000 (Cleo–Dmitri) to 0.9000 (Ada–Ben), median 0.7000 over 6 pairs (1 undefined)",
    );
    // an even count of defined pairs: the median is the mean of the middle two
    const even = pairwiseAlphaPairs(matrix, names).filter((pair) => pair.names !== "Ada–Dmitri");
    expect(pairwiseRangeText(even)).toBe("pairwise alphas from 0.5000 (Cleo–Dmitri) to 0.9000 (Ada–Ben), median 0.7000 over 5 pairs (1 undefined)");
    expect(pairwiseRangeText([{ alpha: null, names: "Ada–Ben" }])).toBe("pairwise alphas undefined for all 1 pairs");
  });
});
