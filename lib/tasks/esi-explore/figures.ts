import type { CalibrationResult } from "@/lib/dashboard/calibration";
import { crossedMethod, crossedProportion } from "@/lib/stats/crossed-interval";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { compareConditions } from "@/lib/tasks/esi-explore/conditions";
import { esiConfidenceMapping, type ConfidenceScaleName, type EsiConfidenceMapping } from "@/lib/tasks/esi-explore/confidence";
import {
  confidenceAgainstStep,
  countMetric,
  finalCalibration,
  intermediateCalibration,
  measureTrajectory,
  summariseTrajectories,
  type CountMetric,
  type StepPoint,
  type Trajectory,
  type TrajectorySummary,
} from "@/lib/tasks/esi-explore/metrics";

/**
 * The ESI-Bench section of a study dashboard, from scored answers (pure; lib/dashboard/esi.ts
 * loads them): always split by condition. Accuracy with Wilson intervals at the effective n of
 * the two-way variance over people and questions (or questions only, the study's "generalise
 * over"; a model run, one fixed judge, over its questions; lib/stats/crossed-interval.ts; "one
 * item" / "one person" in words where one says nothing) in the shape of the paper's table (category and subcategory rows, condition columns, people beside each imported
 * model run, and the mean over subcategories the paper reports), per person and pooled; steps to
 * answer and steps to a correct answer (Fig. 5), invalid-action rate, view diversity, contrastive view rate and belief revision rate
 * from the active trajectories, by category and subcategory too; calibration of final and
 * intermediate confidence and confidence against step, per condition.
 */

export interface HumanAnswer {
  annotatorId: string;
  /** the question answered: answers to one question are one unit of the accuracy's interval */
  itemId?: string;
  condition: string;
  category: string;
  subcategory: string;
  correct: boolean;
  /** final confidence in [0, 1] */
  confidence: number | null;
  /** active answers with a recorded episode */
  trajectory: Trajectory | null;
}

export interface ModelAnswer {
  runId: string;
  itemId?: string;
  runName: string;
  condition: string;
  category: string;
  subcategory: string;
  correct: boolean;
  steps: number | null;
  /** a model agent's recorded episode (active condition); imported runs have none */
  trajectory?: Trajectory | null;
}

export interface EsiGroup {
  id: string;
  name: string;
  kind: "humans" | "model";
}

export interface EsiTableRow {
  category: string;
  /** null: the category's total */
  subcategory: string | null;
  /** group id -> condition -> accuracy */
  cells: Record<string, Record<string, CountMetric>>;
}

export interface EsiConditionCalibration {
  final: CalibrationResult | null;
  intermediate: CalibrationResult | null;
  byStep: StepPoint[];
}

export interface EsiTrajectoryRow {
  category: string;
  subcategory: string | null;
  summary: TrajectorySummary;
}

export interface EsiPerson {
  id: string;
  name: string;
  byCondition: Record<string, { accuracy: CountMetric; trajectories: TrajectorySummary | null }>;
}

export interface EsiStepLabelSummary {
  counts: { redundant: number; confirmatory: number; contrastive: number };
  labelledSteps: number;
  labellers: number;
  /** Krippendorff's alpha (nominal) over labellers, units = steps with two or more labels */
  alpha: number | null;
  units: number;
  reason?: string;
}

export interface EsiSection {
  /** what people's accuracy intervals generalise over (the study setting), and the method in words */
  over: GeneraliseOver;
  method: string;
  conditions: string[];
  groups: EsiGroup[];
  table: EsiTableRow[];
  /** the paper's headline: the mean over subcategories of each subcategory's accuracy */
  subcategoryMean: Record<string, Record<string, number | null>>;
  /**
   * which of the table's subcategories each group x condition mean is over: the same set for every
   * cell (all the table's subcategories); a cell with `covered < of` is the mean over fewer, flagged
   */
  subcategoryCoverage: Record<string, Record<string, { covered: number; of: number; missing: string[] }>>;
  overall: Record<string, Record<string, CountMetric>>;
  /** mean steps a model run reports, by condition */
  modelSteps: Record<string, Record<string, number | null>>;
  /** the same over its correct answers only (Fig. 5: steps to reach a correct answer) */
  modelStepsCorrect: Record<string, Record<string, number | null>>;
  /** pooled human trajectories by condition (only conditions with trajectories) */
  trajectories: Record<string, TrajectorySummary>;
  /** model agents' recorded trajectories, by group and condition (Table 11's rows for models) */
  modelTrajectories: Record<string, Record<string, TrajectorySummary>>;
  /** active trajectories by category and subcategory */
  trajectoryTable: EsiTrajectoryRow[];
  calibration: Record<string, EsiConditionCalibration>;
  /** the number of equal-width confidence bins of the reliability diagrams and the ECE */
  calibrationBins: number;
  perPerson: EsiPerson[];
  stepLabels: EsiStepLabelSummary;
  /** answers behind the humans' figures (after the annotator filter) */
  humanAnswers: number;
  /** how stated confidence is read as ESI-Bench's c in [0, 1]: the study's scale and the mapping shown with every confidence figure */
  confidence: EsiConfidenceMapping;
}

const HUMANS = "humans";

/** A run's name without the condition it names: "GPT-5 (active)" -> "GPT-5". */
export function modelName(runName: string): string {
  const stripped = runName
    .replace(/\s*[[(]\s*(passive-single|passive-multi|passive-gt|active)\s*[\])]\s*/g, " ")
    .replace(/\s*[-·:,]?\s*\b(passive-single|passive-multi|passive-gt|active)\b\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return stripped === "" ? runName : stripped;
}

/**
 * Accuracy with a Wilson 95% interval at the effective n of the two-way variance over people and
 * questions (lib/stats/crossed-interval.ts); rows without an item id are each their own item; one
 * item, or over people one person, gives no interval (the reason says which).
 */
function accuracyOf(rows: ReadonlyArray<{ correct: boolean; itemId?: string; person: string }>, over: GeneraliseOver): CountMetric {
  const successes = rows.filter((row) => row.correct).length;
  if (rows.length === 0) return countMetric(successes, 0);
  const w = crossedProportion(
    rows.map((row, i) => ({ item: row.itemId ?? `answer ${i}`, person: row.person, num: row.correct ? 1 : 0 })),
    over,
  );
  return {
    value: successes / rows.length,
    successes,
    trials: rows.length,
    ci: w.ci,
    items: w.items,
    people: w.people,
    ...(w.ci ? { effectiveN: w.effectiveN } : { reason: w.reason }),
  };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

const byCondition = <T extends { condition: string }>(
  rows: readonly T[],
  conditions: readonly string[],
  metric: (rows: T[]) => CountMetric,
): Record<string, CountMetric> => Object.fromEntries(conditions.map((condition) => [condition, metric(rows.filter((row) => row.condition === condition))]));

export function esiSection(input: {
  humans: readonly HumanAnswer[];
  models: readonly ModelAnswer[];
  annotators: ReadonlyArray<{ id: string; name: string }>;
  /** the humans' column of the table: everyone (null) or one person */
  annotatorId: string | null;
  calibrationBins: number;
  stepLabels: EsiStepLabelSummary;
  /** the study's confidence scale (default: percent, ESI-Bench's c in [0, 1]) */
  confidenceScale?: ConfidenceScaleName;
  /** what people's intervals generalise over (default people and items) */
  over?: GeneraliseOver;
}): EsiSection {
  const over = input.over ?? "people+items";
  const humans = input.annotatorId === null ? input.humans : input.humans.filter((row) => row.annotatorId === input.annotatorId);
  const conditions = [...new Set([...input.humans.map((row) => row.condition), ...input.models.map((row) => row.condition)])].sort(compareConditions);
  const runs = [...groupBy(input.models, (row) => row.runId).entries()]
    .map(([id, rows]) => ({ id, name: rows[0].runName, rows }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const humanName = input.annotatorId === null ? "Humans (pooled)" : (input.annotators.find((a) => a.id === input.annotatorId)?.name ?? "Annotator");
  const groups: EsiGroup[] = [{ id: HUMANS, name: humanName, kind: "humans" }, ...runs.map((run) => ({ id: run.id, name: run.name, kind: "model" as const }))];
  type AccuracyRow = { condition: string; category: string; subcategory: string; correct: boolean; itemId?: string; person: string };
  const humanRows: AccuracyRow[] = humans.map((row) => ({ ...row, person: row.annotatorId }));
  const runRows = new Map(runs.map((run) => [run.id, run.rows.map((row): AccuracyRow => ({ ...row, person: row.runId }))]));
  const rowsOf = (groupId: string): readonly AccuracyRow[] => (groupId === HUMANS ? humanRows : (runRows.get(groupId) ?? []));
  // a model run is one fixed judge: over its questions (the accuracy table's rule)
  const accuracyIn = (groupId: string) => (rows: AccuracyRow[]) => accuracyOf(rows, groupId === HUMANS ? over : "items");

  const categories = [...new Set([...humans, ...input.models].map((row) => row.category))].sort();
  const table: EsiTableRow[] = [];
  const subcategoryMean: EsiSection["subcategoryMean"] = {};
  const overall: EsiSection["overall"] = {};
  for (const group of groups) {
    overall[group.id] = byCondition(rowsOf(group.id), conditions, accuracyIn(group.id));
    subcategoryMean[group.id] = {};
  }
  const subcategoryValues: Record<string, Record<string, number[]>> = Object.fromEntries(
    groups.map((g) => [g.id, Object.fromEntries(conditions.map((c) => [c, [] as number[]]))]),
  );
  const subcategoryMissing: Record<string, Record<string, string[]>> = Object.fromEntries(
    groups.map((g) => [g.id, Object.fromEntries(conditions.map((c) => [c, [] as string[]]))]),
  );
  let subcategoryCount = 0;
  for (const category of categories) {
    const subcategories = [...new Set([...humans, ...input.models].filter((row) => row.category === category).map((row) => row.subcategory))].sort();
    for (const subcategory of subcategories) {
      subcategoryCount++;
      const cells: EsiTableRow["cells"] = {};
      for (const group of groups) {
        cells[group.id] = byCondition(
          rowsOf(group.id).filter((row) => row.category === category && row.subcategory === subcategory),
          conditions,
          accuracyIn(group.id),
        );
        for (const condition of conditions) {
          const value = cells[group.id][condition].value;
          if (value !== null) subcategoryValues[group.id][condition].push(value);
          else subcategoryMissing[group.id][condition].push(`${category} / ${subcategory}`);
        }
      }
      table.push({ category, subcategory, cells });
    }
    if (subcategories.length > 1) {
      const cells: EsiTableRow["cells"] = {};
      for (const group of groups)
        cells[group.id] = byCondition(
          rowsOf(group.id).filter((row) => row.category === category),
          conditions,
          accuracyIn(group.id),
        );
      table.push({ category, subcategory: null, cells });
    }
  }
  const subcategoryCoverage: EsiSection["subcategoryCoverage"] = {};
  for (const group of groups) {
    subcategoryCoverage[group.id] = {};
    for (const condition of conditions) {
      const values = subcategoryValues[group.id][condition];
      subcategoryMean[group.id][condition] = values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : null;
      subcategoryCoverage[group.id][condition] = { covered: values.length, of: subcategoryCount, missing: subcategoryMissing[group.id][condition] };
    }
  }

  const modelSteps: EsiSection["modelSteps"] = {};
  const modelStepsCorrect: EsiSection["modelStepsCorrect"] = {};
  const meanSteps = (rows: readonly ModelAnswer[]) => {
    const steps = rows.filter((row) => row.steps !== null).map((row) => row.steps as number);
    return steps.length ? steps.reduce((sum, v) => sum + v, 0) / steps.length : null;
  };
  for (const run of runs) {
    modelSteps[run.id] = Object.fromEntries(conditions.map((condition) => [condition, meanSteps(run.rows.filter((row) => row.condition === condition))]));
    modelStepsCorrect[run.id] = Object.fromEntries(
      conditions.map((condition) => [condition, meanSteps(run.rows.filter((row) => row.condition === condition && row.correct))]),
    );
  }

  const modelTrajectories: EsiSection["modelTrajectories"] = {};
  for (const run of runs) {
    modelTrajectories[run.id] = {};
    for (const condition of conditions) {
      const traced = run.rows.filter((row) => row.condition === condition && row.trajectory).map((row) => measureTrajectory(row.trajectory!));
      if (traced.length > 0) modelTrajectories[run.id][condition] = summariseTrajectories(traced);
    }
  }

  const trajectories: EsiSection["trajectories"] = {};
  const calibration: EsiSection["calibration"] = {};
  for (const condition of conditions) {
    const rows = humans.filter((row) => row.condition === condition);
    const withTrajectory = rows.filter((row) => row.trajectory !== null).map((row) => row.trajectory as Trajectory);
    if (withTrajectory.length > 0) trajectories[condition] = summariseTrajectories(withTrajectory.map((t) => measureTrajectory(t)));
    calibration[condition] = {
      final: finalCalibration(rows, input.calibrationBins),
      intermediate: withTrajectory.length ? intermediateCalibration(withTrajectory, input.calibrationBins) : null,
      byStep: withTrajectory.length ? confidenceAgainstStep(withTrajectory) : [],
    };
  }

  const trajectoryTable: EsiTrajectoryRow[] = [];
  const traced = humans.filter((row) => row.trajectory !== null);
  for (const category of [...new Set(traced.map((row) => row.category))].sort()) {
    const inCategory = traced.filter((row) => row.category === category);
    const subcategories = [...new Set(inCategory.map((row) => row.subcategory))].sort();
    for (const subcategory of subcategories) {
      trajectoryTable.push({
        category,
        subcategory,
        summary: summariseTrajectories(inCategory.filter((row) => row.subcategory === subcategory).map((row) => measureTrajectory(row.trajectory!))),
      });
    }
    if (subcategories.length > 1)
      trajectoryTable.push({ category, subcategory: null, summary: summariseTrajectories(inCategory.map((row) => measureTrajectory(row.trajectory!))) });
  }

  const perPerson: EsiPerson[] = input.annotators
    .map((annotator) => ({ annotator, rows: input.humans.filter((row) => row.annotatorId === annotator.id) }))
    .filter(({ rows }) => rows.length > 0)
    .map(({ annotator, rows }) => ({
      id: annotator.id,
      name: annotator.name,
      byCondition: Object.fromEntries(
        conditions.map((condition) => {
          const inCondition = rows.filter((row) => row.condition === condition);
          const traces = inCondition.filter((row) => row.trajectory !== null);
          return [
            condition,
            {
              accuracy: accuracyOf(
                inCondition.map((row) => ({ ...row, person: row.annotatorId })),
                over,
              ),
              trajectories: traces.length ? summariseTrajectories(traces.map((row) => measureTrajectory(row.trajectory!))) : null,
            },
          ];
        }),
      ),
    }));

  return {
    over,
    method: crossedMethod(over, "proportion"),
    conditions,
    groups,
    table,
    subcategoryMean,
    subcategoryCoverage,
    overall,
    modelSteps,
    modelStepsCorrect,
    trajectories,
    modelTrajectories,
    trajectoryTable,
    calibration,
    calibrationBins: input.calibrationBins,
    perPerson,
    stepLabels: input.stepLabels,
    humanAnswers: humans.length,
    confidence: esiConfidenceMapping(input.confidenceScale ?? "PERCENT"),
  };
}
