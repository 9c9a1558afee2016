import { alphaCoincidences, alphaDeltaSquared, alphaExpectedSum, type AlphaMetric, type AlphaUnits } from "@/lib/stats/alpha-coincidences";
import type { Rng } from "@/lib/stats/rng";
import { additiveStratifiedBootstrap, type AdditiveClusters, type AdditiveStatistic, type StratifiedBootstrapResult } from "@/lib/stats/stratified-bootstrap";

/**
 * Krippendorff's alpha as a function of additive totals, so that the stratified cluster
 * bootstrap (stratified-bootstrap.ts) can resample items within strata and give every stratum
 * and every group of strata its interval in one pass. Totals per cluster: the pairable values n,
 * the observed-disagreement sum (for metrics that do not depend on the marginals), the value
 * marginals n_c and, for the ordinal metric (whose differences depend on the marginals), the
 * off-diagonal coincidences o_ck + o_kc.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections C-E (alpha
 * from coincidences and marginals); Davison & Hinkley 1997, sections 3.7-3.8.
 */

export interface AlphaClusterTotals {
  data: AdditiveClusters;
  statistic: AdditiveStatistic;
  /** dense cluster index -> the caller's cluster id (clusters without a pairable unit are left out) */
  clusterIds: number[];
}

/**
 * Alpha cluster totals: per-cluster additive totals of Krippendorff's alpha and the statistic
 * that turns summed totals back into alpha (null when undefined). Dense cluster indices follow the
 * order of each cluster's first pairable unit.
 * O(R + sum_u d_u^2) to build; the statistic costs O(V) (nominal, interval), O(V + P) (ordinal,
 * plus O(V^2) expected) or O(V^2) (ratio, custom).
 * @throws {Error} "alphaClusterTotals requires one cluster id per unit", and on values that do not suit the level
 * @example
 * const { data, statistic } = alphaClusterTotals([[1, 1], [2, 1]], [0, 1], "nominal");
 */
export function alphaClusterTotals(units: AlphaUnits, clusterOf: ArrayLike<number>, metric: AlphaMetric): AlphaClusterTotals {
  const fnName = "alphaClusterTotals";
  if (!Array.isArray(units) || clusterOf.length !== units.length) throw new Error(`${fnName} requires one cluster id per unit`);
  const co = alphaCoincidences(units, metric, { perUnit: true, fnName });
  const pu = co.perUnit!;
  const V = co.values.length;
  const P = co.pairO.length;
  const ordinal = co.kind === "ordinal";
  const fixedDelta = ordinal ? null : alphaDeltaSquared(co, co.marginals, { cache: true, fnName });
  const pairDelta = fixedDelta ? Float64Array.from(co.pairC, (c, p) => fixedDelta(c, co.pairK[p])) : null;

  // pairable unit p -> dense cluster
  const dense = new Map<number, number>();
  const clusterIds: number[] = [];
  const unitsOfCluster: number[][] = [];
  let p = 0;
  for (let u = 0; u < units.length; u++) {
    let m = 0;
    for (const v of units[u]) if (v !== null && v !== undefined) m++;
    if (m < 2) continue;
    const id = clusterOf[u];
    let c = dense.get(id);
    if (c === undefined) {
      c = clusterIds.length;
      dense.set(id, c);
      clusterIds.push(id);
      unitsOfCluster.push([]);
    }
    unitsOfCluster[c].push(p++);
  }

  const dims = 2 + V + (ordinal ? P : 0);
  const start = new Int32Array(clusterIds.length + 1);
  const index: number[] = [];
  const value: number[] = [];
  const scratch = new Float64Array(dims);
  const touched: number[] = [];
  const add = (d: number, x: number) => {
    if (scratch[d] === 0) touched.push(d);
    scratch[d] += x;
  };
  for (let c = 0; c < clusterIds.length; c++) {
    for (const u of unitsOfCluster[c]) {
      add(0, pu.size[u]);
      for (let j = pu.valueStart[u]; j < pu.valueStart[u + 1]; j++) add(2 + pu.valueIndex[j], pu.valueCount[j]);
      if (ordinal) {
        for (let j = pu.pairStart[u]; j < pu.pairStart[u + 1]; j++) add(2 + V + pu.pairId[j], pu.pairWeight[j]);
      } else {
        let observed = 0;
        for (let j = pu.pairStart[u]; j < pu.pairStart[u + 1]; j++) observed += pu.pairWeight[j] * pairDelta![pu.pairId[j]];
        if (observed !== 0) add(1, observed);
      }
    }
    for (const d of touched) {
      index.push(d);
      value.push(scratch[d]);
      scratch[d] = 0;
    }
    touched.length = 0;
    start[c + 1] = index.length;
  }

  const statistic: AdditiveStatistic = (sum, touchedDims, count) => {
    const n = sum[0];
    if (!(n > 0)) return null;
    const marginals = sum.subarray(2, 2 + V);
    let observed = 0;
    let delta: (c: number, k: number) => number;
    if (ordinal) {
      delta = alphaDeltaSquared(co, marginals);
      for (let i = 0; i < count; i++) {
        const d = touchedDims[i];
        if (d >= 2 + V) {
          const q = d - 2 - V;
          observed += sum[d] * delta(co.pairC[q], co.pairK[q]);
        }
      }
    } else {
      delta = fixedDelta!;
      observed = sum[1];
    }
    const expected = alphaExpectedSum(co, marginals, n, delta);
    return expected > 0 ? 1 - ((n - 1) * observed) / expected : null;
  };

  return { data: { dims, start, index: Int32Array.from(index), value: Float64Array.from(value) }, statistic, clusterIds };
}

/**
 * Stratified cluster bootstrap CI for Krippendorff's alpha: items (clusters of units) are
 * resampled within strata (e.g. kind x step length), giving a percentile interval for alpha in
 * every stratum and in every group of strata (a kind, everything) from the same draws.
 * `stratumOf(clusterId)` names each cluster's stratum (0..strataCount-1). With one stratum and
 * the group [0], the intervals equal krippendorffAlphaClusterBootstrap's, draw for draw.
 * Source: Krippendorff 2011; Davison & Hinkley 1997, sections 3.7-3.8; Efron & Tibshirani 1993,
 * section 13.3.
 * O(R (C + cluster entries + blocks x cost of alpha from totals)).
 * @throws {Error} as alphaClusterTotals and additiveStratifiedBootstrap
 * @example
 * krippendorffAlphaStratifiedBootstrap(units, itemOfUnit, (item) => cellOf[item], 16, [[0, 1, 2]], "ordinal", mulberry32(1));
 */
export function krippendorffAlphaStratifiedBootstrap(
  units: AlphaUnits,
  clusterOf: ArrayLike<number>,
  stratumOf: (clusterId: number) => number,
  strataCount: number,
  groups: ReadonlyArray<ReadonlyArray<number>>,
  metric: AlphaMetric,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): StratifiedBootstrapResult {
  const totals = alphaClusterTotals(units, clusterOf, metric);
  return additiveStratifiedBootstrap(totals.data, totals.clusterIds.map(stratumOf), strataCount, groups, totals.statistic, rng, options);
}
