import { LRUCache } from "lru-cache";
import { BOOTSTRAP_RESAMPLES, INTERVAL_COMPUTING } from "@/lib/dashboard/constants";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { crossedIndexes, expandByWeights, pigeonholeBootstrap } from "@/lib/stats/pigeonhole-bootstrap";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { twoWayRangeInterval, type CrossedColumns } from "@/lib/stats/two-way-cluster-variance";
import { aggregateScoredAnswers, getTaskModule } from "@/lib/tasks";
import type { KindDashboardWords, MetricSpec, ScoredAnswer } from "@/lib/tasks/types";

/**
 * Accuracy with each kind's own metrics (ENACT: TA, a proportion, and PA, a micro-averaged
 * ratio) by kind x tag value, with 95% intervals that generalise over the people and the items
 * (both are samples: two people answering one item are not independent draws, nor are two answers
 * of one person), or over the items alone when the study takes its people as the population
 * (the study setting "generalise over"): the two-way cluster-robust variance of a metric that is a
 * ratio of sums of score fields (lib/stats/two-way-cluster-variance.ts; Wilson at the effective n
 * for a proportion of a 0/1 field, normal otherwise), a seeded pigeonhole bootstrap
 * (lib/stats/pigeonhole-bootstrap.ts) of the kind's own metric for everything else (with
 * resamples = 0 the bootstrap's cells carry the value and the reason "computing": a background job
 * computes them, INLINE_INTERVALS_MAX_ANSWERS). A cell of one item or one person has no interval
 * and says so ("one item", "one person"), nor has a figure whose every resample is the same value.
 * Pure: the caller passes scored answers.
 *
 * The metrics come from the kind (aggregateScoredAnswers: aggregate(), or aggregateAnswers() for
 * kinds whose metrics need tags and who answered). What an interval may assume about a metric is
 * checked on the data, not taken on trust: a metric gets the closed form only when it equals the
 * ratio of sums of two score fields on the data (ENACT's TA = mean of `accepted`, PA = sum of
 * correctPairs / sum of L), and Wilson only when that is a mean of a 0/1 field; otherwise the
 * bootstrap recomputes the kind's own metric on every replicate, which assumes nothing but costs
 * more.
 */

/** The column of a row that pools every tag value. */
export const ALL = "__all__";

export interface MetricCell {
  value: number | null;
  /** 95% interval, or null with a reason ("one item", "one person": one of either says nothing of the spread between them) */
  ci: [number, number] | null;
  /**
   * "wilson": Wilson at the effective n p(1-p)/V of the two-way variance V; "two-way": normal with
   * that variance (a ratio or mean); "bootstrap": pigeonhole bootstrap of the kind's own metric
   */
  interval: "wilson" | "two-way" | "bootstrap";
  reason?: string;
  /** items behind the cell */
  items?: number;
  /** people (distinct annotators) behind the cell */
  people?: number;
  /** Wilson: the effective number of answers, p(1-p)/V */
  effectiveN?: number;
  /** Wilson: answers / effective n (1 = as many independent answers) */
  deff?: number;
}

/** The reason a cell of one item has no interval. */
export const ONE_ITEM = "one item";
/** The reason a cell of one person's answers has no interval over people. */
export const ONE_PERSON = "one person";
/** The reason a bootstrap over several items has no interval: every resample gives the same value. */
export const NO_SPREAD = "no spread: every item the same";

export interface AccuracyCell {
  /** answers in the cell */
  n: number;
  /**
   * answers among them without a correctness (the kind's correct() is null: an item without a key,
   * an answer not graded yet), which the kind's metrics leave out; absent when there are none
   */
  withoutCorrectness?: number;
  metrics: Record<string, MetricCell>;
}

export interface AccuracyRow {
  /** "humans" or a model run id */
  series: string;
  /** "Humans" or the model's name */
  label: string;
  kind: string;
  /**
   * The study condition of the row's answers (KindConditions; absent: none): a kind's answers are
   * shown a row per condition, never pooled across conditions (ESI-Bench's table has a column each)
   */
  condition?: string;
  /** the condition in the kind's words */
  conditionLabel?: string;
  /** tag value (or ALL) -> cell; absent when the cell has no answers */
  cells: Record<string, AccuracyCell>;
}

export interface ScoredEntry {
  kind: string;
  tag: string | null;
  /** the study condition the answer counts under (KindConditions); absent or null: none */
  condition?: string | null;
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
  /** the kind's own words on shared cards (absent: neutral ones) */
  words?: KindDashboardWords;
}

export function kindInfo(kind: string): KindInfo {
  const taskModule = getTaskModule(kind);
  return {
    kind,
    title: taskModule.title,
    benchmark: taskModule.benchmark,
    metrics: taskModule.metrics,
    ...(taskModule.dashboardWords ? { words: taskModule.dashboardWords } : {}),
  };
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
 * subset, so a few thousand rows test it as well as half a million, at a fixed cost.
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
  const expected = positions.map(
    (subset) =>
      (subset === null
        ? inputs.aggregate
        : aggregateScoredAnswers(
            taskModule,
            Array.from(subset, (p) => all[p]),
          ))[metricId] ?? null,
  );
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
 * cell. Values: the kind's own metrics. Intervals (95%), over people and items (`over`
 * "people+items": both are samples) or over items alone ("items": these people are the
 * population): a metric that is a ratio of sums of score fields (a mean when the denominator is
 * one per answer) gets the two-way cluster-robust variance of that ratio, Wilson's interval at the
 * effective n for a proportion of a 0/1 field, a normal one otherwise; any other metric a
 * pigeonhole bootstrap that recomputes the kind's own metric on every replicate (people and items
 * drawn independently), seeded by `seedKey` and the stratum. Who answered is the row's
 * `annotator` (rows without one are one anonymous judge).
 */
export function kindCells(
  kind: string,
  strata: Array<{ tag: string; items: ScoredAnswer[][] }>,
  seedKey: string,
  resamples = BOOTSTRAP_RESAMPLES,
  shapeOf: (metricId: string, cellRows: ScoredAnswer[][]) => MetricShape = (metricId, cellRows) => metricShape(kind, metricId, cellRows),
  over: GeneraliseOver = "people+items",
): Record<string, AccuracyCell> {
  const taskModule = getTaskModule(kind);
  const cellRows = strata.map((s) => concat(s.items));
  const allRows = strata.length === 1 ? cellRows[0] : concat(cellRows);
  const values = cellRows.map((rows) => aggregateScoredAnswers(taskModule, rows));
  const allValues = aggregateScoredAnswers(taskModule, allRows);
  const out: Record<string, AccuracyCell> = {};
  // the answers the metrics leave out for want of a correctness, counted beside N
  const unknown = cellRows.map((rows) => rows.reduce((sum, row) => sum + (taskModule.correct(row.score) === null ? 1 : 0), 0));
  const unknownAll = unknown.reduce((sum, k) => sum + k, 0);
  strata.forEach((s, i) => (out[s.tag] = { n: cellRows[i].length, ...(unknown[i] > 0 ? { withoutCorrectness: unknown[i] } : {}), metrics: {} }));
  const all: AccuracyCell = { n: allRows.length, ...(unknownAll > 0 ? { withoutCorrectness: unknownAll } : {}), metrics: {} };
  const undefinedCell = (interval: MetricCell["interval"]): MetricCell => ({ value: null, ci: null, interval, reason: "undefined for these answers" });
  const finite = (value: number | null | undefined): value is number => value !== null && value !== undefined && Number.isFinite(value);
  // every answer's item (its cluster's index, unique across strata) and person, once
  const itemOf: number[][] = [];
  const personOf: string[][] = [];
  let cluster = 0;
  for (const s of strata) {
    const items: number[] = [];
    const people: string[] = [];
    for (const answers of s.items) {
      for (const row of answers) {
        items.push(cluster);
        people.push(personKey(row));
      }
      cluster++;
    }
    itemOf.push(items);
    personOf.push(people);
  }
  const allCount = allRows.length;
  const offset = new Int32Array(strata.length + 1);
  cellRows.forEach((rows, i) => (offset[i + 1] = offset[i] + rows.length));
  const personIds = new Map<string, number>();
  const itemIndex = new Int32Array(allCount);
  const personIndex = new Int32Array(allCount);
  itemOf.forEach((items, i) =>
    items.forEach((item, a) => {
      const key = personOf[i][a];
      let id = personIds.get(key);
      if (id === undefined) personIds.set(key, (id = personIds.size));
      itemIndex[offset[i] + a] = item;
      personIndex[offset[i] + a] = id;
    }),
  );

  for (const spec of taskModule.metrics) {
    const shape = shapeOf(spec.id, cellRows);
    if (shape) {
      const proportion = spec.type === "proportion" && shape.denominator === COUNT && isZeroOne(allRows, shape.numerator);
      const interval: MetricCell["interval"] = proportion ? "wilson" : "two-way";
      // every answer's item, person and fields as columns, stratum after stratum: stratum i is answers offset[i] .. offset[i + 1] - 1
      const columns: CrossedColumns = {
        item: itemIndex,
        person: personIndex,
        items: cluster,
        people: personIds.size,
        num: new Float64Array(allCount),
        den: shape.denominator === COUNT ? null : new Float64Array(allCount),
      };
      cellRows.forEach((rows, i) =>
        rows.forEach((row, a) => {
          columns.num[offset[i] + a] = fieldValue(row.score, shape.numerator)!;
          if (columns.den) columns.den[offset[i] + a] = fieldValue(row.score, shape.denominator)!;
        }),
      );
      const twoWay = (start: number, end: number, value: number | null | undefined): MetricCell => {
        if (!finite(value) || end === start) return undefinedCell(interval);
        const result = twoWayRangeInterval(columns, start, end, over, proportion);
        const counts = { items: result.items, people: result.people };
        if (!result.ci) return { value, ci: null, interval, reason: result.reason ?? ONE_ITEM, ...counts };
        if (!proportion) result.ci = withinAnswersRange(result.ci, columns, start, end);
        if (result.ci[0] === result.ci[1]) return { value, ci: null, interval, reason: NO_SPREAD, ...counts };
        return {
          value,
          ci: result.ci,
          interval,
          ...counts,
          ...(result.effectiveN !== undefined ? { effectiveN: result.effectiveN, deff: result.answers / result.effectiveN } : {}),
        };
      };
      strata.forEach((s, i) => (out[s.tag].metrics[spec.id] = twoWay(offset[i], offset[i + 1], values[i][spec.id])));
      all.metrics[spec.id] = strata.length === 1 ? out[strata[0].tag].metrics[spec.id] : twoWay(0, allCount, allValues[spec.id]);
      continue;
    }
    const peopleIn = (i: number | null) => new Set(i === null ? personOf.flat() : personOf[i]).size;
    const itemsIn = (i: number | null) => (i === null ? cluster : strata[i].items.length);
    if (resamples === 0) {
      // the bootstrap is left to a background job (INLINE_INTERVALS_MAX_ANSWERS): the values now, the intervals "computing"
      const pending = (value: number | null | undefined, i: number | null): MetricCell => {
        if (!finite(value)) return undefinedCell("bootstrap");
        const items = itemsIn(i);
        const people = peopleIn(i);
        const reason = items < 2 ? ONE_ITEM : over === "people+items" && people < 2 ? ONE_PERSON : INTERVAL_COMPUTING;
        return { value, ci: null, interval: "bootstrap", reason, items, people };
      };
      strata.forEach((s, i) => (out[s.tag].metrics[spec.id] = pending(values[i][spec.id], i)));
      all.metrics[spec.id] = strata.length === 1 ? out[strata[0].tag].metrics[spec.id] : pending(allValues[spec.id], null);
      continue;
    }
    const boot = (rows: ScoredAnswer[], items: number[], people: string[], value: number | null | undefined, seed: string): MetricCell => {
      if (!finite(value)) return undefinedCell("bootstrap");
      const input = crossedIndexes(
        Array.from(rows, (_, a) => a),
        (a) => items[a],
        (a) => people[a],
      );
      const result = pigeonholeBootstrap(
        input,
        (weights) => aggregateScoredAnswers(taskModule, expandByWeights(rows, weights))[spec.id] ?? null,
        mulberry32(seedFromString(seed)),
        { resamples, over },
      );
      const counts = { items: input.items, people: input.people };
      if (!result.ci)
        return { value, ci: null, interval: "bootstrap", reason: result.reason === "no spread" ? NO_SPREAD : (result.reason ?? ONE_ITEM), ...counts };
      if (result.ci[0] === result.ci[1]) return { value, ci: null, interval: "bootstrap", reason: NO_SPREAD, ...counts };
      return { value, ci: result.ci, interval: "bootstrap", ...counts };
    };
    strata.forEach((s, i) => (out[s.tag].metrics[spec.id] = boot(cellRows[i], itemOf[i], personOf[i], values[i][spec.id], `${seedKey}|${spec.id}|${s.tag}`)));
    all.metrics[spec.id] =
      strata.length === 1
        ? out[strata[0].tag].metrics[spec.id]
        : boot(allRows, concat(itemOf), concat(personOf), allValues[spec.id], `${seedKey}|${spec.id}|${ALL}`);
  }
  out[ALL] = all;
  return out;
}

/**
 * A t interval cut to the range of the answers' own ratios (num / den): a ratio of sums never
 * leaves it (PA stays within [0, 1]), so bounds past it say nothing.
 */
function withinAnswersRange(ci: [number, number], columns: CrossedColumns, start: number, end: number): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  for (let a = start; a < end; a++) {
    const den = columns.den ? columns.den[a] : 1;
    if (!(den > 0)) continue;
    const r = columns.num[a] / den;
    if (r < low) low = r;
    if (r > high) high = r;
  }
  return low <= high ? [Math.max(low, ci[0]), Math.min(high, ci[1])] : ci;
}

/** Who gave an answer, as a cluster key: rows without an annotator are one anonymous judge (an answers file, a model run). */
function personKey(row: ScoredAnswer): string {
  return row.annotator ?? "";
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
export function metricCells(
  kind: string,
  items: ScoredAnswer[][],
  seedKey: string,
  resamples = BOOTSTRAP_RESAMPLES,
  over: GeneraliseOver = "people+items",
): AccuracyCell {
  return kindCells(kind, [{ tag: ALL, items }], seedKey, resamples, undefined, over)[ALL];
}

/**
 * Shapes checked on a kind's answers in one scope (the same answers whatever the tag that slices
 * them), by the caller's key: a re-slice by another tag does not check them again.
 */
const shapeCache = new LRUCache<string, { shape: MetricShape }>({ max: 256 });

/** The condition an answer counts under, from its assignment's (the kind's KindConditions.ofAssignment; as it is for other kinds). */
export function answerCondition(kind: string, assigned: string | null): string | null {
  const conditions = getTaskModule(kind).conditions;
  return conditions ? conditions.ofAssignment(assigned) : assigned;
}

/**
 * The condition of a model's answer: a model agent's, from its assignment (`condition` present), as
 * a person's; an imported prediction's, from the kind (its answer or its run's name), else none.
 */
export function modelAnswerCondition(kind: string, prediction: { answer: unknown; condition?: string | null }, runName: string): string | null {
  if (prediction.condition !== undefined) return answerCondition(kind, prediction.condition);
  return getTaskModule(kind).conditions?.ofPrediction(prediction.answer, runName) ?? null;
}

/** The study condition of an entry as a map key ("" for none). */
const conditionKey = (condition: string | null | undefined): string => condition ?? "";

/**
 * A kind's conditions in its table's order (the kind's compare, else alphabetical), answers without
 * one first; `keys` as conditionKey gives them.
 */
export function orderConditions(kind: string, keys: Iterable<string>): string[] {
  const compare = getTaskModule(kind).conditions?.compare ?? ((a: string, b: string) => a.localeCompare(b));
  return [...keys].sort((a, b) => (a === "" ? -1 : b === "" ? 1 : compare(a, b)));
}

/** The fields a row of this kind and condition key carries (none without a condition). */
export function conditionFields(kind: string, key: string): Pick<AccuracyRow, "condition" | "conditionLabel"> {
  if (key === "") return {};
  return { condition: key, conditionLabel: getTaskModule(kind).conditions?.label(key) ?? key };
}

/**
 * Rows (one per kind and study condition) of scored answers grouped by tag value, plus the pooled
 * ALL column. `shapeKey` names the answers (the data version and who answered): with it, each
 * metric's shape is checked once on all of the kind's answers in the order given, which does not
 * depend on the tag, and kept; without it, on the cells of this slicing. A kind's answers under
 * different conditions are rows of their own (seeded apart): pooling them would mix the
 * experiment's arms.
 */
export function accuracyRows(
  entries: Iterable<ScoredEntry>,
  series: string,
  label: string,
  seedBase: string,
  resamples = BOOTSTRAP_RESAMPLES,
  shapeKey?: string,
  over: GeneraliseOver = "people+items",
): AccuracyRow[] {
  // kind -> condition -> tag -> item -> answers
  const byKind = new Map<string, Map<string, Map<string, Map<number | string, ScoredAnswer[]>>>>();
  const rowsOfKind = new Map<string, ScoredAnswer[]>();
  let anonymous = 0;
  let lastItem: number | string | undefined;
  let lastKind: string | undefined;
  let lastTag: string | null | undefined;
  let lastCondition: string | undefined;
  let lastList: ScoredAnswer[] | undefined;
  for (const entry of entries) {
    if (shapeKey !== undefined) {
      const rows = rowsOfKind.get(entry.kind);
      if (rows) rows.push(entry.row);
      else rowsOfKind.set(entry.kind, [entry.row]);
    }
    const condition = conditionKey(entry.condition);
    // answers to one item usually come one after another (the snapshot's order): the last list, at once
    if (entry.item !== undefined && entry.item === lastItem && entry.kind === lastKind && entry.tag === lastTag && condition === lastCondition) {
      lastList!.push(entry.row);
      continue;
    }
    let byCondition = byKind.get(entry.kind);
    if (!byCondition) byKind.set(entry.kind, (byCondition = new Map()));
    let groups = byCondition.get(condition);
    if (!groups) byCondition.set(condition, (groups = new Map()));
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
    lastCondition = condition;
    lastList = list;
  }
  const rows: AccuracyRow[] = [];
  for (const kind of [...byKind.keys()].sort()) {
    const byCondition = byKind.get(kind)!;
    const shapeOf =
      shapeKey === undefined
        ? undefined
        : (metricId: string) => {
            const key = `${shapeKey}|${series}|${kind}|${metricId}`;
            let hit = shapeCache.get(key);
            if (!hit) shapeCache.set(key, (hit = { shape: metricShape(kind, metricId, [rowsOfKind.get(kind)!]) }));
            return hit.shape;
          };
    for (const condition of orderConditions(kind, byCondition.keys())) {
      const groups = byCondition.get(condition)!;
      const tags = [...groups.keys()].sort(compareTagValues);
      const strata = tags.map((tag) => ({ tag, items: [...groups.get(tag)!.values()] }));
      const seed = `${seedBase}|${series}|${kind}${condition === "" ? "" : `|${condition}`}`;
      const cells = kindCells(kind, strata, seed, resamples, shapeOf, over);
      if (tags.length === 1) cells[ALL] = cells[tags[0]];
      rows.push({ series, label, kind, ...conditionFields(kind, condition), cells });
    }
  }
  return rows;
}

/** Every tag value that has a cell in any row, in display order (numbers first, numerically). */
export function tagColumns(rows: AccuracyRow[]): string[] {
  const values = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.cells)) if (key !== ALL) values.add(key);
  return [...values].sort(compareTagValues);
}

/**
 * The conditions, in words, that the people's rows of the table keep apart (one row each): the
 * figures that pool every answer of a person (calibration, per-annotator accuracy) say they pool these.
 */
export function pooledConditionLabels(rows: readonly AccuracyRow[]): string[] {
  return [...new Set(rows.flatMap((row) => (row.series === "humans" && row.condition !== undefined ? [row.conditionLabel ?? row.condition] : [])))];
}
