import { bootstrapCi } from "@/lib/stats/bootstrap-ci";
import type { Rng } from "@/lib/stats/rng";

export interface PairedDifference {
  /** pairs used (both values defined) */
  n: number;
  meanA: number | null;
  meanB: number | null;
  /** mean(a) - mean(b) over the pairs */
  difference: number | null;
  /** percentile interval of the difference over resampled pairs */
  ci: [number, number] | null;
  /** two-sided bootstrap p-value: twice the smaller share of replicates on either side of 0 (capped at 1) */
  pValue: number | null;
  method: string;
}

/**
 * Paired bootstrap of the difference in means of two systems scored on the same units (e.g.
 * humans and an agent on the same tasks): resamples the units with replacement and recomputes
 * mean(a - b) on each resample; the interval is the percentile interval of the replicates and the
 * p-value the two-sided share of replicates at or beyond 0. Pairs with a null or NaN member are
 * left out first.
 * Source: Koehn 2004, "Statistical Significance Tests for Machine Translation Evaluation" (paired
 * bootstrap resampling); Efron & Tibshirani 1993, sections 6.2 and 13.3 (percentile interval).
 * O(resamples x n).
 * @example
 * pairedBootstrapDifference([[1, 0], [1, 1], [0, 0]], mulberry32(1)).difference; // 1 / 3
 */
export function pairedBootstrapDifference(
  pairs: ReadonlyArray<readonly [number | null, number | null]>,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): PairedDifference {
  const method = "paired bootstrap over units (percentile interval)";
  const kept = pairs.filter((pair): pair is readonly [number, number] => typeof pair[0] === "number" && typeof pair[1] === "number" && !Number.isNaN(pair[0]) && !Number.isNaN(pair[1]));
  const n = kept.length;
  if (n === 0) return { n, meanA: null, meanB: null, difference: null, ci: null, pValue: null, method };
  const meanA = kept.reduce((sum, pair) => sum + pair[0], 0) / n;
  const meanB = kept.reduce((sum, pair) => sum + pair[1], 0) / n;
  const differences = kept.map((pair) => pair[0] - pair[1]);
  const result = bootstrapCi(differences, (sample) => sample.reduce((sum, d) => sum + d, 0) / sample.length, rng, options);
  const replicates = result.replicates;
  let below = 0;
  let above = 0;
  for (const value of replicates) {
    if (value <= 0) below++;
    if (value >= 0) above++;
  }
  const pValue = replicates.length === 0 ? null : Math.min(1, (2 * Math.min(below, above)) / replicates.length);
  return { n, meanA, meanB, difference: meanA - meanB, ci: result.ci, pValue, method };
}
