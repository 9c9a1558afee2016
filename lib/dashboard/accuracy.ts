import { LRUCache } from "lru-cache";
import { BOOTSTRAP_RESAMPLES, INTERVAL_COMPUTING } from "@/lib/dashboard/constants";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { additiveStratifiedBootstrap, stratifiedClusterBootstrap, type BlockInterval } from "@/lib/stats/stratified-bootstrap";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { clusteredWilsonInterval } from "@/lib/stats/clustered-wilson-interval";
import { aggregateScoredAnswers, getTaskModule } from "@/lib/tasks";
import type { MetricSpec, ScoredAnswer } from "@/lib/tasks/types";

/**
 * Accuracy with each kind's own metrics (ENACT: TA, a proportion, and PA, a micro-averaged
 * ratio) by kind x tag value, with 95% intervals that treat the item as the unit (several people
 * answering one item are not independent draws): Wilson with a design effect for proportions that
 * are a mean of a 0/1 per answer (lib/stats/clustered-wilson-interval.ts), a seeded percentile
 * bootstrap over items for everything else (with resamples = 0 the bootstrap's cells carry the
 * value and the reason "computing": a background job computes them, INLINE_INTERVALS_MAX_ANSWERS). A cell of one item has no interval ("one item"), nor
 * has a bootstrap whose every resample is the same value. Pure: the caller passes scored answers.
 *
 * The metrics come from the kind (aggregateScoredAnswers: aggregate(), or aggregateAnswers() for
 * kinds whose metrics need tags and who answered). What an interval may assume about a metric is
 * checked on the data, not taken on trust: a "proportion" gets a Wilson interval only when it
 * equals the mean of a 0/1 field of the scores (ENACT's TA = mean of `accepted`), and the
 * bootstrap uses sums of two fields when the metric equals their ratio (ENACT's PA = sum of
 * correctPairs / sum of L); otherwise the bootstrap recomputes the kind's own metric on every
 * resample, which assumes nothing but costs more.
 */

/** The column of a row that pools every tag value. */
export const ALL = "__all__";

export interface MetricCell {
  value: number | null;
  /** 95% interval, or null with a reason ("one item": one item's answers say nothing of the spread between items) */
  ci: [number, number] | null;
  /** "wilson": Wilson with a design effect for answers to the same item; "bootstrap": percentile bootstrap over items */
  interval: "wilson" | "bootstrap";
  reason?: string;
  /** items (clusters) behind the cell */
  items?: number;
  /** Wilson: the design effect used (1 = every item answered once, or no between-item spread) */
  deff?: number;
}

/** The reason a cell of one item has no interval. */
export const ONE_ITEM = "one item";
/** The reason a bootstrap over several items has no interval: every resample gives the same value. */
export const NO_SPREAD = "no spread: every item the same";

export interface AccuracyCell {
  /** scored answers in the cell */
  n: number;
  metrics: Record<string, MetricCell>;
}

export interface AccuracyRow {
  /** "humans" or a model run id */
  series: string;
  /** "Humans" or the model's name */
  label: string;
  kind: string;
  /** tag value (or ALL) -> cell; absent when the cell has no answers */
  cells: Record<string, AccuracyCell>;
}

export interface ScoredEntry {
  kind: string;
  tag: string | null;
  /** the item answered (answers to one item are resampled together); absent = each answer on its own */
  item?: number | string;
  /** the answer with what metrics may need (item tags, who answered) */
  row: ScoredAnswer;
}

export interface KindInfo {
  kind: string;
  title: string;
  benchmark: string;
  metrics: MetricSpec[];
}

export function kindInfo(kind: string): KindInfo {
  const taskModule = getTaskModule(kind);
  return { kind, title: taskModule.title, benchmark: taskModule.benchmark, metrics: taskModule.metrics };
}

/** The tag value of an entry as shown in a column ("—" for items without the tag). */
export const UNTAGGED = "—";

/** The same score field as a number: booleans count 1/0, other values are not numeric. */
function fieldValue(score: unknown, field: string): number | null {
  if (field === COUNT) return 1;
  const value = score && typeof score === "object" ? (score as Record<string, unknown>)[field] : undefined;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return null;
}

/** The denominator "one per answer". */
const COUNT = "(count)";

export type MetricShape = { kind: "ratio"; numerator: string; denominator: string } | null;

/**
 * Rows from which metricShape's random subsets are drawn at most: a ratio of sums holds on every
 * subset, so a few thousand rows test it as well as half a million, at a fixed cost (issue 21).
 */
const SHAPE_SUBSET_POOL = 4000;

/**
 * What metricShape reads of all the answers, whatever the metric: the kind's metrics over all of
 * them and the columns of the score fields numeric in every answer (null: none is). Kept per array
 * of answers, so that a kind's second metric reads them from here.
 */
interface ShapeInputs {
  aggregate: Record<string, number | null>;
  column: Map<string, Float64Array>;
  fields: string[];
}

const shapeInputsOf = new WeakMap<ScoredAnswer[], ShapeInputs | null>();

function shapeInputs(taskModule: ReturnType<typeof getTaskModule>, all: ScoredAnswer[]): ShapeInputs | null {
  if (shapeInputsOf.has(all)) return shapeInputsOf.get(all)!;
  let inputs: ShapeInputs | null = null;
  const first = all[0].score;
  if (first && typeof first === "object") {
    // columns of the fields that are numeric in every answer, read once
    const column = new Map<string, Float64Array>();
    for (const field of Object.keys(first)) {
      const values = new Float64Array(all.length);
      let numeric = true;
      for (let i = 0; i < all.length && numeric; i++) {
        const value = fieldValue(all[i].score, field);
        if (value === null) numeric = false;
        else values[i] = value;
      }
      if (numeric) column.set(field, values);
    }
    const fields = [...column.keys()];
    if (fields.length > 0) {
      column.set(COUNT, new Float64Array(all.length).fill(1));
      inputs = { aggregate: aggregateScoredAnswers(taskModule, all), column, fields };
    }
  }
  shapeInputsOf.set(all, inputs);
  return inputs;
}

/**
 * The metric as a ratio of sums of score fields, sum(numerator) / sum(denominator), where the
 * denominator may be the answer count (then it is a mean); checked on every group given and on
 * 16 seeded random subsets (relative tolerance 1e-9), null when no pair of fields reproduces it.
 * With more than SHAPE_SUBSET_POOL answers the subsets are drawn from a seeded sample of that
 * many. ENACT: TA = mean of `accepted`, PA = sum of `correctPairs` / sum of `L`.
 */
export function metricShape(kind: string, metricId: string, groups: ScoredAnswer[][]): MetricShape {
  const taskModule = getTaskModule(kind);
  const all = groups.length === 1 ? groups[0] : groups.flat();
  if (all.length === 0) return null;
  const inputs = shapeInputs(taskModule, all);
  if (!inputs) return null;
  const { column, fields } = inputs;
  const rng = mulberry32(seedFromString(`${kind}|${metricId}|shape check`));
  // subsets as positions in `all` (null: all of it); a group that is all of it is the same check
  const positions: Array<Int32Array | null> = [null];
  let offset = 0;
  for (const group of groups) {
    if (group.length > 0 && group.length < all.length) positions.push(Int32Array.from(group, (_, i) => offset + i));
    offset += group.length;
  }
  let pool: Int32Array | null = null;
  if (all.length > SHAPE_SUBSET_POOL) {
    pool = new Int32Array(SHAPE_SUBSET_POOL);
    for (let i = 0; i < SHAPE_SUBSET_POOL; i++) pool[i] = Math.floor(rng() * all.length);
  }
  for (let t = 0; t < 16 && all.length > 1; t++) {
    const subset: number[] = [];
    if (pool) {
      for (let i = 0; i < pool.length; i++) if (rng() < 0.3) subset.push(pool[i]);
    } else {
      for (let i = 0; i < all.length; i++) if (rng() < 0.3) subset.push(i);
    }
    if (subset.length > 0) positions.push(Int32Array.from(subset));
  }
  const expected = positions.map((subset) => (subset === null ? inputs.aggregate : aggregateScoredAnswers(taskModule, Array.from(subset, (p) => all[p])))[metricId] ?? null);
  // each field's sum over each subset, added in the subset's order
  const sums = new Map<string, Float64Array>();
  for (const [field, values] of column) {
    const out = new Float64Array(positions.length);
    positions.forEach((subset, i) => {
      let sum = 0;
      if (subset === null) for (let k = 0; k < values.length; k++) sum += values[k];
      else for (let k = 0; k < subset.length; k++) sum += values[subset[k]];
      out[i] = sum;
    });
    sums.set(field, out);
  }
  for (const denominator of [COUNT, ...fields]) {
    for (const numerator of fields) {
      if (numerator === denominator) continue;
      const num = sums.get(numerator)!;
      const den = sums.get(denominator)!;
      const fits = positions.every((_, i) => {
        const a = num[i];
        const b = den[i];
        const want = expected[i];
        if (want === null || !Number.isFinite(want)) return !(b > 0);
        return b > 0 && Math.abs(a / b - want) <= 1e-9 * Math.max(1, Math.abs(want));
      });
      if (fits) return { kind: "ratio", numerator, denominator };
    }
  }
  return null;
}

function isZeroOne(rows: ScoredAnswer[], field: string): boolean {
  return rows.every((row) => {
    const v = fieldValue(row.score, field);
    return v === 0 || v === 1;
  });
}

/**
 * Metric cells of a kind's scored answers, one cell per stratum (tag value) plus the pooled ALL
 * cell. Values: the kind's own metrics. Intervals (95%): Wilson with a design effect over items
 * for a proportion that is the mean of a 0/1 field over answers; otherwise a percentile bootstrap over items (an item's answers stay
 * together: they are not independent), resampled within each stratum, one pass giving every cell
 * and the ALL cell (a stratified bootstrap) its interval, seeded by `seedKey`.
 */
export function kindCells(
  kind: string,
  strata: Array<{ tag: string; items: ScoredAnswer[][] }>,
  seedKey: string,
  resamples = BOOTSTRAP_RESAMPLES,
  shapeOf: (metricId: string, cellRows: ScoredAnswer[][]) => MetricShape = (metricId, cellRows) => metricShape(kind, metricId, cellRows),
): Record<string, AccuracyCell> {
  const taskModule = getTaskModule(kind);
  const cellRows = strata.map((s) => concat(s.items));
  const allRows = strata.length === 1 ? cellRows[0] : concat(cellRows);
  const values = cellRows.map((rows) => aggregateScoredAnswers(taskModule, rows));
  const allValues = aggregateScoredAnswers(taskModule, allRows);
  const out: Record<string, AccuracyCell> = {};
  strata.forEach((s, i) => (out[s.tag] = { n: cellRows[i].length, metrics: {} }));
  const all: AccuracyCell = { n: allRows.length, metrics: {} };
  const clusters = concat(strata.map((s) => s.items));
  // clusters lie stratum after stratum: stratum i holds clusters clusterStart[i] .. clusterStart[i + 1] - 1
  const clusterStart = new Int32Array(strata.length + 1);
  strata.forEach((s, i) => (clusterStart[i + 1] = clusterStart[i] + s.items.length));
  const stratumOf = new Array<number>(clusters.length);
  strata.forEach((_, i) => stratumOf.fill(i, clusterStart[i], clusterStart[i + 1]));
  const undefinedCell = (interval: MetricCell["interval"]): MetricCell => ({ value: null, ci: null, interval, reason: "undefined for these answers" });

  for (const spec of taskModule.metrics) {
    const shape = shapeOf(spec.id, cellRows);
    if (spec.type === "proportion" && shape && shape.denominator === COUNT && isZeroOne(allRows, shape.numerator)) {
      // each item's successes and trials, once: a stratum's are a run of them
      const clusterCounts = clusters.map((answers) => {
        let successes = 0;
        for (const row of answers) successes += fieldValue(row.score, shape.numerator)!;
        return { successes, trials: answers.length };
      });
      const wilson = (counts: Array<{ successes: number; trials: number }>, value: number | null | undefined): MetricCell => {
        if (value === null || value === undefined || !Number.isFinite(value) || counts.every((c) => c.trials === 0)) return undefinedCell("wilson");
        const w = clusteredWilsonInterval(counts);
        if (!w.ci) return { value, ci: null, interval: "wilson", reason: ONE_ITEM, items: w.clusters };
        return { value, ci: w.ci, interval: "wilson", items: w.clusters, deff: w.deff ?? 1 };
      };
      strata.forEach((s, i) => (out[s.tag].metrics[spec.id] = wilson(clusterCounts.slice(clusterStart[i], clusterStart[i + 1]), values[i][spec.id])));
      all.metrics[spec.id] = wilson(clusterCounts, allValues[spec.id]);
      continue;
    }
    if (resamples === 0) {
      // the bootstrap is left to a background job (INLINE_INTERVALS_MAX_ANSWERS): the values now, the intervals "computing"
      const pending = (value: number | null | undefined, items: number): MetricCell => {
        if (value === null || value === undefined || !Number.isFinite(value)) return undefinedCell("bootstrap");
        return { value, ci: null, interval: "bootstrap", reason: items < 2 ? ONE_ITEM : INTERVAL_COMPUTING, items };
      };
      strata.forEach((s, i) => (out[s.tag].metrics[spec.id] = pending(values[i][spec.id], s.items.length)));
      all.metrics[spec.id] = pending(allValues[spec.id], clusters.length);
      continue;
    }
    const rng = mulberry32(seedFromString(`${seedKey}|${spec.id}`));
    const groups = [strata.map((_, i) => i)];
    let boot;
    if (shape) {
      // sums of numerator and denominator per item: the same resampling, without rebuilding lists
      const start = new Int32Array(clusters.length + 1);
      const index = new Int32Array(clusters.length * 2);
      const value = new Float64Array(clusters.length * 2);
      clusters.forEach((rows, c) => {
        let a = 0;
        let b = 0;
        for (const row of rows) {
          a += fieldValue(row.score, shape.numerator)!;
          b += fieldValue(row.score, shape.denominator)!;
        }
        index[2 * c + 1] = 1;
        value[2 * c] = a;
        value[2 * c + 1] = b;
        start[c + 1] = 2 * (c + 1);
      });
      boot = additiveStratifiedBootstrap({ dims: 2, start, index, value }, stratumOf, strata.length, groups, (sum) => (sum[1] > 0 ? sum[0] / sum[1] : null), rng, { resamples });
    } else {
      boot = stratifiedClusterBootstrap(clusters, stratumOf, strata.length, groups, (sample) => aggregateScoredAnswers(taskModule, sample)[spec.id] ?? null, rng, { resamples });
    }
    const cell = (value: number | null | undefined, interval: BlockInterval): MetricCell => {
      if (value === null || value === undefined || !Number.isFinite(value)) return undefinedCell("bootstrap");
      const items = interval.clusters;
      if (items < 2) return { value, ci: null, interval: "bootstrap", reason: ONE_ITEM, items };
      if (interval.ci && interval.ci[0] === interval.ci[1]) return { value, ci: null, interval: "bootstrap", reason: NO_SPREAD, items };
      return { value, ci: interval.ci, interval: "bootstrap", items, ...(interval.ci ? {} : { reason: interval.reason }) };
    };
    strata.forEach((s, i) => (out[s.tag].metrics[spec.id] = cell(values[i][spec.id], boot.strata[i])));
    all.metrics[spec.id] = cell(allValues[spec.id], boot.groups[0]);
  }
  out[ALL] = all;
  return out;
}

/** The lists one after another, in one array. */
function concat<T>(lists: ReadonlyArray<ReadonlyArray<T>>): T[] {
  let length = 0;
  for (const list of lists) length += list.length;
  const out = new Array<T>(length);
  let at = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) out[at++] = list[i];
  return out;
}

/** Metric cells of one group of answers (items as clusters), e.g. for a single table cell. */
export function metricCells(kind: string, items: ScoredAnswer[][], seedKey: string, resamples = BOOTSTRAP_RESAMPLES): AccuracyCell {
  return kindCells(kind, [{ tag: ALL, items }], seedKey, resamples)[ALL];
}

/**
 * Shapes checked on a kind's answers in one scope (the same answers whatever the tag that slices
 * them), by the caller's key: a re-slice by another tag does not check them again.
 */
const shapeCache = new LRUCache<string, { shape: MetricShape }>({ max: 256 });

/**
 * Rows (one per kind) of scored answers grouped by tag value, plus the pooled ALL column.
 * `shapeKey` names the answers (the data version and who answered): with it, each metric's shape
 * is checked once on all of the kind's answers in the order given, which does not depend on the
 * tag, and kept; without it, on the cells of this slicing.
 */
export function accuracyRows(entries: Iterable<ScoredEntry>, series: string, label: string, seedBase: string, resamples = BOOTSTRAP_RESAMPLES, shapeKey?: string): AccuracyRow[] {
  // kind -> tag -> item -> answers
  const byKind = new Map<string, Map<string, Map<number | string, ScoredAnswer[]>>>();
  const rowsOfKind = new Map<string, ScoredAnswer[]>();
  let anonymous = 0;
  let lastItem: number | string | undefined;
  let lastKind: string | undefined;
  let lastTag: string | null | undefined;
  let lastList: ScoredAnswer[] | undefined;
  for (const entry of entries) {
    if (shapeKey !== undefined) {
      const rows = rowsOfKind.get(entry.kind);
      if (rows) rows.push(entry.row);
      else rowsOfKind.set(entry.kind, [entry.row]);
    }
    // answers to one item usually come one after another (the snapshot's order): the last list, at once
    if (entry.item !== undefined && entry.item === lastItem && entry.kind === lastKind && entry.tag === lastTag) {
      lastList!.push(entry.row);
      continue;
    }
    let groups = byKind.get(entry.kind);
    if (!groups) byKind.set(entry.kind, (groups = new Map()));
    const key = entry.tag ?? UNTAGGED;
    let items = groups.get(key);
    if (!items) groups.set(key, (items = new Map()));
    const itemKey = entry.item ?? `answer-${anonymous++}`;
    let list = items.get(itemKey);
    if (list) list.push(entry.row);
    else items.set(itemKey, (list = [entry.row]));
    lastItem = entry.item;
    lastKind = entry.kind;
    lastTag = entry.tag;
    lastList = list;
  }
  const rows: AccuracyRow[] = [];
  for (const kind of [...byKind.keys()].sort()) {
    const groups = byKind.get(kind)!;
    const tags = [...groups.keys()].sort(compareTagValues);
    const strata = tags.map((tag) => ({ tag, items: [...groups.get(tag)!.values()] }));
    const shapeOf =
      shapeKey === undefined
        ? undefined
        : (metricId: string) => {
            const key = `${shapeKey}|${series}|${kind}|${metricId}`;
            let hit = shapeCache.get(key);
            if (!hit) shapeCache.set(key, (hit = { shape: metricShape(kind, metricId, [rowsOfKind.get(kind)!]) }));
            return hit.shape;
          };
    const cells = kindCells(kind, strata, `${seedBase}|${series}|${kind}`, resamples, shapeOf);
    if (tags.length === 1) cells[ALL] = cells[tags[0]];
    rows.push({ series, label, kind, cells });
  }
  return rows;
}

/** Every tag value that has a cell in any row, in display order (numbers first, numerically). */
export function tagColumns(rows: AccuracyRow[]): string[] {
  const values = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.cells)) if (key !== ALL) values.add(key);
  return [...values].sort(compareTagValues);
}
