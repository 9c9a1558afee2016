import {
  alphaCoincidences,
  alphaDeltaSquared,
  alphaExpectedSum,
  type AlphaCoincidences,
  type AlphaMetric,
  type AlphaUnits,
  type AlphaValue,
} from "@/lib/stats/alpha-coincidences";

export type { AlphaDeltaSquared, AlphaLevel, AlphaMetric, AlphaUnits, AlphaValue, CustomAlphaMetric } from "@/lib/stats/alpha-coincidences";

/** Reliability data matrix: one row per coder, one column per unit, null = missing. */
export type ReliabilityMatrix = ReadonlyArray<ReadonlyArray<AlphaValue | null | undefined>>;

export interface AlphaResult {
  /** Krippendorff's alpha, or null when it is undefined (see reason). */
  alpha: number | null;
  /** Why alpha is null; absent when alpha is a number. */
  reason?: string;
  /** "nominal", "ordinal", "interval", "ratio" or the custom metric's name. */
  metric: string;
  /** n.., the number of pairable values. */
  n: number;
  /** Number of pairable units (units with at least two values). */
  units: number;
  /** D_o = (1/n) sum_{c,k} o_ck delta^2_ck; null when there are no pairable values. */
  observedDisagreement: number | null;
  /** D_e = 1/(n(n-1)) sum_{c,k} n_c n_k delta^2_ck; null when there are no pairable values. */
  expectedDisagreement: number | null;
}

/**
 * Reliability matrix to units: turns a coders x units matrix (rows coders, columns units,
 * null = missing) into units form (one array per unit with the values it received, in coder
 * order, nulls dropped).
 * Source: Krippendorff 2011, section A (reliability data matrix) to section B (values by units).
 * O(coders x units).
 * @throws {Error} "<fnName> requires at least 2 coders" for fewer than two rows, and when rows
 *   differ in length
 * @example
 * reliabilityMatrixToUnits([[1, null], [1, 2]]); // [[1, 1], [2]]
 */
export function reliabilityMatrixToUnits(matrix: ReliabilityMatrix, fnName = "reliabilityMatrixToUnits"): AlphaValue[][] {
  if (!Array.isArray(matrix) || matrix.length < 2) throw new Error(`${fnName} requires at least 2 coders`);
  const unitsCount = matrix[0].length;
  for (let r = 0; r < matrix.length; r++) {
    if (!Array.isArray(matrix[r])) throw new Error(`${fnName} requires every coder row to be an array (row ${r} is not)`);
    if (matrix[r].length !== unitsCount) {
      throw new Error(`${fnName} requires every coder row to have the same number of units (row 0 has ${unitsCount}, row ${r} has ${matrix[r].length})`);
    }
  }
  const units: AlphaValue[][] = new Array(unitsCount);
  for (let u = 0; u < unitsCount; u++) {
    const unit: AlphaValue[] = [];
    for (let r = 0; r < matrix.length; r++) {
      const v = matrix[r][u];
      if (v !== null && v !== undefined) unit.push(v);
    }
    units[u] = unit;
  }
  return units;
}

/**
 * Alpha from coincidences: Krippendorff's alpha = 1 - D_o / D_e = 1 - (n - 1) sum o_ck delta^2 /
 * sum n_c n_k delta^2, computed from a prepared coincidence matrix.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections C-E.
 * O(P + V) for nominal and interval, O(P + V^2) for ordinal, ratio and custom metrics, with P
 * the number of non-zero off-diagonal cells.
 * @example
 * alphaFromCoincidences(alphaCoincidences([[1, 1], [2, 2]], "nominal")).alpha; // 1
 */
export function alphaFromCoincidences(co: AlphaCoincidences, fnName = "krippendorffAlpha"): AlphaResult {
  const base = { metric: co.metricName, n: co.n, units: co.units };
  if (co.n === 0) {
    return {
      alpha: null,
      reason: "no pairable values: no unit has at least 2 values",
      ...base,
      observedDisagreement: null,
      expectedDisagreement: null,
    };
  }
  const delta = alphaDeltaSquared(co, co.marginals, { fnName });
  let observed = 0;
  for (let p = 0; p < co.pairO.length; p++) observed += co.pairO[p] * delta(co.pairC[p], co.pairK[p]);
  const expected = alphaExpectedSum(co, co.marginals, co.n, delta);
  const observedDisagreement = observed / co.n;
  const expectedDisagreement = expected / (co.n * (co.n - 1));
  if (!(expected > 0)) {
    return {
      alpha: null,
      reason:
        co.values.length < 2
          ? "expected disagreement is 0: every pairable value is the same"
          : "expected disagreement is 0: the metric puts every pair of pairable values at distance 0",
      ...base,
      observedDisagreement,
      expectedDisagreement: 0,
    };
  }
  return {
    alpha: 1 - ((co.n - 1) * observed) / expected,
    ...base,
    observedDisagreement,
    expectedDisagreement,
  };
}

/**
 * Krippendorff's alpha reliability coefficient for a reliability data matrix (rows coders,
 * columns units, null = missing), for any number of coders, missing values and the nominal,
 * ordinal, interval or ratio level, or a custom metric { name, deltaSquared }. Units with fewer
 * than two values are skipped. Returns alpha null with a reason when alpha is undefined (no
 * pairable values, or expected disagreement 0), never a silent 0 or 1.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability" (Annenberg School
 * for Communication Departmental Papers 43), sections A-E.
 * O(R + sum_u d_u^2 + V) for nominal/interval, plus O(V^2) for ordinal/ratio/custom, where R is
 * the number of ratings, d_u the distinct values in unit u and V the distinct values overall.
 * @throws {Error} "krippendorffAlpha requires at least 2 coders", and on values that do not suit
 *   the level
 * @example
 * krippendorffAlpha([[1, 2, 3], [1, 2, 4]], "interval").alpha; // 0.8780487804878049
 */
export function krippendorffAlpha(matrix: ReliabilityMatrix, metric: AlphaMetric): AlphaResult {
  const units = reliabilityMatrixToUnits(matrix, "krippendorffAlpha");
  return alphaFromCoincidences(alphaCoincidences(units, metric, { fnName: "krippendorffAlpha" }));
}

/**
 * Krippendorff's alpha for data in units form: one array per unit holding the values it
 * received (the form the server builds from ratings grouped by item); null entries are ignored.
 * Otherwise identical to `krippendorffAlpha`.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections B-E.
 * O(R + sum_u d_u^2 + V), plus O(V^2) for ordinal/ratio/custom.
 * @throws {Error} on values that do not suit the level
 * @example
 * krippendorffAlphaFromUnits([[1, 1], [2, 2, 2], [1, 2]], "nominal").alpha; // 0.5
 */
export function krippendorffAlphaFromUnits(units: AlphaUnits, metric: AlphaMetric): AlphaResult {
  return alphaFromCoincidences(alphaCoincidences(units, metric, { fnName: "krippendorffAlphaFromUnits" }));
}
