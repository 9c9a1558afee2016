/**
 * Wilson interval for a proportion whose answers come in clusters (several people answering the
 * same item): the Wilson score interval computed at the effective sample size n / deff, where the
 * design effect deff is the ratio of the between-cluster variance of p = sum(y_i) / sum(m_i),
 * sum_i (y_i - p m_i)^2 / n^2 (the ratio estimator's linearised variance), to the binomial variance
 * p(1 - p)/n. With equal clusters of m answers that agree within each cluster, deff = m.
 * Source: Dean & Pagano 2015, "Evaluating confidence interval methods for binomial proportions in clustered surveys", J. Surv. Stat. Methodol. 3(4) (Wilson at n_eff = n / deff; deff after Kish 1965, "Survey Sampling", sec. 6.4).
 *
 * - deff is floored at 1 (n_eff <= n, as Korn & Graubard 1998 truncate it): clustering never
 *   narrows the interval;
 * - when every answer agrees (p = 0 or 1) the variance is 0 and deff cannot be estimated; n_eff is
 *   then the number of clusters (the answers of one item counted once: the widest case, every
 *   item's answers agreeing);
 * - one cluster gives no interval (`reason: "one item"`): the spread between items is unknown.
 *
 * With every cluster of size 1 this is the ordinary Wilson interval of wilsonInterval.
 */

export interface ClusteredWilsonInterval {
  estimate: number;
  /** null with `reason` when there is no interval (one cluster) */
  ci: [number, number] | null;
  reason?: "one item";
  /** answers */
  n: number;
  /** clusters (items) */
  clusters: number;
  /** the design effect used (>= 1), null without an interval */
  deff: number | null;
  /** n / deff, null without an interval */
  effectiveN: number | null;
}

/** Wilson bounds at a real-valued sample size (the formula of wilsonInterval, without its integer checks). */
export function wilsonBounds(p: number, n: number, z = 1.96): [number, number] {
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [p === 0 ? 0 : Math.max(0, centre - half), p === 1 ? 1 : Math.min(1, centre + half)];
}

/**
 * O(clusters).
 * @throws {Error} "clusteredWilsonInterval requires at least 1 answer", or a cluster with successes outside 0..trials
 * @example
 * // 10 items x 5 people who agree, 5 items right: n_eff = 10, not 50
 * clusteredWilsonInterval([...Array(5)].map(() => ({ successes: 5, trials: 5 })).concat([...Array(5)].map(() => ({ successes: 0, trials: 5 }))));
 */
export function clusteredWilsonInterval(clusters: ReadonlyArray<{ successes: number; trials: number }>, z = 1.96): ClusteredWilsonInterval {
  let n = 0;
  let y = 0;
  let k = 0;
  clusters.forEach((cluster, i) => {
    const { successes, trials } = cluster;
    if (!Number.isInteger(trials) || trials < 0 || !Number.isInteger(successes) || successes < 0 || successes > trials) {
      throw new Error(`clusteredWilsonInterval requires integer successes from 0 to trials (cluster ${i}: ${successes} of ${trials})`);
    }
    if (trials === 0) return;
    n += trials;
    y += successes;
    k++;
  });
  if (!(z > 0 && Number.isFinite(z))) throw new Error("clusteredWilsonInterval requires a positive z");
  if (n === 0) throw new Error("clusteredWilsonInterval requires at least 1 answer");
  const p = y / n;
  if (k < 2) return { estimate: p, ci: null, reason: "one item", n, clusters: k, deff: null, effectiveN: null };
  let effectiveN: number;
  if (p === 0 || p === 1) {
    effectiveN = k;
  } else {
    let sum = 0;
    for (const { successes, trials } of clusters) {
      if (trials === 0) continue;
      const r = successes - p * trials;
      sum += r * r;
    }
    const variance = sum / (n * n);
    effectiveN = Math.min(n, (p * (1 - p)) / variance);
  }
  return { estimate: p, ci: wilsonBounds(p, effectiveN, z), n, clusters: k, deff: n / effectiveN, effectiveN };
}

/** The method as the dashboards name it. */
export const CLUSTERED_WILSON_METHOD = "Wilson 95% with a design effect for answers to the same item (n / deff; Dean & Pagano 2015)";
