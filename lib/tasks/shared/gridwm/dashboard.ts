import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";
import { spearmanCorrelation } from "@/lib/stats/spearman-correlation";
import { clusteredWilsonInterval } from "@/lib/stats/clustered-wilson-interval";
import { CONSISTENCY_DIMENSIONS, isNeutralProbe, summarizeJudgeAnswers, type ConsistencyDimension, type GridwmJudgeAnswer, type GridwmJudgeScore } from "@/lib/tasks/gridwm-judge";
import type { KindDashboard } from "@/lib/tasks/types";
import type { ScoredAnswer } from "@/lib/tasks/types";

/**
 * The GridWM-Judge section of a study's dashboard (../shared/benchmarks/gridwm-judge.md, "Metrics"):
 * per annotator and pooled Acc_A, Acc_B (exact and component) beside the share of readable fields
 * right and the Acc_B ceiling the frames allow (lib/tasks/gridwm-scene-json, sceneFieldReadability), JAcc_neu and JCR_temp / vis / frame
 * with Wilson 95% intervals that take the item as the unit (lib/stats/clustered-wilson-interval.ts:
 * answers to the same item by several people count with a design effect; complete probe families
 * for JCR, one family one unit; summarizeJudgeAnswers); one item (or family) gives no interval
 * ("one item"); flip rates (1 - JCR, the interval mirrored), the
 * near-random flag, and WMC: Pearson and Spearman correlation of Acc_A against each JCR across
 * annotators who did both Task A and Task C. Pure: rows in, numbers out.
 */

export const NEAR_RANDOM_ACC_A = 0.28;
export const NEAR_RANDOM_UPPER = 0.3;
/** WMC needs at least this many annotators with both numbers (two points always correlate ±1). */
export const WMC_MIN_ANNOTATORS = 3;

export interface CountMetric {
  value: number | null;
  successes: number;
  trials: number;
  ci: [number, number] | null;
  /** why there is no interval ("one item") */
  reason?: string;
  /** items (or probe families) behind the count */
  items: number;
  /** design effect of the interval (1: one answer per item, or no spread between items) */
  deff?: number;
}

export interface GridwmFigures {
  Acc_A: CountMetric;
  Acc_B: CountMetric;
  Acc_B_component: CountMetric;
  meanComponentScore: number | null;
  /** Task B: fields the item's frame shows that the answer got right, of all such fields (answers as the unit of clustering: items) */
  readableFields: CountMetric;
  /** Task B: items whose frame shows every field of the gold, the best Acc_B the frames allow */
  Acc_B_ceiling: CountMetric;
  Acc_C: CountMetric;
  JAcc_neu: CountMetric;
  JCR: Record<ConsistencyDimension, CountMetric>;
  /** 1 - JCR, its interval 1 - the JCR interval */
  flip: Record<ConsistencyDimension, CountMetric>;
  /** Acc_A <= 0.28 or its Wilson upper bound <= 0.30; null without Task A answers */
  nearRandom: boolean | null;
}

export interface WmcRow {
  dimension: ConsistencyDimension;
  /** annotators with Acc_A and this JCR */
  n: number;
  pearson: number | null;
  spearman: number | null;
}

export interface GridwmSection {
  pooled: GridwmFigures;
  annotators: Array<{ id: string; name: string; figures: GridwmFigures }>;
  wmc: WmcRow[];
}

export interface GridwmRow {
  kind: string;
  row: ScoredAnswer;
}

/** A share over answers clustered by item: one entry per answer, with its item. */
function itemMetric(answers: ReadonlyArray<{ item: string; ok: boolean }>): CountMetric {
  const byItem = new Map<string, { successes: number; trials: number }>();
  for (const { item, ok } of answers) {
    let cluster = byItem.get(item);
    if (!cluster) byItem.set(item, (cluster = { successes: 0, trials: 0 }));
    cluster.trials++;
    if (ok) cluster.successes++;
  }
  return fromClusters([...byItem.values()]);
}

function fromClusters(clusters: Array<{ successes: number; trials: number }>): CountMetric {
  const successes = clusters.reduce((sum, c) => sum + c.successes, 0);
  const trials = clusters.reduce((sum, c) => sum + c.trials, 0);
  if (trials === 0) return { value: null, successes, trials, ci: null, items: 0 };
  const w = clusteredWilsonInterval(clusters);
  return { value: successes / trials, successes, trials, ci: w.ci, items: w.clusters, ...(w.reason ? { reason: w.reason } : { deff: w.deff ?? 1 }) };
}

/** Families counted once each: `successes` of `trials` families, each its own unit. */
function familyMetric(successes: number, trials: number): CountMetric {
  return fromClusters(Array.from({ length: trials }, (_, i) => ({ successes: i < successes ? 1 : 0, trials: 1 })));
}

function flipOf(metric: CountMetric): CountMetric {
  return { ...metric, value: metric.value === null ? null : 1 - metric.value, successes: metric.trials - metric.successes, ci: metric.ci ? [1 - metric.ci[1], 1 - metric.ci[0]] : null };
}

const flag = (score: unknown, field: string): boolean => score !== null && typeof score === "object" && (score as Record<string, unknown>)[field] === true;

/** The figures of one set of answers (one annotator's, or everyone's). */
export function gridwmFigures(rows: readonly GridwmRow[]): GridwmFigures {
  const a = rows.filter((r) => r.kind === "gridwm-next-obs");
  const b = rows.filter((r) => r.kind === "gridwm-scene-json");
  const c = rows.filter((r) => r.kind === "gridwm-judge").map((r) => r.row as ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>);
  const Acc_A = itemMetric(a.map((r) => ({ item: r.row.itemId, ok: flag(r.row.score, "correct") })));
  const classified = b.map((r) => r.row.score as { readable?: { right: number; of: number }; ceiling?: { exact: boolean } }).map((score, i) => ({ item: b[i].row.itemId, score })).filter((entry) => entry.score.readable && entry.score.ceiling);
  const readableByItem = new Map<string, { successes: number; trials: number }>();
  for (const { item, score } of classified) {
    let cluster = readableByItem.get(item);
    if (!cluster) readableByItem.set(item, (cluster = { successes: 0, trials: 0 }));
    cluster.successes += score.readable!.right;
    cluster.trials += score.readable!.of;
  }
  const componentScores = b.map((r) => (r.row.score as { componentScore?: number }).componentScore).filter((v): v is number => typeof v === "number");
  const judge = summarizeJudgeAnswers(c);
  const JCR = Object.fromEntries(CONSISTENCY_DIMENSIONS.map((d) => [d, familyMetric(judge.families[d].consistent, judge.families[d].complete)])) as Record<ConsistencyDimension, CountMetric>;
  return {
    Acc_A,
    Acc_B: itemMetric(b.map((r) => ({ item: r.row.itemId, ok: flag(r.row.score, "exact") }))),
    Acc_B_component: itemMetric(b.map((r) => ({ item: r.row.itemId, ok: flag(r.row.score, "correct") }))),
    meanComponentScore: componentScores.length > 0 ? componentScores.reduce((s, v) => s + v, 0) / componentScores.length : null,
    readableFields: fromClusters([...readableByItem.values()]),
    Acc_B_ceiling: itemMetric(classified.map(({ item, score }) => ({ item, ok: score.ceiling!.exact }))),
    Acc_C: itemMetric(c.map((r) => ({ item: r.itemId, ok: r.score.correct }))),
    JAcc_neu: itemMetric(c.filter((r) => isNeutralProbe(r.tags)).map((r) => ({ item: r.itemId, ok: r.score.correct }))),
    JCR,
    flip: Object.fromEntries(CONSISTENCY_DIMENSIONS.map((d) => [d, flipOf(JCR[d])])) as Record<ConsistencyDimension, CountMetric>,
    nearRandom: Acc_A.value === null ? null : Acc_A.value <= NEAR_RANDOM_ACC_A || (Acc_A.ci !== null && Acc_A.ci[1] <= NEAR_RANDOM_UPPER),
  };
}

/** WMC across annotators: Acc_A against each JCR, over annotators who have both. */
export function worldModelConsistency(perAnnotator: ReadonlyArray<{ figures: GridwmFigures }>): WmcRow[] {
  return CONSISTENCY_DIMENSIONS.map((dimension) => {
    const pairs = perAnnotator.filter((a) => a.figures.Acc_A.value !== null && a.figures.JCR[dimension].value !== null).map((a) => [a.figures.Acc_A.value!, a.figures.JCR[dimension].value!] as const);
    if (pairs.length < WMC_MIN_ANNOTATORS) return { dimension, n: pairs.length, pearson: null, spearman: null };
    const x = pairs.map((p) => p[0]);
    const y = pairs.map((p) => p[1]);
    return { dimension, n: pairs.length, pearson: pearsonCorrelation(x, y), spearman: spearmanCorrelation(x, y) };
  });
}

/** The section for a study's answers; annotators in the given order (pseudonymous names). */
export function gridwmSection(rows: readonly GridwmRow[], annotators: ReadonlyArray<{ id: string; name: string }>): GridwmSection {
  const perAnnotator = annotators
    .map((annotator) => ({ ...annotator, rows: rows.filter((r) => r.row.annotator === annotator.id) }))
    .filter((a) => a.rows.length > 0)
    .map((a) => ({ id: a.id, name: a.name, figures: gridwmFigures(a.rows) }));
  return { pooled: gridwmFigures(rows), annotators: perAnnotator, wmc: worldModelConsistency(perAnnotator) };
}

/** The GridWM section of the study dashboard, shared by the three GridWM kinds. */
export const dashboard: KindDashboard = {
  section: "gridwm",
  load: async ({ version, snapshot, humanAnswers, memoize }) =>
    memoize(`${version}|gridwm`, () => gridwmSection(humanAnswers().filter((answer) => answer.kind.startsWith("gridwm-")), snapshot.annotators)),
};
