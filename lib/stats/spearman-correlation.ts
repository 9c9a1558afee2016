import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";

/** Ranks 1..n, ties given the mean of the ranks they span (R's rank(ties.method = "average")). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end++;
    const meanRank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k].index] = meanRank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Spearman's rank correlation: Pearson's correlation of the average ranks (ties share their mean
 * rank). Null when either sample is constant.
 * Source: Spearman 1904, "The proof and measurement of association between two things",
 * Am. J. Psychol. 15(1); equals R's cor(x, y, method = "spearman").
 * O(n log n).
 * @throws {Error} "spearmanCorrelation requires at least 2 data points", or samples of unequal length
 * @example
 * spearmanCorrelation([1, 2, 3, 4], [1, 3, 2, 4]); // 0.8
 */
export function spearmanCorrelation(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new Error(`spearmanCorrelation requires samples of equal length (got ${x.length} and ${y.length})`);
  if (x.length < 2) throw new Error("spearmanCorrelation requires at least 2 data points");
  return pearsonCorrelation(averageRanks(x), averageRanks(y));
}
