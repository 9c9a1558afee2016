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

/**
 * Annotators are compared on relative time, not raw time: each answer's active time is divided by
 * the median of its kind x tag cell (longer orderings take longer), and an annotator's figure is
 * the median of those ratios. The far-faster flag is lib/stats' modified z-score on the log of
 * these figures (Iglewicz & Hoaglin), which needs at least 3 annotators.
 */
export function computeTime(entries: TimeEntry[]): TimeResult {
  type Cell = { kind: string; tag: string; active: number[]; wall: number[]; median: number };
  const byKind = new Map<string, Map<string, Cell>>();
  const byAnnotator = new Map<number, { active: number[]; wall: number[] }>();
  // each entry's cell, for the second pass
  const cellOf: Cell[] = new Array(entries.length);
  entries.forEach((e, i) => {
    const tag = e.tag ?? UNTAGGED;
    let tags = byKind.get(e.kind);
    if (!tags) byKind.set(e.kind, (tags = new Map()));
    let cell = tags.get(tag);
    if (!cell) tags.set(tag, (cell = { kind: e.kind, tag, active: [], wall: [], median: 0 }));
    cellOf[i] = cell;
    cell.active.push(e.activeMs);
    cell.wall.push(e.wallMs);
    let a = byAnnotator.get(e.annotator);
    if (!a) byAnnotator.set(e.annotator, (a = { active: [], wall: [] }));
    a.active.push(e.activeMs);
    a.wall.push(e.wallMs);
  });
  const sortedCells = [...byKind.values()].flatMap((tags) => [...tags.values()]).sort((a, b) => a.kind.localeCompare(b.kind) || compareTagValues(a.tag, b.tag));
  const cells = sortedCells.map((c) => {
    const active = spread(c.active)!;
    c.median = active.median;
    return { kind: c.kind, tag: c.tag, active, wall: spread(c.wall)! };
  });
  const ratios = new Map<number, number[]>();
  entries.forEach((e, i) => {
    const median = cellOf[i].median;
    let list = ratios.get(e.annotator);
    if (!list) ratios.set(e.annotator, (list = []));
    // a zero active time (or median) would break the log scale: floor both at 1 ms
    list.push(Math.max(e.activeMs, 1) / Math.max(median, 1));
  });
  const annotators = [...byAnnotator.keys()].sort((a, b) => a - b);
  const relative = annotators.map((a) => spread(ratios.get(a)!)!.median);
  let flags = annotators.map(() => false);
  let flagNote: string | undefined;
  if (annotators.length >= 3) flags = flagFarFaster(relative).flags;
  else flagNote = "Flagging needs at least 3 annotators.";
  return {
    cells,
    perAnnotator: annotators.map((annotator, i) => ({
      annotator,
      active: spread(byAnnotator.get(annotator)!.active)!,
      wall: spread(byAnnotator.get(annotator)!.wall)!,
      relativeSpeed: relative[i],
      farFaster: flags[i],
    })),
    ...(flagNote ? { flagNote } : {}),
  };
}
