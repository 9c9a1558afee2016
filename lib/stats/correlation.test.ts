import { describe, expect, it } from "vitest";
import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";
import { averageRanks, spearmanCorrelation } from "@/lib/stats/spearman-correlation";

// Expected values computed with NumPy 1.x np.corrcoef and SciPy stats.spearmanr (the same definitions as R's cor(x, y, method = "pearson" | "spearman")).
describe("pearsonCorrelation", () => {
  it("matches R's cor()", () => {
    // np.corrcoef([1, 2, 3], [2, 4, 7])[0, 1] = 0.9933992677987828
    expect(pearsonCorrelation([1, 2, 3], [2, 4, 7])).toBeCloseTo(0.9933992678, 9);
    // np.corrcoef([0.25, 0.4, 0.3, 0.6], [0.5, 0.9, 1, 0.7])[0, 1] = 0.03642053564075647
    expect(pearsonCorrelation([0.25, 0.4, 0.3, 0.6], [0.5, 0.9, 1, 0.7])).toBeCloseTo(0.0364205356, 9);
    expect(pearsonCorrelation([1, 2, 3], [3, 2, 1])).toBe(-1);
  });
  it("is null for a constant sample and refuses bad input", () => {
    expect(pearsonCorrelation([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(() => pearsonCorrelation([1], [1])).toThrow("pearsonCorrelation requires at least 2 data points");
    expect(() => pearsonCorrelation([1, 2], [1])).toThrow(/equal length/);
  });
});

describe("spearmanCorrelation", () => {
  it("ranks ties by their mean rank, as R's rank()", () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
  it("matches R's cor(method = 'spearman')", () => {
    // spearmanr([1, 2, 3, 4], [1, 3, 2, 4]) = 0.8
    expect(spearmanCorrelation([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
    // spearmanr([0.25, 0.4, 0.3, 0.6], [0.5, 0.9, 1, 0.7]) = 0.2
    expect(spearmanCorrelation([0.25, 0.4, 0.3, 0.6], [0.5, 0.9, 1, 0.7])).toBeCloseTo(0.2, 12);
    // ties: spearmanr([1, 2, 2, 3], [1, 1, 2, 3]) = 0.8333333333333335
    expect(spearmanCorrelation([1, 2, 2, 3], [1, 1, 2, 3])).toBeCloseTo(0.8333333333, 9);
  });
});
