import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { twoWayClusterVariance, twoWayCritical, type CrossedAnswer, type GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * A figure's 95% interval over people and items (or items alone), in the form a dashboard section
 * keeps beside its figure: the two-way cluster-robust variance V of the figure as a ratio of sums
 * (two-way-cluster-variance.ts), then Wilson's score interval at the effective n = p(1-p)/V for a
 * share, or estimate +- t sqrt(V) for a mean, t at the variance's degrees of freedom
 * (min(people, items) - 1, or items - 1 with "items only"). No interval, with the reason in words,
 * from one item or (over people and items) one person, or when every answer gives the same value.
 * Source: Cameron, Gelbach & Miller 2011, "Robust inference with multiway clustering", J. Bus. Econ. Stat. 29(2), eq. 2.11; Wilson 1927 at the effective n (Dean & Pagano 2015, J. Surv. Stat. Methodol. 3(4)).
 * O(answers).
 */

export interface CrossedInterval {
  /** sum(num) / sum(den); null without answers */
  estimate: number | null;
  ci: [number, number] | null;
  reason?: "one item" | "one person" | "no answers" | "no spread";
  answers: number;
  items: number;
  people: number;
  /** shares: the effective number of trials p(1-p)/V (never more than the trials) */
  effectiveN?: number;
  /** shares: trials / effective n (1 = as many independent trials) */
  deff?: number;
  /** the degrees of freedom of the critical value */
  df?: number;
}

/** The reason words of a share or mean without an interval, as the dashboards write them after "n/a". */
export const NO_SPREAD_REASON = "no spread";

/**
 * A share sum(num) / sum(den) whose num_a counts successes of den_a trials (0/1 answers: den 1).
 * @throws {Error} as twoWayClusterVariance, naming the answer
 * @example
 * // person a right on both items, person b on neither: the spread is the people's
 * crossedProportion([{ item: 1, person: "a", num: 1 }, { item: 2, person: "a", num: 1 }, { item: 1, person: "b", num: 0 }, { item: 2, person: "b", num: 0 }], "people+items");
 */
export function crossedProportion(answers: ReadonlyArray<CrossedAnswer>, over: GeneraliseOver): CrossedInterval {
  const v = twoWayClusterVariance(answers, over);
  const base = { estimate: v.answers === 0 || v.reason === "no answers" ? null : v.estimate, answers: v.answers, items: v.items, people: v.people };
  if (v.variance === null || v.df === null) return { ...base, ci: null, reason: v.reason ?? "no answers" };
  let trials = 0;
  for (const a of answers) trials += a.den ?? 1;
  const p = Math.min(1, Math.max(0, v.estimate));
  // every trial agreeing says nothing of V: the widest case, every cluster of the fewest factor agreeing
  const floorN = over === "items" ? v.items : Math.min(v.items, v.people);
  const effectiveN = p <= 0 || p >= 1 || v.variance <= 0 ? floorN : Math.min(trials, (p * (1 - p)) / v.variance);
  const ci = wilsonBounds(p, effectiveN, twoWayCritical(v.df));
  return { ...base, ci, effectiveN, deff: trials / effectiveN, df: v.df };
}

/**
 * A mean (den 1) or ratio of sums: estimate +- t sqrt(V), cut to the range of the answers' own
 * ratios num / den (a ratio of sums never leaves it: a win rate stays within [0, 1]).
 * @throws {Error} as twoWayClusterVariance, naming the answer
 */
export function crossedMean(answers: ReadonlyArray<CrossedAnswer>, over: GeneraliseOver): CrossedInterval {
  const v = twoWayClusterVariance(answers, over);
  const base = { estimate: v.answers === 0 || v.reason === "no answers" ? null : v.estimate, answers: v.answers, items: v.items, people: v.people };
  if (v.variance === null || v.df === null) return { ...base, ci: null, reason: v.reason ?? "no answers" };
  const half = twoWayCritical(v.df) * Math.sqrt(v.variance);
  let low = Infinity;
  let high = -Infinity;
  for (const a of answers) {
    const den = a.den ?? 1;
    if (!(den > 0)) continue;
    const r = a.num / den;
    if (r < low) low = r;
    if (r > high) high = r;
  }
  const ci: [number, number] = [Math.max(low, v.estimate - half), Math.min(high, v.estimate + half)];
  if (!(ci[1] > ci[0])) return { ...base, ci: null, reason: NO_SPREAD_REASON, df: v.df };
  return { ...base, ci, df: v.df };
}

/** The method of crossedProportion / crossedMean in words, for a section's caption. */
export function crossedMethod(over: GeneraliseOver, shape: "proportion" | "mean"): string {
  const form = shape === "proportion" ? "Wilson 95% at the effective n p(1-p)/V" : "95% estimate ± t·√V";
  return over === "people+items"
    ? `${form}, V two-way over people and items (Cameron, Gelbach & Miller 2011), t at min(people, items) − 1 df; n/a from one item or one person`
    : `${form}, V clustered by item (these people taken as the population), t at items − 1 df; n/a from one item`;
}
