import { bootstrapOptions, percentileInterval } from "@/lib/stats/bootstrap-ci";
import { randomInt, type Rng } from "@/lib/stats/rng";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * Pigeonhole (two-way) bootstrap for any statistic of answers crossed by item and person: each
 * replicate draws the items with replacement and, independently, the people with replacement,
 * and weights every answer by (times its item was drawn) x (times its person was drawn). The
 * statistic reads the weights (an answer of weight 0 is left out, weight w counts w times).
 * Source: Owen 2007, "The pigeonhole bootstrap", Ann. Appl. Stat. 1(2), sec. 2 (the product-weight resampling; its variance is conservative, never below either factor's own).
 *
 * With `over: "items"` only items are drawn (people weight 1): the one-way cluster bootstrap.
 * Percentile interval (Hyndman-Fan type 7), as the other bootstraps of lib/stats.
 * O(resamples x (items + people + answers + cost of the statistic)).
 */

export interface PigeonholeInterval {
  estimate: number | null;
  ci: [number, number] | null;
  reason?: "one item" | "one person" | "no answers" | "undefined on the data" | "undefined on every resample" | "no spread";
  resamples: number;
  /** replicates on which the statistic was undefined (null or NaN): left out of the interval, and counted */
  undefinedResamples: number;
  items: number;
  people: number;
}

export interface PigeonholeInput {
  /** per answer: its item's index, 0..items-1 */
  itemOf: ArrayLike<number>;
  /** per answer: its person's index, 0..people-1 */
  personOf: ArrayLike<number>;
  items: number;
  people: number;
}

/** Item and person indexes of answers keyed by any values (first appearance order). */
export function crossedIndexes<T>(answers: ReadonlyArray<T>, item: (a: T) => unknown, person: (a: T) => unknown): PigeonholeInput {
  const items = new Map<unknown, number>();
  const people = new Map<unknown, number>();
  const itemOf = new Int32Array(answers.length);
  const personOf = new Int32Array(answers.length);
  answers.forEach((a, i) => {
    const ik = item(a);
    const pk = person(a);
    if (!items.has(ik)) items.set(ik, items.size);
    if (!people.has(pk)) people.set(pk, people.size);
    itemOf[i] = items.get(ik)!;
    personOf[i] = people.get(pk)!;
  });
  return { itemOf, personOf, items: items.size, people: people.size };
}

const isDefined = (x: number | null): x is number => x !== null && !Number.isNaN(x);

/**
 * @param statistic the figure from per-answer weights (all 1 on the observed data)
 * @throws {Error} on an index outside its range, or bad options
 * @example
 * // the mean of y, over items and people
 * pigeonholeBootstrap(crossedIndexes(rows, (r) => r.item, (r) => r.person), (w) => weightedMean(ys, w), mulberry32(1));
 */
export function pigeonholeBootstrap(
  input: PigeonholeInput,
  statistic: (weights: Float64Array) => number | null,
  rng: Rng,
  options: { resamples?: number; confidence?: number; over?: GeneraliseOver } = {},
): PigeonholeInterval {
  const { resamples, confidence } = bootstrapOptions(options, "pigeonholeBootstrap");
  const over = options.over ?? "people+items";
  const { itemOf, personOf, items, people } = input;
  const n = itemOf.length;
  if (personOf.length !== n) throw new Error("pigeonholeBootstrap requires one person index per answer");
  for (let a = 0; a < n; a++) {
    if (!(itemOf[a] >= 0 && itemOf[a] < items) || !(personOf[a] >= 0 && personOf[a] < people))
      throw new Error(`pigeonholeBootstrap: answer ${a} has item ${itemOf[a]} of ${items}, person ${personOf[a]} of ${people}`);
  }
  const weights = new Float64Array(n).fill(1);
  const observed = n === 0 ? null : statistic(weights);
  const estimate = isDefined(observed) ? observed : null;
  const base = { estimate, resamples, undefinedResamples: 0, items, people };
  if (n === 0) return { ...base, ci: null, reason: "no answers" };
  if (estimate === null) return { ...base, ci: null, reason: "undefined on the data" };
  if (items < 2) return { ...base, ci: null, reason: "one item" };
  if (over === "people+items" && people < 2) return { ...base, ci: null, reason: "one person" };
  const reps = new Float64Array(resamples);
  let defined = 0;
  forEachPigeonholeResample(input, rng, resamples, over, (w) => {
    const value = statistic(w);
    if (isDefined(value)) reps[defined++] = value;
  });
  const undefinedResamples = resamples - defined;
  if (defined === 0) return { ...base, undefinedResamples, ci: null, reason: "undefined on every resample" };
  const sorted = reps.slice(0, defined).sort();
  if (sorted[0] === sorted[defined - 1]) return { ...base, undefinedResamples, ci: null, reason: "no spread" };
  return { ...base, undefinedResamples, ci: percentileInterval(sorted, confidence) };
}

/**
 * The pigeonhole resamples themselves: `visit` gets each replicate's per-answer weights (item
 * draws x person draws; people weight 1 with "items only"), reused between calls. For figures
 * that take several values from one replicate (a strength per model). Draw order per replicate:
 * randomInt(rng, items) items times, then randomInt(rng, people) people times (people+items).
 * @throws {Error} on an index outside its range
 */
export function forEachPigeonholeResample(
  input: PigeonholeInput,
  rng: Rng,
  resamples: number,
  over: GeneraliseOver,
  visit: (weights: Float64Array) => void,
): void {
  const { itemOf, personOf, items, people } = input;
  const n = itemOf.length;
  for (let a = 0; a < n; a++) {
    if (!(itemOf[a] >= 0 && itemOf[a] < items) || !(personOf[a] >= 0 && personOf[a] < people))
      throw new Error(`pigeonholeBootstrap: answer ${a} has item ${itemOf[a]} of ${items}, person ${personOf[a]} of ${people}`);
  }
  const weights = new Float64Array(n);
  const itemWeight = new Float64Array(items);
  const personWeight = new Float64Array(people).fill(1);
  for (let r = 0; r < resamples; r++) {
    itemWeight.fill(0);
    for (let k = 0; k < items; k++) itemWeight[randomInt(rng, items)]++;
    if (over === "people+items") {
      personWeight.fill(0);
      for (let k = 0; k < people; k++) personWeight[randomInt(rng, people)]++;
    }
    for (let a = 0; a < n; a++) weights[a] = itemWeight[itemOf[a]] * personWeight[personOf[a]];
    visit(weights);
  }
}

/** Answers repeated by their integer weights: for a statistic written over plain lists (a kind's own aggregate). */
export function expandByWeights<T>(answers: ReadonlyArray<T>, weights: ArrayLike<number>): T[] {
  const out: T[] = [];
  for (let a = 0; a < answers.length; a++) for (let w = 0; w < weights[a]; w++) out.push(answers[a]);
  return out;
}
