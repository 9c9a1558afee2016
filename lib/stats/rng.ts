/**
 * A source of uniform random numbers in [0, 1), like `Math.random`. Every function in
 * lib/stats that needs randomness takes one as a parameter, so results are reproducible
 * when the caller passes a seeded generator such as `mulberry32(seed)`.
 */
export type Rng = () => number;

/**
 * Mulberry32 seeded pseudo-random generator: returns an `Rng` whose sequence is fully
 * determined by the 32-bit `seed`.
 * Source: Tommy Ettinger's Mulberry32 (public domain, 2017), the 32-bit-state generator of the
 * PractRand-tested family; each output is a 32-bit integer divided by 2^32.
 * O(1) per draw, O(1) memory.
 * @throws {Error} when seed is not a finite number
 * @example
 * const rng = mulberry32(1);
 * rng(); // 0.6270739405881613
 */
export function mulberry32(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new Error("mulberry32 requires a finite seed");
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Uniform random integer: an integer drawn uniformly from 0..n-1 using one call of `rng`.
 * Source: inverse-CDF sampling, floor(u * n) for u ~ U[0, 1).
 * O(1).
 * @throws {Error} when n is not a positive integer
 * @example
 * randomInt(mulberry32(1), 6); // 3
 */
export function randomInt(rng: Rng, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new Error("randomInt requires a positive integer n");
  const i = Math.floor(rng() * n);
  return i < n ? i : n - 1;
}
