import { randomInt, type Rng } from "@/lib/stats/rng";

/**
 * Shuffle: a uniformly random permutation of a copy of `values`, seeded through `rng`.
 * Source: Fisher & Yates 1938; Durstenfeld 1964, Algorithm 235 (in-place, from the last index
 * down, swapping i with randomInt(rng, i + 1)).
 * O(n).
 * @example
 * shuffle([1, 2, 3], mulberry32(1)); // a fixed permutation of [1, 2, 3]
 */
export function shuffle<T>(values: readonly T[], rng: Rng): T[] {
  const out = values.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}

/**
 * Sample without replacement: k distinct entries of `values` drawn uniformly at random (all of
 * them, shuffled, when k >= n), seeded through `rng`; the order of the result is the draw order.
 * Source: partial Fisher-Yates shuffle (Knuth, TAOCP vol. 2, 3.4.2, Algorithm P, stopped after
 * k steps).
 * O(n) for the copy, O(k) draws.
 * @throws {Error} "sampleWithoutReplacement requires k to be a non-negative integer"
 * @example
 * sampleWithoutReplacement(["a", "b", "c", "d"], 2, mulberry32(1)); // two of them
 */
export function sampleWithoutReplacement<T>(values: readonly T[], k: number, rng: Rng): T[] {
  if (!Number.isInteger(k) || k < 0) throw new Error("sampleWithoutReplacement requires k to be a non-negative integer");
  const out = values.slice();
  const n = out.length;
  const take = Math.min(k, n);
  for (let i = 0; i < take; i++) {
    const j = i + randomInt(rng, n - i);
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out.slice(0, take);
}
