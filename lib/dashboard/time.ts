import { UNTAGGED } from "@/lib/dashboard/accuracy";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { flagFarFaster, quantileSorted } from "@/lib/stats/descriptive";
import { orderStatistics } from "@/lib/stats/order-statistics";

/**
 * Time per item: active and wall time by kind x tag value (median and interquartile range), the
 * distribution per annotator, and a flag on annotators far faster than the rest. Pure.
 */

export interface Spread {
  n: number;
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

const QUARTILES = [0.25, 0.5, 0.75];

export function spread(values: ArrayLike<number>): Spread | null {
  const n = values.length;
  if (n === 0) return null;
  // the sorted values only where the type-7 quartiles, min and max read them (a partial selection,
  // not a sort): the positions around 1 + p (n - 1), one either side for quantileSorted's fuzz
  const positions = [0, n - 1];
  for (const p of QUARTILES) {
    const j = Math.floor(1 + p * (n - 1)) - 1;
    for (let k = j - 1; k <= j + 1; k++) if (k >= 0 && k < n) positions.push(k);
  }
  const sorted: { length: number; [position: number]: number } = { length: n };
  for (const [k, value] of orderStatistics(values, positions)) sorted[k] = value;
  return {
    n,
    median: quantileSorted(sorted, 0.5),
    q1: quantileSorted(sorted, 0.25),
    q3: quantileSorted(sorted, 0.75),
    min: sorted[0],
    max: sorted[n - 1],
  };
}

export interface TimeEntry {
  kind: string;
  tag: string | null;
  annotator: number;
  activeMs: number;
  wallMs: number;
}

export interface TimeResult {
  cells: Array<{ kind: string; tag: string; active: Spread; wall: Spread }>;
  perAnnotator: Array<{
    annotator: number;
    active: Spread;
    wall: Spread;
    /** median over the annotator's answers of active time / the median active time of the answer's kind x tag cell */
    relativeSpeed: number;
    farFaster: boolean;
  }>;
  /** why nobody can be flagged, when so */
  flagNote?: string;
}

/** Answers' times as columns: each answer's cell (kind x tag value) an index into `cells`. */
export interface TimeColumns {
  count: number;
  cell: ArrayLike<number>;
  cells: ReadonlyArray<{ kind: string; tag: string | null }>;
  annotator: ArrayLike<number>;
  activeMs: ArrayLike<number>;
  wallMs: ArrayLike<number>;
}

/** The values of each group, in answer order: `groupOf[r]` is answer r's group. */
function valuesByGroup(groupOf: Int32Array, groups: number, values: ArrayLike<number>): Float64Array[] {
  const sizes = new Int32Array(groups);
  for (let r = 0; r < groupOf.length; r++) sizes[groupOf[r]]++;
  const out = Array.from(sizes, (size) => new Float64Array(size));
  const fill = new Int32Array(groups);
  for (let r = 0; r < groupOf.length; r++) {
    const g = groupOf[r];
    out[g][fill[g]++] = values[r];
  }
  return out;
}

/** The largest time relative to the cell's median that the far-faster flag may mark. */
export const FAR_FASTER_MAX_RATIO = 0.5;

/** computeTime of answers given one object each (tests, small lists): each its own cell, merged by name. */
export function computeTime(entries: TimeEntry[]): TimeResult {
  return computeTimeColumns({
    count: entries.length,
    cell: entries.map((_, i) => i),
    cells: entries.map((e) => ({ kind: e.kind, tag: e.tag })),
    annotator: entries.map((e) => e.annotator),
    activeMs: entries.map((e) => e.activeMs),
    wallMs: entries.map((e) => e.wallMs),
  });
}

/**
 * Annotators are compared on relative time, not raw time: each answer's active time is divided by
 * the median of its kind x tag cell (longer orderings take longer), and an annotator's figure is
 * the median of those ratios. The far-faster flag is lib/stats' modified z-score on the log of
 * these figures (Iglewicz & Hoaglin), which needs at least 3 annotators.
 */
export function computeTimeColumns(columns: TimeColumns): TimeResult {
  const { count } = columns;
  // cells named alike (one per item, say; an untagged answer and one tagged "—") are one cell
  // (a kind id never holds U+0000: the key is unambiguous)
  const cellIndex = new Map<string, number>();
  const cellNames: Array<{ kind: string; tag: string }> = [];
  const mergedCell = Int32Array.from({ length: columns.cells.length }, (_, c) => {
    const kind = columns.cells[c].kind;
    const tag = columns.cells[c].tag ?? UNTAGGED;
    const key = `${kind}\u0000${tag}`;
    let at = cellIndex.get(key);
    if (at === undefined) {
      cellIndex.set(key, (at = cellNames.length));
      cellNames.push({ kind, tag });
    }
    return at;
  });
  const cellOf = new Int32Array(count);
  for (let r = 0; r < count; r++) cellOf[r] = mergedCell[columns.cell[r]];
  // annotators in number order, each answer's place among them
  const seen = new Set<number>();
  for (let r = 0; r < count; r++) seen.add(columns.annotator[r]);
  const annotators = [...seen].sort((a, b) => a - b);
  const annotatorIndex = new Map(annotators.map((a, i) => [a, i]));
  const annotatorOf = new Int32Array(count);
  for (let r = 0; r < count; r++) annotatorOf[r] = annotatorIndex.get(columns.annotator[r])!;

  const cellActive = valuesByGroup(cellOf, cellNames.length, columns.activeMs);
  const cellWall = valuesByGroup(cellOf, cellNames.length, columns.wallMs);
  const medians = new Float64Array(cellNames.length);
  // a cell no answer is in (an item without answers) is not shown
  const cells = cellNames
    .flatMap((name, c) => {
      const active = spread(cellActive[c]);
      if (!active) return [];
      medians[c] = active.median;
      return [{ kind: name.kind, tag: name.tag, active, wall: spread(cellWall[c])! }];
    })
    .sort((a, b) => a.kind.localeCompare(b.kind) || compareTagValues(a.tag, b.tag));
  // a zero active time (or median) would break the log scale: floor both at 1 ms
  const ratio = new Float64Array(count);
  for (let r = 0; r < count; r++) ratio[r] = Math.max(columns.activeMs[r], 1) / Math.max(medians[cellOf[r]], 1);
  const ratios = valuesByGroup(annotatorOf, annotators.length, ratio);
  const active = valuesByGroup(annotatorOf, annotators.length, columns.activeMs);
  const wall = valuesByGroup(annotatorOf, annotators.length, columns.wallMs);
  const relative = annotators.map((_, i) => spread(ratios[i])!.median);
  let flags = annotators.map(() => false);
  let flagNote: string | undefined;
  // an outlier by the robust z-score AND at most half the typical time: among few people whose
  // times nearly agree the spread is tiny, and a gap of x0.87 would otherwise read as speeding
  if (annotators.length >= 3) flags = flagFarFaster(relative).flags.map((flag, i) => flag && relative[i] <= FAR_FASTER_MAX_RATIO);
  else flagNote = "Flagging needs at least 3 annotators.";
  return {
    cells,
    perAnnotator: annotators.map((annotator, i) => ({
      annotator,
      active: spread(active[i])!,
      wall: spread(wall[i])!,
      relativeSpeed: relative[i],
      farFaster: flags[i],
    })),
    ...(flagNote ? { flagNote } : {}),
  };
}
