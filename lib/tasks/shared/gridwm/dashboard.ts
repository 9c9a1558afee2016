import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";
import { spearmanCorrelation } from "@/lib/stats/spearman-correlation";
import { crossedMethod, crossedProportion } from "@/lib/stats/crossed-interval";
import type { CrossedAnswer, GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import {
  completeJudgeFamilies,
  CONSISTENCY_DIMENSIONS,
  isNeutralProbe,
  type ConsistencyDimension,
  type GridwmJudgeAnswer,
  type GridwmJudgeScore,
} from "@/lib/tasks/gridwm-judge";
import type { KindDashboard } from "@/lib/tasks/types";
import type { ScoredAnswer } from "@/lib/tasks/types";

/**
 * The GridWM-Judge section of a study's dashboard (../shared/benchmarks/gridwm-judge.md, "Metrics"):
 * per annotator and pooled Acc_A, Acc_B (exact and component) beside the share of readable fields
 * right and the Acc_B ceiling the frames allow (lib/tasks/gridwm-scene-json, sceneFieldReadability), JAcc_neu and JCR_temp / vis / frame
 * with Wilson 95% intervals at the effective n of the two-way variance over people and items
 * (lib/stats/crossed-interval.ts), or over items alone when the study takes its people as the
 * population (the study's "generalise over"): answers cluster by item and by person; JCR's units
 * are the complete probe families (summarizeJudgeAnswers), clustered by the probe they are of
 * (base case and the other dimensions' values, the same for every person's family of it) and by
 * person. One item (or probe) gives no interval ("one item"), nor, over people and items, one
 * person's answers ("one person": an annotator's own figures); flip rates (1 - JCR, the interval
 * mirrored), the
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
  /** why there is no interval ("one item", "one person") */
  reason?: string;
  /** items (or probes, for JCR) behind the count */
  items: number;
  /** people behind the count */
  people?: number;
  /** design effect of the interval: trials / the effective n p(1-p)/V (1: as many independent trials) */
  deff?: number;
  /** the effective number of trials of the Wilson interval */
  effectiveN?: number;
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
  /** what the intervals generalise over (the study setting), and their method in words */
  over: GeneraliseOver;
  method: string;
  pooled: GridwmFigures;
  annotators: Array<{ id: string; name: string; figures: GridwmFigures }>;
  wmc: WmcRow[];
}

export interface GridwmRow {
  kind: string;
  row: ScoredAnswer;
}

/** A share of answers (num of den trials each) crossed by item and person. */
function shareMetric(answers: ReadonlyArray<CrossedAnswer>, over: GeneraliseOver): CountMetric {
  let successes = 0;
  let trials = 0;
  for (const a of answers) {
    successes += a.num;
    trials += a.den ?? 1;
  }
  if (trials === 0) return { value: null, successes, trials, ci: null, items: 0 };
  const w = crossedProportion(answers, over);
  const base = { value: successes / trials, successes, trials, ci: w.ci, items: w.items, people: w.people };
  return w.ci ? { ...base, deff: w.deff, effectiveN: w.effectiveN } : { ...base, reason: w.reason };
}

/** A share of 0/1 answers, each with its item and who answered. */
function itemMetric(answers: ReadonlyArray<{ item: string; person?: string | null; ok: boolean }>, over: GeneraliseOver): CountMetric {
  return shareMetric(
    answers.map((a) => ({ item: a.item, person: a.person ?? "", num: a.ok ? 1 : 0 })),
    over,
  );
}

function flipOf(metric: CountMetric): CountMetric {
  return {
    ...metric,
    value: metric.value === null ? null : 1 - metric.value,
    successes: metric.trials - metric.successes,
    ci: metric.ci ? [1 - metric.ci[1], 1 - metric.ci[0]] : null,
  };
}

const flag = (score: unknown, field: string): boolean => score !== null && typeof score === "object" && (score as Record<string, unknown>)[field] === true;

/** The figures of one set of answers (one annotator's, or everyone's). */
export function gridwmFigures(rows: readonly GridwmRow[], over: GeneraliseOver = "people+items"): GridwmFigures {
  const a = rows.filter((r) => r.kind === "gridwm-next-obs");
  const b = rows.filter((r) => r.kind === "gridwm-scene-json");
  const c = rows.filter((r) => r.kind === "gridwm-judge").map((r) => r.row as ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>);
  const Acc_A = itemMetric(
    a.map((r) => ({ item: r.row.itemId, person: r.row.annotator, ok: flag(r.row.score, "correct") })),
    over,
  );
  const classified = b
    .map((r) => ({
      item: r.row.itemId,
      person: r.row.annotator,
      score: r.row.score as { readable?: { right: number; of: number }; ceiling?: { exact: boolean } },
    }))
    .filter((entry) => entry.score.readable && entry.score.ceiling);
  // readable fields: each answer's right fields of its item's readable ones (answers with none weigh nothing)
  const readable = classified
    .filter((entry) => entry.score.readable!.of > 0)
    .map(({ item, person, score }) => ({ item, person: person ?? "", num: score.readable!.right, den: score.readable!.of }));
  const componentScores = b.map((r) => (r.row.score as { componentScore?: number }).componentScore).filter((v): v is number => typeof v === "number");
  const families = completeJudgeFamilies(c);
  const JCR = Object.fromEntries(
    CONSISTENCY_DIMENSIONS.map((d) => [
      d,
      itemMetric(
        families[d].map((f) => ({ item: f.probe, person: f.person, ok: f.consistent })),
        over,
      ),
    ]),
  ) as Record<ConsistencyDimension, CountMetric>;
  return {
    Acc_A,
    Acc_B: itemMetric(
      b.map((r) => ({ item: r.row.itemId, person: r.row.annotator, ok: flag(r.row.score, "exact") })),
      over,
    ),
    Acc_B_component: itemMetric(
      b.map((r) => ({ item: r.row.itemId, person: r.row.annotator, ok: flag(r.row.score, "correct") })),
      over,
    ),
    meanComponentScore: componentScores.length > 0 ? componentScores.reduce((s, v) => s + v, 0) / componentScores.length : null,
    readableFields: shareMetric(readable, over),
    Acc_B_ceiling: itemMetric(
      classified.map(({ item, person, score }) => ({ item, person, ok: score.ceiling!.exact })),
      over,
    ),
    Acc_C: itemMetric(
      c.map((r) => ({ item: r.itemId, person: r.annotator, ok: r.score.correct })),
      over,
    ),
    JAcc_neu: itemMetric(
      c.filter((r) => isNeutralProbe(r.tags)).map((r) => ({ item: r.itemId, person: r.annotator, ok: r.score.correct })),
      over,
    ),
    JCR,
    flip: Object.fromEntries(CONSISTENCY_DIMENSIONS.map((d) => [d, flipOf(JCR[d])])) as Record<ConsistencyDimension, CountMetric>,
    nearRandom: Acc_A.value === null ? null : Acc_A.value <= NEAR_RANDOM_ACC_A || (Acc_A.ci !== null && Acc_A.ci[1] <= NEAR_RANDOM_UPPER),
  };
}

/** WMC across annotators: Acc_A against each JCR, over annotators who have both. */
export function worldModelConsistency(perAnnotator: ReadonlyArray<{ figures: GridwmFigures }>): WmcRow[] {
  return CONSISTENCY_DIMENSIONS.map((dimension) => {
    const pairs = perAnnotator
      .filter((a) => a.figures.Acc_A.value !== null && a.figures.JCR[dimension].value !== null)
      .map((a) => [a.figures.Acc_A.value!, a.figures.JCR[dimension].value!] as const);
    if (pairs.length < WMC_MIN_ANNOTATORS) return { dimension, n: pairs.length, pearson: null, spearman: null };
    const x = pairs.map((p) => p[0]);
    const y = pairs.map((p) => p[1]);
    return { dimension, n: pairs.length, pearson: pearsonCorrelation(x, y), spearman: spearmanCorrelation(x, y) };
  });
}

/** The section for a study's answers; annotators in the given order (pseudonymous names). */
export function gridwmSection(
  rows: readonly GridwmRow[],
  annotators: ReadonlyArray<{ id: string; name: string }>,
  over: GeneraliseOver = "people+items",
): GridwmSection {
  const perAnnotator = annotators
    .map((annotator) => ({ ...annotator, rows: rows.filter((r) => r.row.annotator === annotator.id) }))
    .filter((a) => a.rows.length > 0)
    .map((a) => ({ id: a.id, name: a.name, figures: gridwmFigures(a.rows, over) }));
  return {
    over,
    method: crossedMethod(over, "proportion"),
    pooled: gridwmFigures(rows, over),
    annotators: perAnnotator,
    wmc: worldModelConsistency(perAnnotator),
  };
}

/** The GridWM section of the study dashboard, shared by the three GridWM kinds. */
export const dashboard: KindDashboard = {
  section: "gridwm",
  load: async ({ version, snapshot, humanAnswers, memoize, generaliseOver }) =>
    memoize(`${version}|gridwm|${generaliseOver}`, () =>
      gridwmSection(
        humanAnswers().filter((answer) => answer.kind.startsWith("gridwm-")),
        snapshot.annotators,
        generaliseOver,
      ),
    ),
};
