import { normalQuantile, tCdf, tCritical } from "@/lib/stats/student-t";

/**
 * The study planner: how precise people's figure and the human-model difference will be for a
 * design of I items, P people answering m items each, so k = P m / I answers per item (places =
 * I k; people = places / m), from variance components (lib/stats/variance-components.ts).
 *
 * People's figure, the mean of the N = P m = I k answers of y = mu + a_p + b_i + e: each person's
 * effect enters m times and each item's k times, so
 *   Var(mean) = (m^2 P s_p^2 + k^2 I s_i^2 + N s_e^2) / N^2 = s_i^2 / I + s_p^2 / P + s_e^2 / (P m)
 * in any design where each person answers m items and each item has k answers.
 * Source: the variance of a mean under the crossed random-effects model of people and items (Westfall, Kenny & Judd 2014, "Statistical power and optimal design in experiments in which samples of participants respond to samples of stimuli", J. Exp. Psychol. Gen. 143(5); here without conditions).
 * The half-width is t(min(I, P) - 1)'s 97.5% point times its square root, as the interval's
 * (two-way-cluster-variance.ts).
 *
 * The difference from a model, D = mean over answers of (y - m_i): the people's and residual
 * terms are the same; the items' is Var_i(b_i - m_i) / I. With only the model's overall score s
 * known (not its per-item scores) the assumption is that the model's per-item scores vary over
 * items independently of people's item effects, with variance v_m (a 0/1 score: s (1 - s), the
 * largest a [0, 1] score of mean s can have), so
 *   Var(D) = (s_i^2 + v_m) / I + s_p^2 / P + s_e^2 / (P m).
 * It overstates Var(D) when the items hard for people are hard for the model too (then the
 * comparison with the model's per-item scores, `yardstick compare`, is narrower). Power of the
 * two-sided test at level alpha: 1 - F(c - |d| / se) + F(-c - |d| / se), F the t distribution of
 * the interval's df and c its critical value (the noncentral t approximated by a shifted central
 * one; exactly alpha at d = 0).
 * Source: Cohen 1988, "Statistical Power Analysis for the Behavioral Sciences", 2nd ed., sec. 2.3 (power of the two-sided test of a mean; here with the shifted-t approximation).
 */

export interface Components {
  items: number;
  people: number;
  residual: number;
}

export interface Design {
  /** I */
  items: number;
  /** P */
  people: number;
  /** m: items each person answers (at most I) */
  itemsPerPerson: number;
}

/** Most people a plan recommends; beyond it the answer is "not reachable". */
export const MAX_PLANNED_PEOPLE = 1_000_000;

function check(c: Components, d: Design): void {
  for (const [name, v] of Object.entries(c))
    if (!(v >= 0 && Number.isFinite(v))) throw new Error(`study planner: the ${name} component is ${v} (expected a number >= 0)`);
  if (!(Number.isInteger(d.items) && d.items >= 1)) throw new Error(`study planner: items is ${d.items} (expected a whole number >= 1)`);
  if (!(d.people >= 1 && Number.isFinite(d.people))) throw new Error(`study planner: people is ${d.people} (expected a number >= 1)`);
  if (!(d.itemsPerPerson >= 1 && d.itemsPerPerson <= d.items))
    throw new Error(`study planner: items per person is ${d.itemsPerPerson} (expected 1 to ${d.items})`);
}

/** Answers per item k = P m / I. */
export function answersPerItem(d: Design): number {
  return (d.people * d.itemsPerPerson) / d.items;
}

/** People needed for k answers per item: places / m = I k / m, rounded up. */
export function peopleForAnswersPerItem(items: number, itemsPerPerson: number, k: number): number {
  return Math.ceil((items * k) / itemsPerPerson - 1e-9);
}

export function predictedVariance(c: Components, d: Design): number {
  check(c, d);
  return c.items / d.items + c.people / d.people + c.residual / (d.people * d.itemsPerPerson);
}

function critical(d: Design): number {
  const df = Math.min(d.items, Math.floor(d.people)) - 1;
  return df >= 1 ? tCritical(df) : Infinity;
}

/** The 95% half-width of people's figure the design reaches when complete (Infinity with one person or one item). */
export function predictedHalfWidth(c: Components, d: Design): number {
  return critical(d) * Math.sqrt(predictedVariance(c, d));
}

/** Var(D) of the paired difference from a model whose per-item scores have variance modelItemVariance over items. */
export function predictedDifferenceVariance(c: Components, d: Design, modelItemVariance: number): number {
  if (!(modelItemVariance >= 0)) throw new Error(`study planner: the model's item variance is ${modelItemVariance} (expected >= 0)`);
  return predictedVariance(c, d) + modelItemVariance / d.items;
}

/** Power of the two-sided 5% test of D = 0 when the true difference is `difference`. */
export function predictedPower(c: Components, d: Design, difference: number, modelItemVariance: number, alpha = 0.05): number {
  const se = Math.sqrt(predictedDifferenceVariance(c, d, modelItemVariance));
  const df = Math.min(d.items, Math.floor(d.people)) - 1;
  if (df < 1) return alpha;
  if (se === 0) return difference === 0 ? alpha : 1;
  const crit = tCritical(df, 1 - alpha);
  const shift = Math.abs(difference) / se;
  return 1 - tCdf(crit - shift, df) + tCdf(-crit - shift, df);
}

export interface PeopleNeeded {
  /** the fewest people (at least 2), or null when no number of people reaches the target */
  people: number | null;
  /** with `people`: the answers per item, P m / I */
  k: number | null;
  /** why not: the items' share alone already exceeds the target */
  reason?: string;
}

/** The smallest P in [2, MAX_PLANNED_PEOPLE] with ok(P), for ok monotone in P; null when none. */
function smallestPeople(ok: (people: number) => boolean): number | null {
  if (!ok(MAX_PLANNED_PEOPLE)) return null;
  if (ok(2)) return 2;
  // ok(lo) is false, ok(hi) true
  let lo = 2;
  let hi = MAX_PLANNED_PEOPLE;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** How many people, with m items each, give a 95% half-width <= halfWidth. */
export function peopleForHalfWidth(c: Components, items: number, itemsPerPerson: number, halfWidth: number): PeopleNeeded {
  if (!(halfWidth > 0)) throw new Error(`study planner: the half-width is ${halfWidth} (expected > 0)`);
  check(c, { items, people: 2, itemsPerPerson });
  const people = smallestPeople((P) => predictedHalfWidth(c, { items, people: P, itemsPerPerson }) <= halfWidth);
  if (people === null) {
    const floor = (items > 1 ? tCritical(items - 1) : Infinity) * Math.sqrt(c.items / items);
    return {
      people: null,
      k: null,
      reason: `the items alone give a half-width of ${floor.toPrecision(3)}: more people cannot reach ${halfWidth}; more items can`,
    };
  }
  return { people, k: answersPerItem({ items, people, itemsPerPerson }) };
}

/** How many people, with m items each, detect a difference d from a model at the given power (two-sided, level alpha). */
export function peopleForDifference(
  c: Components,
  items: number,
  itemsPerPerson: number,
  difference: number,
  modelItemVariance: number,
  power = 0.8,
  alpha = 0.05,
): PeopleNeeded {
  if (!(difference !== 0 && Number.isFinite(difference)))
    throw new Error(`study planner: the difference to detect is ${difference} (expected a number other than 0)`);
  if (!(power > alpha && power < 1)) throw new Error(`study planner: power is ${power} (expected between alpha and 1)`);
  check(c, { items, people: 2, itemsPerPerson });
  const people = smallestPeople((P) => predictedPower(c, { items, people: P, itemsPerPerson }, difference, modelItemVariance, alpha) >= power);
  if (people === null) {
    // with endless people se^2 -> (s_i^2 + v_m) / I; the difference detectable then
    const se = Math.sqrt((c.items + modelItemVariance) / items);
    const detectable = (items > 1 ? tCritical(items - 1, 1 - alpha) : Infinity) * se + normalQuantile(power) * se;
    return {
      people: null,
      k: null,
      reason: `with ${items} items the smallest difference detectable at power ${power} is about ${detectable.toPrecision(3)}: more people cannot detect ${Math.abs(difference)}; more items can`,
    };
  }
  return { people, k: answersPerItem({ items, people, itemsPerPerson }) };
}

/** The model's per-item variance assumed from its overall score s when its scores are 0/1 (or in [0, 1]: an upper bound). */
export function bernoulliItemVariance(modelScore: number): number {
  if (!(modelScore >= 0 && modelScore <= 1)) throw new Error(`study planner: the model's score is ${modelScore} (expected 0 to 1 for a 0/1 score)`);
  return modelScore * (1 - modelScore);
}
