import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";
import { spearmanCorrelation } from "@/lib/stats/spearman-correlation";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { CONSISTENCY_DIMENSIONS, summarizeJudgeAnswers, type ConsistencyDimension, type GridwmJudgeAnswer, type GridwmJudgeScore } from "@/lib/tasks/gridwm-judge";
import type { ScoredAnswer } from "@/lib/tasks/types";

/**
 * The GridWM-Judge section of a study's dashboard (../shared/benchmarks/gridwm-judge.md, "Metrics"):
 * per annotator and pooled Acc_A, Acc_B (exact and component), JAcc_neu and JCR_temp / vis / frame
 * with Wilson 95% intervals sized from the counts behind each (answers for accuracies, complete
 * probe families for JCR; summarizeJudgeAnswers), flip rates (1 - JCR, the interval mirrored), the
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
}

export interface GridwmFigures {
  Acc_A: CountMetric;
  Acc_B: CountMetric;
  Acc_B_component: CountMetric;
  meanComponentScore: number | null;
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

function countMetric(successes: number, trials: number): CountMetric {
  if (trials === 0) return { value: null, successes, trials, ci: null };
  const w = wilsonInterval(successes, trials);
  return { value: successes / trials, successes, trials, ci: [w.lower, w.upper] };
}

function flipOf(metric: CountMetric): CountMetric {
  return { value: metric.value === null ? null : 1 - metric.value, successes: metric.trials - metric.successes, trials: metric.trials, ci: metric.ci ? [1 - metric.ci[1], 1 - metric.ci[0]] : null };
}

const flag = (score: unknown, field: string): boolean => score !== null && typeof score === "object" && (score as Record<string, unknown>)[field] === true;

/** The figures of one set of answers (one annotator's, or everyone's). */
export function gridwmFigures(rows: readonly GridwmRow[]): GridwmFigures {
  const a = rows.filter((r) => r.kind === "gridwm-next-obs");
  const b = rows.filter((r) => r.kind === "gridwm-scene-json");
  const c = rows.filter((r) => r.kind === "gridwm-judge").map((r) => r.row as ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>);
  const Acc_A = countMetric(a.filter((r) => flag(r.row.score, "correct")).length, a.length);
  const componentScores = b.map((r) => (r.row.score as { componentScore?: number }).componentScore).filter((v): v is number => typeof v === "number");
  const judge = summarizeJudgeAnswers(c);
  const JCR = Object.fromEntries(CONSISTENCY_DIMENSIONS.map((d) => [d, countMetric(judge.families[d].consistent, judge.families[d].complete)])) as Record<ConsistencyDimension, CountMetric>;
  return {
    Acc_A,
    Acc_B: countMetric(b.filter((r) => flag(r.row.score, "exact")).length, b.length),
    Acc_B_component: countMetric(b.filter((r) => flag(r.row.score, "correct")).length, b.length),
    meanComponentScore: componentScores.length > 0 ? componentScores.reduce((s, v) => s + v, 0) / componentScores.length : null,
    Acc_C: countMetric(judge.correct, judge.answers),
    JAcc_neu: countMetric(judge.neutralCorrect, judge.neutralAnswers),
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
