import { pairwiseAlpha } from "@/lib/stats/agreement-summary";
import type { AlphaCoincidences, AlphaMetric, AlphaValue } from "@/lib/stats/alpha-coincidences";
import {
  addAlphaCoincidenceSums,
  AlphaCoincidencesBuilder,
  alphaCoincidenceSumsOfUnits,
  alphaCoincidencesOfSums,
  type AlphaCoincidenceSums,
} from "@/lib/stats/alpha-unit-subset";
import {
  addKendallPermutationSums,
  kendallPermutationAlphaBootstrap,
  kendallPermutationAlphaOfSums,
  kendallPermutationBetweenCoders,
  kendallPermutationSumsOfUnits,
  type KendallPermutationSums,
  type KendallPermutationUnits,
} from "@/lib/stats/kendall-permutation-alpha";
import { alphaFromCoincidences, krippendorffAlpha, krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import type { Rng } from "@/lib/stats/rng";

/**
 * Krippendorff's alpha of blocks of units (a study's kinds, kind x tag cells, everything) summed
 * from per-unit parts: the coincidences of the built-in levels, or the pair totals of the
 * permutation metric, add over disjoint blocks, so that each block costs its own units; the
 * intervals over units or by KALPHA; and the alphas between coders (pairwise, leave one out). Pure:
 * the caller builds the units table (lib/dashboard/agreement.ts).
 */

export interface Share {
  agreeing: number;
  total: number;
  share: number | null;
}

/** Alpha between the coders (the same encoding and level): it does not depend on the tag. */
export interface BetweenCoders {
  /** pairwise[i][j] for coders[i], coders[j]; shared = pairable units both answered */
  pairwise: PairwiseAlphas;
  /** alpha without each coder (same encoding and level), for the Annotators page */
  leaveOneOut: Array<{ coder: number; alpha: number | null; reason?: string }>;
}

export interface PairwiseAlphas {
  matrix: (number | null)[][];
  shared: number[][];
}

/** What a block's alpha is read from: the units table and each unit's parts (one answer set under one encoding and level). */
export interface AlphaBlockTable {
  metric: AlphaMetric;
  table: AlphaUnitTable;
  itemUnits: number[][];
  itemAgrees: boolean[];
  coders: number[];
  fast: boolean;
  /** the permutation encoding's orders, parsed once, and their per-unit sums (fast only) */
  orders: Array<Array<number[] | null>> | null;
  kendallUnits: KendallPermutationUnits | null;
  /** the coincidences of every unit with their per-unit parts (built-in levels), else null */
  coincidences: AlphaCoincidences | null;
  /** each unit's index among the pairable units (two values or more), -1 when not pairable */
  pairableIndex: Int32Array;
  /** 1 when every value of the (pairable) unit is the same */
  unitSame: Uint8Array;
}

/** A block's interval and, without one, why. */
export interface AlphaBlockInterval {
  ci: [number, number] | null;
  ciReason?: string;
  ciDescription: string;
}

/**
 * Encodings that declare `kendallPermutations` (a kind's orderings written "2,0,1", distance the
 * normalised Kendall tau distance, other lengths at 1) are computed by kendall-permutation-alpha.ts
 * in O(U L^2) instead of the general O(V^2) algorithm; a unit test (agreement.test.ts) checks that
 * the declaring encoding's distance still equals that metric.
 */

/** An order written "2,0,1" as its positions, or null when it is not a permutation of 0..L-1 (Kendall 1938's permutations). */
export function parsePermutationValue(value: AlphaValue): number[] | null {
  const text = String(value);
  if (text === "") return [];
  const parts = text.split(",").map(Number);
  const seen = new Set<number>();
  for (const x of parts) {
    if (!Number.isInteger(x) || x < 0 || x >= parts.length || seen.has(x)) return null;
    seen.add(x);
  }
  return parts;
}

/** Most distinct values KALPHA may face with a custom metric (it needs every pair's distance). */
const KALPHA_CUSTOM_MAX_VALUES = 2000;

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** Source: percent agreement, the share of units whose values all agree (Krippendorff 2004, "Content Analysis", 2nd ed., the index alpha corrects for chance). */
export function share(agreeing: number, total: number): Share {
  return { agreeing, total, share: total > 0 ? agreeing / total : null };
}

/** The units form of the answers: each unit's values, their coders and the item each unit belongs to. */
export interface AlphaUnitTable {
  /** units form (values in coder order) */
  units: AlphaValue[][];
  /** coder of each value, parallel to units */
  unitCoders: number[][];
  /** index into the item list of each unit */
  unitItem: number[];
}

export interface AlphaBlockEstimate {
  alpha: number | null;
  reason?: string;
  units: number;
  items: number;
  values: number;
  perfectUnits: Share;
  perfectItems: Share;
}

/**
 * What a block's alpha is summed from: counts, and the sums of its units (the built-in levels:
 * the units' parts of the one coincidence matrix of every unit; the permutation encoding: its
 * pair-indicator totals), which add over disjoint blocks, so a kind's and the overall block are the
 * sums of their cells; other custom metrics keep the units, to be re-read.
 */
export interface AlphaBlockParts {
  pairableUnits: number;
  agreeingUnits: number;
  agreeingItems: number;
  items: number;
  coincidences: AlphaCoincidenceSums | null;
  kendall: KendallPermutationSums | null;
  unitIds: number[] | null;
}

/** Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section C (o_ck and n_c are sums over units). */
export function blockParts(prep: AlphaBlockTable, itemIds: readonly number[]): AlphaBlockParts {
  const { itemUnits, itemAgrees, fast, coincidences, pairableIndex, unitSame } = prep;
  let pairableUnits = 0;
  let agreeingUnits = 0;
  const pairableIds: number[] = [];
  const general = !fast && !coincidences;
  const unitIds: number[] = [];
  for (const i of itemIds) {
    for (const u of itemUnits[i]) {
      if (general) unitIds.push(u);
      const p = pairableIndex[u];
      if (p < 0) continue;
      pairableUnits++;
      agreeingUnits += unitSame[u];
      pairableIds.push(p);
    }
  }
  let agreeingItems = 0;
  for (const i of itemIds) if (itemAgrees[i]) agreeingItems++;
  return {
    pairableUnits,
    agreeingUnits,
    agreeingItems,
    items: itemIds.length,
    coincidences: coincidences && !fast ? alphaCoincidenceSumsOfUnits(coincidences, pairableIds) : null,
    kendall: fast ? kendallPermutationSumsOfUnits(prep.kendallUnits!, pairableIds) : null,
    unitIds: general ? unitIds : null,
  };
}

/**
 * The parts of the union of disjoint blocks.
 * Source: Krippendorff 2011, section C: the coincidences of disjoint sets of units add.
 */
export function unionOfParts(parts: readonly AlphaBlockParts[]): AlphaBlockParts {
  const [first, ...rest] = parts;
  const out: AlphaBlockParts = {
    ...first,
    coincidences: first.coincidences
      ? {
          ...first.coincidences,
          marginals: first.coincidences.marginals.slice(),
          diagonal: first.coincidences.diagonal.slice(),
          pairSum: first.coincidences.pairSum.slice(),
        }
      : null,
    kendall: first.kendall ? { ...first.kendall, N: first.kendall.N.slice(), Q: first.kendall.Q.slice(), S: first.kendall.S.slice() } : null,
    unitIds: first.unitIds ? first.unitIds.slice() : null,
  };
  for (const part of rest) {
    out.pairableUnits += part.pairableUnits;
    out.agreeingUnits += part.agreeingUnits;
    out.agreeingItems += part.agreeingItems;
    out.items += part.items;
    if (out.coincidences) addAlphaCoincidenceSums(out.coincidences, part.coincidences!);
    if (out.kendall) addKendallPermutationSums(out.kendall, part.kendall!);
    if (out.unitIds) for (const u of part.unitIds!) out.unitIds.push(u);
  }
  return out;
}

/**
 * Alpha (no interval) and the perfect-agreement shares of a block, from its parts.
 * Source: Krippendorff 2011, sections C-E (alpha = 1 - D_o / D_e from the coincidences).
 */
export function blockEstimate(prep: AlphaBlockTable, parts: AlphaBlockParts): AlphaBlockEstimate {
  const estimate = parts.kendall
    ? kendallPermutationAlphaOfSums(prep.kendallUnits!, parts.kendall)
    : parts.coincidences
      ? alphaFromCoincidences(alphaCoincidencesOfSums(prep.coincidences!, parts.coincidences))
      : krippendorffAlphaFromUnits(
          parts.unitIds!.map((u) => prep.table.units[u]),
          prep.metric,
        );
  return {
    alpha: estimate.alpha,
    ...(estimate.reason ? { reason: estimate.reason } : {}),
    units: parts.pairableUnits,
    items: parts.items,
    values: estimate.n,
    perfectUnits: share(parts.agreeingUnits, parts.pairableUnits),
    perfectItems: share(parts.agreeingItems, parts.items),
  };
}

/**
 * The interval of one block by unit resampling or KALPHA (the optional methods; the default,
 * over items, runs once for every block in lib/dashboard/agreement.ts).
 * Source: Hayes and Krippendorff 2007, "Answering the call for a standard reliability measure for
 * coding data" (KALPHA); Efron and Tibshirani 1993, ch. 13 (the percentile interval over units).
 */
export function blockInterval(
  table: AlphaUnitTable,
  unitIds: number[],
  metric: AlphaMetric,
  fast: boolean,
  method: "units" | "kalpha",
  resamples: number,
  rng: Rng,
): AlphaBlockInterval {
  const units = unitIds.map((u) => table.units[u]);
  if (method === "units") {
    const boot = fast
      ? kendallPermutationAlphaBootstrap(
          units.map((unit) => unit.map((v) => parsePermutationValue(v)!)),
          rng,
          { resamples },
        )
      : krippendorffAlphaBootstrap(units, metric, rng, { resamples, method: "units" });
    return {
      ci: boot.ci,
      ...(boot.ci ? {} : { ciReason: boot.reason }),
      ciDescription: `95% percentile bootstrap over units (${formatCount(resamples)} resamples of ${formatCount(boot.estimate.units)} units with replacement, each unit on its own)`,
    };
  }
  const kalphaDescription = `95% bootstrap by Krippendorff's KALPHA algorithm (${formatCount(resamples)} replicates drawing pairs from the coincidence matrix; metric and expected disagreement held fixed)`;
  if (typeof metric !== "string") {
    const distinct = new Set<AlphaValue>();
    for (const unit of units) if (unit.length >= 2) for (const v of unit) distinct.add(v);
    if (distinct.size > KALPHA_CUSTOM_MAX_VALUES) {
      return {
        ci: null,
        ciReason: `KALPHA needs the distance of every pair of distinct answers, and there are ${formatCount(distinct.size)}: choose the bootstrap over items`,
        ciDescription: kalphaDescription,
      };
    }
  }
  const boot = krippendorffAlphaBootstrap(units, metric, rng, { resamples, method: "kalpha" });
  return { ci: boot.ci, ...(boot.ci ? {} : { ciReason: boot.reason }), ciDescription: kalphaDescription };
}

/**
 * Pairwise alphas and alpha without each coder from the coincidences of the built-in levels, in
 * one pass over the units: each pair of coders gets the two-value units they share, each coder's
 * "without" the units less that coder's value (what pairwiseAlpha and krippendorffAlpha compute
 * from the reliability matrix, without building it C + C(C-1)/2 times).
 * Source: Krippendorff 2011, sections B-C, applied to each pair of coders and to all coders but one.
 */
function pairwiseAndLeaveOneOutBySums(prep: AlphaBlockTable, co: AlphaCoincidences): BetweenCoders {
  const { table, coders } = prep;
  const C = coders.length;
  // coder -> row (coders are annotator indices: small non-negative integers)
  const row = new Int32Array(coders.length > 0 ? coders[coders.length - 1] + 1 : 0).fill(-1);
  coders.forEach((c, i) => (row[c] = i));
  const valueIndex = new Map(co.values.map((v, i) => [v, i]));
  const pairBuilders: AlphaCoincidencesBuilder[][] = coders.map(() => coders.map(() => null as unknown as AlphaCoincidencesBuilder));
  for (let a = 0; a < C; a++) for (let b = a + 1; b < C; b++) pairBuilders[a][b] = new AlphaCoincidencesBuilder(co);
  const withoutBuilders = C >= 3 ? coders.map(() => new AlphaCoincidencesBuilder(co)) : [];
  const values = new Int32Array(Math.max(2, C + 1));
  const rows = new Int32Array(Math.max(2, C + 1));
  const rest = new Int32Array(Math.max(2, C + 1));
  const present = new Uint8Array(C);
  for (let u = 0; u < table.units.length; u++) {
    if (prep.pairableIndex[u] < 0) continue;
    const unit = table.units[u];
    const unitCoders = table.unitCoders[u];
    let m = 0;
    for (let j = 0; j < unit.length; j++) {
      const v = unit[j];
      if (v === null || v === undefined) continue;
      values[m] = valueIndex.get(v)!;
      rows[m] = row[unitCoders[j]];
      m++;
    }
    for (let i = 0; i < m; i++) {
      for (let j = i + 1; j < m; j++) {
        if (rows[i] < rows[j]) pairBuilders[rows[i]][rows[j]].addPair(values[i], values[j]);
        else pairBuilders[rows[j]][rows[i]].addPair(values[i], values[j]);
      }
    }
    if (withoutBuilders.length > 0) {
      for (let i = 0; i < m; i++) present[rows[i]] = 1;
      for (let c = 0; c < C; c++) {
        if (present[c] === 0) {
          withoutBuilders[c].add(values, 0, m);
          continue;
        }
        let r = 0;
        for (let i = 0; i < m; i++) if (rows[i] !== c) rest[r++] = values[i];
        withoutBuilders[c].add(rest, 0, r);
      }
      for (let i = 0; i < m; i++) present[rows[i]] = 0;
    }
  }
  const matrix: (number | null)[][] = coders.map(() => new Array<number | null>(C).fill(null));
  const shared = coders.map(() => new Array<number>(C).fill(0));
  for (let a = 0; a < C; a++) {
    for (let b = a + 1; b < C; b++) {
      const result = alphaFromCoincidences(pairBuilders[a][b].finish());
      matrix[a][b] = result.alpha;
      matrix[b][a] = result.alpha;
      shared[a][b] = result.units;
      shared[b][a] = result.units;
    }
  }
  const leaveOneOut: BetweenCoders["leaveOneOut"] = coders.map((coder, i) => {
    if (C < 3) return { coder, alpha: null, reason: "needs at least 3 annotators" };
    const r = alphaFromCoincidences(withoutBuilders[i].finish());
    return { coder, alpha: r.alpha, ...(r.reason ? { reason: r.reason } : {}) };
  });
  return { pairwise: C >= 2 ? { matrix, shared } : { matrix: [], shared: [] }, leaveOneOut: C >= 2 ? leaveOneOut : [] };
}

/**
 * Pairwise alphas and alpha without each coder (the same encoding and level): they do not depend on the tag.
 * Source: Krippendorff 2011, sections B-E, for each pair of coders and for all coders but one.
 */
export function pairwiseAndLeaveOneOut(prep: AlphaBlockTable): BetweenCoders {
  if (prep.coincidences) return pairwiseAndLeaveOneOutBySums(prep, prep.coincidences);
  const { table, coders, fast, metric } = prep;
  const row = new Map(coders.map((c, i) => [c, i]));
  const U = table.units.length;
  const matrix: (AlphaValue | null)[][] = coders.map(() => new Array<AlphaValue | null>(U).fill(null));
  for (let u = 0; u < U; u++) table.units[u].forEach((v, j) => (matrix[row.get(table.unitCoders[u][j])!][u] = v));
  let pairwise: PairwiseAlphas = { matrix: [], shared: [] };
  const leaveOneOut: BetweenCoders["leaveOneOut"] = [];
  if (coders.length >= 2) {
    const asOrders = () => {
      const out: Array<Array<number[] | null>> = coders.map(() => new Array<number[] | null>(U).fill(null));
      for (let u = 0; u < U; u++) table.unitCoders[u].forEach((coder, j) => (out[row.get(coder)!][u] = prep.orders![u][j]));
      return out;
    };
    const orders = fast ? asOrders() : null;
    const between = orders ? kendallPermutationBetweenCoders(orders) : null;
    const result = between ? between.pairwise : pairwiseAlpha(matrix, metric);
    const shared = coders.map(() => new Array<number>(coders.length).fill(0));
    for (const pair of result.pairs) {
      shared[pair.a][pair.b] = pair.result.units;
      shared[pair.b][pair.a] = pair.result.units;
    }
    pairwise = { matrix: result.matrix, shared };
    for (let i = 0; i < coders.length; i++) {
      if (coders.length < 3) {
        leaveOneOut.push({ coder: coders[i], alpha: null, reason: "needs at least 3 annotators" });
        continue;
      }
      const r = between
        ? between.leaveOneOut![i]
        : krippendorffAlpha(
            matrix.filter((_, j) => j !== i),
            metric,
          );
      leaveOneOut.push({ coder: coders[i], alpha: r.alpha, ...(r.reason ? { reason: r.reason } : {}) });
    }
  }
  return { pairwise, leaveOneOut };
}
