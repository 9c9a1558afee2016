import { quantileSorted } from "@/lib/stats/descriptive";
import { randomInt, type Rng } from "@/lib/stats/rng";

export interface BootstrapCiResult {
  /** Names the method, e.g. "percentile bootstrap (Hyndman-Fan type 7 percentiles)". */
  method: string;
  /** The statistic on the original data (null when undefined there). */
  estimate: number | null;
  /** [lower, upper] percentile interval, or null (see reason). */
  ci: [number, number] | null;
  reason?: string;
  confidence: number;
  resamples: number;
  /** Resamples on which the statistic was undefined (returned null/NaN); left out of the CI. */
  undefinedResamples: number;
  /** The defined replicate values, sorted ascending. */
  replicates: Float64Array;
}

/**
 * Percentile interval: the (1 - confidence)/2 and (1 + confidence)/2 sample quantiles of sorted
 * bootstrap replicates, with Hyndman-Fan type 7 interpolation (R's quantile default).
 * Source: Efron & Tibshirani 1993, "An Introduction to the Bootstrap", section 13.3 (percentile
 * interval); Hyndman & Fan 1996 type 7.
 * O(1).
 * @throws {Error} "percentileInterval requires at least 1 data point", or confidence outside (0, 1)
 * @example
 * percentileInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9); // [1.45, 9.55]
 */
export function percentileInterval(sorted: ArrayLike<number>, confidence = 0.95): [number, number] {
  if (sorted.length < 1) throw new Error("percentileInterval requires at least 1 data point");
  if (!(confidence > 0 && confidence < 1)) throw new Error(`percentileInterval requires confidence in (0, 1) (got ${confidence})`);
  const tail = (1 - confidence) / 2;
  return [quantileSorted(sorted, tail, "type-7"), quantileSorted(sorted, 1 - tail, "type-7")];
}

/**
 * Bootstrap options: checks the options shared by the bootstrap functions and fills in the
 * defaults (1,000 resamples, 95% confidence).
 * Source: defaults as in Efron & Tibshirani 1993, section 13.3 (percentile interval).
 * O(1).
 * @throws {Error} "<fnName> requires at least 1 resample", or confidence outside (0, 1)
 * @example
 * bootstrapOptions({}, "bootstrapCi"); // { resamples: 1000, confidence: 0.95 }
 */
export function bootstrapOptions(options: { resamples?: number; confidence?: number }, fnName: string): { resamples: number; confidence: number } {
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error(`${fnName} requires at least 1 resample`);
  if (!(confidence > 0 && confidence < 1)) throw new Error(`${fnName} requires confidence in (0, 1) (got ${confidence})`);
  return { resamples, confidence };
}

/**
 * Percentile bootstrap confidence interval: resamples `data` with replacement (same size,
 * `resamples` times, 1,000 by default), computes `statistic` on each resample and returns the
 * 95% (default) percentile interval of the replicates. Draw order: for each resample, n calls of
 * randomInt(rng, n). Replicates where the statistic is null or NaN are counted and left out. The
 * sample array passed to `statistic` is reused between resamples: copy it to keep it.
 * Source: Efron & Tibshirani 1993, "An Introduction to the Bootstrap", sections 6.2 and 13.3.
 * O(resamples x (n + cost of statistic)).
 * @throws {Error} "bootstrapCi requires at least 1 data point", or bad resamples/confidence
 * @example
 * bootstrapCi([1, 2, 3, 4, 5], (xs) => xs.reduce((a, b) => a + b, 0) / xs.length, mulberry32(1)).ci;
 */
export function bootstrapCi<T>(
  data: readonly T[],
  statistic: (sample: T[]) => number | null,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): BootstrapCiResult {
  if (!Array.isArray(data) || data.length < 1) throw new Error("bootstrapCi requires at least 1 data point");
  const { resamples, confidence } = bootstrapOptions(options, "bootstrapCi");
  const method = "percentile bootstrap (Hyndman-Fan type 7 percentiles)";
  const raw = statistic(data.slice());
  const estimate = raw === null || Number.isNaN(raw) ? null : raw;
  const n = data.length;
  const sample: T[] = new Array(n);
  const reps = new Float64Array(resamples);
  let defined = 0;
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = data[randomInt(rng, n)];
    const s = statistic(sample);
    if (s !== null && !Number.isNaN(s)) reps[defined++] = s;
  }
  const replicates = reps.slice(0, defined).sort();
  const base = { method, estimate, confidence, resamples, undefinedResamples: resamples - defined, replicates };
  if (defined === 0) return { ...base, ci: null, reason: "the statistic was undefined on every resample" };
  return { ...base, ci: percentileInterval(replicates, confidence) };
}
