import { bootstrapOptions, percentileInterval } from "@/lib/stats/bootstrap-ci";
import { randomInt, type Rng } from "@/lib/stats/rng";

export interface PairedDifference {
  /** pairs used (both values defined) */
  n: number;
  /** clusters the pairs fall in (episodes; each pair its own without clusters) */
  clusters: number;
  meanA: number | null;
  meanB: number | null;
  /** mean(a) - mean(b) over the pairs */
  difference: number | null;
  /** percentile interval of the difference over resampled clusters; null with `reason` */
  ci: [number, number] | null;
  /** why there is no interval: "one item" (one cluster), or no spread (every resample the same) */
  reason?: string;
  /**
   * two-sided bootstrap p-value: twice the smaller share of replicates on either side of 0 (capped
   * at 1). Never 0: when no replicate lies on one side, it is 1/B and `pBelow` says p < 1/B.
   */
  pValue: number | null;
  /** true when the p-value is only known to be below `pValue` (= 1/B) */
  pBelow: boolean;
  method: string;
}

/**
 * Paired bootstrap of the difference in means of two systems scored on the same units (e.g.
 * humans and an agent on the same tasks): resamples clusters of units with replacement (episodes,
 * whose tasks share one world and one player; each unit its own cluster when none are given) and
 * recomputes the pooled mean of (a - b) over the resampled units; the interval is the percentile
 * interval of the replicates and the p-value the two-sided share of replicates at or beyond 0,
 * reported as p < 1/B when none lies there. Pairs with a null or NaN member are left out first.
 * Source: Koehn 2004, "Statistical Significance Tests for Machine Translation Evaluation" (paired bootstrap); Davison & Hinkley 1997, sec. 3.8 (cluster resampling); Efron & Tibshirani 1993, sec. 13.3 (percentile interval).
 * Draw order: for each resample, k calls of randomInt(rng, k) (k clusters, in order of first appearance).
 * O(resamples x n).
 * @throws {Error} "pairedBootstrapDifference requires one cluster per pair", or bad options
 * @example
 * pairedBootstrapDifference([[1, 0], [1, 1], [0, 0]], mulberry32(1)).difference; // 1 / 3
 */
export function pairedBootstrapDifference(
  pairs: ReadonlyArray<readonly [number | null, number | null]>,
  rng: Rng,
  options: { resamples?: number; confidence?: number; clusters?: ReadonlyArray<string | number> } = {},
): PairedDifference {
  const { resamples, confidence } = bootstrapOptions(options, "pairedBootstrapDifference");
  if (options.clusters && options.clusters.length !== pairs.length)
    throw new Error(`pairedBootstrapDifference requires one cluster per pair (${options.clusters.length} clusters for ${pairs.length} pairs)`);
  const method = options.clusters ? "paired bootstrap over episodes (percentile interval)" : "paired bootstrap over units (percentile interval)";
  const sums = new Map<string | number, { sum: number; count: number }>();
  let sumA = 0;
  let sumB = 0;
  let n = 0;
  pairs.forEach((pair, i) => {
    const [a, b] = pair;
    if (typeof a !== "number" || typeof b !== "number" || Number.isNaN(a) || Number.isNaN(b)) return;
    const key = options.clusters ? options.clusters[i] : i;
    let cluster = sums.get(key);
    if (!cluster) sums.set(key, (cluster = { sum: 0, count: 0 }));
    cluster.sum += a - b;
    cluster.count++;
    sumA += a;
    sumB += b;
    n++;
  });
  const k = sums.size;
  if (n === 0) return { n, clusters: 0, meanA: null, meanB: null, difference: null, ci: null, pValue: null, pBelow: false, method };
  const base = { n, clusters: k, meanA: sumA / n, meanB: sumB / n, difference: sumA / n - sumB / n, method };
  if (k < 2) return { ...base, ci: null, reason: "one item", pValue: null, pBelow: false };
  const clusterSum = Float64Array.from([...sums.values()].map((c) => c.sum));
  const clusterCount = Float64Array.from([...sums.values()].map((c) => c.count));
  const replicates = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < k; i++) {
      const c = randomInt(rng, k);
      sum += clusterSum[c];
      count += clusterCount[c];
    }
    replicates[r] = sum / count;
  }
  replicates.sort();
  let below = 0;
  let above = 0;
  for (const value of replicates) {
    if (value <= 0) below++;
    if (value >= 0) above++;
  }
  const raw = Math.min(1, (2 * Math.min(below, above)) / resamples);
  const p = raw === 0 ? { pValue: 1 / resamples, pBelow: true } : { pValue: raw, pBelow: false };
  const ci = percentileInterval(replicates, confidence);
  if (ci[0] === ci[1]) return { ...base, ci: null, reason: "no spread: every item the same", ...p };
  return { ...base, ci, ...p };
}
