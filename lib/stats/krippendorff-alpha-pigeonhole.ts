import { alphaCoincidences, alphaDeltaSquared, alphaExpectedSum, type AlphaMetric, type AlphaUnits, type AlphaValue } from "@/lib/stats/alpha-coincidences";
import { bootstrapOptions, percentileInterval } from "@/lib/stats/bootstrap-ci";
import { randomInt, type Rng } from "@/lib/stats/rng";
import { SparseSum, type BlockInterval } from "@/lib/stats/stratified-bootstrap";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * Pigeonhole bootstrap of Krippendorff's alpha: every replicate draws the items with replacement
 * (within each stratum, as the stratified bootstrap does) and, independently, the coders (people)
 * with replacement; a unit of an item drawn a times counts a times, and a coder drawn w times
 * gives each of their values weight w. Alpha is a statistic of pairs of values from different
 * coders, so two copies of one coder are never paired with each other (they would agree by
 * construction, and with P coders a 1/P share of all pairs would be such copies): in a unit with
 * coder weights w_p, W = sum w_p, the ordered pair of values (p, q), p != q, weighs
 * a w_p w_q / N_u with N_u = (W^2 - sum w_p^2) / W, so that a unit's pairs weigh W in all (its
 * pairable values, as in Krippendorff's o_ck = sum_u n_uc n_uk / (m_u - 1)), and a value's marginal
 * weight is a w_p (W - w_p) / N_u. With every weight 1, N_u = m_u - 1 and this is alpha exactly.
 * A replicate that draws one coder only of every unit has no pairs and is left out (counted).
 * Source: Owen 2007, "The pigeonhole bootstrap", Ann. Appl. Stat. 1(2), sec. 2 (items and people drawn independently, an observation weighted by the product of its row's and column's draws); Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections C-E (alpha from coincidences and marginals).
 *
 * With `over: "items"` the coders are not drawn (weight 1): the stratified item bootstrap of
 * krippendorffAlphaStratifiedBootstrap, draw for draw (items in each stratum in the order of
 * their first pairable unit). `fixedCoders` are never drawn either (a model judge among people).
 * The permutation metric ("kendall-permutation": orderings, normalised Kendall tau distance,
 * different lengths at 1) uses the pair-indicator embedding of kendall-permutation-alpha.ts.
 * O(resamples x (items + coders + sum over (item, coder set) blocks of their coders^2 x entries)).
 */

export type PigeonholeAlphaInput =
  { metric: AlphaMetric; units: AlphaUnits } | { metric: "kendall-permutation"; units: ReadonlyArray<ReadonlyArray<readonly number[] | null | undefined>> };

export interface PigeonholeAlphaOptions {
  resamples?: number;
  confidence?: number;
  over?: GeneraliseOver;
  /** coders never drawn (weight 1 in every replicate) */
  fixedCoders?: ReadonlySet<number>;
  /** false: items are not drawn (weight 1), only people: the one-way form over people, for checks */
  drawItems?: boolean;
}

export interface PigeonholeAlphaBlock extends BlockInterval {
  /** drawable coders with a value in the block's pairable units */
  people: number;
}

export interface PigeonholeAlphaResult {
  strata: PigeonholeAlphaBlock[];
  groups: PigeonholeAlphaBlock[];
  resamples: number;
  confidence: number;
  over: GeneraliseOver;
}

interface Layout {
  dims: number;
  /** the coder term of one value: dims += 1 each */
  coderEntries(value: number, add: (d: number, x: number) => void): void;
  /** the pair term of two values of different coders */
  pairEntries(a: number, b: number, add: (d: number, x: number) => void): void;
  statistic(sum: Float64Array, touched: Int32Array, count: number): number | null;
}

/** Values of the built-in levels and custom metrics, by their index among the pairable values. */
function coincidenceLayout(units: AlphaUnits, metric: AlphaMetric): { layout: Layout; indexOf: (v: AlphaValue) => number } {
  const fnName = "krippendorffAlphaPigeonhole";
  const co = alphaCoincidences(units, metric, { fnName });
  const V = co.values.length;
  const valueIndex = new Map<AlphaValue, number>(co.values.map((v, i) => [v, i]));
  const pairIndex = new Map<number, number>();
  for (let p = 0; p < co.pairC.length; p++) pairIndex.set(co.pairC[p] * V + co.pairK[p], p);
  const ordinal = co.kind === "ordinal";
  const fixedDelta = ordinal ? null : alphaDeltaSquared(co, co.marginals, { cache: true, fnName });
  const layout: Layout = {
    dims: 2 + V + (ordinal ? co.pairC.length : 0),
    coderEntries(c, add) {
      add(0, 1);
      add(2 + c, 1);
    },
    pairEntries(c, k, add) {
      if (c === k) return;
      const lo = Math.min(c, k);
      const hi = Math.max(c, k);
      if (ordinal) add(2 + V + pairIndex.get(lo * V + hi)!, 2);
      else add(1, 2 * fixedDelta!(lo, hi));
    },
    statistic(sum, touched, count) {
      const n = sum[0];
      if (!(n > 0)) return null;
      const marginals = sum.subarray(2, 2 + V);
      let observed = 0;
      let delta: (c: number, k: number) => number;
      if (ordinal) {
        delta = alphaDeltaSquared(co, marginals);
        for (let i = 0; i < count; i++) {
          const d = touched[i];
          if (d >= 2 + V && sum[d] !== 0) {
            const q = d - 2 - V;
            observed += sum[d] * delta(co.pairC[q], co.pairK[q]);
          }
        }
      } else {
        delta = fixedDelta!;
        observed = sum[1];
      }
      const expected = alphaExpectedSum(co, marginals, n, delta);
      return expected > 1e-12 * n * n ? 1 - ((n - 1) * observed) / expected : null;
    },
  };
  return { layout, indexOf: (v) => valueIndex.get(v)! };
}

/** Orderings by the pair-indicator embedding: delta^2 = Hamming distance / P for equal lengths, 1 otherwise. */
function permutationLayout(orders: ReadonlyArray<readonly number[]>): Layout {
  const lengths = [...new Set(orders.map((o) => o.length))].sort((a, b) => a - b);
  const group = new Map(lengths.map((L, g) => [L, g]));
  const pairsOf = (L: number) => (L * (L - 1)) / 2;
  const base = new Int32Array(lengths.length);
  let dims = 2;
  lengths.forEach((L, g) => {
    base[g] = dims;
    dims += 2 + pairsOf(L);
  });
  // each ordering's indicators x_ij = 1 when it places candidate i before candidate j (i < j)
  const indicators = orders.map((order) => {
    const L = order.length;
    const position = new Int32Array(L);
    order.forEach((candidate, at) => (position[candidate] = at));
    const x = new Uint8Array(pairsOf(L));
    let q = 0;
    for (let i = 0; i < L; i++) for (let j = i + 1; j < L; j++) x[q++] = position[i] < position[j] ? 1 : 0;
    return x;
  });
  return {
    dims,
    coderEntries(v, add) {
      const x = indicators[v];
      const g = group.get(orders[v].length)!;
      let ones = 0;
      for (let q = 0; q < x.length; q++) if (x[q]) ones++;
      add(0, 1);
      add(base[g], 1);
      add(base[g] + 1, ones);
      for (let q = 0; q < x.length; q++) if (x[q]) add(base[g] + 2 + q, 1);
    },
    pairEntries(a, b, add) {
      const xa = indicators[a];
      const xb = indicators[b];
      if (orders[a].length !== orders[b].length) return add(1, 2);
      if (xa.length === 0) return;
      let differ = 0;
      for (let q = 0; q < xa.length; q++) if (xa[q] !== xb[q]) differ++;
      if (differ > 0) add(1, (2 * differ) / xa.length);
    },
    statistic(sum) {
      const n = sum[0];
      if (!(n > 0)) return null;
      let expected = n * n;
      lengths.forEach((L, g) => {
        const N = sum[base[g]];
        expected -= N * N;
        const P = pairsOf(L);
        if (P === 0 || N === 0) return;
        let norm = 0;
        for (let q = 0; q < P; q++) {
          const x = sum[base[g] + 2 + q];
          norm += x * x;
        }
        expected += (2 * (N * sum[base[g] + 1] - norm)) / P;
      });
      return expected > 1e-9 * n * n ? 1 - ((n - 1) * sum[1]) / expected : null;
    },
  };
}

/**
 * @param unitCoders the coder of each value of each unit (parallel to units; one value per coder and unit: a second is left out)
 * @param itemOf the item of each unit
 * @param stratumOf the stratum (0..strataCount-1) of an item
 * @param groups strata whose union gets an interval of its own (a kind, everything)
 * @throws {Error} on values that do not suit the level, or mismatched lengths
 * @example
 * krippendorffAlphaPigeonhole({ metric: "nominal", units }, coders, itemOfUnit, () => 0, 1, [[0]], mulberry32(1));
 */
export function krippendorffAlphaPigeonhole(
  input: PigeonholeAlphaInput,
  unitCoders: ReadonlyArray<ArrayLike<number>>,
  itemOf: ArrayLike<number>,
  stratumOf: (item: number) => number,
  strataCount: number,
  groups: ReadonlyArray<ReadonlyArray<number>>,
  rng: Rng,
  options: PigeonholeAlphaOptions = {},
): PigeonholeAlphaResult {
  const fnName = "krippendorffAlphaPigeonhole";
  const { resamples, confidence } = bootstrapOptions(options, fnName);
  const over = options.over ?? "people+items";
  const fixed = options.fixedCoders ?? new Set<number>();
  const { units } = input;
  if (unitCoders.length !== units.length || itemOf.length !== units.length) throw new Error(`${fnName} requires one coder list and one item per unit`);

  // pairable units: one value per coder (the last), two coders or more
  const slotsOf: Array<Array<{ coder: number; at: number }>> = [];
  const pairableUnits: number[] = [];
  for (let u = 0; u < units.length; u++) {
    const unit = units[u];
    const coders = unitCoders[u];
    if (coders.length !== unit.length) throw new Error(`${fnName} requires one coder per value (unit ${u})`);
    const slots: Array<{ coder: number; at: number }> = [];
    for (let j = 0; j < unit.length; j++) {
      if (unit[j] === null || unit[j] === undefined) continue;
      const seen = slots.findIndex((s) => s.coder === coders[j]);
      if (seen >= 0) slots[seen] = { coder: coders[j], at: j };
      else slots.push({ coder: coders[j], at: j });
    }
    if (slots.length >= 2) {
      slots.sort((a, b) => a.coder - b.coder);
      slotsOf.push(slots);
      pairableUnits.push(u);
    }
  }

  // values as indices into the layout
  let layout: Layout;
  let valueOf: (u: number, at: number) => number;
  if (input.metric === "kendall-permutation") {
    const orders: Array<readonly number[]> = [];
    const at = new Map<string, number>();
    const ids = pairableUnits.map((u, p) =>
      slotsOf[p].map((s) => {
        const order = (input.units as ReadonlyArray<ReadonlyArray<readonly number[]>>)[u][s.at];
        const key = order.join(",");
        let id = at.get(key);
        if (id === undefined) {
          at.set(key, (id = orders.length));
          orders.push(order);
        }
        return id;
      }),
    );
    layout = permutationLayout(orders);
    valueOf = (p, j) => ids[p][j];
  } else {
    const kept = pairableUnits.map((u, p) => slotsOf[p].map((s) => (input.units as AlphaUnits)[u][s.at] as AlphaValue));
    const built = coincidenceLayout(kept, input.metric);
    layout = built.layout;
    const ids = kept.map((values) => values.map(built.indexOf));
    valueOf = (p, j) => ids[p][j];
  }

  // dense items (order of their first pairable unit) and coders (ascending)
  const denseItem = new Map<number, number>();
  const itemIds: number[] = [];
  const coderSet = new Set<number>();
  pairableUnits.forEach((u, p) => {
    if (!denseItem.has(itemOf[u])) {
      denseItem.set(itemOf[u], itemIds.length);
      itemIds.push(itemOf[u]);
    }
    for (const s of slotsOf[p]) coderSet.add(s.coder);
  });
  const coderIds = [...coderSet].sort((a, b) => a - b);
  const denseCoder = new Map(coderIds.map((c, i) => [c, i]));
  const drawable = coderIds.flatMap((c, i) => (fixed.has(c) ? [] : [i]));

  // blocks: the units of one item with one coder set, their terms summed
  const blockKey = new Map<string, number>();
  const blockUnits: number[][] = [];
  const blockMeta: Array<{ item: number; coders: number[] }> = [];
  pairableUnits.forEach((u, p) => {
    const item = denseItem.get(itemOf[u])!;
    const coders = slotsOf[p].map((s) => denseCoder.get(s.coder)!);
    const key = `${item}|${coders.join(",")}`;
    let b = blockKey.get(key);
    if (b === undefined) {
      blockKey.set(key, (b = blockUnits.length));
      blockUnits.push([]);
      blockMeta.push({ item, coders });
    }
    blockUnits[b].push(p);
  });
  // every block's terms (the coders first, then the pairs p < q), their coefficients the same for
  // every block of one coder set (its pattern); terms of a block with the same entries (coders who
  // gave the same values, as every coder does in a slot encoding's marginals) are kept once, as a
  // group whose coefficient is the sum of its terms'. Block b's groups: groupStart[b] .. groupStart[b + 1] - 1;
  // group g's terms groupTerms[termStart[g] .. termStart[g + 1] - 1], its entries entryStart[g] .. entryStart[g + 1] - 1
  const patternKey = new Map<string, number>();
  const patternCoders: Int32Array[] = [];
  const blockPattern = new Int32Array(blockMeta.length);
  const blockItem = new Int32Array(blockMeta.length);
  const groupStartList: number[] = [0];
  const termStartList: number[] = [0];
  const groupTermList: number[] = [];
  const entryStartList: number[] = [0];
  const entryIndex: number[] = [];
  const entryValue: number[] = [];
  const scratch = new Float64Array(layout.dims);
  const touched: number[] = [];
  const add = (d: number, x: number) => {
    if (x === 0) return;
    if (scratch[d] === 0) touched.push(d);
    scratch[d] += x;
  };
  blockMeta.forEach(({ item, coders }, b) => {
    const key = coders.join(",");
    let pattern = patternKey.get(key);
    if (pattern === undefined) {
      patternKey.set(key, (pattern = patternCoders.length));
      patternCoders.push(Int32Array.from(coders));
    }
    blockPattern[b] = pattern;
    blockItem[b] = item;
    const k = coders.length;
    const groups = new Map<string, { terms: number[]; index: number[]; value: number[] }>();
    const take = (t: number) => {
      touched.sort((x, y) => x - y);
      const index: number[] = [];
      const value: number[] = [];
      for (const d of touched) {
        if (scratch[d] !== 0) {
          index.push(d);
          value.push(scratch[d]);
        }
        scratch[d] = 0;
      }
      touched.length = 0;
      if (index.length === 0) return;
      const signature = `${index.join(",")}|${value.join(",")}`;
      const group = groups.get(signature);
      if (group) group.terms.push(t);
      else groups.set(signature, { terms: [t], index, value });
    };
    let t = 0;
    for (let i = 0; i < k; i++) {
      for (const p of blockUnits[b]) layout.coderEntries(valueOf(p, i), add);
      take(t++);
    }
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        for (const p of blockUnits[b]) layout.pairEntries(valueOf(p, i), valueOf(p, j), add);
        take(t++);
      }
    }
    for (const group of groups.values()) {
      for (const term of group.terms) groupTermList.push(term);
      termStartList.push(groupTermList.length);
      for (let e = 0; e < group.index.length; e++) {
        entryIndex.push(group.index[e]);
        entryValue.push(group.value[e]);
      }
      entryStartList.push(entryIndex.length);
    }
    groupStartList.push(termStartList.length - 1);
  });
  const groupStart = Int32Array.from(groupStartList);
  const termStart = Int32Array.from(termStartList);
  const groupTerms = Int32Array.from(groupTermList);
  const entryStart = Int32Array.from(entryStartList);
  const index = Int32Array.from(entryIndex);
  const value = Float64Array.from(entryValue);
  const patternTerms = patternCoders.map((coders) => coders.length + (coders.length * (coders.length - 1)) / 2);
  const coefStart = new Int32Array(patternCoders.length + 1);
  patternTerms.forEach((terms, pattern) => (coefStart[pattern + 1] = coefStart[pattern] + terms));
  const coef = new Float64Array(coefStart[patternCoders.length]);
  const live = new Uint8Array(patternCoders.length);

  // strata of items, and the blocks of each stratum
  const members: number[][] = Array.from({ length: strataCount }, () => []);
  itemIds.forEach((id, i) => {
    const s = stratumOf(id);
    if (!Number.isInteger(s) || s < 0 || s >= strataCount)
      throw new Error(`${fnName} requires stratum ids from 0 to ${strataCount - 1} (item ${id} has ${String(s)})`);
    members[s].push(i);
  });
  const stratumOfItem = new Int32Array(itemIds.length);
  members.forEach((items, s) => items.forEach((i) => (stratumOfItem[i] = s)));
  const blocksOf: Int32Array[] = members.map(() => new Int32Array(0));
  {
    const lists: number[][] = members.map(() => []);
    for (let b = 0; b < blockMeta.length; b++) lists[stratumOfItem[blockItem[b]]].push(b);
    lists.forEach((list, s) => (blocksOf[s] = Int32Array.from(list)));
  }
  const peopleOf = (strata: readonly number[]) => {
    const seen = new Set<number>();
    for (const s of strata) for (const b of blocksOf[s]) for (const c of patternCoders[blockPattern[b]]) if (!fixed.has(coderIds[c])) seen.add(c);
    return seen.size;
  };

  const itemWeight = new Float64Array(itemIds.length);
  const coderWeight = new Float64Array(coderIds.length);
  // each pattern's term coefficients under the coder weights (the item's weight multiplies them): coder p w_p (W - w_p) / N, pair w_p w_q / N
  const coefficients = () => {
    patternCoders.forEach((coders, pattern) => {
      const k = coders.length;
      let W = 0;
      let W2 = 0;
      for (let i = 0; i < k; i++) {
        const w = coderWeight[coders[i]];
        W += w;
        W2 += w * w;
      }
      live[pattern] = W * W - W2 > 0 ? 1 : 0;
      if (!live[pattern]) return;
      const N = (W * W - W2) / W;
      let t = coefStart[pattern];
      for (let i = 0; i < k; i++) {
        const w = coderWeight[coders[i]];
        coef[t++] = (w * (W - w)) / N;
      }
      for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) coef[t++] = (coderWeight[coders[i]] * coderWeight[coders[j]]) / N;
    });
  };
  const dims = layout.dims;
  const dense = dims <= 512;
  const allDims = Int32Array.from({ length: dense ? dims : 0 }, (_, d) => d);
  const denseSums = dense ? members.map(() => new Float64Array(dims)) : [];
  const filled = new Uint8Array(strataCount);
  const sparseSums = dense ? [] : members.map(() => new SparseSum(dims));
  const denseGroup = new Float64Array(dense ? dims : 0);
  const sparseGroup = dense ? null : new SparseSum(dims);
  const fill = (s: number) => {
    const list = blocksOf[s];
    const sparse = dense ? null : sparseSums[s];
    const sum = dense ? denseSums[s] : sparse!.sum;
    if (dense) sum.fill(0);
    else sparse!.clear();
    let any = 0;
    for (let x = 0; x < list.length; x++) {
      const b = list[x];
      const a = itemWeight[blockItem[b]];
      const pattern = blockPattern[b];
      if (a === 0 || !live[pattern]) continue;
      const c0 = coefStart[pattern];
      for (let g = groupStart[b]; g < groupStart[b + 1]; g++) {
        let c = 0;
        for (let t = termStart[g]; t < termStart[g + 1]; t++) c += coef[c0 + groupTerms[t]];
        if (c === 0) continue;
        const ca = a * c;
        const end = entryStart[g + 1];
        if (dense) for (let e = entryStart[g]; e < end; e++) sum[index[e]] += ca * value[e];
        else for (let e = entryStart[g]; e < end; e++) sparse!.add(index[e], ca * value[e]);
        any = 1;
      }
    }
    filled[s] = any;
  };
  const statistic = (sum: Float64Array, touchedDims: Int32Array, count: number) => {
    const v = layout.statistic(sum, touchedDims, count);
    return v === null || Number.isNaN(v) ? null : v;
  };
  const stratumValue = (s: number) =>
    !filled[s] ? null : dense ? statistic(denseSums[s], allDims, dims) : statistic(sparseSums[s].sum, sparseSums[s].touched, sparseSums[s].count);
  const groupValue = (group: readonly number[]) => {
    if (!group.some((s) => filled[s])) return null;
    if (dense) {
      denseGroup.fill(0);
      for (const s of group) {
        if (!filled[s]) continue;
        const sum = denseSums[s];
        for (let d = 0; d < dims; d++) denseGroup[d] += sum[d];
      }
      return statistic(denseGroup, allDims, dims);
    }
    sparseGroup!.clear();
    for (const s of group) if (filled[s]) sparseGroup!.addSum(sparseSums[s]);
    return statistic(sparseGroup!.sum, sparseGroup!.touched, sparseGroup!.count);
  };

  // the estimate: every weight 1
  itemWeight.fill(1);
  coderWeight.fill(1);
  coefficients();
  const estimates = members.map((_, s) => {
    fill(s);
    return stratumValue(s);
  });
  const groupEstimates = groups.map(groupValue);

  const strataReps = members.map(() => new Float64Array(resamples));
  const strataDefined = new Int32Array(strataCount);
  const groupReps = groups.map(() => new Float64Array(resamples));
  const groupDefined = new Int32Array(groups.length);
  const drawPeople = over === "people+items";
  const drawItems = options.drawItems !== false;
  for (let r = 0; r < resamples; r++) {
    if (drawItems) {
      itemWeight.fill(0);
      for (const ids of members) {
        const n = ids.length;
        for (let i = 0; i < n; i++) itemWeight[ids[randomInt(rng, n)]]++;
      }
    }
    if (drawPeople) {
      for (const c of drawable) coderWeight[c] = 0;
      const P = drawable.length;
      for (let i = 0; i < P; i++) coderWeight[drawable[randomInt(rng, P)]]++;
      coefficients();
    }
    for (let s = 0; s < strataCount; s++) {
      if (members[s].length === 0) continue;
      fill(s);
      const value = stratumValue(s);
      if (value !== null) strataReps[s][strataDefined[s]++] = value;
    }
    groups.forEach((group, g) => {
      const value = groupValue(group);
      if (value !== null) groupReps[g][groupDefined[g]++] = value;
    });
  }

  const finish = (estimate: number | null, reps: Float64Array, defined: number, items: number, people: number): PigeonholeAlphaBlock => {
    const base = { estimate, clusters: items, people, undefinedResamples: resamples - defined };
    if (estimate === null) return { ...base, ci: null, reason: "the statistic is undefined on the observed data" };
    if (drawItems && items < 2) return { ...base, ci: null, reason: "one item" };
    if (drawPeople && people < 2) return { ...base, ci: null, reason: "one person" };
    if (defined === 0) return { ...base, ci: null, reason: "the statistic was undefined on every resample" };
    const sorted = reps.slice(0, defined).sort();
    if (sorted[0] === sorted[defined - 1]) return { ...base, ci: null, reason: "no spread" };
    return { ...base, ci: percentileInterval(sorted, confidence) };
  };
  return {
    strata: members.map((items, s) => finish(estimates[s], strataReps[s], strataDefined[s], items.length, peopleOf([s]))),
    groups: groups.map((group, g) =>
      finish(
        groupEstimates[g],
        groupReps[g],
        groupDefined[g],
        group.reduce((sum, s) => sum + members[s].length, 0),
        peopleOf(group),
      ),
    ),
    resamples,
    confidence,
    over,
  };
}

/** The method as the dashboards name it. */
export function pigeonholeAlphaMethod(over: GeneraliseOver, resamples: number): string {
  return over === "people+items"
    ? `95% percentile pigeonhole bootstrap (Owen 2007): items and people drawn independently, ${resamples.toLocaleString("en-US")} resamples; copies of one person never paired`
    : `95% percentile bootstrap over items (these people taken as the population), ${resamples.toLocaleString("en-US")} resamples`;
}
