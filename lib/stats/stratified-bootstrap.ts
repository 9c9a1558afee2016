import { bootstrapOptions, percentileInterval } from "@/lib/stats/bootstrap-ci";
import { randomInt, type Rng } from "@/lib/stats/rng";
import { forEachWeightedResample, stratifiedMultinomialWeights } from "@/lib/stats/weighted-bootstrap";

/**
 * Stratified cluster bootstrap: one resampling pass that gives a percentile interval for every
 * stratum of a table (e.g. each kind x step-length cell) and for groups of strata (e.g. each
 * kind's "all steps" column, or everything), reusing the same draws.
 *
 * Each replicate draws, within every stratum, as many clusters as the stratum holds, with
 * replacement (draw order: strata in order, then randomInt(rng, n_s) n_s times). A stratum's
 * statistic is computed on its resampled clusters; a group's on the union of its strata's
 * resampled clusters, which makes the group's interval a stratified bootstrap (stratum sizes held
 * at their observed values, as the design fixes them). Clusters keep together what belongs
 * together: an item's several answers, or the slot units of one answer.
 * Source: Davison & Hinkley 1997, "Bootstrap Methods and their Application", sections 3.7
 * (stratified resampling) and 3.8 (cluster resampling); Efron & Tibshirani 1993, section 13.3
 * (percentile interval, here Hyndman-Fan type 7 as in bootstrapCi).
 */

export interface BlockInterval {
  /** the statistic on the data as observed (null when undefined there) */
  estimate: number | null;
  ci: [number, number] | null;
  reason?: string;
  /** clusters resampled for this block */
  clusters: number;
  undefinedResamples: number;
}

export interface StratifiedBootstrapResult {
  strata: BlockInterval[];
  groups: BlockInterval[];
  resamples: number;
  confidence: number;
}

function finishBlock(estimate: number | null, reps: Float64Array, defined: number, clusters: number, resamples: number, confidence: number): BlockInterval {
  const sorted = reps.slice(0, defined).sort();
  const base = { estimate, clusters, undefinedResamples: resamples - defined };
  if (estimate === null) return { ...base, ci: null, reason: "the statistic is undefined on the observed data" };
  if (defined === 0) return { ...base, ci: null, reason: "the statistic was undefined on every resample" };
  return { ...base, ci: percentileInterval(sorted, confidence) };
}

function strataMembers(stratumOf: ArrayLike<number>, strataCount: number, fnName: string): number[][] {
  const members: number[][] = Array.from({ length: strataCount }, () => []);
  for (let c = 0; c < stratumOf.length; c++) {
    const s = stratumOf[c];
    if (!Number.isInteger(s) || s < 0 || s >= strataCount)
      throw new Error(`${fnName} requires stratum ids from 0 to ${strataCount - 1} (cluster ${c} has ${String(s)})`);
    members[s].push(c);
  }
  return members;
}

function checkGroups(groups: ReadonlyArray<ReadonlyArray<number>>, strataCount: number, fnName: string): void {
  for (const group of groups)
    for (const s of group)
      if (!Number.isInteger(s) || s < 0 || s >= strataCount) throw new Error(`${fnName} requires groups of stratum ids (got ${String(s)})`);
}

const defined = (x: number | null): x is number => x !== null && !Number.isNaN(x);

/**
 * Stratified cluster bootstrap of any statistic of a list of values (e.g. a kind's aggregate()
 * over scored answers): the statistic runs on the resampled values of each stratum and each
 * group. O(R x (C + total values + cost of the statistic on every block)).
 * @throws {Error} "stratifiedClusterBootstrap requires one stratum id per cluster", bad ids, or bad options
 * @example
 * // two cells of items, each item with its answers; one group = both cells
 * stratifiedClusterBootstrap([[1, 0], [1], [0, 0]], [0, 0, 1], 2, [[0, 1]], (xs) => mean(xs), mulberry32(1));
 */
export function stratifiedClusterBootstrap<T>(
  clusters: ReadonlyArray<ReadonlyArray<T>>,
  stratumOf: ArrayLike<number>,
  strataCount: number,
  groups: ReadonlyArray<ReadonlyArray<number>>,
  statistic: (sample: T[]) => number | null,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): StratifiedBootstrapResult {
  const fnName = "stratifiedClusterBootstrap";
  if (!Array.isArray(clusters) || stratumOf.length !== clusters.length) throw new Error(`${fnName} requires one stratum id per cluster`);
  const { resamples, confidence } = bootstrapOptions(options, fnName);
  const members = strataMembers(stratumOf, strataCount, fnName);
  checkGroups(groups, strataCount, fnName);
  const groupsOf: number[][] = Array.from({ length: strataCount }, () => []);
  groups.forEach((group, g) => group.forEach((s) => groupsOf[s].push(g)));

  const observed = (ids: number[]) => {
    const values: T[] = [];
    for (const c of ids) for (const v of clusters[c]) values.push(v);
    return values;
  };
  const estimates = members.map((ids) => (ids.length > 0 ? statistic(observed(ids)) : null));
  const groupEstimates = groups.map((group) => {
    const ids = group.flatMap((s) => members[s]);
    return ids.length > 0 ? statistic(observed(ids)) : null;
  });

  const strataReps = members.map(() => new Float64Array(resamples));
  const strataDefined = new Array<number>(strataCount).fill(0);
  const groupReps = groups.map(() => new Float64Array(resamples));
  const groupDefined = new Array<number>(groups.length).fill(0);
  const stratumSample: T[] = [];
  const groupSamples: T[][] = groups.map(() => []);
  for (let r = 0; r < resamples; r++) {
    for (const sample of groupSamples) sample.length = 0;
    for (let s = 0; s < strataCount; s++) {
      const ids = members[s];
      const n = ids.length;
      if (n === 0) continue;
      stratumSample.length = 0;
      const mine = groupsOf[s];
      for (let i = 0; i < n; i++) {
        const cluster = clusters[ids[randomInt(rng, n)]];
        for (const v of cluster) {
          stratumSample.push(v);
          for (const g of mine) groupSamples[g].push(v);
        }
      }
      const value = statistic(stratumSample);
      if (defined(value)) strataReps[s][strataDefined[s]++] = value;
    }
    for (let g = 0; g < groups.length; g++) {
      if (groupSamples[g].length === 0) continue;
      const value = statistic(groupSamples[g]);
      if (defined(value)) groupReps[g][groupDefined[g]++] = value;
    }
  }
  return {
    strata: members.map((ids, s) =>
      finishBlock(defined(estimates[s]) ? estimates[s] : null, strataReps[s], strataDefined[s], ids.length, resamples, confidence),
    ),
    groups: groups.map((group, g) =>
      finishBlock(
        defined(groupEstimates[g]) ? groupEstimates[g] : null,
        groupReps[g],
        groupDefined[g],
        group.reduce((sum, s) => sum + members[s].length, 0),
        resamples,
        confidence,
      ),
    ),
    resamples,
    confidence,
  };
}

/** Per-cluster sparse vectors of additive sufficient statistics (CSR). */
export interface AdditiveClusters {
  dims: number;
  /** entries of cluster c: start[c] .. start[c + 1] - 1 */
  start: Int32Array;
  index: Int32Array;
  value: Float64Array;
}

/**
 * A statistic of a summed vector: `sum` holds the block's totals, `touched` lists the dimensions
 * that may be non-zero (touchedCount of them, in no particular order; every dimension when the
 * sums are kept dense).
 */
export type AdditiveStatistic = (sum: Float64Array, touched: Int32Array, touchedCount: number) => number | null;

/** Dimensions up to which sums are kept dense (clearing them costs less than tracking entries). */
const DENSE_MAX_DIMS = 512;

/** Sums of sparse vectors, kept dense up to DENSE_MAX_DIMS dimensions (exported for the bootstraps that weight their clusters otherwise). */
export class SparseSum {
  readonly sum: Float64Array;
  readonly mark: Uint8Array;
  readonly touched: Int32Array;
  readonly dense: boolean;
  count = 0;
  constructor(dims: number) {
    this.sum = new Float64Array(dims);
    this.mark = new Uint8Array(dims);
    this.touched = new Int32Array(dims);
    this.dense = dims <= DENSE_MAX_DIMS;
    if (this.dense) for (let d = 0; d < dims; d++) this.touched[d] = d;
  }
  /** dense sums report every dimension as touched once anything was added */
  clear() {
    if (this.dense) {
      this.sum.fill(0);
      this.count = 0;
      return;
    }
    for (let i = 0; i < this.count; i++) {
      const d = this.touched[i];
      this.sum[d] = 0;
      this.mark[d] = 0;
    }
    this.count = 0;
  }
  add(d: number, x: number) {
    if (this.dense) {
      this.count = this.sum.length;
    } else if (!this.mark[d]) {
      this.mark[d] = 1;
      this.touched[this.count++] = d;
    }
    this.sum[d] += x;
  }
  addCluster(data: AdditiveClusters, c: number, w: number) {
    const end = data.start[c + 1];
    if (this.dense) {
      if (end > data.start[c]) this.count = this.sum.length;
      for (let j = data.start[c]; j < end; j++) this.sum[data.index[j]] += w * data.value[j];
      return;
    }
    for (let j = data.start[c]; j < end; j++) this.add(data.index[j], w * data.value[j]);
  }
  addSum(other: SparseSum) {
    if (this.dense) {
      if (other.count === 0) return;
      this.count = this.sum.length;
      for (let d = 0; d < this.sum.length; d++) this.sum[d] += other.sum[d];
      return;
    }
    for (let i = 0; i < other.count; i++) {
      const d = other.touched[i];
      this.add(d, other.sum[d]);
    }
  }
}

/**
 * Stratified cluster bootstrap of a statistic of summed per-cluster vectors (such as
 * Krippendorff's alpha, a function of coincidence totals): the same draws as
 * stratifiedClusterBootstrap, at the cost of adding sparse vectors instead of rebuilding lists.
 * O(R x (C + cluster entries + blocks x cost of the statistic)).
 * @throws {Error} as stratifiedClusterBootstrap
 * @example
 * additiveStratifiedBootstrap(data, strata, 16, [allStrata], (sum) => sum[1] / sum[0], mulberry32(1));
 */
export function additiveStratifiedBootstrap(
  data: AdditiveClusters,
  stratumOf: ArrayLike<number>,
  strataCount: number,
  groups: ReadonlyArray<ReadonlyArray<number>>,
  statistic: AdditiveStatistic,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): StratifiedBootstrapResult {
  const fnName = "additiveStratifiedBootstrap";
  const C = data.start.length - 1;
  if (stratumOf.length !== C) throw new Error(`${fnName} requires one stratum id per cluster`);
  const { resamples, confidence } = bootstrapOptions(options, fnName);
  const members = strataMembers(stratumOf, strataCount, fnName);
  checkGroups(groups, strataCount, fnName);
  const strataSums = members.map(() => new SparseSum(data.dims));
  const groupSum = new SparseSum(data.dims);
  const run = (sum: SparseSum) => {
    const value = statistic(sum.sum, sum.touched, sum.count);
    return defined(value) ? value : null;
  };

  // estimates: every cluster once
  const estimates = members.map((ids, s) => {
    const sum = strataSums[s];
    sum.clear();
    for (const c of ids) sum.addCluster(data, c, 1);
    return ids.length > 0 ? run(sum) : null;
  });
  const groupEstimates = groups.map((group) => {
    groupSum.clear();
    for (const s of group) groupSum.addSum(strataSums[s]);
    return group.some((s) => members[s].length > 0) ? run(groupSum) : null;
  });

  const strataReps = members.map(() => new Float64Array(resamples));
  const strataDefined = new Array<number>(strataCount).fill(0);
  const groupReps = groups.map(() => new Float64Array(resamples));
  const groupDefined = new Array<number>(groups.length).fill(0);
  // each drawn cluster added once, with its draw count as weight
  forEachWeightedResample(C, stratifiedMultinomialWeights(members), rng, resamples, (weights) => {
    for (let s = 0; s < strataCount; s++) {
      const ids = members[s];
      const sum = strataSums[s];
      sum.clear();
      if (ids.length === 0) continue;
      for (const c of ids) if (weights[c] > 0) sum.addCluster(data, c, weights[c]);
      const value = run(sum);
      if (value !== null) strataReps[s][strataDefined[s]++] = value;
    }
    for (let g = 0; g < groups.length; g++) {
      groupSum.clear();
      for (const s of groups[g]) groupSum.addSum(strataSums[s]);
      if (groupSum.count === 0) continue;
      const value = run(groupSum);
      if (value !== null) groupReps[g][groupDefined[g]++] = value;
    }
  });
  return {
    strata: members.map((ids, s) => finishBlock(estimates[s], strataReps[s], strataDefined[s], ids.length, resamples, confidence)),
    groups: groups.map((group, g) =>
      finishBlock(
        groupEstimates[g],
        groupReps[g],
        groupDefined[g],
        group.reduce((sum, s) => sum + members[s].length, 0),
        resamples,
        confidence,
      ),
    ),
    resamples,
    confidence,
  };
}
