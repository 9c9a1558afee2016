import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import type { GeneraliseOver, TwoWayInterval, TwoWayVariance } from "@/lib/stats/two-way-cluster-variance";

/**
 * The two-way cluster-robust variance of lib/stats/two-way-cluster-variance.ts over a range of
 * answers held as columns with integer item and person indexes: the dashboard's accuracy table
 * computes one per metric and cell at half a million answers, where building a keyed object per
 * answer cost about 0.5 s a call. The same formulas (two-way-cells.test.ts checks every field
 * against twoWayMeanInterval and twoWayProportionInterval on random crossed data).
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

function varianceOfRange(c: CrossedColumns, start: number, end: number, over: GeneraliseOver): TwoWayVariance {
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
  if (n === 0 || sumDen === 0) return { estimate: NaN, variance: null, vItems: null, vPeople: null, vCells: null, answers: n, items, people, reason: "no answers" };
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
  for (const s of cellSum.values()) cellSq += s * s;
  const vItems = component(itemSq, items);
  const vPeople = component(personSq, people);
  const vCells = component(cellSq, cellSum.size);
  const base = { estimate, vItems, vPeople, vCells, answers: n, items, people };
  if (vItems === null) return { ...base, variance: null, reason: "one item" };
  if (over === "items") return { ...base, variance: vItems };
  if (vPeople === null) return { ...base, variance: null, reason: "one person" };
  return { ...base, variance: Math.max(vItems + vPeople - (vCells ?? 0), vItems, vPeople) };
}

/** twoWayMeanInterval (proportion false) or twoWayProportionInterval (true) of answers start..end-1. */
export function twoWayRangeInterval(c: CrossedColumns, start: number, end: number, over: GeneraliseOver, proportion: boolean, z = 1.96): TwoWayInterval {
  const v = varianceOfRange(c, start, end, over);
  const out = { estimate: v.estimate, answers: v.answers, items: v.items, people: v.people, variance: v.variance };
  if (v.variance === null) return { ...out, ci: null, reason: v.reason };
  if (!proportion) {
    const half = z * Math.sqrt(v.variance);
    return { ...out, ci: [v.estimate - half, v.estimate + half] };
  }
  const p = v.estimate;
  const floorN = over === "items" ? v.items : Math.min(v.items, v.people);
  const effectiveN = p <= 0 || p >= 1 || v.variance <= 0 ? floorN : Math.min(v.answers, (p * (1 - p)) / v.variance);
  return { ...out, ci: wilsonBounds(Math.min(1, Math.max(0, p)), effectiveN, z), effectiveN };
}
