import {
  twoWayMeanInterval,
  twoWayProportionInterval,
  type CrossedAnswer,
  type GeneraliseOver,
  type TwoWayInterval,
} from "@/lib/stats/two-way-cluster-variance";
import { aggregateEnact, type EnactScore } from "@/lib/tasks/shared/enact/common";
import type { StudySnapshot } from "@/lib/dashboard/types";
import { conditionAt } from "@/lib/dashboard/snapshot-utils";
import type { ModelPredictionRow } from "@/lib/models/types";
import type { KindDashboard } from "@/lib/tasks/types";

/**
 * ENACT's overall figures, both tasks pooled: the accuracy table has TA, PA and PA per
 * item for forward and for inverse world modeling; this section gives them over the answers of
 * both, for the people (pooled, or the annotator chosen on the dashboard; agreement-plan answers
 * as the table takes them) and for each model run. Pooled as the paper pools PA: every answer
 * weighs the same in TA and PA per item, every step in PA, so the task with more answers (or
 * longer items, for PA) weighs more. Intervals from the shared two-way engine
 * (lib/stats/two-way-cluster-variance.ts): people and items crossed, or items alone when the
 * study takes its people as the population, and over items for a model run (one fixed judge):
 * Wilson at the effective n for TA (a share of 0/1), t for PA (a ratio of sums) and PA per item (a
 * mean), each cut to the range of the answers' own shares as the table cuts its ratios. A study's
 * conditions are rows apart, never pooled, as in the table. A study with one ENACT task has no
 * section: the table's All column is that task's overall.
 */

export const ENACT_KINDS: readonly string[] = ["enact-forward", "enact-inverse"];

export const ENACT_OVERALL_METRICS = ["TA", "PA", "PA_item"] as const;
export type EnactOverallMetric = (typeof ENACT_OVERALL_METRICS)[number];

export interface EnactOverallCell {
  value: number | null;
  ci: [number, number] | null;
  /** why there is no interval: "one item", "one person", "no answers", "no spread" */
  reason?: string;
  /** "wilson": Wilson at the effective n of the two-way variance; "two-way": t with it */
  interval: "wilson" | "two-way";
  items: number;
  people: number;
  /** Wilson: the effective number of answers p(1-p)/V */
  effectiveN?: number;
}

export interface EnactOverall extends Record<EnactOverallMetric, EnactOverallCell> {
  answers: number;
  /** answers per ENACT kind pooled */
  byKind: Record<string, number>;
}

export interface EnactOverallRow extends EnactOverall {
  /** "humans" or a model run's id */
  series: string;
  label: string;
  /** the study condition of the row's answers (Assignment.condition); null: none */
  condition: string | null;
}

export interface EnactSection {
  /** the ENACT kinds of the study (two: the section exists only with both) */
  kinds: string[];
  over: GeneraliseOver;
  rows: EnactOverallRow[];
}

/** One scored answer to an ENACT item: its item and who gave it (a model run: one judge, ""). */
export interface EnactAnswer {
  kind: string;
  item: string | number;
  person: string;
  score: EnactScore;
}

export const isEnactScore = (value: unknown): value is EnactScore =>
  value !== null &&
  typeof value === "object" &&
  typeof (value as EnactScore).accepted === "boolean" &&
  typeof (value as EnactScore).correctPairs === "number" &&
  typeof (value as EnactScore).L === "number";

/** The engine's interval as a cell: a bound past the answers' own range says nothing, and one value everywhere is no spread. */
function cellOf(value: number | null, result: TwoWayInterval, interval: EnactOverallCell["interval"], range: [number, number] | null): EnactOverallCell {
  const counts = { items: result.items, people: result.people };
  if (value === null) return { value, ci: null, interval, reason: "no answers", ...counts };
  if (!result.ci) return { value, ci: null, interval, reason: result.reason ?? "one item", ...counts };
  const ci: [number, number] = range ? [Math.max(range[0], result.ci[0]), Math.min(range[1], result.ci[1])] : result.ci;
  if (ci[0] === ci[1]) return { value, ci: null, interval, reason: "no spread", ...counts };
  return { value, ci, interval, ...counts, ...(result.effectiveN !== undefined ? { effectiveN: result.effectiveN } : {}) };
}

function rangeOf(values: readonly number[]): [number, number] | null {
  return values.length === 0 ? null : [Math.min(...values), Math.max(...values)];
}

/** TA, PA and PA per item over the answers of every ENACT kind given, with their two-way intervals. */
export function enactOverall(answers: readonly EnactAnswer[], over: GeneraliseOver): EnactOverall {
  const values = aggregateEnact(answers.map((a) => a.score));
  const byKind: Record<string, number> = {};
  for (const a of answers) byKind[a.kind] = (byKind[a.kind] ?? 0) + 1;
  const crossed = (num: (s: EnactScore) => number, den?: (s: EnactScore) => number, keep: (s: EnactScore) => boolean = () => true): CrossedAnswer[] =>
    answers.filter((a) => keep(a.score)).map((a) => ({ item: a.item, person: a.person, num: num(a.score), ...(den ? { den: den(a.score) } : {}) }));
  const withSteps = (s: EnactScore) => s.L > 0;
  const shares = answers.filter((a) => withSteps(a.score)).map((a) => a.score.correctPairs / a.score.L);
  const empty: TwoWayInterval = { estimate: NaN, ci: null, reason: "no answers", answers: 0, items: 0, people: 0, variance: null };
  const ta =
    answers.length > 0
      ? twoWayProportionInterval(
          crossed((s) => (s.accepted ? 1 : 0)),
          over,
        )
      : empty;
  const pa =
    shares.length > 0
      ? twoWayMeanInterval(
          crossed(
            (s) => s.correctPairs,
            (s) => s.L,
            withSteps,
          ),
          over,
        )
      : empty;
  const paItem =
    shares.length > 0
      ? twoWayMeanInterval(
          crossed((s) => s.correctPairs / s.L, undefined, withSteps),
          over,
        )
      : empty;
  return {
    answers: answers.length,
    byKind,
    TA: cellOf(values.TA, ta, "wilson", null),
    PA: cellOf(values.PA, pa, "two-way", rangeOf(shares)),
    PA_item: cellOf(values.PA_item, paItem, "two-way", rangeOf(shares)),
  };
}

export interface EnactSectionInput {
  snapshot: StudySnapshot;
  /** the annotator chosen on the dashboard, null: people pooled */
  annotatorId: string | null;
  /** answers given for the agreement plan count, as in the accuracy table */
  includePlanAnswers: boolean;
  over: GeneraliseOver;
  models: ReadonlyArray<{ id: string; name: string }>;
  predictions: readonly ModelPredictionRow[];
}

/** The section from the dashboard's snapshot (its items and people as the accuracy table filtered them) and the model predictions; null without both tasks. */
export function enactSectionOf({ snapshot, annotatorId, includePlanAnswers, over, models, predictions }: EnactSectionInput): EnactSection | null {
  const kinds = ENACT_KINDS.filter((kind) => snapshot.items.kinds.includes(kind));
  if (kinds.length < 2) return null;
  const { responses, items } = snapshot;
  const chosen = annotatorId === null ? -1 : snapshot.annotators.findIndex((a) => a.id === annotatorId);
  // each condition apart (null: none), as the accuracy table shows them
  const human = new Map<string | null, EnactAnswer[]>();
  for (let r = 0; r < responses.count; r++) {
    if (chosen >= 0 && responses.annotator[r] !== chosen) continue;
    if (!includePlanAnswers && responses.agreement[r] === 1) continue;
    const item = responses.item[r];
    const score = responses.score[r];
    if (!kinds.includes(items.kinds[item]) || !isEnactScore(score)) continue;
    push(human, conditionAt(snapshot, r), { kind: items.kinds[item], item, person: snapshot.annotators[responses.annotator[r]].id, score });
  }
  const byRun = new Map<string, Map<string | null, EnactAnswer[]>>();
  for (const p of predictions) {
    const item = items.index.get(p.itemId);
    if (item === undefined || !kinds.includes(items.kinds[item]) || !isEnactScore(p.score)) continue;
    if (!byRun.has(p.runId)) byRun.set(p.runId, new Map());
    push(byRun.get(p.runId)!, p.condition ?? null, { kind: items.kinds[item], item, person: "", score: p.score });
  }
  const rows: EnactOverallRow[] = [];
  const label = chosen >= 0 ? snapshot.annotators[chosen].name : "Humans (pooled)";
  for (const [condition, answers] of byCondition(human)) rows.push({ series: "humans", label, condition, ...enactOverall(answers, over) });
  for (const model of models) {
    for (const [condition, answers] of byCondition(byRun.get(model.id) ?? new Map()))
      rows.push({ series: model.id, label: model.name, condition, ...enactOverall(answers, "items") });
  }
  return { kinds: [...kinds], over, rows };
}

function push(groups: Map<string | null, EnactAnswer[]>, condition: string | null, answer: EnactAnswer): void {
  const list = groups.get(condition);
  if (list) list.push(answer);
  else groups.set(condition, [answer]);
}

/** The groups in the table's order: no condition first, then the conditions alphabetically. */
function byCondition(groups: Map<string | null, EnactAnswer[]>): Array<[string | null, EnactAnswer[]]> {
  return [...groups].sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)));
}

/** The ENACT section of the study dashboard, shared by both ENACT kinds (computed once). */
export const dashboard: KindDashboard = {
  section: "enact",
  load: (context) =>
    context.memoizeAsync(
      `${context.version}|enact-overall|${context.modelVersion}|${context.annotatorId ?? "all"}|plan:${context.includePlanAnswers ? "with" : "without"}|${context.generaliseOver}`,
      async () =>
        enactSectionOf({
          snapshot: context.snapshot,
          annotatorId: context.annotatorId,
          includePlanAnswers: context.includePlanAnswers === true,
          over: context.generaliseOver,
          models: context.models,
          predictions: context.models.length > 0 ? await context.modelPredictions() : [],
        }),
    ),
};
