import type { PairwiseAlphaResult } from "@/lib/stats/agreement-summary";
import { bootstrapOptions, percentileInterval } from "@/lib/stats/bootstrap-ci";
import type { AlphaResult } from "@/lib/stats/krippendorff-alpha";
import type { AlphaBootstrapResult } from "@/lib/stats/krippendorff-alpha-bootstrap";
import type { Rng } from "@/lib/stats/rng";
import { multinomialWeights, weightedBootstrapReplicates } from "@/lib/stats/weighted-bootstrap";
import { additiveStratifiedBootstrap, type AdditiveClusters, type AdditiveStatistic, type StratifiedBootstrapResult } from "@/lib/stats/stratified-bootstrap";

/**
 * Krippendorff's alpha for orderings (permutations of 0..L-1) with the metric difference
 * delta^2(a, b) = normalised Kendall tau distance (discordant candidate pairs / (L(L-1)/2)) for
 * two permutations of the same length, and 1 for permutations of different lengths. This is the
 * "each item a unit" encoding of ENACT answers (lib/tasks/shared/enact/common.ts, "item-kendall").
 *
 * Why a file of its own: the general algorithm needs every pair of distinct values for the
 * expected disagreement, O(V^2) per replicate, and orderings of 8-10 steps are nearly all
 * distinct (V approaches the number of answers). Kendall's distance between rank vectors is the
 * Hamming distance between pair-order indicator vectors x(a) in {0,1}^P, P = L(L-1)/2
 * (x_ij(a) = 1 when a places candidate i before candidate j), and Hamming distance between 0/1
 * vectors equals their squared Euclidean distance. So delta^2 = ||x(a) - x(b)||^2 / P is an
 * interval-type metric in P dimensions, and both disagreements follow from sums:
 *   sum over ordered pairs of a group's values of delta^2 = 2 (m sum ||x||^2 - ||sum x||^2) / P,
 * plus 1 for every ordered pair of values of different lengths. That is O(R P) for R ratings,
 * and O(U P) per bootstrap replicate, with no V^2 term.
 * Unsquared on purpose: Kendall's distance already is a squared (Euclidean) distance in that
 * embedding, exactly as Krippendorff's interval delta^2 is the squared difference.
 */

export const KENDALL_PERMUTATION_METRIC = "kendall-tau (normalised; different lengths at distance 1)";

/** A unit's orderings: one permutation (0-based indices) per coder who answered, null = none. */
export type PermutationUnits = ReadonlyArray<ReadonlyArray<readonly number[] | null | undefined>>;

/** isPermutation's marks: seenAt[x] === stamp when x was seen in the current call (no buffer per call) */
let seenAt = new Int32Array(64);
let stamp = 0;

function isPermutation(order: readonly number[]): boolean {
  if (!Array.isArray(order)) return false;
  if (seenAt.length < order.length) seenAt = new Int32Array(order.length * 2);
  if (++stamp === 0x7fffffff) {
    seenAt.fill(0);
    stamp = 1;
  }
  for (const x of order) {
    if (!Number.isInteger(x) || x < 0 || x >= order.length || seenAt[x] === stamp) return false;
    seenAt[x] = stamp;
  }
  return true;
}

/**
 * Kendall permutation delta squared: the metric difference used here, for reference and tests:
 * normalised Kendall tau distance for equal lengths, 1 for different lengths.
 * Source: Kendall 1938, "A new measure of rank correlation", Biometrika 30.
 * O(L^2).
 * @throws {Error} "kendallPermutationDeltaSquared requires permutations of 0..n-1"
 * @example
 * kendallPermutationDeltaSquared([0, 1, 2], [1, 0, 2]); // 1/3
 */
export function kendallPermutationDeltaSquared(a: readonly number[], b: readonly number[]): number {
  if (!isPermutation(a) || !isPermutation(b)) throw new Error("kendallPermutationDeltaSquared requires permutations of 0..n-1");
  if (a.length !== b.length) return 1;
  const L = a.length;
  if (L < 2) return 0;
  const ra = new Int32Array(L);
  const rb = new Int32Array(L);
  for (let i = 0; i < L; i++) {
    ra[a[i]] = i;
    rb[b[i]] = i;
  }
  let discordant = 0;
  for (let i = 0; i < L; i++) for (let j = i + 1; j < L; j++) if ((ra[i] - ra[j]) * (rb[i] - rb[j]) < 0) discordant++;
  return discordant / ((L * (L - 1)) / 2);
}

/**
 * Adds an order's pair-indicator vector x (x_ij = 1 when candidate i comes before j, i < j, in
 * pair order) to `sums`; returns ||x||^2, its number of ones. `rank` is scratch of length >= L.
 */
function addPairIndicators(order: readonly number[], rank: Int32Array, sums: Float64Array): number {
  const L = order.length;
  for (let i = 0; i < L; i++) rank[order[i]] = i;
  let ones = 0;
  let p = 0;
  for (let i = 0; i < L; i++) {
    for (let j = i + 1; j < L; j++) {
      if (rank[i] < rank[j]) {
        sums[p] += 1;
        ones += 1;
      }
      p++;
    }
  }
  return ones;
}

/** Per pairable unit: groups of equal-length values with their pair-indicator sums. */
interface Prepared {
  units: number;
  /** lengths[g] = L of dense length group g; pairs[g] = L(L-1)/2; offset[g] into a P-sum buffer */
  lengths: number[];
  pairs: Int32Array;
  offset: Int32Array;
  dims: number;
  /** per unit: m_u and the unit's observed sum O_u (over ordered pairs, divided by m_u - 1) */
  size: Float64Array;
  observed: Float64Array;
  /** per unit CSR over its length groups: group id, count, sum of ||x||^2, then P sums in sumX */
  groupStart: Int32Array;
  groupId: Int32Array;
  groupCount: Float64Array;
  groupSq: Float64Array;
  sumStart: Int32Array;
  sumX: Float64Array;
}

function prepare(units: PermutationUnits, fnName: string): Prepared {
  if (!Array.isArray(units)) throw new Error(`${fnName} requires an array of units`);
  const lengthIndex = new Map<number, number>();
  const lengths: number[] = [];
  const size: number[] = [];
  const observed: number[] = [];
  const groupStart: number[] = [0];
  const groupId: number[] = [];
  const groupCount: number[] = [];
  const groupSq: number[] = [];
  const sumStart: number[] = [0];
  const sumX: number[] = [];
  let scratchSums = new Float64Array(64);
  let scratchRank = new Int32Array(16);
  /** the dense group of orders of length L, created on first use */
  const groupOf = (L: number): number => {
    let g = lengthIndex.get(L);
    if (g === undefined) {
      g = lengths.length;
      lengthIndex.set(L, g);
      lengths.push(L);
    }
    return g;
  };
  for (let u = 0; u < units.length; u++) {
    const unit = units[u];
    if (!Array.isArray(unit)) throw new Error(`${fnName} requires every unit to be an array (unit ${u} is not)`);
    const present: Array<readonly number[]> = [];
    for (const v of unit) {
      if (v === null || v === undefined) continue;
      if (!isPermutation(v)) throw new Error(`${fnName} requires permutations of 0..n-1 (unit ${u} has [${String(v)}])`);
      present.push(v);
    }
    const m = present.length;
    if (m < 2) continue;
    const L0 = present[0].length;
    let sameLength = true;
    for (let i = 1; i < m && sameLength; i++) sameLength = present[i].length === L0;
    if (sameLength) {
      // one length group (the usual unit): the general path below with no Map and no buffers of its own
      const g = groupOf(L0);
      const P = (L0 * (L0 - 1)) / 2;
      if (scratchSums.length < P) scratchSums = new Float64Array(P);
      if (scratchRank.length < L0) scratchRank = new Int32Array(L0);
      const sums = scratchSums;
      const rank = scratchRank;
      sums.fill(0, 0, P);
      let sq = 0;
      for (const v of present) sq += addPairIndicators(v, rank, sums);
      let within = 0;
      if (P > 0) {
        let norm = 0;
        for (let p = 0; p < P; p++) norm += sums[p] * sums[p];
        within += (2 * (m * sq - norm)) / P;
      }
      within += m * m - m * m;
      groupId.push(g);
      groupCount.push(m);
      groupSq.push(sq);
      for (let p = 0; p < P; p++) sumX.push(sums[p]);
      sumStart.push(sumX.length);
      size.push(m);
      observed.push(within / (m - 1));
      groupStart.push(groupId.length);
      continue;
    }
    // group the unit's values by length
    const byLength = new Map<number, Array<readonly number[]>>();
    for (const v of present) {
      const list = byLength.get(v.length);
      if (list) list.push(v);
      else byLength.set(v.length, [v]);
    }
    let within = 0;
    let sameLengthPairs = 0;
    for (const [L, list] of byLength) {
      const g = groupOf(L);
      const P = (L * (L - 1)) / 2;
      const sums = new Float64Array(P);
      let sq = 0;
      const rank = new Int32Array(L);
      for (const v of list) sq += addPairIndicators(v, rank, sums);
      const c = list.length;
      sameLengthPairs += c * c;
      if (P > 0) {
        let norm = 0;
        for (let p = 0; p < P; p++) norm += sums[p] * sums[p];
        within += (2 * (c * sq - norm)) / P;
      }
      groupId.push(g);
      groupCount.push(c);
      groupSq.push(sq);
      for (let p = 0; p < P; p++) sumX.push(sums[p]);
      sumStart.push(sumX.length);
    }
    within += m * m - sameLengthPairs; // ordered pairs of different lengths, at distance 1
    size.push(m);
    observed.push(within / (m - 1));
    groupStart.push(groupId.length);
  }
  const pairs = Int32Array.from(lengths, (L) => (L * (L - 1)) / 2);
  const offset = new Int32Array(lengths.length);
  let dims = 0;
  for (let g = 0; g < lengths.length; g++) {
    offset[g] = dims;
    dims += pairs[g];
  }
  return {
    units: size.length,
    lengths,
    pairs,
    offset,
    dims,
    size: Float64Array.from(size),
    observed: Float64Array.from(observed),
    groupStart: Int32Array.from(groupStart),
    groupId: Int32Array.from(groupId),
    groupCount: Float64Array.from(groupCount),
    groupSq: Float64Array.from(groupSq),
    sumStart: Int32Array.from(sumStart),
    sumX: Float64Array.from(sumX),
  };
}

/** Weighted totals -> { n, observed sum O, expected sum E } (E over ordered pairs). */
function disagreementSums(pr: Prepared, weight: ((u: number) => number) | null, S: Float64Array, N: Float64Array, Q: Float64Array) {
  S.fill(0);
  N.fill(0);
  Q.fill(0);
  let n = 0;
  let observed = 0;
  for (let u = 0; u < pr.units; u++) {
    const w = weight ? weight(u) : 1;
    if (w === 0) continue;
    n += w * pr.size[u];
    observed += w * pr.observed[u];
    for (let k = pr.groupStart[u]; k < pr.groupStart[u + 1]; k++) {
      const g = pr.groupId[k];
      N[g] += w * pr.groupCount[k];
      Q[g] += w * pr.groupSq[k];
      const base = pr.offset[g];
      const from = pr.sumStart[k];
      const P = pr.pairs[g];
      for (let p = 0; p < P; p++) S[base + p] += w * pr.sumX[from + p];
    }
  }
  let expected = n * n;
  for (let g = 0; g < pr.lengths.length; g++) {
    expected -= N[g] * N[g];
    const P = pr.pairs[g];
    if (P === 0 || N[g] === 0) continue;
    let norm = 0;
    const base = pr.offset[g];
    for (let p = 0; p < P; p++) norm += S[base + p] * S[base + p];
    expected += (2 * (N[g] * Q[g] - norm)) / P;
  }
  return { n, observed, expected };
}

function buffers(pr: Prepared) {
  return { S: new Float64Array(pr.dims), N: new Float64Array(pr.lengths.length), Q: new Float64Array(pr.lengths.length) };
}

function resultFrom(pr: Pick<Prepared, "units">, sums: { n: number; observed: number; expected: number }): AlphaResult {
  const base = { metric: KENDALL_PERMUTATION_METRIC, n: sums.n, units: pr.units };
  if (sums.n === 0) {
    return { alpha: null, reason: "no pairable values: no unit has at least 2 values", ...base, observedDisagreement: null, expectedDisagreement: null };
  }
  const observedDisagreement = sums.observed / sums.n;
  // sums of integers and of integer/P fractions: an all-equal data set gives exactly 0, but guard rounding
  if (!(sums.expected > 1e-9 * sums.n * sums.n)) {
    return { alpha: null, reason: "expected disagreement is 0: every pairable value is the same", ...base, observedDisagreement, expectedDisagreement: 0 };
  }
  return {
    alpha: 1 - ((sums.n - 1) * sums.observed) / sums.expected,
    ...base,
    observedDisagreement,
    expectedDisagreement: sums.expected / (sums.n * (sums.n - 1)),
  };
}

/** Units of orderings prepared once (their per-unit sums), for the alpha of many subsets of them. */
export interface KendallPermutationUnits {
  readonly prepared: Prepared;
}

/**
 * Kendall permutation units: prepares units of orderings once for kendallPermutationAlphaOfUnits
 * (the pair-indicator sums of each pairable unit, as kendallPermutationAlpha computes them).
 * Source: this file's header. O(R L^2).
 * @throws {Error} "kendallPermutationUnits requires permutations of 0..n-1" with the unit
 */
export function kendallPermutationUnits(units: PermutationUnits): KendallPermutationUnits {
  return { prepared: prepare(units, "kendallPermutationUnits") };
}

/**
 * Kendall permutation alpha of a subset of prepared units, given by their index among the
 * pairable units (units with two values or more, in order): the same sums, in the same order, as
 * kendallPermutationAlpha of those units alone, without preparing them again.
 * Source: this file's header. O(U + sum of the chosen units' L^2).
 * @throws {Error} on a unit index out of range
 */
export function kendallPermutationAlphaOfUnits(units: KendallPermutationUnits, pairableUnitIds: ArrayLike<number>): AlphaResult {
  return kendallPermutationAlphaOfSums(units, kendallPermutationSumsOfUnits(units, pairableUnitIds));
}

/** The additive parts of kendallPermutationAlpha over some units (n, the observed sum, per length the count, sum of ||x||^2 and pair-indicator sums). */
export interface KendallPermutationSums {
  n: number;
  observed: number;
  units: number;
  N: Float64Array;
  Q: Float64Array;
  S: Float64Array;
}

/**
 * Kendall permutation sums of units: the totals of kendallPermutationAlpha over the pairable units
 * given (each counted once), to be added to the totals of other units (addKendallPermutationSums)
 * and read by kendallPermutationAlphaOfSums: the totals of a union of disjoint sets of units are
 * the sums of theirs.
 * Source: this file's header. O(k + sum of the units' L^2) for k units.
 * @throws {Error} on a unit index out of range
 */
export function kendallPermutationSumsOfUnits(units: KendallPermutationUnits, pairableUnitIds: ArrayLike<number>): KendallPermutationSums {
  const pr = units.prepared;
  const { S, N, Q } = buffers(pr);
  const ids = Int32Array.from(pairableUnitIds);
  for (const u of ids) if (!(u >= 0 && u < pr.units)) throw new Error(`kendallPermutationAlphaOfUnits: unit ${u} is not one of the ${pr.units} pairable units`);
  ids.sort();
  let n = 0;
  let observed = 0;
  let count = 0;
  for (let i = 0; i < ids.length; i++) {
    const u = ids[i];
    if (i > 0 && ids[i - 1] === u) continue;
    count++;
    n += pr.size[u];
    observed += pr.observed[u];
    for (let k = pr.groupStart[u]; k < pr.groupStart[u + 1]; k++) {
      const g = pr.groupId[k];
      N[g] += pr.groupCount[k];
      Q[g] += pr.groupSq[k];
      const base = pr.offset[g];
      const from = pr.sumStart[k];
      const P = pr.pairs[g];
      for (let p = 0; p < P; p++) S[base + p] += pr.sumX[from + p];
    }
  }
  return { n, observed, units: count, N, Q, S };
}

/** Adds `from` into `into` (totals of disjoint sets of units of the same prepared units). */
export function addKendallPermutationSums(into: KendallPermutationSums, from: KendallPermutationSums): void {
  into.n += from.n;
  into.observed += from.observed;
  into.units += from.units;
  for (let g = 0; g < into.N.length; g++) {
    into.N[g] += from.N[g];
    into.Q[g] += from.Q[g];
  }
  for (let p = 0; p < into.S.length; p++) into.S[p] += from.S[p];
}

/** Kendall permutation alpha of summed units (kendallPermutationSumsOfUnits, addKendallPermutationSums). */
export function kendallPermutationAlphaOfSums(units: KendallPermutationUnits, sums: KendallPermutationSums): AlphaResult {
  const pr = units.prepared;
  let expected = sums.n * sums.n;
  for (let g = 0; g < pr.lengths.length; g++) {
    expected -= sums.N[g] * sums.N[g];
    const P = pr.pairs[g];
    if (P === 0 || sums.N[g] === 0) continue;
    let norm = 0;
    const base = pr.offset[g];
    for (let p = 0; p < P; p++) norm += sums.S[base + p] * sums.S[base + p];
    expected += (2 * (sums.N[g] * sums.Q[g] - norm)) / P;
  }
  return { ...resultFrom(pr, { n: sums.n, observed: sums.observed, expected }), units: sums.units };
}

/**
 * Kendall permutation alpha: Krippendorff's alpha for units of orderings with the normalised
 * Kendall tau distance as delta^2 (different lengths at 1), equal to krippendorffAlphaFromUnits
 * with that custom metric, computed without the O(V^2) pass over distinct values. Returns alpha
 * null with a reason when alpha is undefined, never a silent 0 or 1.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections B-E; Kendall
 * 1938; the embedding argument in this file's header.
 * O(R L^2) for R ratings of length L.
 * @throws {Error} "kendallPermutationAlpha requires permutations of 0..n-1" with the unit
 * @example
 * kendallPermutationAlpha([[[0, 1, 2], [0, 1, 2]], [[2, 1, 0], [2, 0, 1]]]).alpha;
 */
export function kendallPermutationAlpha(units: PermutationUnits): AlphaResult {
  const pr = prepare(units, "kendallPermutationAlpha");
  const b = buffers(pr);
  return resultFrom(pr, disagreementSums(pr, null, b.S, b.N, b.Q));
}

/**
 * Kendall permutation alpha bootstrap: the unit-resampling percentile bootstrap of
 * kendallPermutationAlpha, draw for draw the same as krippendorffAlphaBootstrap(units, metric,
 * rng, { method: "units" }) with the equivalent custom metric (randomInt(rng, U) U times per
 * resample over the pairable units; undefined replicates counted and left out; type-7 percentile
 * interval), at O(U P) per replicate instead of O(U + V^2).
 * Source: Efron & Tibshirani 1993, section 13.3; Krippendorff 2011.
 * O(resamples x U x P).
 * @throws {Error} as kendallPermutationAlpha, and on bad resamples/confidence
 * @example
 * kendallPermutationAlphaBootstrap(units, mulberry32(1)).ci;
 */
export function kendallPermutationAlphaBootstrap(
  units: PermutationUnits,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): AlphaBootstrapResult {
  const fnName = "kendallPermutationAlphaBootstrap";
  const { resamples, confidence } = bootstrapOptions(options, fnName);
  const pr = prepare(units, fnName);
  const b = buffers(pr);
  const estimate = resultFrom(pr, disagreementSums(pr, null, b.S, b.N, b.Q));
  const pct = Math.round(confidence * 1000) / 10;
  const description = `${pct}% percentile bootstrap over units (${resamples} resamples of ${pr.units} pairable units with replacement)`;
  const common = { method: "unit-bootstrap" as const, description, estimate, confidence, resamples, draws: null };
  if (estimate.alpha === null) {
    return { ...common, ci: null, reason: `alpha is undefined on the full data (${estimate.reason})`, undefinedResamples: 0, replicates: new Float64Array(0) };
  }
  const U = pr.units;
  const alphaOfWeights = (weight: Int32Array): number | null => {
    const sums = disagreementSums(pr, (u) => weight[u], b.S, b.N, b.Q);
    return sums.expected > 1e-9 * sums.n * sums.n ? 1 - ((sums.n - 1) * sums.observed) / sums.expected : null;
  };
  const { replicates, undefinedResamples } = weightedBootstrapReplicates(U, multinomialWeights(U), alphaOfWeights, rng, resamples);
  if (replicates.length === 0) return { ...common, ci: null, reason: "alpha was undefined on every resample", undefinedResamples, replicates };
  return { ...common, ci: percentileInterval(replicates, confidence), undefinedResamples, replicates };
}

/**
 * Kendall permutation pairwise alpha: kendallPermutationAlpha for every pair of coders of a
 * coders x units matrix of orderings (null = missing), as a symmetric matrix and a pair list,
 * in the shape of pairwiseAlpha (agreement-summary.ts).
 * Source: Krippendorff 2011 (alpha on each pair's two-row reliability matrix).
 * O(C^2 U L^2).
 * @throws {Error} "kendallPermutationPairwiseAlpha requires at least 2 coders", or rows of unequal length
 * @example
 * kendallPermutationPairwiseAlpha([[[0, 1]], [[1, 0]]]).matrix[0][1];
 */
export function kendallPermutationPairwiseAlpha(matrix: ReadonlyArray<ReadonlyArray<readonly number[] | null | undefined>>): PairwiseAlphaResult {
  const fnName = "kendallPermutationPairwiseAlpha";
  if (!Array.isArray(matrix) || matrix.length < 2) throw new Error(`${fnName} requires at least 2 coders`);
  const U = matrix[0].length;
  for (const row of matrix) if (row.length !== U) throw new Error(`${fnName} requires every coder row to have the same number of units`);
  const C = matrix.length;
  const out: (number | null)[][] = Array.from({ length: C }, () => new Array<number | null>(C).fill(null));
  const pairs: PairwiseAlphaResult["pairs"] = [];
  for (let a = 0; a < C; a++) {
    for (let b = a + 1; b < C; b++) {
      const units: Array<Array<readonly number[] | null | undefined>> = [];
      for (let u = 0; u < U; u++) if (matrix[a][u] && matrix[b][u]) units.push([matrix[a][u], matrix[b][u]]);
      const result = kendallPermutationAlpha(units);
      out[a][b] = result.alpha;
      out[b][a] = result.alpha;
      pairs.push({ a, b, result });
    }
  }
  return { matrix: out, pairs };
}

/**
 * The sums of kendallPermutationAlpha (prepare, then disagreementSums) for units given one at a
 * time as ratings whose pair-indicator vectors are already computed: the same additions in the
 * same order, so the same alpha to the last bit.
 */
class KendallSums {
  private readonly lengthIndex = new Map<number, number>();
  private readonly lengths: number[] = [];
  private readonly N: number[] = [];
  private readonly Q: number[] = [];
  private readonly S: Float64Array[] = [];
  private n = 0;
  private observed = 0;
  private units = 0;

  /** the bit offsets of the unit's ratings (scratch) */
  private readonly starts: Int32Array;

  constructor(
    private readonly bits: Uint8Array,
    private readonly bitStart: Int32Array,
    private readonly lengthOf: Int32Array,
    coders: number,
  ) {
    this.starts = new Int32Array(coders);
  }

  /** the dense group of length L, created on first use */
  private group(L: number, P: number): number {
    let g = this.lengthIndex.get(L);
    if (g === undefined) {
      g = this.lengths.length;
      this.lengthIndex.set(L, g);
      this.lengths.push(L);
      this.N.push(0);
      this.Q.push(0);
      this.S.push(new Float64Array(P));
    }
    return g;
  }

  /** one unit: the rating ids of its values, in the unit's order */
  add(ratings: ArrayLike<number>, m: number): void {
    if (m < 2) return;
    const L0 = this.lengthOf[ratings[0]];
    let sameLength = true;
    for (let i = 1; i < m && sameLength; i++) sameLength = this.lengthOf[ratings[i]] === L0;
    if (sameLength) {
      // one length group (the usual unit): the general path's integers summed in place, with no
      // allocation; c * sq - norm is exact, so `within` gets the same floating operations
      const P = (L0 * (L0 - 1)) / 2;
      const g = this.group(L0, P);
      const S = this.S[g];
      let sq = 0;
      let norm = 0;
      const bits = this.bits;
      if (m === 2) {
        const a = this.bitStart[ratings[0]];
        const b = this.bitStart[ratings[1]];
        for (let p = 0; p < P; p++) {
          const sum = bits[a + p] + bits[b + p];
          sq += sum;
          norm += sum * sum;
          S[p] += sum;
        }
      } else {
        const starts = this.starts;
        for (let i = 0; i < m; i++) starts[i] = this.bitStart[ratings[i]];
        for (let p = 0; p < P; p++) {
          let sum = 0;
          for (let i = 0; i < m; i++) sum += bits[starts[i] + p];
          sq += sum;
          norm += sum * sum;
          S[p] += sum;
        }
      }
      let within = 0;
      if (P > 0) within += (2 * (m * sq - norm)) / P;
      within += m * m - m * m;
      this.N[g] += m;
      this.Q[g] += sq;
      this.n += m;
      this.observed += within / (m - 1);
      this.units += 1;
      return;
    }
    const groups: Array<{ L: number; c: number; sq: number; sums: Float64Array }> = [];
    for (let i = 0; i < m; i++) {
      const r = ratings[i];
      const L = this.lengthOf[r];
      let group = groups.find((x) => x.L === L);
      if (!group) groups.push((group = { L, c: 0, sq: 0, sums: new Float64Array((L * (L - 1)) / 2) }));
      group.c += 1;
      const from = this.bitStart[r];
      const { sums } = group;
      for (let p = 0; p < sums.length; p++) {
        const bit = this.bits[from + p];
        sums[p] += bit;
        group.sq += bit;
      }
    }
    let within = 0;
    let sameLengthPairs = 0;
    for (const { L, c, sq, sums } of groups) {
      const P = sums.length;
      const g = this.group(L, P);
      sameLengthPairs += c * c;
      if (P > 0) {
        let norm = 0;
        for (let p = 0; p < P; p++) norm += sums[p] * sums[p];
        within += (2 * (c * sq - norm)) / P;
      }
      this.N[g] += c;
      this.Q[g] += sq;
      const S = this.S[g];
      for (let p = 0; p < P; p++) S[p] += sums[p];
    }
    within += m * m - sameLengthPairs;
    this.n += m;
    this.observed += within / (m - 1);
    this.units += 1;
  }

  result(): AlphaResult {
    let expected = this.n * this.n;
    for (let g = 0; g < this.lengths.length; g++) {
      expected -= this.N[g] * this.N[g];
      const P = this.S[g].length;
      if (P === 0 || this.N[g] === 0) continue;
      let norm = 0;
      for (let p = 0; p < P; p++) norm += this.S[g][p] * this.S[g][p];
      expected += (2 * (this.N[g] * this.Q[g] - norm)) / P;
    }
    return resultFrom({ units: this.units }, { n: this.n, observed: this.observed, expected });
  }
}

/**
 * Kendall permutation alphas between coders: the pairwise alphas (kendallPermutationPairwiseAlpha)
 * and, with three coders or more, alpha without each coder (kendallPermutationAlpha of the other
 * rows), with every rating's pair-indicator vector computed once instead of once per pair and per
 * coder left out. Same sums in the same order: the same numbers.
 * Source: Krippendorff 2011; the embedding argument in this file's header.
 * O(C^2 U L^2) for C coders, U units of orderings of length L, O(R L^2) memory.
 * @throws {Error} as kendallPermutationPairwiseAlpha
 */
export function kendallPermutationBetweenCoders(matrix: ReadonlyArray<ReadonlyArray<readonly number[] | null | undefined>>): {
  pairwise: PairwiseAlphaResult;
  leaveOneOut: AlphaResult[] | null;
} {
  const fnName = "kendallPermutationBetweenCoders";
  if (!Array.isArray(matrix) || matrix.length < 2) throw new Error(`${fnName} requires at least 2 coders`);
  const C = matrix.length;
  const U = matrix[0].length;
  for (const row of matrix) if (row.length !== U) throw new Error(`${fnName} requires every coder row to have the same number of units`);
  // rating id = coder * U + unit; its pair-indicator vector at bitStart
  const bitStart = new Int32Array(C * U).fill(-1);
  const lengthOf = new Int32Array(C * U);
  let total = 0;
  for (let c = 0; c < C; c++) {
    for (let u = 0; u < U; u++) {
      const v = matrix[c][u];
      if (v === null || v === undefined) continue;
      if (!isPermutation(v)) throw new Error(`${fnName} requires permutations of 0..n-1 (unit ${u} has [${String(v)}])`);
      bitStart[c * U + u] = total;
      lengthOf[c * U + u] = v.length;
      total += (v.length * (v.length - 1)) / 2;
    }
  }
  const bits = new Uint8Array(total);
  let rank = new Int32Array(16);
  for (let r = 0; r < C * U; r++) {
    if (bitStart[r] < 0) continue;
    const v = matrix[Math.floor(r / U)][r % U]!;
    const L = v.length;
    if (rank.length < L) rank = new Int32Array(L);
    for (let i = 0; i < L; i++) rank[v[i]] = i;
    let p = bitStart[r];
    for (let i = 0; i < L; i++) for (let j = i + 1; j < L; j++) bits[p++] = rank[i] < rank[j] ? 1 : 0;
  }
  const ratings = new Int32Array(C);
  const out: (number | null)[][] = Array.from({ length: C }, () => new Array<number | null>(C).fill(null));
  const pairs: PairwiseAlphaResult["pairs"] = [];
  for (let a = 0; a < C; a++) {
    for (let b = a + 1; b < C; b++) {
      const sums = new KendallSums(bits, bitStart, lengthOf, C);
      for (let u = 0; u < U; u++) {
        if (bitStart[a * U + u] < 0 || bitStart[b * U + u] < 0) continue;
        ratings[0] = a * U + u;
        ratings[1] = b * U + u;
        sums.add(ratings, 2);
      }
      const result = sums.result();
      out[a][b] = result.alpha;
      out[b][a] = result.alpha;
      pairs.push({ a, b, result });
    }
  }
  let leaveOneOut: AlphaResult[] | null = null;
  if (C >= 3) {
    leaveOneOut = [];
    for (let left = 0; left < C; left++) {
      const sums = new KendallSums(bits, bitStart, lengthOf, C);
      for (let u = 0; u < U; u++) {
        let m = 0;
        for (let c = 0; c < C; c++) if (c !== left && bitStart[c * U + u] >= 0) ratings[m++] = c * U + u;
        sums.add(ratings, m);
      }
      leaveOneOut.push(sums.result());
    }
  }
  return { pairwise: { matrix: out, pairs }, leaveOneOut };
}

/**
 * Kendall permutation cluster totals: the additive totals of kendallPermutationAlpha per cluster
 * of units (n, the observed sum, and per answer length the count, the sum of ||x||^2 and the
 * pair-indicator sums), with the statistic that turns summed totals into alpha, for the
 * stratified cluster bootstrap. Dense cluster indices follow each cluster's first pairable unit.
 * Source: Krippendorff 2011; the embedding argument in this file's header.
 * O(R L^2) to build; the statistic costs O(sum over lengths of L^2).
 * @throws {Error} as kendallPermutationAlpha, or "kendallPermutationClusterTotals requires one cluster id per unit"
 * @example
 * const { data, statistic } = kendallPermutationClusterTotals(units, itemOfUnit);
 */
export function kendallPermutationClusterTotals(
  units: PermutationUnits,
  clusterOf: ArrayLike<number>,
): { data: AdditiveClusters; statistic: AdditiveStatistic; clusterIds: number[] } {
  const fnName = "kendallPermutationClusterTotals";
  if (!Array.isArray(units) || clusterOf.length !== units.length) throw new Error(`${fnName} requires one cluster id per unit`);
  const pr = prepare(units, fnName);
  // pairable unit p -> the caller's cluster id
  const pairableCluster: number[] = [];
  for (let u = 0; u < units.length; u++) {
    let m = 0;
    for (const v of units[u]) if (v !== null && v !== undefined) m++;
    if (m >= 2) pairableCluster.push(clusterOf[u]);
  }
  // layout: [0] n, [1] observed, then per length group g at base[g]: N, Q, S_1..S_P
  const G = pr.lengths.length;
  const base = new Int32Array(G);
  let dims = 2;
  for (let g = 0; g < G; g++) {
    base[g] = dims;
    dims += 2 + pr.pairs[g];
  }
  const dense = new Map<number, number>();
  const clusterIds: number[] = [];
  const unitsOfCluster: number[][] = [];
  pairableCluster.forEach((id, p) => {
    let c = dense.get(id);
    if (c === undefined) {
      c = clusterIds.length;
      dense.set(id, c);
      clusterIds.push(id);
      unitsOfCluster.push([]);
    }
    unitsOfCluster[c].push(p);
  });
  const start = new Int32Array(clusterIds.length + 1);
  const index: number[] = [];
  const value: number[] = [];
  const scratch = new Float64Array(dims);
  const touched: number[] = [];
  const add = (d: number, x: number) => {
    if (x === 0) return;
    if (scratch[d] === 0) touched.push(d);
    scratch[d] += x;
  };
  for (let c = 0; c < clusterIds.length; c++) {
    for (const u of unitsOfCluster[c]) {
      add(0, pr.size[u]);
      add(1, pr.observed[u]);
      for (let k = pr.groupStart[u]; k < pr.groupStart[u + 1]; k++) {
        const g = pr.groupId[k];
        add(base[g], pr.groupCount[k]);
        add(base[g] + 1, pr.groupSq[k]);
        const from = pr.sumStart[k];
        for (let q = 0; q < pr.pairs[g]; q++) add(base[g] + 2 + q, pr.sumX[from + q]);
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
  const statistic: AdditiveStatistic = (sum) => {
    const n = sum[0];
    if (!(n > 0)) return null;
    let expected = n * n;
    for (let g = 0; g < G; g++) {
      const N = sum[base[g]];
      expected -= N * N;
      const P = pr.pairs[g];
      if (P === 0 || N === 0) continue;
      let norm = 0;
      for (let q = 0; q < P; q++) {
        const x = sum[base[g] + 2 + q];
        norm += x * x;
      }
      expected += (2 * (N * sum[base[g] + 1] - norm)) / P;
    }
    return expected > 1e-9 * n * n ? 1 - ((n - 1) * sum[1]) / expected : null;
  };
  return { data: { dims, start, index: Int32Array.from(index), value: Float64Array.from(value) }, statistic, clusterIds };
}

/**
 * Kendall permutation alpha stratified bootstrap: kendallPermutationAlpha's intervals for every
 * stratum and group of strata from one stratified cluster bootstrap (stratified-bootstrap.ts).
 * Source: as kendallPermutationClusterTotals; Davison & Hinkley 1997, sections 3.7-3.8.
 * O(R (C + cluster entries + blocks x sum of L^2)).
 * @throws {Error} as kendallPermutationClusterTotals and additiveStratifiedBootstrap
 * @example
 * kendallPermutationAlphaStratifiedBootstrap(units, itemOfUnit, (item) => cellOf[item], 16, [[0, 1]], mulberry32(1));
 */
export function kendallPermutationAlphaStratifiedBootstrap(
  units: PermutationUnits,
  clusterOf: ArrayLike<number>,
  stratumOf: (clusterId: number) => number,
  strataCount: number,
  groups: ReadonlyArray<ReadonlyArray<number>>,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): StratifiedBootstrapResult {
  const totals = kendallPermutationClusterTotals(units, clusterOf);
  return additiveStratifiedBootstrap(totals.data, totals.clusterIds.map(stratumOf), strataCount, groups, totals.statistic, rng, options);
}
