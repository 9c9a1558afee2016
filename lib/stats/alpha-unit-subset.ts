import type { AlphaCoincidences } from "@/lib/stats/alpha-coincidences";

/**
 * Alpha coincidences of a subset of units, summed from the per-unit parts of the coincidences of
 * all units (alphaCoincidences with perUnit), so that many subsets of one set of units (the
 * dashboard's kind x tag cells, each kind, everything) cost a pass over their own units instead
 * of re-reading and re-indexing every value. The result is what alphaCoincidences gives for the
 * subset's units: only values with a non-zero marginal are kept (in the full matrix's order:
 * ascending for ordinal, interval and ratio), so alphaFromCoincidences reads it unchanged.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section C: o_ck and n_c
 * are sums over units.
 * O(sum over the subset's units of their distinct values and value pairs, + V + P).
 * @throws {Error} when `co` was built without perUnit, or a unit id is out of range
 * @example
 * const all = alphaCoincidences(units, "ordinal", { perUnit: true });
 * alphaFromCoincidences(alphaCoincidencesOfUnits(all, [0, 2])).alpha; // alpha of units 0 and 2
 */
export function alphaCoincidencesOfUnits(co: AlphaCoincidences, pairableUnitIds: ArrayLike<number>): AlphaCoincidences {
  return alphaCoincidencesOfSums(co, alphaCoincidenceSumsOfUnits(co, pairableUnitIds));
}

/** The additive parts of the coincidences of some units: what alphaCoincidencesOfUnits sums, before it keeps the values that occur. */
export interface AlphaCoincidenceSums {
  marginals: Float64Array;
  diagonal: Float64Array;
  /** per pair of the full matrix (co.pairC, co.pairK) */
  pairSum: Float64Array;
  n: number;
  units: number;
  maxValuesPerUnit: number;
}

/**
 * Alpha coincidence sums of units: the per-unit parts of `co` summed over the units given, to be
 * added to other sums of other units (addAlphaCoincidenceSums) and read by alphaCoincidencesOfSums:
 * the coincidences of a union of disjoint sets of units are the sums of theirs.
 * Source: Krippendorff 2011, section C (o_ck and n_c are sums over units).
 * O(sum over the units of their distinct values and value pairs, + V + P).
 * @throws {Error} when `co` was built without perUnit, or a unit id is out of range
 */
export function alphaCoincidenceSumsOfUnits(co: AlphaCoincidences, pairableUnitIds: ArrayLike<number>): AlphaCoincidenceSums {
  const pu = co.perUnit;
  if (!pu) throw new Error("alphaCoincidencesOfUnits requires coincidences built with perUnit");
  const marginals = new Float64Array(co.values.length);
  const diagonal = new Float64Array(co.values.length);
  const pairSum = new Float64Array(co.pairO.length);
  let n = 0;
  let maxValuesPerUnit = 0;
  for (let i = 0; i < pairableUnitIds.length; i++) {
    const u = pairableUnitIds[i];
    if (!(u >= 0 && u < co.units)) throw new Error(`alphaCoincidencesOfUnits: unit ${u} is not one of the ${co.units} pairable units`);
    const m = pu.size[u];
    n += m;
    if (m > maxValuesPerUnit) maxValuesPerUnit = m;
    const inv = 1 / (m - 1);
    for (let j = pu.valueStart[u]; j < pu.valueStart[u + 1]; j++) {
      const c = pu.valueIndex[j];
      const nc = pu.valueCount[j];
      marginals[c] += nc;
      if (nc > 1) diagonal[c] += nc * (nc - 1) * inv;
    }
    for (let j = pu.pairStart[u]; j < pu.pairStart[u + 1]; j++) pairSum[pu.pairId[j]] += pu.pairWeight[j];
  }
  return { marginals, diagonal, pairSum, n, units: pairableUnitIds.length, maxValuesPerUnit };
}

/** Adds `from` into `into` (sums of disjoint sets of units of the same coincidences). */
export function addAlphaCoincidenceSums(into: AlphaCoincidenceSums, from: AlphaCoincidenceSums): void {
  for (let c = 0; c < into.marginals.length; c++) {
    into.marginals[c] += from.marginals[c];
    into.diagonal[c] += from.diagonal[c];
  }
  for (let p = 0; p < into.pairSum.length; p++) into.pairSum[p] += from.pairSum[p];
  into.n += from.n;
  into.units += from.units;
  if (from.maxValuesPerUnit > into.maxValuesPerUnit) into.maxValuesPerUnit = from.maxValuesPerUnit;
}

/** The coincidences of summed units (alphaCoincidenceSumsOfUnits, addAlphaCoincidenceSums), as alphaCoincidences gives them for those units. */
export function alphaCoincidencesOfSums(co: AlphaCoincidences, sums: AlphaCoincidenceSums): AlphaCoincidences {
  const pairIds: number[] = [];
  for (let p = 0; p < sums.pairSum.length; p++) if (sums.pairSum[p] > 0) pairIds.push(p);
  return compacted(
    co,
    sums,
    pairIds.map((p) => [co.pairC[p], co.pairK[p], sums.pairSum[p]]),
  );
}

/**
 * Coincidences over the template's values from sums over some units: only the values with a
 * non-zero marginal are kept, in the template's order (what alphaCoincidences gives for those
 * units), and each pair (c < k, in template indices, o_ck + o_kc) is renumbered to them.
 */
function compacted(
  template: AlphaCoincidences,
  sums: { marginals: Float64Array; diagonal: Float64Array; n: number; units: number; maxValuesPerUnit: number },
  pairs: Array<[number, number, number]>,
): AlphaCoincidences {
  const V = template.values.length;
  const local = new Int32Array(V).fill(-1);
  const values: AlphaCoincidences["values"] = [];
  let kept = 0;
  for (let c = 0; c < V; c++) {
    if (sums.marginals[c] > 0) {
      local[c] = kept++;
      values.push(template.values[c]);
    }
  }
  const numeric = template.numeric ? new Float64Array(kept) : null;
  const marginals = new Float64Array(kept);
  const diagonal = new Float64Array(kept);
  for (let c = 0; c < V; c++) {
    const l = local[c];
    if (l < 0) continue;
    marginals[l] = sums.marginals[c];
    diagonal[l] = sums.diagonal[c];
    if (numeric) numeric[l] = template.numeric![c];
  }
  const pairC = new Int32Array(pairs.length);
  const pairK = new Int32Array(pairs.length);
  const pairO = new Float64Array(pairs.length);
  pairs.forEach(([c, k, o], q) => {
    pairC[q] = local[c];
    pairK[q] = local[k];
    pairO[q] = o;
  });
  return {
    metricName: template.metricName,
    kind: template.kind,
    values,
    numeric,
    marginals,
    n: sums.n,
    units: sums.units,
    maxValuesPerUnit: sums.maxValuesPerUnit,
    diagonal,
    pairC,
    pairK,
    pairO,
    perUnit: null,
    deltaSquared: template.deltaSquared,
  };
}

/**
 * Builds the coincidences of units given as indices into the values of a template's coincidences
 * (alphaCoincidences of a superset of the data, any level): for alphas of variants of one data
 * set (two coders of it, all coders but one) without re-indexing the values for each. `add`
 * takes one unit's value indices (units of fewer than two values are skipped, as alphaCoincidences
 * skips them); `finish` gives what alphaCoincidences gives for those units: only values with a
 * non-zero marginal, in the template's order.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section C.
 * O(d^2) per unit of d distinct values; O(V^2) memory for V <= 1024 values, else a map of pairs.
 */
export class AlphaCoincidencesBuilder {
  private readonly V: number;
  private readonly marginals: Float64Array;
  private readonly diagonal: Float64Array;
  private readonly pairDense: Float64Array | null;
  private readonly pairSparse: Map<number, number> | null;
  private readonly scratch: Float64Array;
  private readonly touched: Int32Array;
  private n = 0;
  private units = 0;
  private maxValuesPerUnit = 0;

  constructor(private readonly template: AlphaCoincidences) {
    this.V = template.values.length;
    this.marginals = new Float64Array(this.V);
    this.diagonal = new Float64Array(this.V);
    this.pairDense = this.V <= 1024 ? new Float64Array(this.V * this.V) : null;
    this.pairSparse = this.pairDense ? null : new Map();
    this.scratch = new Float64Array(this.V);
    this.touched = new Int32Array(this.V);
  }

  /** one unit's values, as indices into template.values, from values[start] to values[end - 1] */
  add(values: ArrayLike<number>, start = 0, end = values.length): void {
    const m = end - start;
    if (m < 2) return;
    const { scratch, touched, marginals, diagonal, V } = this;
    this.n += m;
    this.units += 1;
    if (m > this.maxValuesPerUnit) this.maxValuesPerUnit = m;
    let d = 0;
    for (let j = start; j < end; j++) {
      const c = values[j];
      if (scratch[c] === 0) touched[d++] = c;
      scratch[c] += 1;
    }
    const inv = 1 / (m - 1);
    for (let a = 0; a < d; a++) {
      const c = touched[a];
      const nc = scratch[c];
      marginals[c] += nc;
      if (nc > 1) diagonal[c] += nc * (nc - 1) * inv;
      for (let b = a + 1; b < d; b++) {
        const k = touched[b];
        const w = 2 * nc * scratch[k] * inv;
        const key = c < k ? c * V + k : k * V + c;
        if (this.pairDense) this.pairDense[key] += w;
        else this.pairSparse!.set(key, (this.pairSparse!.get(key) ?? 0) + w);
      }
    }
    for (let a = 0; a < d; a++) scratch[touched[a]] = 0;
  }

  /** one unit of exactly two values (template indices): add([c, k]) without the general bookkeeping, the same sums */
  addPair(c: number, k: number): void {
    this.n += 2;
    this.units += 1;
    if (this.maxValuesPerUnit < 2) this.maxValuesPerUnit = 2;
    if (c === k) {
      // nc = 2, 1 / (m - 1) = 1: marginal 2, diagonal 2 * 1 * 1
      this.marginals[c] += 2;
      this.diagonal[c] += 2;
      return;
    }
    this.marginals[c] += 1;
    this.marginals[k] += 1;
    const key = c < k ? c * this.V + k : k * this.V + c;
    if (this.pairDense) this.pairDense[key] += 2;
    else this.pairSparse!.set(key, (this.pairSparse!.get(key) ?? 0) + 2);
  }

  finish(): AlphaCoincidences {
    const { V } = this;
    const pairs: Array<[number, number, number]> = [];
    if (this.pairDense) {
      for (let key = 0; key < this.pairDense.length; key++) if (this.pairDense[key] > 0) pairs.push([Math.floor(key / V), key % V, this.pairDense[key]]);
    } else {
      for (const key of [...this.pairSparse!.keys()].sort((a, b) => a - b)) {
        const sum = this.pairSparse!.get(key)!;
        if (sum > 0) pairs.push([Math.floor(key / V), key % V, sum]);
      }
    }
    return compacted(
      this.template,
      { marginals: this.marginals, diagonal: this.diagonal, n: this.n, units: this.units, maxValuesPerUnit: this.maxValuesPerUnit },
      pairs,
    );
  }
}
