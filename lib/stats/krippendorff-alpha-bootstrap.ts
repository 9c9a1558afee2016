import {
  alphaCoincidences,
  alphaDeltaSquared,
  alphaExpectedSum,
  type AlphaCoincidences,
  type AlphaMetric,
  type AlphaUnits,
} from "@/lib/stats/alpha-coincidences";
import { bootstrapOptions, percentileInterval } from "@/lib/stats/bootstrap-ci";
import { alphaFromCoincidences, type AlphaResult } from "@/lib/stats/krippendorff-alpha";
import type { Rng } from "@/lib/stats/rng";
import { multinomialWeights, weightedBootstrapReplicates, type WeightDrawer } from "@/lib/stats/weighted-bootstrap";

/** "units": resample whole units (default). "kalpha": Krippendorff's KALPHA algorithm. */
export type AlphaBootstrapMethod = "units" | "kalpha";

export interface AlphaBootstrapOptions {
  method?: AlphaBootstrapMethod;
  /** Number of bootstrap replicates (default 1,000). */
  resamples?: number;
  /** Confidence level of the interval (default 0.95). */
  confidence?: number;
  /** kalpha only: pairs M drawn per replicate (default min(25 e, round(n (m - 1) / 2))). */
  draws?: number;
  /** kalpha only: m, the number of coders (default: the most values found in one unit). */
  coders?: number;
}

export interface AlphaBootstrapResult {
  method: "unit-bootstrap" | "kalpha-bootstrap";
  /** One sentence naming the resampling scheme and the interval. */
  description: string;
  /** Alpha on the full data. */
  estimate: AlphaResult;
  /** [lower, upper], or null (see reason). */
  ci: [number, number] | null;
  reason?: string;
  confidence: number;
  resamples: number;
  /** Replicates on which alpha was undefined (unit bootstrap only; always 0 for kalpha). */
  undefinedResamples: number;
  /** The defined replicate alphas, sorted ascending. */
  replicates: Float64Array;
  /** kalpha only: M, the number of pairs drawn per replicate; null for the unit bootstrap. */
  draws: number | null;
}

/**
 * Bootstrap confidence interval for Krippendorff's alpha, seeded through `rng`.
 * method "units" (default): the percentile bootstrap over pairable units: each replicate draws
 * as many units as there are pairable units, with replacement (draw order: randomInt(rng, U) U
 * times), and computes alpha exactly as krippendorffAlpha would on that resampled data
 * (marginals, expected disagreement and, for ordinal, the metric itself recomputed). Per-unit
 * coincidence contributions are precomputed, so a replicate costs O(U + V^2) (O(U + V) for
 * nominal and interval; plus the unit's pair entries for ordinal), not a pass over raw ratings.
 * Replicates with undefined alpha (expected disagreement 0) are counted and left out. The CI is
 * the type-7 percentile interval.
 * method "kalpha": Krippendorff's bootstrap as in the KALPHA macro (Hayes & Krippendorff 2007;
 * Krippendorff 2013, "Algorithm for bootstrapping a distribution of c-alpha"): it treats the
 * n(m-1)/2 pairable pairs as independent draws from the coincidence matrix (cell probability
 * o_ck / n over the lower triangle, o_ck + o_kc off the diagonal) and holds the metric and the
 * expected disagreement D_e of the full data fixed. Each replicate draws M = min(25 e,
 * round(n (m - 1) / 2)) cells (e = non-zero cells of the full coincidence matrix, m = coders) and
 * sets alpha* = 1 - sum delta^2 / (M D_e); alpha* < -1 becomes -1; replicates of alpha* = 1 (all
 * draws agreements) become 0 when only one diagonal cell is non-zero, and otherwise the expected
 * number round(R sum_c (o_cc / n)^M) of them become 0 (all of them when that many or fewer are
 * 1). CI bounds are KALPHA's order statistics: sorted[(1-conf)/2 R] and sorted[floor((1+conf)/2 R)
 * + 1] (1-based). Assumptions worth stating: pairs within a unit are not independent, units are
 * not resampled and D_e does not vary, so this interval tends to be narrower than the unit
 * bootstrap (criticised by Gwet 2015 and Zapf et al. 2016). Cells are ordered like Mata's vech
 * (column-major lower triangle), the non-zero-diagonal count is taken per cell (the Stata port's
 * literal code sums the diagonal instead).
 * Source: Hayes & Krippendorff 2007, "Answering the call for a standard reliability measure for
 * coding data", Communication Methods and Measures 1(1); Efron & Tibshirani 1993 section 13.3.
 * O(R (U + V^2)) for units; O(V^2 + R M log e) for kalpha; R = resamples.
 * @throws {Error} on bad options or values that do not suit the level
 * @example
 * krippendorffAlphaBootstrap(units, "ordinal", mulberry32(1)).ci; // e.g. [0.79, 0.87]
 */
export function krippendorffAlphaBootstrap(units: AlphaUnits, metric: AlphaMetric, rng: Rng, options: AlphaBootstrapOptions = {}): AlphaBootstrapResult {
  const fnName = "krippendorffAlphaBootstrap";
  const { resamples, confidence } = bootstrapOptions(options, fnName);
  const method = options.method ?? "units";
  if (method !== "units" && method !== "kalpha") {
    throw new Error(`${fnName} requires method "units" or "kalpha" (got ${String(method)})`);
  }
  const co = alphaCoincidences(units, metric, { perUnit: method === "units", fnName });
  const estimate = alphaFromCoincidences(co, fnName);
  const pct = Math.round(confidence * 1000) / 10;
  const description =
    method === "units"
      ? `${pct}% percentile bootstrap over units (${resamples} resamples of ${co.units} pairable units with replacement)`
      : `${pct}% bootstrap by Krippendorff's KALPHA algorithm (${resamples} replicates drawing pairs from the coincidence matrix, metric and expected disagreement held fixed)`;
  const common = {
    method: method === "units" ? ("unit-bootstrap" as const) : ("kalpha-bootstrap" as const),
    description,
    estimate,
    confidence,
    resamples,
  };
  if (estimate.alpha === null) {
    return {
      ...common,
      ci: null,
      reason: `alpha is undefined on the full data (${estimate.reason})`,
      undefinedResamples: 0,
      replicates: new Float64Array(0),
      draws: null,
    };
  }
  if (method === "units")
    return {
      ...common,
      ...alphaWeightedUnitBootstrap(co, { count: co.units, slotOfUnit: null, drawWeights: multinomialWeights(co.units) }, rng, resamples, confidence, fnName),
      draws: null,
    };
  return { ...common, ...kalphaBootstrap(co, rng, resamples, confidence, options, fnName, estimate) };
}

/**
 * Weighted-unit bootstrap of Krippendorff's alpha: each resample's `drawWeights` fills one weight
 * slot per resampled element, its draw count, and every pairable unit of `co` (built with
 * perUnit) takes the weight of its slot (`slotOfUnit[u]`, or slot u when null); alpha is then
 * recomputed exactly as krippendorffAlpha would on the resampled data (marginals, expected
 * disagreement and, for ordinal, the metric itself). Units one by one (no slots) is
 * krippendorffAlphaBootstrap's unit bootstrap; a slot per cluster is
 * krippendorffAlphaClusterBootstrap.
 * Source: Krippendorff 2011; Davison & Hinkley 1997, sections 2.3 and 3.8.
 * O(R (U + V^2)) for R resamples (O(R (U + V)) for nominal and interval).
 */
export function alphaWeightedUnitBootstrap(
  co: AlphaCoincidences,
  slots: { count: number; slotOfUnit: Int32Array | null; drawWeights: WeightDrawer },
  rng: Rng,
  resamples: number,
  confidence: number,
  fnName: string,
): Pick<AlphaBootstrapResult, "ci" | "reason" | "undefinedResamples" | "replicates"> {
  const pu = co.perUnit!;
  const U = co.units;
  const V = co.values.length;
  const P = co.pairO.length;
  const ordinal = co.kind === "ordinal";
  // Fixed metrics: each unit's observed-disagreement contribution is a constant.
  const fixedDelta = ordinal ? null : alphaDeltaSquared(co, co.marginals, { cache: true, fnName });
  const unitObserved = new Float64Array(U);
  if (fixedDelta) {
    const pairDelta = new Float64Array(P);
    for (let p = 0; p < P; p++) pairDelta[p] = fixedDelta(co.pairC[p], co.pairK[p]);
    for (let u = 0; u < U; u++) {
      let s = 0;
      for (let j = pu.pairStart[u]; j < pu.pairStart[u + 1]; j++) s += pu.pairWeight[j] * pairDelta[pu.pairId[j]];
      unitObserved[u] = s;
    }
  }
  const marg = new Float64Array(V);
  const pairO = ordinal ? new Float64Array(P) : null;
  const { size, valueStart, valueIndex, valueCount, pairStart, pairId, pairWeight } = pu;
  const slotOfUnit = slots.slotOfUnit;
  // Each unit's weight: its slot's draw count. Units one by one read the drawn counts as they are;
  // with slots they are gathered into one array per resample (one branch-free loop below).
  const unitWeight = slotOfUnit ? new Int32Array(U) : null;
  const alphaOfWeights = (drawn: Int32Array): number | null => {
    let weight = drawn;
    if (unitWeight && slotOfUnit) {
      for (let u = 0; u < U; u++) unitWeight[u] = drawn[slotOfUnit[u]];
      weight = unitWeight;
    }
    marg.fill(0);
    let n = 0;
    let observed = 0;
    if (pairO) {
      pairO.fill(0);
      for (let u = 0; u < U; u++) {
        const w = weight[u];
        if (w === 0) continue;
        n += w * size[u];
        for (let j = valueStart[u]; j < valueStart[u + 1]; j++) marg[valueIndex[j]] += w * valueCount[j];
        for (let j = pairStart[u]; j < pairStart[u + 1]; j++) pairO[pairId[j]] += w * pairWeight[j];
      }
      const delta = alphaDeltaSquared(co, marg);
      for (let p = 0; p < P; p++) if (pairO[p] > 0) observed += pairO[p] * delta(co.pairC[p], co.pairK[p]);
      const expected = alphaExpectedSum(co, marg, n, delta);
      return expected > 0 ? 1 - ((n - 1) * observed) / expected : null;
    }
    for (let u = 0; u < U; u++) {
      const w = weight[u];
      if (w === 0) continue;
      n += w * size[u];
      for (let j = valueStart[u]; j < valueStart[u + 1]; j++) marg[valueIndex[j]] += w * valueCount[j];
      observed += w * unitObserved[u];
    }
    const expected = alphaExpectedSum(co, marg, n, fixedDelta!);
    return expected > 0 ? 1 - ((n - 1) * observed) / expected : null;
  };
  const { replicates, undefinedResamples } = weightedBootstrapReplicates(slots.count, slots.drawWeights, alphaOfWeights, rng, resamples);
  if (replicates.length === 0) {
    return { ci: null, reason: "alpha was undefined on every resample", undefinedResamples, replicates };
  }
  return { ci: percentileInterval(replicates, confidence), undefinedResamples, replicates };
}

function kalphaBootstrap(
  co: AlphaCoincidences,
  rng: Rng,
  resamples: number,
  confidence: number,
  options: AlphaBootstrapOptions,
  fnName: string,
  estimate: AlphaResult,
): Pick<AlphaBootstrapResult, "ci" | "reason" | "undefinedResamples" | "replicates" | "draws"> {
  const V = co.values.length;
  const n = co.n;
  const delta = alphaDeltaSquared(co, co.marginals, { fnName });
  const De = estimate.expectedDisagreement!;
  // Non-zero cells of the lower triangle in Mata vech order: column j, then rows i >= j.
  const order = Array.from(co.pairO, (_, p) => p).sort((a, b) => co.pairC[a] - co.pairC[b] || co.pairK[a] - co.pairK[b]);
  const prob: number[] = [];
  const deltaOf: number[] = [];
  let diagonalCells = 0;
  const diagonalProb: number[] = [];
  let q = 0;
  for (let j = 0; j < V; j++) {
    if (co.diagonal[j] > 0) {
      diagonalCells++;
      prob.push(co.diagonal[j] / n);
      deltaOf.push(0);
      diagonalProb.push(co.diagonal[j] / n);
    }
    while (q < order.length && co.pairC[order[q]] === j) {
      const p = order[q++];
      prob.push(co.pairO[p] / n);
      deltaOf.push(delta(co.pairC[p], co.pairK[p]));
    }
  }
  const e = diagonalCells + 2 * co.pairO.length;
  const m = options.coders ?? co.maxValuesPerUnit;
  if (!Number.isInteger(m) || m < 2) throw new Error(`${fnName} requires at least 2 coders`);
  const M = options.draws ?? Math.min(25 * e, Math.round((n * (m - 1)) / 2));
  if (!Number.isInteger(M) || M < 1) throw new Error(`${fnName} requires draws to be a positive integer`);
  const C = prob.length;
  const cum = new Float64Array(C);
  const f = new Float64Array(C);
  let acc = 0;
  for (let i = 0; i < C; i++) {
    acc += prob[i];
    cum[i] = acc;
    f[i] = deltaOf[i] / (M * De);
  }
  const reps = new Float64Array(resamples);
  let ones = 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let d = 0; d < M; d++) {
      const u = rng();
      let lo = 0;
      let hi = C - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cum[mid] >= u) hi = mid;
        else lo = mid + 1;
      }
      sum += f[lo];
    }
    const a = 1 - sum;
    if (a === 1) ones++;
    reps[r] = a < -1 ? -1 : a;
  }
  if (ones > 0) {
    if (diagonalCells === 1) {
      for (let r = 0; r < resamples; r++) if (reps[r] === 1) reps[r] = 0;
    } else if (diagonalCells > 1) {
      let pAllOne = 0;
      for (const p of diagonalProb) pAllOne += Math.pow(p, M);
      const nx = Math.round(resamples * pAllOne);
      if (nx >= ones) {
        for (let r = 0; r < resamples; r++) if (reps[r] === 1) reps[r] = 0;
      } else {
        reps.sort();
        for (let i = 0; i < nx; i++) reps[resamples - 1 - i] = 0;
      }
    }
  }
  reps.sort();
  const tail = (1 - confidence) / 2;
  const lo = Math.max(Math.floor(tail * resamples + 1e-9), 1);
  const hi = Math.min(Math.floor((1 - tail) * resamples + 1 + 1e-9), resamples);
  return { ci: [reps[lo - 1], reps[hi - 1]], undefinedResamples: 0, replicates: reps, draws: M };
}

/**
 * Probability of failing to reach a minimum alpha: the share of bootstrap replicates below
 * `minAlpha` (KALPHA's q, e.g. for alpha_min = 0.667 or 0.8).
 * Source: Hayes & Krippendorff 2007, section "Inferential statistics" (q = P(alpha < alpha_min)).
 * O(log R) on the sorted replicates.
 * @throws {Error} "alphaFailureProbability requires at least 1 data point"
 * @example
 * alphaFailureProbability(result.replicates, 0.8); // 0.021
 */
export function alphaFailureProbability(sortedReplicates: ArrayLike<number>, minAlpha: number): number {
  const R = sortedReplicates.length;
  if (R < 1) throw new Error("alphaFailureProbability requires at least 1 data point");
  let lo = 0;
  let hi = R;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedReplicates[mid] < minAlpha) lo = mid + 1;
    else hi = mid;
  }
  return lo / R;
}
