import { randomInt, type Rng } from "@/lib/stats/rng";

/**
 * Fills `weights` (zeroed by the caller) with one resample's draw counts: weights[i] is how many
 * times element i was drawn. A bootstrap that only needs these counts (statistics of weighted
 * sums, as alpha's coincidence totals) never builds the resampled data.
 */
export type WeightDrawer = (weights: Int32Array, rng: Rng) => void;

/**
 * Multinomial resampling weights: n draws with replacement from n elements (the ordinary
 * bootstrap), as counts. Draw order: randomInt(rng, n) n times.
 * Source: Efron & Tibshirani 1993, "An Introduction to the Bootstrap", section 6.2.
 * O(n) per resample.
 * @throws {Error} "multinomialWeights requires a non-negative integer size"
 * @example
 * const draw = multinomialWeights(3);
 * const w = new Int32Array(3);
 * draw(w, mulberry32(1)); // w sums to 3
 */
export function multinomialWeights(n: number): WeightDrawer {
  if (!Number.isInteger(n) || n < 0) throw new Error("multinomialWeights requires a non-negative integer size");
  const size = n; // a const the optimiser may keep in a register across the rng calls (a parameter is reloaded)
  return (weights, rng) => {
    for (let i = 0; i < size; i++) weights[randomInt(rng, size)]++;
  };
}

/**
 * Stratified multinomial resampling weights: within each stratum, as many draws with
 * replacement as it has members (stratum sizes held at their observed values). Draw order:
 * strata in order, then randomInt(rng, n_s) n_s times.
 * Source: Davison & Hinkley 1997, "Bootstrap Methods and their Application", section 3.7.
 * O(total members) per resample.
 * @example
 * stratifiedMultinomialWeights([[0, 2], [1]]); // elements 0 and 2 resampled together, 1 alone
 */
export function stratifiedMultinomialWeights(members: ReadonlyArray<ReadonlyArray<number>>): WeightDrawer {
  return (weights, rng) => {
    for (const ids of members) {
      const n = ids.length;
      for (let i = 0; i < n; i++) weights[ids[randomInt(rng, n)]]++;
    }
  };
}

/**
 * Calls `visit` once per resample with that resample's weights over `size` elements, drawn by
 * `drawWeights`. The weights array is reused between resamples: copy it to keep it.
 * O(resamples x (size + cost of drawWeights and visit)).
 * @throws {Error} "forEachWeightedResample requires a non-negative integer size"
 * @example
 * forEachWeightedResample(10, multinomialWeights(10), mulberry32(1), 1000, (w) => sums.push(weightedSum(w)));
 */
export function forEachWeightedResample(size: number, drawWeights: WeightDrawer, rng: Rng, resamples: number, visit: (weights: Int32Array) => void): void {
  if (!Number.isInteger(size) || size < 0) throw new Error("forEachWeightedResample requires a non-negative integer size");
  const weights = new Int32Array(size);
  for (let r = 0; r < resamples; r++) {
    weights.fill(0);
    drawWeights(weights, rng);
    visit(weights);
  }
}

/**
 * Weighted bootstrap replicates: `statistic` of every resample's weights, the defined ones
 * (not null) sorted ascending, and how many were undefined (null).
 * O(resamples x (size + cost of drawWeights and statistic) + resamples log resamples).
 * @throws {Error} as forEachWeightedResample
 * @example
 * weightedBootstrapReplicates(U, multinomialWeights(U), (w) => alphaOfWeightedUnits(w), mulberry32(1), 1000);
 */
export function weightedBootstrapReplicates(
  size: number,
  drawWeights: WeightDrawer,
  statistic: (weights: Int32Array) => number | null,
  rng: Rng,
  resamples: number,
): { replicates: Float64Array; undefinedResamples: number } {
  if (!Number.isInteger(size) || size < 0) throw new Error("weightedBootstrapReplicates requires a non-negative integer size");
  const reps = new Float64Array(resamples);
  const weights = new Int32Array(size);
  let defined = 0;
  for (let r = 0; r < resamples; r++) {
    weights.fill(0);
    drawWeights(weights, rng);
    const value = statistic(weights);
    if (value !== null) reps[defined++] = value;
  }
  return { replicates: reps.slice(0, defined).sort(), undefinedResamples: resamples - defined };
}
