import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { tCritical } from "@/lib/stats/student-t";

/**
 * Variance of a ratio of sums R = sum(num) / sum(den) (a mean when every den is 1) over answers
 * that are crossed by two random factors, the item and the person, by two-way cluster-robust
 * estimation: V = V_items + V_people - V_cells, where V_cells clusters by the (item, person)
 * intersection, floored at max(V_items, V_people) so the result is never narrower than either
 * one-way form. Each V_g = (G / (G - 1)) * sum over clusters c of (sum_{a in c} r_a)^2 / (sum den)^2,
 * with the linearised residual r_a = num_a - R den_a.
 * Source: Cameron, Gelbach & Miller 2011, "Robust inference with multiway clustering", J. Bus. Econ. Stat. 29(2), eq. 2.11 and sec. 2.3 (the max() floor is their sec. 2.3's fix for a non-positive V).
 *
 * With `over: "items"` the people are the population (fixed): V = V_items, the one-way form.
 *
 * Intervals take their critical value from Student's t with df = (fewest clusters of a factor
 * generalised over) - 1, as a variance estimated from G clusters has about G - 1 degrees of
 * freedom: with 20 people the normal 1.96 covered 93% in the coverage simulation
 * (two-way-coverage.test.ts), t(19)'s 2.093 95%.
 * Source: Cameron, Gelbach & Miller 2011, sec. 4 (T(min(G1, G2) - 1) critical values in their simulations); Cameron & Miller 2015, "A practitioner's guide to cluster-robust inference", J. Hum. Resour. 50(2), sec. VI.A.
 * O(answers).
 */

export type GeneraliseOver = "people+items" | "items";

export const GENERALISE_OVER: readonly GeneraliseOver[] = ["people+items", "items"];

export interface CrossedAnswer {
  item: string | number;
  person: string | number;
  /** the numerator (a 0/1 or a score); the whole value for a mean */
  num: number;
  /** the denominator; 1 for a mean */
  den?: number;
}

export interface TwoWayVariance {
  estimate: number;
  /** null when it cannot be estimated: fewer than 2 clusters on a factor it generalises over */
  variance: number | null;
  /** the one-way components (null when that factor has one cluster) */
  vItems: number | null;
  vPeople: number | null;
  vCells: number | null;
  answers: number;
  items: number;
  people: number;
  /** degrees of freedom of the variance: (fewest clusters of a factor generalised over) - 1; null with the variance */
  df: number | null;
  /** why there is no variance, in words */
  reason?: "one item" | "one person" | "no answers";
}

/**
 * Answers held as columns with integer item and person indexes: the form the variance is computed
 * in (one pass of typed arrays, no object per answer: a dashboard computes one per metric and cell
 * at half a million answers).
 */
export interface CrossedColumns {
  /** per answer: its item's index, 0..items-1 */
  item: Int32Array;
  /** per answer: its person's index, 0..people-1 */
  person: Int32Array;
  items: number;
  people: number;
  num: Float64Array;
  /** null: 1 per answer (a mean) */
  den: Float64Array | null;
}

/** twoWayClusterVariance of the answers start..end-1 of columns. */
export function twoWayColumnsVariance(c: CrossedColumns, start: number, end: number, over: GeneraliseOver = "people+items"): TwoWayVariance {
  const n = end - start;
  let sumNum = 0;
  let sumDen = 0;
  for (let a = start; a < end; a++) {
    sumNum += c.num[a];
    sumDen += c.den ? c.den[a] : 1;
  }
  const itemSum = new Float64Array(c.items);
  const personSum = new Float64Array(c.people);
  const itemSeen = new Uint8Array(c.items);
  const personSeen = new Uint8Array(c.people);
  let items = 0;
  let people = 0;
  for (let a = start; a < end; a++) {
    if (!itemSeen[c.item[a]]) {
      itemSeen[c.item[a]] = 1;
      items++;
    }
    if (!personSeen[c.person[a]]) {
      personSeen[c.person[a]] = 1;
      people++;
    }
  }
  if (n === 0 || sumDen === 0)
    return { estimate: NaN, variance: null, df: null, vItems: null, vPeople: null, vCells: null, answers: n, items, people, reason: "no answers" };
  const estimate = sumNum / sumDen;
  const cellSum = new Map<number, number>();
  for (let a = start; a < end; a++) {
    const r = c.num[a] - estimate * (c.den ? c.den[a] : 1);
    itemSum[c.item[a]] += r;
    personSum[c.person[a]] += r;
    const cell = c.item[a] * c.people + c.person[a];
    cellSum.set(cell, (cellSum.get(cell) ?? 0) + r);
  }
  const scale = sumDen * sumDen;
  const component = (sumSq: number, clusters: number) => (clusters < 2 ? null : ((clusters / (clusters - 1)) * sumSq) / scale);
  let itemSq = 0;
  for (let i = 0; i < c.items; i++) if (itemSeen[i]) itemSq += itemSum[i] * itemSum[i];
  let personSq = 0;
  for (let p = 0; p < c.people; p++) if (personSeen[p]) personSq += personSum[p] * personSum[p];
  let cellSq = 0;
  for (const sum of cellSum.values()) cellSq += sum * sum;
  const vItems = component(itemSq, items);
  const vPeople = component(personSq, people);
  const vCells = component(cellSq, cellSum.size);
  const base = { estimate, vItems, vPeople, vCells, answers: n, items, people };
  if (vItems === null) return { ...base, variance: null, df: null, reason: "one item" };
  if (over === "items") return { ...base, variance: vItems, df: items - 1 };
  if (vPeople === null) return { ...base, variance: null, df: null, reason: "one person" };
  const twoWay = vItems + vPeople - (vCells ?? 0);
  return { ...base, variance: Math.max(twoWay, vItems, vPeople), df: Math.min(items, people) - 1 };
}

/** Columns of answers keyed by any values (a Map tells 1 from "1"), in first-appearance order. */
export function crossedColumns(answers: ReadonlyArray<CrossedAnswer>): CrossedColumns {
  const items = new Map<unknown, number>();
  const people = new Map<unknown, number>();
  const item = new Int32Array(answers.length);
  const person = new Int32Array(answers.length);
  const num = new Float64Array(answers.length);
  let den: Float64Array | null = null;
  answers.forEach((a, i) => {
    const d = a.den ?? 1;
    if (!Number.isFinite(a.num) || !Number.isFinite(d) || d < 0) throw new Error(`twoWayClusterVariance: answer ${i} has num ${a.num}, den ${d}`);
    if (!items.has(a.item)) items.set(a.item, items.size);
    if (!people.has(a.person)) people.set(a.person, people.size);
    item[i] = items.get(a.item)!;
    person[i] = people.get(a.person)!;
    num[i] = a.num;
    if (d !== 1 && den === null) den = new Float64Array(answers.length).fill(1);
    if (den !== null) den[i] = d;
  });
  return { item, person, items: items.size, people: people.size, num, den };
}

/**
 * @throws {Error} naming the answer when num or den is not finite, or den is negative
 * @example
 * // 2 people x 2 items: person a always right, person b never
 * twoWayClusterVariance([{item:1,person:"a",num:1},{item:2,person:"a",num:1},{item:1,person:"b",num:0},{item:2,person:"b",num:0}], "people+items");
 */
export function twoWayClusterVariance(answers: ReadonlyArray<CrossedAnswer>, over: GeneraliseOver = "people+items"): TwoWayVariance {
  return twoWayColumnsVariance(crossedColumns(answers), 0, answers.length, over);
}

export interface TwoWayInterval {
  estimate: number;
  ci: [number, number] | null;
  reason?: TwoWayVariance["reason"];
  answers: number;
  items: number;
  people: number;
  /** Wilson: the effective number of answers p(1-p)/V */
  effectiveN?: number;
  variance: number | null;
  /** the variance's degrees of freedom (TwoWayVariance.df) */
  df?: number | null;
  /** the critical value used: t(df)'s 97.5% point, or the z given */
  critical?: number;
}

/** The critical value of a 95% interval: the z given, else t(df)'s. */
export function twoWayCritical(df: number, z?: number): number {
  return z ?? tCritical(df, 0.95);
}

/** 95% interval of a mean or ratio from its two-way variance: estimate +- t(df) sqrt(V) (or +- z sqrt(V) when z is given). */
export function twoWayMeanInterval(answers: ReadonlyArray<CrossedAnswer>, over: GeneraliseOver = "people+items", z?: number): TwoWayInterval {
  return intervalOf(twoWayClusterVariance(answers, over), over, false, z);
}

/**
 * A proportion (num 0/1, den 1): Wilson's score interval at the effective size p(1-p)/V (never
 * more than the answers). When every answer agrees (p = 0 or 1) V is 0 and says nothing; the
 * effective size is then the fewest clusters of a factor generalised over (items, or
 * min(items, people)): the widest case, every cluster's answers agreeing. Wilson's z is t(df)'s
 * critical value (or the z given).
 */
export function twoWayProportionInterval(answers: ReadonlyArray<CrossedAnswer>, over: GeneraliseOver = "people+items", z?: number): TwoWayInterval {
  return intervalOf(twoWayClusterVariance(answers, over), over, true, z);
}

/** twoWayMeanInterval (proportion false) or twoWayProportionInterval (true) of the answers start..end-1 of columns. */
export function twoWayRangeInterval(c: CrossedColumns, start: number, end: number, over: GeneraliseOver, proportion: boolean, z?: number): TwoWayInterval {
  return intervalOf(twoWayColumnsVariance(c, start, end, over), over, proportion, z);
}

function intervalOf(v: TwoWayVariance, over: GeneraliseOver, proportion: boolean, z?: number): TwoWayInterval {
  const out = { estimate: v.estimate, answers: v.answers, items: v.items, people: v.people, variance: v.variance, df: v.df };
  if (v.variance === null || v.df === null) return { ...out, ci: null, reason: v.reason };
  const critical = twoWayCritical(v.df, z);
  if (!proportion) {
    const half = critical * Math.sqrt(v.variance);
    return { ...out, ci: [v.estimate - half, v.estimate + half], critical };
  }
  const p = v.estimate;
  const floorN = over === "items" ? v.items : Math.min(v.items, v.people);
  const effectiveN = p <= 0 || p >= 1 || v.variance <= 0 ? floorN : Math.min(v.answers, (p * (1 - p)) / v.variance);
  return { ...out, ci: wilsonBounds(Math.min(1, Math.max(0, p)), effectiveN, critical), effectiveN, critical };
}

/** The method as the dashboards name it, one line. */
export function twoWayMethod(over: GeneraliseOver, shape: "proportion" | "mean"): string {
  const form = shape === "proportion" ? "Wilson 95% at the effective n p(1-p)/V" : "t 95%";
  return over === "people+items"
    ? `${form}, V two-way cluster-robust over people and items (Cameron, Gelbach & Miller 2011), t with min(people, items) - 1 df`
    : `${form}, V clustered by item (these people taken as the population), t with items - 1 df`;
}
