import { computeCalibration, type CalibrationResult } from "@/lib/dashboard/calibration";
import { mean, median } from "@/lib/stats/descriptive";
import { wilsonInterval } from "@/lib/stats/wilson-interval";

/**
 * ESI-Bench's trajectory and metacognition measures (esi-bench.txt, Fig. 5 and App. K), defined
 * on one trajectory at a time and then pooled. Pure: trajectories in, numbers out.
 *
 * - a new observation: an accepted action that changed the state (a graph state other than the
 *   one the person stood in; with a simulator, which names no states, every accepted action). A
 *   refused action ("cannot do that here") shows nothing new;
 * - view diversity: the trajectory visits at least two distinct viewpoints. One definition for
 *   every item: a viewpoint is the camera position a graph state or a simulator reply names in
 *   `viewpoint` (turning in place keeps it; a state's id is never used in its place). Unknown
 *   (left out of the share) when the visited states' viewpoints cannot settle it;
 * - contrastive view: it reaches, by an accepted action, a state marked `contrastive` other than
 *   the initial state (the initial view is given, not sought), or takes a step that researchers
 *   labelled contrastive (at least half of that step's labels);
 * - belief revision: a part of the answer already given changes after at least one new
 *   observation since that part's value was first given. Filling in another part of a
 *   multi-part answer is not a revision; nor is a change after refused actions only, or a change
 *   of mind at the same step;
 * - steps: actions taken before answering (refused ones included), over all answers and, as in
 *   Fig. 5, over the answers that are correct; invalid-action rate: refused actions over all
 *   actions, pooled over trajectories;
 * - calibration of the final and of the intermediate confidence, and confidence against step:
 *   at each step s, the belief then held (the last belief event at or before s).
 */

export interface CountMetric {
  value: number | null;
  successes: number;
  trials: number;
  /** Wilson 95% interval (accuracy: at the effective n of the variance over people and items, lib/tasks/esi-explore/figures.ts) */
  ci: [number, number] | null;
  /** why there is no interval ("one item", "one person") */
  reason?: string;
  /** items behind an accuracy */
  items?: number;
  /** people behind an accuracy */
  people?: number;
  /** an accuracy's effective number of answers p(1-p)/V */
  effectiveN?: number;
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
  /** the camera position; null when unknown (a graph state or a simulator that does not say) */
  viewpoint: string | null;
  contrastive: boolean;
  /** the graph state's id; null or absent with a simulator */
  state?: string | null;
}

/** An answer as held: one option, a map of parts answered so far, or null (none / cleared). */
export type BeliefChoice = string | Readonly<Record<string, string>> | null;

/** A belief as the person held it from `step` on: the answer (null: cleared) and confidence in [0, 1]. */
export interface BeliefPoint {
  step: number;
  choice: BeliefChoice;
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
  final: { choice: Exclude<BeliefChoice, null>; confidence: number | null; correct: boolean };
}

export interface TrajectoryMeasures {
  steps: number;
  invalid: number;
  /** whether the final answer is correct (steps to a correct answer, Fig. 5) */
  correct: boolean;
  /** null when no visited state's viewpoint is known */
  viewDiversity: boolean | null;
  contrastiveView: boolean;
  beliefRevision: boolean;
}

/**
 * At least two distinct viewpoints among the visited states: true as soon as two known ones
 * differ; false when every visited state's viewpoint is known and they are all one; null when
 * states of unknown viewpoint leave it open.
 */
export function visitsDistinctViewpoints(trace: readonly TracePoint[]): boolean | null {
  const known = trace.map((point) => point.viewpoint).filter((v): v is string => v !== null);
  if (new Set(known).size >= 2) return true;
  if (known.length === 0 || known.length < trace.length) return null;
  return false;
}

function bySeq(trace: readonly TracePoint[]): TracePoint[] {
  return [...trace].sort((a, b) => a.seq - b.seq);
}

/** The seqs of new observations: accepted actions that changed the state (see the file comment). */
export function observationSeqs(trace: readonly TracePoint[]): number[] {
  const out: number[] = [];
  let current: TracePoint | null = null;
  for (const point of bySeq(trace)) {
    if (point.seq === 0) {
      current = point;
      continue;
    }
    if (!point.valid) continue;
    const known = current !== null && typeof current.state === "string" && typeof point.state === "string";
    if (!known || point.state !== current!.state) out.push(point.seq);
    current = point;
  }
  return out;
}

/** A contrastive state reached by an accepted action (not the initial state), or a step labelled contrastive. */
export function seesContrastiveView(trace: readonly TracePoint[], labelled: ReadonlySet<number> | readonly number[] = []): boolean {
  const labelledSeqs = labelled instanceof Set ? labelled : new Set(labelled as readonly number[]);
  const initial = trace.find((point) => point.seq === 0);
  const initialState = typeof initial?.state === "string" ? initial.state : null;
  const reached = trace.some((point) => point.seq > 0 && point.valid && point.contrastive && (initialState === null || point.state !== initialState));
  return reached || trace.some((point) => point.seq > 0 && labelledSeqs.has(point.seq));
}

function partsOf(choice: BeliefChoice): Array<[string, string]> {
  if (choice === null) return [];
  if (typeof choice === "string") return [["", choice]];
  return Object.entries(choice).filter((entry): entry is [string, string] => typeof entry[1] === "string");
}

/**
 * True when a part of the answer already given changes after at least one new observation since
 * that part's value was first given (`observations`: observationSeqs of the trace). A change
 * without a new observation replaces the held value; clearing a part keeps it.
 */
export function revisesBelief(beliefs: ReadonlyArray<Pick<BeliefPoint, "step" | "choice">>, observations: readonly number[]): boolean {
  const held = new Map<string, { value: string; since: number }>();
  const observedBetween = (from: number, to: number) => observations.some((seq) => seq > from && seq <= to);
  for (const belief of beliefs) {
    for (const [part, value] of partsOf(belief.choice)) {
      const before = held.get(part);
      if (before && before.value === value) continue;
      if (before && observedBetween(before.since, belief.step)) return true;
      held.set(part, { value, since: belief.step });
    }
  }
  return false;
}

export function measureTrajectory(trajectory: Trajectory): TrajectoryMeasures {
  const steps = trajectory.steps.length;
  const lastStep = trajectory.steps.reduce((max, step) => Math.max(max, step.seq), 0);
  return {
    steps,
    invalid: trajectory.steps.filter((step) => !step.valid).length,
    correct: trajectory.final.correct,
    viewDiversity: visitsDistinctViewpoints(trajectory.trace),
    contrastiveView: seesContrastiveView(trajectory.trace, trajectory.labelledContrastive),
    beliefRevision: revisesBelief([...trajectory.beliefs, { step: lastStep, choice: trajectory.final.choice }], observationSeqs(trajectory.trace)),
  };
}

export interface TrajectorySummary {
  trajectories: number;
  stepsMean: number | null;
  stepsMedian: number | null;
  /** trajectories whose final answer is correct, and their steps (Fig. 5: steps to reach a correct answer) */
  correct: number;
  stepsCorrectMean: number | null;
  stepsCorrectMedian: number | null;
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
  const stepsCorrect = measures.filter((m) => m.correct).map((m) => m.steps);
  return {
    trajectories: measures.length,
    stepsMean: steps.length ? mean(steps) : null,
    stepsMedian: steps.length ? median(steps) : null,
    correct: stepsCorrect.length,
    stepsCorrectMean: stepsCorrect.length ? mean(stepsCorrect) : null,
    stepsCorrectMedian: stepsCorrect.length ? median(stepsCorrect) : null,
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
  return sums
    .map((cell, step) => ({
      step,
      n: cell.n,
      meanConfidence: cell.n ? cell.confidence / cell.n : null,
      accuracy: cell.judged ? cell.right / cell.judged : null,
    }))
    .filter((point) => point.n > 0);
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
