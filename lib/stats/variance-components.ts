import type { CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";

/**
 * Variance components of answers crossed by person and item, y = mu + a_p + b_i + e (a, b, e
 * independent, variances people, items, residual; the person x item interaction is the residual,
 * as each person answers an item once), from a pilot that may be unbalanced and incomplete, by
 * Henderson's Method I: the uncorrected sums of squares T_y = sum y^2, T_p = sum_p Y_p^2 / n_p,
 * T_i = sum_i Y_i^2 / n_i, T_0 = Y^2 / N equated to their expectations under the random model,
 *   E[T_y - T_0] = (N - sum n_p^2/N) people + (N - sum n_i^2/N) items + (N - 1) residual
 *   E[T_p - T_0] = (N - sum n_p^2/N) people + (k_p - sum n_i^2/N) items + (P - 1) residual
 *   E[T_i - T_0] = (k_i - sum n_p^2/N) people + (N - sum n_i^2/N) items + (I - 1) residual
 * with k_p = sum_p sum_i n_pi^2 / n_p, k_i = sum_i sum_p n_pi^2 / n_i (n_pi answers of person p to
 * item i), solved for the three. Unbiased in a wholly random model (balanced or not); in a complete
 * balanced design it is the two-way ANOVA estimator (people = (MS_p - MS_e) / I, ...).
 * Source: Henderson 1953, "Estimation of variance and covariance components", Biometrics 9(2), Method 1; Searle, Casella & McCulloch 1992, "Variance Components", sec. 5.2-5.3.
 *
 * A negative estimate (sampling noise around a small component) is set to 0 and the others are
 * re-estimated without that factor (its equation dropped), so the three still sum to about the
 * total variance. A factor with one level (one person, one item) is not estimable: null.
 * The value of an answer is num / den (den 1 for a mean). O(answers).
 */

export interface VarianceComponents {
  items: number | null;
  people: number | null;
  residual: number | null;
  /** the mean of the values */
  mean: number;
  answers: number;
  itemCount: number;
  personCount: number;
  /** components that came out negative and were set to 0 */
  truncated: Array<"items" | "people" | "residual">;
  estimator: string;
}

export const VARIANCE_COMPONENTS_ESTIMATOR = "Henderson's Method I (ANOVA method of moments for the crossed random model), negative estimates set to 0";

/** Solves A x = b for a small square system by Gaussian elimination with partial pivoting; null when singular. */
function solve(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[pivot][c])) pivot = r;
    const scale = Math.max(...M.map((row) => Math.abs(row[c])), 1e-300);
    if (Math.abs(M[pivot][c]) <= 1e-12 * scale) return null;
    [M[c], M[pivot]] = [M[pivot], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

/**
 * @throws {Error} naming the answer when its value is not finite or its den is not positive
 * @example
 * // 2 people x 2 items, person a always right, b never: all of it is the people's
 * varianceComponents([{item:1,person:"a",num:1},{item:2,person:"a",num:1},{item:1,person:"b",num:0},{item:2,person:"b",num:0}]);
 * // { people: 0.25, items: 0, residual: 0, ... }
 */
export function varianceComponents(answers: ReadonlyArray<CrossedAnswer>): VarianceComponents {
  const N = answers.length;
  const byPerson = new Map<string, { sum: number; n: number }>();
  const byItem = new Map<string, { sum: number; n: number }>();
  const cells = new Map<string, { person: string; item: string; n: number }>();
  let total = 0;
  let sumSq = 0;
  answers.forEach((a, index) => {
    const den = a.den ?? 1;
    const y = a.num / den;
    if (!(den > 0) || !Number.isFinite(y)) throw new Error(`varianceComponents: answer ${index} has num ${a.num}, den ${den}`);
    const person = `${typeof a.person}:${a.person}`;
    const item = `${typeof a.item}:${a.item}`;
    const p = byPerson.get(person) ?? { sum: 0, n: 0 };
    p.sum += y;
    p.n++;
    byPerson.set(person, p);
    const i = byItem.get(item) ?? { sum: 0, n: 0 };
    i.sum += y;
    i.n++;
    byItem.set(item, i);
    const key = `${person}|${item}`;
    const cell = cells.get(key) ?? { person, item, n: 0 };
    cell.n++;
    cells.set(key, cell);
    total += y;
    sumSq += y * y;
  });
  const P = byPerson.size;
  const I = byItem.size;
  const base = { mean: N > 0 ? total / N : NaN, answers: N, itemCount: I, personCount: P, estimator: VARIANCE_COMPONENTS_ESTIMATOR };
  if (N < 2) return { ...base, items: null, people: null, residual: null, truncated: [] };
  let kP = 0;
  let kI = 0;
  for (const { person, item, n } of cells.values()) {
    kP += (n * n) / byPerson.get(person)!.n;
    kI += (n * n) / byItem.get(item)!.n;
  }
  let sumNp2 = 0;
  let Tp = 0;
  for (const { sum, n } of byPerson.values()) {
    sumNp2 += n * n;
    Tp += (sum * sum) / n;
  }
  let sumNi2 = 0;
  let Ti = 0;
  for (const { sum, n } of byItem.values()) {
    sumNi2 += n * n;
    Ti += (sum * sum) / n;
  }
  const T0 = (total * total) / N;
  // unknowns [people, items, residual]; rows: total, people, items
  const rows = {
    total: { coef: [N - sumNp2 / N, N - sumNi2 / N, N - 1], value: sumSq - T0 },
    people: { coef: [N - sumNp2 / N, kP - sumNi2 / N, P - 1], value: Tp - T0 },
    items: { coef: [kI - sumNp2 / N, N - sumNi2 / N, I - 1], value: Ti - T0 },
  };
  // factors with one level are not in the model; each factor that comes out negative is dropped in turn
  const active = new Set<"people" | "items">([...(P > 1 ? ["people" as const] : []), ...(I > 1 ? ["items" as const] : [])]);
  const truncated: VarianceComponents["truncated"] = [];
  const column = { people: 0, items: 1 } as const;
  for (;;) {
    const factors = [...active];
    const unknowns = [...factors.map((f) => column[f]), 2];
    const equations = [rows.total, ...factors.map((f) => rows[f])];
    const x = solve(
      equations.map((e) => unknowns.map((u) => e.coef[u])),
      equations.map((e) => e.value),
    );
    // singular: no residual degrees of freedom (every answer its own cell and factor level)
    if (!x) return { ...base, items: null, people: null, residual: null, truncated };
    const estimate = (u: number) => x[unknowns.indexOf(u)];
    const negative = factors.filter((f) => estimate(column[f]) < 0);
    if (negative.length > 0) {
      // drop the most negative first: the others' estimates change without it
      const worst = negative.reduce((a, b) => (estimate(column[a]) <= estimate(column[b]) ? a : b));
      active.delete(worst);
      truncated.push(worst);
      continue;
    }
    const value = (f: "people" | "items") => ((f === "people" && P < 2) || (f === "items" && I < 2) ? null : active.has(f) ? estimate(column[f]) + 0 : 0); // + 0: no -0
    let residual = estimate(2) + 0;
    if (residual < 0) {
      truncated.push("residual");
      residual = 0;
    }
    return { ...base, people: value("people"), items: value("items"), residual, truncated };
  }
}
