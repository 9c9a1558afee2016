import { tCdf } from "@/lib/stats/student-t";
import { twoWayClusterVariance, twoWayCritical, type CrossedAnswer, type GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * The difference between people's scores and a model's on the same items: D = the mean over
 * people's answers (to items the model answered) of y_a - m_i, where m_i is the model's score on
 * the answer's item (the mean of its samples there when it has several). For a ratio of sums
 * (answers with a `den`, m_i then the model's ratio on the item) D = sum(num_a - m_i den_a) /
 * sum(den_a), the same figure weighted by the denominators. D = H - M_w: people's
 * figure on the shared items minus the model's weighted as people's answers are (equal to the
 * model's plain mean over those items when each has the same number of answers). Its variance is
 * the two-way cluster-robust variance of that mean: clustering by item carries the two series'
 * covariance (an item hard for people and for the model narrows the interval) and the model's
 * per-item term; clustering by person the people's own spread.
 * Source: Cameron, Gelbach & Miller 2011, "Robust inference with multiway clustering", J. Bus. Econ. Stat. 29(2) (the paired difference as one mean of y - m, clustered two ways).
 *
 * Two-sided p-value 2 (1 - F(|D| / se)) with F the t distribution of the interval's df (fewest
 * clusters - 1, see two-way-cluster-variance.ts), so that p < 0.05 exactly when the 95% interval
 * leaves out 0; with a z given, F is the normal's.
 * O(answers).
 */

export interface ModelAnswer {
  item: string | number;
  score: number;
}

export interface PairedDifference {
  /** items both people and the model answered */
  items: number;
  people: number;
  answers: number;
  /** people's figure on the shared items */
  humans: number;
  /** the model's score weighted as people's answers are over the shared items */
  model: number;
  difference: number;
  ci: [number, number] | null;
  p: number | null;
  se: number | null;
  /** the degrees of freedom of the interval and p-value */
  df?: number | null;
  reason?: "no shared items" | "one item" | "one person";
}

/** Standard normal CDF. */
export function normalCdf(x: number): number {
  // Source: Abramowitz & Stegun 1964, "Handbook of Mathematical Functions", 7.1.26 (erf, |error| < 1.5e-7).
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

export function pairedDifference(
  humans: ReadonlyArray<CrossedAnswer>,
  model: ReadonlyArray<ModelAnswer>,
  over: GeneraliseOver = "people+items",
  z?: number,
): PairedDifference {
  const key = (item: string | number) => `${typeof item}:${item}`;
  const modelByItem = new Map<string, { sum: number; n: number }>();
  for (const m of model) {
    if (!Number.isFinite(m.score)) throw new Error(`pairedDifference: the model's score on item ${m.item} is ${m.score}`);
    const entry = modelByItem.get(key(m.item)) ?? { sum: 0, n: 0 };
    entry.sum += m.score;
    entry.n++;
    modelByItem.set(key(m.item), entry);
  }
  const modelScore = (item: string | number) => {
    const m = modelByItem.get(key(item))!;
    return m.sum / m.n;
  };
  const shared = humans.filter((a) => modelByItem.has(key(a.item)));
  const N = shared.length;
  const items = new Set(shared.map((a) => key(a.item))).size;
  const people = new Set(shared.map((a) => `${typeof a.person}:${a.person}`)).size;
  if (N === 0) return { items: 0, people: 0, answers: 0, humans: NaN, model: NaN, difference: NaN, ci: null, p: null, se: null, reason: "no shared items" };
  const den = (a: CrossedAnswer) => a.den ?? 1;
  const sumDen = shared.reduce((s, a) => s + den(a), 0);
  const H = shared.reduce((s, a) => s + a.num, 0) / sumDen;
  const Mw = shared.reduce((s, a) => s + modelScore(a.item) * den(a), 0) / sumDen;
  const v = twoWayClusterVariance(
    shared.map((a) => ({ item: a.item, person: a.person, num: a.num - modelScore(a.item) * den(a), den: den(a) })),
    over,
  );
  const difference = v.estimate;
  const base = { items, people, answers: N, humans: H, model: Mw, difference, df: v.df };
  if (v.variance === null || v.df === null)
    return {
      ...base,
      ci: null,
      p: null,
      se: null,
      reason: v.reason === "one person" ? "one person" : v.reason === "no answers" ? "no shared items" : "one item",
    };
  const se = Math.sqrt(v.variance);
  const critical = twoWayCritical(v.df, z);
  const tail = (x: number) => (z === undefined ? 1 - tCdf(x, v.df!) : 1 - normalCdf(x));
  const p = se === 0 ? (difference === 0 ? 1 : 0) : Math.min(1, 2 * tail(Math.abs(difference) / se));
  return { ...base, ci: [difference - critical * se, difference + critical * se], p, se };
}
