/**
 * The coincidence-matrix machinery behind Krippendorff's alpha (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability", sections A-E): value indexing, per-unit value
 * counts, the sparse coincidence matrix, the metric differences delta^2 and the expected
 * disagreement from the marginals. Shared by krippendorff-alpha.ts, the alpha bootstrap and
 * agreement-summary.ts; most callers want `krippendorffAlpha` instead.
 */

/** A value a coder gave a unit: a number, or a string (nominal labels, permutation keys). */
export type AlphaValue = number | string;

/** Krippendorff's built-in levels of measurement. */
export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";

/**
 * A metric difference delta^2(a, b) for a custom metric, already squared as Krippendorff's
 * built-in metrics are (interval: (a-b)^2). Must be symmetric, finite, >= 0 and 0 when a
 * equals b; it is only ever called with two different values, smaller index first.
 */
export type AlphaDeltaSquared = (a: AlphaValue, b: AlphaValue) => number;

/** A kind-specific metric, e.g. `kendallTauAlphaMetric()` for permutation answers. */
export interface CustomAlphaMetric {
  name: string;
  deltaSquared: AlphaDeltaSquared;
}

export type AlphaMetric = AlphaLevel | CustomAlphaMetric;

/** Units form: one array per unit holding the values it received (null/undefined = none). */
export type AlphaUnits = ReadonlyArray<ReadonlyArray<AlphaValue | null | undefined>>;

/** Per-unit parts of the coincidence matrix, kept for the unit-resampling bootstrap. */
export interface AlphaUnitParts {
  /** CSR offsets into valueIndex/valueCount, length units + 1. */
  valueStart: Int32Array;
  valueIndex: Int32Array;
  valueCount: Float64Array;
  /** CSR offsets into pairId/pairWeight, length units + 1. */
  pairStart: Int32Array;
  pairId: Int32Array;
  /** The unit's contribution o_ck + o_kc = 2 n_uc n_uk / (m_u - 1) to pair pairId. */
  pairWeight: Float64Array;
  /** m_u, the number of values in the unit. */
  size: Float64Array;
}

/** The coincidence matrix over the V distinct pairable values, stored sparsely. */
export interface AlphaCoincidences {
  metricName: string;
  kind: AlphaLevel | "custom";
  /** Distinct pairable values; ascending for ordinal, interval and ratio. */
  values: AlphaValue[];
  /** The same values as numbers (ordinal, interval, ratio), else null. */
  numeric: Float64Array | null;
  /** n_c, the marginal totals of the coincidence matrix. */
  marginals: Float64Array;
  /** n.., the number of pairable values. */
  n: number;
  /** Number of units with at least two values. */
  units: number;
  /** Largest number of values in one pairable unit (the number of coders for full data). */
  maxValuesPerUnit: number;
  /** o_cc, the diagonal of the coincidence matrix. */
  diagonal: Float64Array;
  /** Off-diagonal cells that are non-zero, as pairs c < k with pairO = o_ck + o_kc. */
  pairC: Int32Array;
  pairK: Int32Array;
  pairO: Float64Array;
  perUnit: AlphaUnitParts | null;
  deltaSquared: AlphaDeltaSquared | null;
}

/** Upper bound on V for the dense pair index (V * V Int32 = 4 MB at 1024). */
const DENSE_PAIR_INDEX_MAX_V = 1024;

class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Float64Array(Math.max(16, capacity));
  }
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

function metricKind(metric: AlphaMetric, fnName: string): AlphaLevel | "custom" {
  if (typeof metric === "string") {
    if (metric === "nominal" || metric === "ordinal" || metric === "interval" || metric === "ratio") return metric;
    throw new Error(`${fnName} requires a level of nominal, ordinal, interval or ratio (got ${String(metric)})`);
  }
  if (metric && typeof metric.deltaSquared === "function") return "custom";
  throw new Error(`${fnName} requires a level name or a custom metric with a deltaSquared function`);
}

/**
 * Alpha coincidences: builds the coincidence matrix of Krippendorff's alpha from data in
 * units form, in one pass over the ratings (per-unit value counts, then the sparse V x V
 * coincidences o_ck = sum_u n_uc n_uk / (m_u - 1) over the distinct values of each unit).
 * Units with fewer than two values are not pairable and are skipped; values seen only in such
 * units are not part of V.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section C (coincidences).
 * O(R + sum_u d_u^2) time for R ratings and d_u distinct values in unit u (d_u <= coders),
 * O(R + V) memory (plus O(V^2) Int32 when V <= 1024 for the dense pair index).
 * @throws {Error} on values that do not suit the level (non-numbers for ordinal/interval/ratio,
 *   negative numbers for ratio, NaN or infinities anywhere)
 * @example
 * const co = alphaCoincidences([[1, 1], [1, 2]], "nominal");
 * co.n; // 4
 */
export function alphaCoincidences(units: AlphaUnits, metric: AlphaMetric, options: { perUnit?: boolean; fnName?: string } = {}): AlphaCoincidences {
  const fnName = options.fnName ?? "alphaCoincidences";
  const kind = metricKind(metric, fnName);
  const numericLevel = kind === "ordinal" || kind === "interval" || kind === "ratio";
  if (!Array.isArray(units)) throw new Error(`${fnName} requires an array of units`);

  // Pass 1: index every value, remember each rating's index and each unit's extent.
  const U = units.length;
  let capacity = 0;
  for (let u = 0; u < U; u++) {
    const unit = units[u];
    if (!Array.isArray(unit)) throw new Error(`${fnName} requires every unit to be an array (unit ${u} is not)`);
    capacity += unit.length;
  }
  const ratingIndex = new Int32Array(capacity);
  const unitEnd = new Int32Array(U);
  const index = new Map<AlphaValue, number>();
  const rawValues: AlphaValue[] = [];
  let pos = 0;
  for (let u = 0; u < U; u++) {
    const unit = units[u];
    for (let j = 0; j < unit.length; j++) {
      const v = unit[j];
      if (v === null || v === undefined) continue;
      let idx = index.get(v);
      if (idx === undefined) {
        if (typeof v === "number") {
          if (!Number.isFinite(v)) throw new Error(`${fnName} requires finite numbers (got ${v} in unit ${u})`);
          if (kind === "ratio" && v < 0) {
            throw new Error(`${fnName} requires non-negative numbers for the ratio level (got ${v} in unit ${u})`);
          }
        } else if (typeof v === "string") {
          if (numericLevel) {
            throw new Error(`${fnName} requires numbers for the ${kind} level (got "${v}" in unit ${u})`);
          }
        } else {
          throw new Error(`${fnName} requires values that are numbers or strings (unit ${u})`);
        }
        idx = rawValues.length;
        index.set(v, idx);
        rawValues.push(v);
      }
      ratingIndex[pos++] = idx;
    }
    unitEnd[u] = pos;
  }

  // Keep only values that occur in pairable units; order them (ascending for numeric levels).
  const rawV = rawValues.length;
  const used = new Uint8Array(rawV);
  let start = 0;
  let pairableUnits = 0;
  for (let u = 0; u < U; u++) {
    const end = unitEnd[u];
    if (end - start >= 2) {
      pairableUnits++;
      for (let j = start; j < end; j++) used[ratingIndex[j]] = 1;
    }
    start = end;
  }
  const kept: number[] = [];
  for (let i = 0; i < rawV; i++) if (used[i]) kept.push(i);
  if (numericLevel) kept.sort((a, b) => (rawValues[a] as number) - (rawValues[b] as number));
  const V = kept.length;
  const remap = new Int32Array(rawV).fill(-1);
  const values: AlphaValue[] = new Array(V);
  for (let i = 0; i < V; i++) {
    remap[kept[i]] = i;
    values[i] = rawValues[kept[i]];
  }
  const numeric = numericLevel ? Float64Array.from(values as number[]) : null;

  // Pass 2: per-unit counts over distinct values, marginals, diagonal and off-diagonal pairs.
  const marginals = new Float64Array(V);
  const diagonal = new Float64Array(V);
  const scratch = new Float64Array(V);
  const touched = new Int32Array(V);
  const dense = V <= DENSE_PAIR_INDEX_MAX_V ? new Int32Array(V * V).fill(-1) : null;
  const sparse = dense ? null : new Map<number, number>();
  const pairC = new GrowableInt32(64);
  const pairK = new GrowableInt32(64);
  const pairO = new GrowableFloat64(64);
  const perUnit = options.perUnit === true;
  const valueStart = perUnit ? new Int32Array(pairableUnits + 1) : null;
  const pairStart = perUnit ? new Int32Array(pairableUnits + 1) : null;
  const size = perUnit ? new Float64Array(pairableUnits) : null;
  const valueIndex = perUnit ? new GrowableInt32(capacity) : null;
  const valueCount = perUnit ? new GrowableFloat64(capacity) : null;
  const unitPairId = perUnit ? new GrowableInt32(capacity) : null;
  const unitPairWeight = perUnit ? new GrowableFloat64(capacity) : null;

  let n = 0;
  let maxValuesPerUnit = 0;
  let pu = 0;
  start = 0;
  for (let u = 0; u < U; u++) {
    const end = unitEnd[u];
    const m = end - start;
    if (m < 2) {
      start = end;
      continue;
    }
    if (m > maxValuesPerUnit) maxValuesPerUnit = m;
    n += m;
    let d = 0;
    for (let j = start; j < end; j++) {
      const c = remap[ratingIndex[j]];
      if (scratch[c] === 0) touched[d++] = c;
      scratch[c] += 1;
    }
    start = end;
    const inv = 1 / (m - 1);
    for (let a = 0; a < d; a++) {
      const c = touched[a];
      const nc = scratch[c];
      marginals[c] += nc;
      if (nc > 1) diagonal[c] += nc * (nc - 1) * inv;
      if (perUnit) {
        valueIndex!.push(c);
        valueCount!.push(nc);
      }
      for (let b = a + 1; b < d; b++) {
        let k = touched[b];
        let lo = c;
        if (k < lo) {
          lo = k;
          k = c;
        }
        const w = 2 * nc * scratch[touched[b]] * inv;
        const key = lo * V + k;
        let id: number | undefined = dense ? dense[key] : sparse!.get(key);
        if (id === undefined || id < 0) {
          id = pairO.length;
          if (dense) dense[key] = id;
          else sparse!.set(key, id);
          pairC.push(lo);
          pairK.push(k);
          pairO.push(0);
        }
        pairO.data[id] += w;
        if (perUnit) {
          unitPairId!.push(id);
          unitPairWeight!.push(w);
        }
      }
    }
    for (let a = 0; a < d; a++) scratch[touched[a]] = 0;
    if (perUnit) {
      size![pu] = m;
      pu++;
      valueStart![pu] = valueIndex!.length;
      pairStart![pu] = unitPairId!.length;
    }
  }

  return {
    metricName: kind === "custom" ? (metric as CustomAlphaMetric).name : kind,
    kind,
    values,
    numeric,
    marginals,
    n,
    units: pairableUnits,
    maxValuesPerUnit,
    diagonal,
    pairC: pairC.toArray(),
    pairK: pairK.toArray(),
    pairO: pairO.toArray(),
    perUnit: perUnit
      ? {
          valueStart: valueStart!,
          valueIndex: valueIndex!.toArray(),
          valueCount: valueCount!.toArray(),
          pairStart: pairStart!,
          pairId: unitPairId!.toArray(),
          pairWeight: unitPairWeight!.toArray(),
          size: size!,
        }
      : null,
    deltaSquared: kind === "custom" ? (metric as CustomAlphaMetric).deltaSquared : null,
  };
}

/** Largest dense V x V table cached for a custom metric: 2048^2 doubles = 32 MB. */
const DELTA_CACHE_MAX_ENTRIES = 2048 * 2048;

/** Dense delta tables behind cached custom-metric functions, for alphaExpectedSum's fast loop. */
const denseDeltaTables = new WeakMap<(c: number, k: number) => number, { V: number; table: Float64Array }>();

/**
 * Alpha metric differences: returns delta^2(c, k) over value indices c < k of the coincidences,
 * for the given marginals (only the ordinal metric depends on them).
 * Source: Krippendorff 2011, section E (nominal 1; ordinal (sum_{g=c..k} n_g - (n_c + n_k)/2)^2;
 * interval (c - k)^2; ratio ((c - k)/(c + k))^2).
 * O(V) to build, then O(1) per call. With `cache` set, a custom metric is evaluated once per
 * pair into a dense V x V table (O(V^2) calls, up to V = 2048, i.e. 32 MB; larger V is not cached)
 * that alphaExpectedSum then reads directly: worth it when one coincidence structure is reused
 * many times, as in a bootstrap.
 * @throws {Error} when a custom deltaSquared returns a negative or non-finite number
 * @example
 * alphaDeltaSquared(alphaCoincidences([[1, 3]], "interval"), undefined)(0, 1); // 4
 */
export function alphaDeltaSquared(
  co: AlphaCoincidences,
  marginals: Float64Array = co.marginals,
  options: { cache?: boolean; fnName?: string } = {},
): (c: number, k: number) => number {
  const x = co.numeric;
  switch (co.kind) {
    case "nominal":
      return () => 1;
    case "interval":
      return (c, k) => {
        const d = x![c] - x![k];
        return d * d;
      };
    case "ratio":
      return (c, k) => {
        const s = x![c] + x![k];
        if (s === 0) return 0;
        const d = (x![c] - x![k]) / s;
        return d * d;
      };
    case "ordinal": {
      const V = marginals.length;
      const cum = new Float64Array(V + 1);
      for (let g = 0; g < V; g++) cum[g + 1] = cum[g] + marginals[g];
      return (c, k) => {
        let lo = c;
        let hi = k;
        if (hi < lo) {
          lo = k;
          hi = c;
        }
        const d = cum[hi + 1] - cum[lo] - (marginals[lo] + marginals[hi]) / 2;
        return d * d;
      };
    }
    case "custom": {
      const fn = co.deltaSquared!;
      const fnName = options.fnName ?? "alphaDeltaSquared";
      const values = co.values;
      const checked = (c: number, k: number): number => {
        const lo = c < k ? c : k;
        const hi = c < k ? k : c;
        const d = fn(values[lo], values[hi]);
        if (!(typeof d === "number" && Number.isFinite(d) && d >= 0)) {
          throw new Error(
            `${fnName} requires deltaSquared to return a finite non-negative number (got ${String(d)} for ${String(values[lo])} and ${String(values[hi])})`,
          );
        }
        return d;
      };
      const V = values.length;
      if (!options.cache || V * V > DELTA_CACHE_MAX_ENTRIES) return checked;
      const table = new Float64Array(V * V);
      for (let c = 0; c < V; c++) {
        for (let k = c + 1; k < V; k++) {
          const d = checked(c, k);
          table[c * V + k] = d;
          table[k * V + c] = d;
        }
      }
      const cached = (c: number, k: number): number => table[c * V + k];
      denseDeltaTables.set(cached, { V, table });
      return cached;
    }
  }
}

/**
 * Expected disagreement sum: E = sum_{c != k} n_c n_k delta^2_ck over ordered pairs, so that
 * D_e = E / (n (n - 1)). Uses the marginals only: nominal n^2 - sum n_c^2 in O(V); interval
 * 2 n sum n_c (x_c - mean)^2 in O(V); ordinal, ratio and custom O(V'^2) over the V' values
 * with n_c > 0. Returns exactly 0 when fewer than two values have n_c > 0.
 * Source: Krippendorff 2011, section D (expected coincidences e_ck = n_c n_k / (n - 1)).
 * O(V) or O(V'^2) as above.
 * @example
 * const co = alphaCoincidences([[1, 2], [1, 1]], "nominal");
 * alphaExpectedSum(co, co.marginals, co.n, alphaDeltaSquared(co)); // 16 - (9 + 1) = 6
 */
export function alphaExpectedSum(co: AlphaCoincidences, marginals: Float64Array, n: number, delta: (c: number, k: number) => number): number {
  const V = marginals.length;
  const nonzero: number[] = [];
  for (let c = 0; c < V; c++) if (marginals[c] > 0) nonzero.push(c);
  if (nonzero.length < 2) return 0;
  if (co.kind === "nominal") {
    let sumSq = 0;
    for (const c of nonzero) sumSq += marginals[c] * marginals[c];
    return n * n - sumSq;
  }
  if (co.kind === "interval") {
    const x = co.numeric!;
    let total = 0;
    for (const c of nonzero) total += marginals[c] * x[c];
    const mean = total / n;
    let ss = 0;
    for (const c of nonzero) {
      const d = x[c] - mean;
      ss += marginals[c] * d * d;
    }
    return 2 * n * ss;
  }
  let sum = 0;
  const L = nonzero.length;
  const dense = denseDeltaTables.get(delta);
  if (dense && dense.V === V) {
    const table = dense.table;
    for (let a = 0; a < L; a++) {
      const c = nonzero[a];
      const base = c * V;
      let row = 0;
      for (let b = a + 1; b < L; b++) {
        const k = nonzero[b];
        row += marginals[k] * table[base + k];
      }
      sum += marginals[c] * row;
    }
    return 2 * sum;
  }
  for (let a = 0; a < L; a++) {
    const c = nonzero[a];
    const nc = marginals[c];
    let row = 0;
    for (let b = a + 1; b < L; b++) {
      const k = nonzero[b];
      row += marginals[k] * delta(c, k);
    }
    sum += nc * row;
  }
  return 2 * sum;
}

/**
 * Dense coincidence matrix: the V x V matrix o_ck of Krippendorff's alpha with its values and
 * marginals, for reports and checks (alpha itself uses the sparse form).
 * Source: Krippendorff 2011, section C.
 * O(R + V^2).
 * @example
 * coincidenceMatrix([[1, 1, 2]], "nominal").matrix; // [[1, 1], [1, 0]]
 */
export function coincidenceMatrix(
  units: AlphaUnits,
  metric: AlphaMetric = "nominal",
): { values: AlphaValue[]; matrix: number[][]; marginals: number[]; n: number } {
  const co = alphaCoincidences(units, metric, { fnName: "coincidenceMatrix" });
  const V = co.values.length;
  const matrix = Array.from({ length: V }, () => new Array<number>(V).fill(0));
  for (let c = 0; c < V; c++) matrix[c][c] = co.diagonal[c];
  for (let p = 0; p < co.pairO.length; p++) {
    const half = co.pairO[p] / 2;
    matrix[co.pairC[p]][co.pairK[p]] = half;
    matrix[co.pairK[p]][co.pairC[p]] = half;
  }
  return { values: co.values.slice(), matrix, marginals: Array.from(co.marginals), n: co.n };
}
