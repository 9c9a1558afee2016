/**
 * Descriptive statistics: mean, median, quantiles (Hyndman & Fan 1996 types 1-9), IQR, MAD and a
 * robust flag for responses far faster than the rest.
 */

/** Hyndman & Fan (1996) sample quantile definitions; "type-7" is R's and NumPy's default. */
export type QuantileMethod = "type-1" | "type-2" | "type-3" | "type-4" | "type-5" | "type-6" | "type-7" | "type-8" | "type-9";

const FUZZ = 4 * Number.EPSILON;

function checkFinite(values: ArrayLike<number>, fnName: string, min = 1): void {
  if (values.length < min) throw new Error(`${fnName} requires at least ${min} data point${min === 1 ? "" : "s"}`);
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== "number" || !Number.isFinite(values[i])) {
      throw new Error(`${fnName} requires finite numbers (value ${i} is ${String(values[i])})`);
    }
  }
}

function sortedCopy(values: ArrayLike<number>): Float64Array {
  const s = Float64Array.from(values as ArrayLike<number>);
  s.sort();
  return s;
}

/**
 * Arithmetic mean: sum of the values divided by their count.
 * Source: textbook definition (computed with Neumaier compensated summation).
 * O(n).
 * @throws {Error} "mean requires at least 1 data point"
 * @example
 * mean([1, 2, 3, 4]); // 2.5
 */
export function mean(values: ArrayLike<number>): number {
  checkFinite(values, "mean");
  let sum = 0;
  let comp = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const t = sum + v;
    comp += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return (sum + comp) / values.length;
}

/**
 * Quantile of sorted data: the p-quantile of values already sorted ascending, by one of the
 * nine Hyndman & Fan definitions (same results as R's quantile(x, p, type = k)).
 * Source: Hyndman & Fan 1996, "Sample Quantiles in Statistical Packages", The American
 * Statistician 50(4), section 2 (with R's 4 * epsilon fuzz on the position).
 * O(1).
 * @throws {Error} "quantileSorted requires at least 1 data point", or p outside [0, 1]
 * @example
 * quantileSorted([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.25); // 3.25
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number, method: QuantileMethod = "type-7"): number {
  const n = sorted.length;
  if (n < 1) throw new Error("quantileSorted requires at least 1 data point");
  if (!(p >= 0 && p <= 1)) throw new Error(`quantileSorted requires p in [0, 1] (got ${p})`);
  const x = (j: number): number => sorted[Math.min(Math.max(j, 1), n) - 1]; // 1-based, clamped
  const type = Number(method.slice(5));
  if (type >= 1 && type <= 3) {
    const np = type === 3 ? n * p - 0.5 : n * p;
    const j = Math.floor(np + FUZZ);
    let g = np - j;
    if (Math.abs(g) < FUZZ) g = 0;
    if (type === 1) return g > 0 ? x(j + 1) : x(j);
    if (type === 2) return g > 0 ? x(j + 1) : (x(j) + x(j + 1)) / 2;
    return g === 0 && j % 2 === 0 ? x(j) : x(j + 1);
  }
  let a: number;
  let b: number;
  switch (type) {
    case 4:
      a = 0;
      b = 1;
      break;
    case 5:
      a = 0.5;
      b = 0.5;
      break;
    case 6:
      a = 0;
      b = 0;
      break;
    case 7:
      a = 1;
      b = 1;
      break;
    case 8:
      a = 1 / 3;
      b = 1 / 3;
      break;
    case 9:
      a = 3 / 8;
      b = 3 / 8;
      break;
    default:
      throw new Error(`quantileSorted requires a method from type-1 to type-9 (got ${method})`);
  }
  const pos = a + p * (n + 1 - a - b);
  const j = Math.floor(pos + FUZZ);
  let h = pos - j;
  if (Math.abs(h) < FUZZ) h = 0;
  const lo = x(j);
  const hi = x(j + 1);
  return h === 0 ? lo : lo + h * (hi - lo);
}

/**
 * Sample quantile: the p-quantile of unsorted values by a named Hyndman & Fan method (default
 * "type-7", R's default).
 * Source: Hyndman & Fan 1996, "Sample Quantiles in Statistical Packages", section 2.
 * O(n log n) (sorts a copy).
 * @throws {Error} "quantile requires at least 1 data point", or p outside [0, 1]
 * @example
 * quantile([10, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0.25, "type-6"); // 2.75
 */
export function quantile(values: ArrayLike<number>, p: number, method: QuantileMethod = "type-7"): number {
  checkFinite(values, "quantile");
  return quantileSorted(sortedCopy(values), p, method);
}

/**
 * Median: the middle value (mean of the two middle values for even n).
 * Source: textbook definition (equals every Hyndman & Fan continuous type at p = 0.5).
 * O(n log n).
 * @throws {Error} "median requires at least 1 data point"
 * @example
 * median([3, 1, 4, 1]); // 2
 */
export function median(values: ArrayLike<number>): number {
  checkFinite(values, "median");
  const s = sortedCopy(values);
  const n = s.length;
  return n % 2 === 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/**
 * Interquartile range: Q3 - Q1 by a named quantile method (default "type-7", as R's IQR()).
 * Source: Hyndman & Fan 1996 quantiles; R stats::IQR.
 * O(n log n).
 * @throws {Error} "interquartileRange requires at least 1 data point"
 * @example
 * interquartileRange([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]); // 4.5
 */
export function interquartileRange(values: ArrayLike<number>, method: QuantileMethod = "type-7"): number {
  checkFinite(values, "interquartileRange");
  const s = sortedCopy(values);
  return quantileSorted(s, 0.75, method) - quantileSorted(s, 0.25, method);
}

/**
 * Median absolute deviation: median(|x - median(x)|), raw (scale 1) unless a scale is given;
 * 1.4826 makes it a consistent estimator of the standard deviation for normal data (R's mad()).
 * Source: Hampel 1974; R stats::mad (constant = 1.4826).
 * O(n log n).
 * @throws {Error} "medianAbsoluteDeviation requires at least 1 data point"
 * @example
 * medianAbsoluteDeviation([1, 2, 3, 4, 100]); // 1
 */
export function medianAbsoluteDeviation(values: ArrayLike<number>, scale = 1): number {
  checkFinite(values, "medianAbsoluteDeviation");
  const m = median(values);
  const dev = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) dev[i] = Math.abs(values[i] - m);
  return median(dev) * scale;
}

export interface FarFasterResult {
  /** flags[i] is true when value i is far faster (smaller) than the rest. */
  flags: boolean[];
  /** Modified z-score of each value (negative = faster than the median). */
  scores: number[];
  /** Median of the (log) values. */
  center: number;
  /** The spread used: MAD, or 1.253314 x mean absolute deviation when MAD is 0. */
  spread: number;
  /** "mad", "meanad" (MAD was 0) or "none" (every value equal: nothing is flagged). */
  spreadMethod: "mad" | "meanad" | "none";
  threshold: number;
  logScale: boolean;
}

/**
 * Far-faster flag: marks durations far faster than the rest with the Iglewicz-Hoaglin modified
 * z-score M_i = 0.6745 (x_i - median) / MAD, flagging M_i < -threshold (default 3.5). By default
 * works on log durations, since response times are right-skewed and a multiplicative gap is what
 * "far faster" means; when MAD is 0 (over half the values equal) it falls back to the mean
 * absolute deviation from the median, M_i = (x_i - median) / (1.253314 MeanAD), as IBM SPSS does.
 * Source: Iglewicz & Hoaglin 1993, "How to Detect and Handle Outliers", section 3.3 (modified
 * z-score, cut-off 3.5).
 * O(n log n).
 * @throws {Error} "flagFarFaster requires at least 1 data point", or a duration <= 0 on the log scale
 * @example
 * flagFarFaster([30, 32, 35, 31, 29, 33, 2]).flags; // [false, false, false, false, false, false, true]
 */
export function flagFarFaster(durations: ArrayLike<number>, options: { threshold?: number; logScale?: boolean } = {}): FarFasterResult {
  checkFinite(durations, "flagFarFaster");
  const threshold = options.threshold ?? 3.5;
  const logScale = options.logScale ?? true;
  if (!(threshold > 0)) throw new Error("flagFarFaster requires a positive threshold");
  const x = new Float64Array(durations.length);
  for (let i = 0; i < durations.length; i++) {
    const d = durations[i];
    if (logScale && !(d > 0)) throw new Error(`flagFarFaster requires positive durations on the log scale (value ${i} is ${d})`);
    x[i] = logScale ? Math.log(d) : d;
  }
  const center = median(x);
  let spread = medianAbsoluteDeviation(x);
  let spreadMethod: FarFasterResult["spreadMethod"] = "mad";
  let factor = 0.6745;
  if (spread === 0) {
    let sum = 0;
    for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - center);
    spread = sum / x.length;
    spreadMethod = "meanad";
    factor = 1 / 1.253314;
  }
  const scores: number[] = new Array(x.length);
  const flags: boolean[] = new Array(x.length);
  if (spread === 0) {
    spreadMethod = "none";
    for (let i = 0; i < x.length; i++) {
      scores[i] = 0;
      flags[i] = false;
    }
  } else {
    for (let i = 0; i < x.length; i++) {
      scores[i] = (factor * (x[i] - center)) / spread;
      flags[i] = scores[i] < -threshold;
    }
  }
  return { flags, scores, center, spread, spreadMethod, threshold, logScale };
}
