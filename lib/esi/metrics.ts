import { computeCalibration, type CalibrationResult } from "@/lib/dashboard/calibration";
import { mean, median } from "@/lib/stats/descriptive";
import { wilsonInterval } from "@/lib/stats/wilson-interval";

/**
 * ESI-Bench's trajectory and metacognition measures (../shared/benchmarks/esi.md, "Metrics"),
 * defined on one trajectory at a time and then pooled. Pure: trajectories in, numbers out.
 *
 * - view diversity: the trajectory visits at least two distinct viewpoints (a state's
 *   `viewpoint`, else its id), the initial view included;
 * - contrastive view: it visits a state marked `contrastive`, or takes a step that researchers
 *   labelled contrastive (at least half of that step's labels);
 * - belief revision: its current answer changes after at least one further observation, i.e. an
 *   answer differs from the one held, and it is given at a later step than the held one was
 *   first given (changing one's mind without looking again is not a revision);
 * - steps to answer: actions taken before answering; invalid-action rate: refused actions over
 *   all actions, pooled over trajectories;
 * - calibration of the final and of the intermediate confidence, and confidence against step:
 *   at each step s, the belief then held (the last belief event at or before s).
 */

export interface CountMetric {
  value: number | null;
  successes: number;
  trials: number;
  /** Wilson 95% interval (accuracy: with a design effect over items, lib/esi/figures.ts) */
  ci: [number, number] | null;
  /** why there is no interval ("one item") */
  reason?: string;
  /** items behind an accuracy */
  items?: number;
}

export function countMetric(successes: number, trials: number): CountMetric {
  if (trials === 0) return { value: null, successes, trials, ci: null };
  const w = wilsonInterval(successes, trials);
  return { value: successes / trials, successes, trials, ci: [w.lower, w.upper] };
}

/** One visited state (the start is seq 0; a refused step stays where it was). */
export interface TracePoint {
  seq: number;
  valid: boolean;
  /** null when unknown (a simulator that does not say) */
  viewpoint: string | null;
  contrastive: boolean;
}

/** A belief as the person held it from `step` on: the answer (null: cleared) and confidence in [0, 1]. */
export interface BeliefPoint {
  step: number;
  choice: string | null;
  confidence: number | null;
  /** whether `choice` equals the key (null without a choice) */
  correct: boolean | null;
}

export interface Trajectory {
  /** the actions, seq 1..n */
  steps: ReadonlyArray<{ seq: number; valid: boolean }>;
  trace: readonly TracePoint[];
  /** seqs of steps that researchers labelled contrastive */
  labelledContrastive?: ReadonlySet<number> | readonly number[];
  /** belief events in the order made */
  beliefs: readonly BeliefPoint[];
  /** the submitted answer, held from the last step on */
  final: { choice: string; confidence: number | null; correct: boolean };
}

export interface TrajectoryMeasures {
  steps: number;
  invalid: number;
  /** null when no visited state's viewpoint is known */
  viewDiversity: boolean | null;
  contrastiveView: boolean;
  beliefRevision: boolean;
}

export function visitsDistinctViewpoints(trace: readonly TracePoint[]): boolean | null {
  const known = trace.map((point) => point.viewpoint).filter((v): v is string => v !== null);
  if (known.length === 0) return null;
  return new Set(known).size >= 2;
}

export function seesContrastiveView(trace: readonly TracePoint[], labelled: ReadonlySet<number> | readonly number[] = []): boolean {
  const labelledSeqs = labelled instanceof Set ? labelled : new Set(labelled as readonly number[]);
  return trace.some((point) => point.contrastive) || trace.some((point) => labelledSeqs.has(point.seq));
}

/** True when the answer held changes after at least one further observation (see the file comment). */
export function revisesBelief(beliefs: ReadonlyArray<Pick<BeliefPoint, "step" | "choice">>): boolean {
  let held: { choice: string; since: number } | null = null;
  for (const belief of beliefs) {
    if (belief.choice === null) continue;
    if (held === null) {
      held = { choice: belief.choice, since: belief.step };
      continue;
    }
    if (belief.choice === held.choice) continue;
    if (belief.step > held.since) return true;
    held = { choice: belief.choice, since: belief.step };
  }
  return false;
}

export function measureTrajectory(trajectory: Trajectory): TrajectoryMeasures {
  const steps = trajectory.steps.length;
  const lastStep = trajectory.steps.reduce((max, step) => Math.max(max, step.seq), 0);
  return {
    steps,
    invalid: trajectory.steps.filter((step) => !step.valid).length,
    viewDiversity: visitsDistinctViewpoints(trajectory.trace),
    contrastiveView: seesContrastiveView(trajectory.trace, trajectory.labelledContrastive),
    beliefRevision: revisesBelief([...trajectory.beliefs, { step: lastStep, choice: trajectory.final.choice }]),
  };
}

export interface TrajectorySummary {
  trajectories: number;
  stepsMean: number | null;
  stepsMedian: number | null;
  /** refused actions over all actions */
  invalidRate: number | null;
  invalid: number;
  actions: number;
  viewDiversity: CountMetric;
  contrastiveView: CountMetric;
  beliefRevision: CountMetric;
}

export function summariseTrajectories(measures: readonly TrajectoryMeasures[]): TrajectorySummary {
  const steps = measures.map((m) => m.steps);
  const actions = steps.reduce((sum, n) => sum + n, 0);
  const invalid = measures.reduce((sum, m) => sum + m.invalid, 0);
  const diversityKnown = measures.filter((m) => m.viewDiversity !== null);
  return {
    trajectories: measures.length,
    stepsMean: steps.length ? mean(steps) : null,
    stepsMedian: steps.length ? median(steps) : null,
    invalidRate: actions === 0 ? null : invalid / actions,
    invalid,
    actions,
    viewDiversity: countMetric(diversityKnown.filter((m) => m.viewDiversity).length, diversityKnown.length),
    contrastiveView: countMetric(measures.filter((m) => m.contrastiveView).length, measures.length),
    beliefRevision: countMetric(measures.filter((m) => m.beliefRevision).length, measures.length),
  };
}

/** The belief held at each step 0..lastStep (the last belief event at or before it), then the final answer at lastStep. */
export function beliefsByStep(beliefs: readonly BeliefPoint[], lastStep: number, final?: Trajectory["final"]): Array<BeliefPoint | null> {
  const sorted = beliefs.map((belief, order) => ({ belief, order })).sort((a, b) => a.belief.step - b.belief.step || a.order - b.order);
  const out: Array<BeliefPoint | null> = [];
  let next = 0;
  let held: BeliefPoint | null = null;
  for (let step = 0; step <= lastStep; step++) {
    while (next < sorted.length && sorted[next].belief.step <= step) held = sorted[next++].belief;
    out.push(held);
  }
  if (final && lastStep >= 0) out[lastStep] = { step: lastStep, choice: final.choice, confidence: final.confidence, correct: final.correct };
  return out;
}

export interface StepPoint {
  step: number;
  /** trajectories holding a belief with a confidence at this step */
  n: number;
  meanConfidence: number | null;
  accuracy: number | null;
}

/** Confidence and accuracy of the belief held at each step, over trajectories still exploring at that step. */
export function confidenceAgainstStep(trajectories: readonly Trajectory[], maxStep = 30): StepPoint[] {
  const sums = Array.from({ length: maxStep + 1 }, () => ({ n: 0, confidence: 0, right: 0, judged: 0 }));
  for (const trajectory of trajectories) {
    const lastStep = trajectory.steps.reduce((max, step) => Math.max(max, step.seq), 0);
    const held = beliefsByStep(trajectory.beliefs, Math.min(lastStep, maxStep), lastStep <= maxStep ? trajectory.final : undefined);
    held.forEach((belief, step) => {
      if (!belief || belief.confidence === null) return;
      const cell = sums[step];
      cell.n += 1;
      cell.confidence += belief.confidence;
      if (belief.correct !== null) {
        cell.judged += 1;
        if (belief.correct) cell.right += 1;
      }
    });
  }
  return sums.map((cell, step) => ({ step, n: cell.n, meanConfidence: cell.n ? cell.confidence / cell.n : null, accuracy: cell.judged ? cell.right / cell.judged : null })).filter((point) => point.n > 0);
}

/** Calibration of intermediate beliefs: every belief event with an answer and a confidence. */
export function intermediateCalibration(trajectories: readonly Trajectory[], bins: number): CalibrationResult | null {
  const confidences: number[] = [];
  const correct: number[] = [];
  for (const trajectory of trajectories) {
    for (const belief of trajectory.beliefs) {
      if (belief.confidence === null || belief.correct === null) continue;
      confidences.push(belief.confidence);
      correct.push(belief.correct ? 1 : 0);
    }
  }
  return computeCalibration(confidences, correct, bins);
}

/** Calibration of final answers. */
export function finalCalibration(answers: ReadonlyArray<{ confidence: number | null; correct: boolean }>, bins: number): CalibrationResult | null {
  const rated = answers.filter((a): a is { confidence: number; correct: boolean } => a.confidence !== null && a.confidence >= 0 && a.confidence <= 1);
  return computeCalibration(
    rated.map((a) => a.confidence),
    rated.map((a) => (a.correct ? 1 : 0)),
    bins,
  );
}
