/**
 * Student's t distribution: its CDF for any real df > 0 and the two-sided critical value t such
 * that P(|T| <= t) = confidence, used by the two-way cluster-robust intervals (a variance estimated
 * from few clusters has few degrees of freedom, and the normal 1.96 then undercovers).
 * Source: P(T <= t) = 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t^2), t >= 0 (Abramowitz & Stegun 1964, 26.7.1 and 26.5.27); I_x by its continued fraction (Press et al., "Numerical Recipes", 3rd ed., sec. 6.4, betacf with Lentz's method); ln Gamma by Lanczos (same, sec. 6.1).
 * O(1) per call (at most 300 continued-fraction terms; the critical value at most 80 safeguarded Newton steps).
 */

const LANCZOS = [
  57.1562356658629235, -59.5979603554754912, 14.1360979747417471, -0.491913816097620199, 0.339946499848118887e-4, 0.465236289270485756e-4,
  -0.983744753048795646e-4, 0.158088703224912494e-3, -0.210264441724104883e-3, 0.217439618115212643e-3, -0.16431810653676389e-3, 0.844182239838527433e-4,
  -0.261908384015814087e-4, 0.368991826595316234e-5,
];

/** ln Gamma(x) for x > 0 (Lanczos, g = 607/128, 14 terms; relative error below 1e-15). */
export function lnGamma(x: number): number {
  if (!(x > 0)) throw new Error(`lnGamma requires x > 0 (got ${x})`);
  let y = x;
  const tmp = x + 5.2421875;
  const t = (x + 0.5) * Math.log(tmp) - tmp;
  let ser = 0.999999999999997092;
  for (const c of LANCZOS) ser += c / ++y;
  return t + Math.log((2.5066282746310005 * ser) / x);
}

/** The continued fraction of I_x(a, b) (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new Error(`incompleteBeta requires a, b > 0 (got ${a}, ${b})`);
  if (!(x >= 0 && x <= 1)) throw new Error(`incompleteBeta requires 0 <= x <= 1 (got ${x})`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // the fraction converges fast for x < (a + 1) / (a + b + 2); the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) otherwise
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T <= t) for Student's t with df > 0 degrees of freedom. */
export function tCdf(t: number, df: number): number {
  if (!(df > 0 && Number.isFinite(df))) throw new Error(`tCdf requires a finite df > 0 (got ${df})`);
  if (Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  const tail = incompleteBeta(df / (df + t * t), df / 2, 0.5) / 2;
  return t >= 0 ? 1 - tail : tail;
}

const ACKLAM_A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const ACKLAM_B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const ACKLAM_C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const ACKLAM_D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];

/**
 * The standard normal quantile Phi^-1(p), 0 < p < 1.
 * Source: P. J. Acklam 2003, "An algorithm for computing the inverse normal cumulative distribution function" (rational approximations, relative error below 1.15e-9).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new Error(`normalQuantile requires 0 < p < 1 (got ${p})`);
  const [a, b, c, d] = [ACKLAM_A, ACKLAM_B, ACKLAM_C, ACKLAM_D];
  const tailOf = (q: number) => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tailOf(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tailOf(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** Above this df the t critical value is the normal's plus its first-order term (ln Gamma's cancellation would cost more precision than the term is worth). */
const LARGE_DF = 1e6;

/**
 * The two-sided critical value: t with P(|T| <= t) = confidence for df degrees of freedom (df may
 * be fractional, as a Satterthwaite df is; df = Infinity gives the normal's, 1.959964 for 95%).
 * @throws {Error} on df <= 0 or a confidence outside (0, 1)
 * @example
 * tCritical(19, 0.95); // 2.093024...
 */
export function tCritical(df: number, confidence = 0.95): number {
  if (!(df > 0)) throw new Error(`tCritical requires df > 0 (got ${df})`);
  if (!(confidence > 0 && confidence < 1)) throw new Error(`tCritical requires a confidence in (0, 1) (got ${confidence})`);
  const target = 1 - (1 - confidence) / 2;
  if (df >= LARGE_DF) {
    // Source: Abramowitz & Stegun 1964, 26.7.5, the first term of the expansion in 1/df
    const z = normalQuantile(target);
    return Number.isFinite(df) ? z + (z ** 3 + z) / (4 * df) : z;
  }
  const dfUsed = df;
  // bracket: P(T <= t) increases in t; the answer is below the Cauchy's for df >= 1 and grows without bound as df -> 0
  let lo = 0;
  let hi = 10;
  while (tCdf(hi, dfUsed) < target) {
    hi *= 2;
    if (hi > 1e300) return Infinity;
  }
  let t = (lo + hi) / 2;
  for (let i = 0; i < 80; i++) {
    const f = tCdf(t, dfUsed) - target;
    if (Math.abs(f) < 1e-14) break;
    if (f < 0) lo = t;
    else hi = t;
    // a Newton step from t with the density, kept inside the bracket (bisection otherwise)
    const density = Math.exp(
      lnGamma((dfUsed + 1) / 2) - lnGamma(dfUsed / 2) - 0.5 * Math.log(dfUsed * Math.PI) - ((dfUsed + 1) / 2) * Math.log1p((t * t) / dfUsed),
    );
    const next = t - f / density;
    t = next > lo && next < hi && Number.isFinite(next) ? next : (lo + hi) / 2;
    if (hi - lo < 1e-13 * Math.max(1, t)) break;
  }
  return t;
}
