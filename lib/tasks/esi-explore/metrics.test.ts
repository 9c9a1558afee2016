import { describe, expect, it } from "vitest";
import {
  beliefsByStep,
  confidenceAgainstStep,
  countMetric,
  finalCalibration,
  intermediateCalibration,
  measureTrajectory,
  observationSeqs,
  revisesBelief,
  seesContrastiveView,
  summariseTrajectories,
  visitsDistinctViewpoints,
  type BeliefPoint,
  type TracePoint,
  type Trajectory,
} from "@/lib/tasks/esi-explore/metrics";
import { applyEsiEvent, choiceKey, emptyEsiDraft, esiAnswerOf, esiMissing } from "@/lib/tasks/esi-explore/belief";

const at = (seq: number, viewpoint: string | null, contrastive = false, valid = true, state: string | null = `s${seq}`): TracePoint => ({
  seq,
  viewpoint,
  contrastive,
  valid,
  state,
});
const belief = (step: number, choice: BeliefPoint["choice"], confidence: number | null = null, correct: boolean | null = null): BeliefPoint => ({
  step,
  choice,
  confidence,
  correct,
});
/** every step an accepted action to a new state */
const looked = (...seqs: number[]) => seqs;

/**
 * Hand-made trajectories, each built to land on one side of a definition:
 * - A turns in place (one viewpoint), answers "3" at step 0, keeps it: not diverse, no revision;
 * - B walks to a second viewpoint and a contrastive state, answers "3" then "5" after looking: both;
 * - C changes its mind twice at step 0 without looking again, then keeps it: no revision;
 * - D never reaches a contrastive state, but a researcher labelled its step 2 contrastive.
 */
const A: Trajectory = {
  steps: [
    { seq: 1, valid: true },
    { seq: 2, valid: false },
  ],
  trace: [at(0, "v0"), at(1, "v0"), at(2, "v0", false, false, "s1")],
  beliefs: [belief(0, "3", 0.6, false)],
  final: { choice: "3", confidence: 0.6, correct: false },
};
const B: Trajectory = {
  steps: [1, 2, 3, 4].map((seq) => ({ seq, valid: true })),
  trace: [at(0, "v0"), at(1, "v1"), at(2, "v1", true), at(3, "v1"), at(4, "v1")],
  beliefs: [belief(0, "3", 0.4, false), belief(2, "3", 0.3, false), belief(3, "5", 0.8, true)],
  final: { choice: "5", confidence: 0.9, correct: true },
};
const C: Trajectory = {
  steps: [{ seq: 1, valid: true }],
  trace: [at(0, "v0"), at(1, "v2")],
  beliefs: [belief(0, "3", 0.5, false), belief(0, "4", 0.5, false), belief(0, "5", 0.5, true)],
  final: { choice: "5", confidence: 0.5, correct: true },
};
const D: Trajectory = {
  steps: [1, 2].map((seq) => ({ seq, valid: true })),
  trace: [at(0, null), at(1, null), at(2, null)],
  labelledContrastive: [2],
  beliefs: [],
  final: { choice: "4", confidence: 0.7, correct: false },
};

describe("ESI trajectory measures", () => {
  it("view diversity: at least two distinct viewpoints; unknown when no viewpoint is known", () => {
    expect(visitsDistinctViewpoints(A.trace)).toBe(false);
    expect(visitsDistinctViewpoints(B.trace)).toBe(true);
    expect(visitsDistinctViewpoints(D.trace)).toBeNull();
  });

  it("view diversity has one definition for every item: a state without a viewpoint is unknown, never its own viewpoint", () => {
    // one known camera position and a state that names none: not settled either way
    expect(visitsDistinctViewpoints([at(0, "p1"), at(1, null)])).toBeNull();
    expect(visitsDistinctViewpoints([at(0, "p1"), at(1, null), at(2, "p2")])).toBe(true);
    expect(visitsDistinctViewpoints([at(0, "p1"), at(1, "p1")])).toBe(false);
  });

  it("contrastive view: a state reached by acting, never the initial state", () => {
    // the initial view is marked contrastive: seeing it is not seeking it
    expect(seesContrastiveView([at(0, "v0", true), at(1, "v1")])).toBe(false);
    // a refused action that stays in the contrastive initial state
    expect(seesContrastiveView([at(0, "v0", true), at(1, "v0", true, false, "s0")])).toBe(false);
    // turning away and back to the initial state
    expect(seesContrastiveView([at(0, "v0", true), at(1, "v0"), at(2, "v0", true, true, "s0")])).toBe(false);
    // a contrastive state reached by an accepted action
    expect(seesContrastiveView([at(0, "v0", true), at(1, "v1", true)])).toBe(true);
    // a simulator (no state ids): the initial reply does not count, a later one does
    expect(seesContrastiveView([at(0, null, true, true, null)])).toBe(false);
    expect(seesContrastiveView([at(0, null, true, true, null), at(1, null, true, true, null)])).toBe(true);
  });

  it("contrastive view: a marked state or a step labelled contrastive", () => {
    expect(seesContrastiveView(A.trace)).toBe(false);
    expect(seesContrastiveView(B.trace)).toBe(true);
    expect(seesContrastiveView(D.trace)).toBe(false);
    expect(seesContrastiveView(D.trace, D.labelledContrastive)).toBe(true);
  });

  it("belief revision: the answer changes after at least one further observation", () => {
    const all = looked(1, 2, 3, 4, 5);
    expect(revisesBelief([belief(0, "3"), belief(4, "5")], all)).toBe(true);
    expect(revisesBelief([belief(0, "3"), belief(0, "4"), belief(0, "5"), belief(3, "5")], all)).toBe(false);
    // a change at the same step replaces the held answer; a later change counts
    expect(revisesBelief([belief(2, "3"), belief(2, "4"), belief(5, "3")], all)).toBe(true);
    // re-stating the same answer later keeps the time it was first given
    expect(revisesBelief([belief(1, "3"), belief(4, "3"), belief(4, "5")], all)).toBe(true);
    // clearing the answer is not a revision by itself
    expect(revisesBelief([belief(1, "3"), belief(3, null), belief(4, "3")], all)).toBe(false);
    expect(revisesBelief([], all)).toBe(false);
  });

  it("belief revision: filling in a second part is not a revision; changing a part already answered is", () => {
    const all = looked(1, 2, 3);
    expect(revisesBelief([belief(0, { A: "left" }), belief(2, { A: "left", C: "right" })], all)).toBe(false);
    expect(revisesBelief([belief(0, { A: "left" }), belief(2, { A: "left", C: "right" }), belief(3, { A: "left", C: "left" })], all)).toBe(true);
    expect(revisesBelief([belief(0, { A: "left" }), belief(2, { A: "right", C: "right" })], all)).toBe(true);
    // C given at step 2 and changed at step 2: no observation between
    expect(revisesBelief([belief(0, { A: "left" }), belief(2, { A: "left", C: "right" }), belief(2, { A: "left", C: "left" })], all)).toBe(false);
  });

  it("belief revision needs a new observation: an accepted action that changed the state", () => {
    // step 1 refused, step 2 accepted but the state stayed (e.g. a wall): nothing new was seen
    const trace = [at(0, "v0"), at(1, "v0", false, false, "s0"), at(2, "v0", false, true, "s0"), at(3, "v1", false, true, "s3")];
    expect(observationSeqs(trace)).toEqual([3]);
    expect(revisesBelief([belief(0, "3"), belief(2, "5")], observationSeqs(trace))).toBe(false);
    expect(revisesBelief([belief(0, "3"), belief(3, "5")], observationSeqs(trace))).toBe(true);
    // a simulator names no states: every accepted action is an observation
    expect(observationSeqs([at(0, null, false, true, null), at(1, null, false, false, null), at(2, null, false, true, null)])).toEqual([2]);
    const refusedOnly: Trajectory = {
      steps: [{ seq: 1, valid: false }],
      trace: [at(0, "v0"), at(1, "v0", false, false, "s0")],
      beliefs: [belief(0, "3", 0.5, false)],
      final: { choice: "5", confidence: 0.5, correct: true },
    };
    expect(measureTrajectory(refusedOnly).beliefRevision).toBe(false);
  });

  it("measures and pools trajectories: steps, invalid-action rate, the three shares with Wilson intervals", () => {
    const measures = [A, B, C, D].map((t) => measureTrajectory(t));
    expect(measures).toEqual([
      { steps: 2, invalid: 1, correct: false, viewDiversity: false, contrastiveView: false, beliefRevision: false },
      { steps: 4, invalid: 0, correct: true, viewDiversity: true, contrastiveView: true, beliefRevision: true },
      { steps: 1, invalid: 0, correct: true, viewDiversity: true, contrastiveView: false, beliefRevision: false },
      { steps: 2, invalid: 0, correct: false, viewDiversity: null, contrastiveView: true, beliefRevision: false },
    ]);
    const summary = summariseTrajectories(measures);
    expect(summary).toMatchObject({ trajectories: 4, stepsMean: 2.25, stepsMedian: 2, invalid: 1, actions: 9, invalidRate: 1 / 9 });
    // Fig. 5: steps to reach a correct answer (B 4 and C 1), beside steps overall
    expect(summary).toMatchObject({ correct: 2, stepsCorrectMean: 2.5, stepsCorrectMedian: 2.5 });
    expect(summariseTrajectories([measures[0]])).toMatchObject({ correct: 0, stepsCorrectMean: null, stepsCorrectMedian: null });
    expect(summary.viewDiversity).toMatchObject({ value: 2 / 3, successes: 2, trials: 3 });
    expect(summary.contrastiveView).toMatchObject({ value: 0.5, successes: 2, trials: 4 });
    expect(summary.beliefRevision).toMatchObject({ value: 0.25, successes: 1, trials: 4 });
    // Wilson 95% for 1 of 4 (R: prop.test(1, 4, correct = FALSE)$conf.int -> 0.04558726 0.69935...)
    expect(summary.beliefRevision.ci![0]).toBeCloseTo(0.0456, 3);
    expect(summary.beliefRevision.ci![1]).toBeCloseTo(0.6994, 3);
    expect(countMetric(0, 0)).toEqual({ value: null, successes: 0, trials: 0, ci: null });
  });

  it("the belief held at each step, the final answer at the last", () => {
    const held = beliefsByStep(B.beliefs, 4, B.final);
    expect(held.map((b) => b?.choice ?? null)).toEqual(["3", "3", "3", "5", "5"]);
    expect(held[4]).toEqual({ step: 4, choice: "5", confidence: 0.9, correct: true });
    expect(beliefsByStep([], 2).every((b) => b === null)).toBe(true);
  });

  it("confidence and accuracy against step, over the trajectories still exploring", () => {
    const points = confidenceAgainstStep([A, B, C]);
    // step 0: A "3" (wrong), B "3" (wrong), C's last belief of step 0 "5" (right)
    expect(points[0]).toEqual({ step: 0, n: 3, meanConfidence: (0.6 + 0.4 + 0.5) / 3, accuracy: 1 / 3 });
    // step 1: A holds 0.6 (wrong), B 0.4 (wrong), C submitted 5 at 0.5 (right)
    expect(points[1]).toEqual({ step: 1, n: 3, meanConfidence: 0.5, accuracy: 1 / 3 });
    expect(points[4]).toEqual({ step: 4, n: 1, meanConfidence: 0.9, accuracy: 1 });
    expect(points.map((p) => p.step)).toEqual([0, 1, 2, 3, 4]);
  });

  it("calibration of intermediate beliefs and of final answers", () => {
    const intermediate = intermediateCalibration([A, B, C, D], 10)!;
    expect(intermediate.n).toBe(7);
    expect(intermediate.meanConfidenceRight).toBeCloseTo((0.8 + 0.5) / 2, 10);
    const final = finalCalibration(
      [A, B, C, D].map((t) => t.final),
      10,
    )!;
    expect(final.n).toBe(4);
    // Brier: mean of (0.6-0)^2, (0.9-1)^2, (0.5-1)^2, (0.7-0)^2
    expect(final.brier).toBeCloseTo((0.36 + 0.01 + 0.25 + 0.49) / 4, 10);
    expect(finalCalibration([{ confidence: null, correct: true }], 10)).toBeNull();
  });
});

describe("ESI belief drafts", () => {
  it("belief_changed sets the answer and confidence, play_step the step; other events are not ESI's", () => {
    const draft = emptyEsiDraft();
    const first = applyEsiEvent(draft, null, { type: "belief_changed", payload: { choice: "Yes", confidence: 40, step: 0, via: "click" } })!;
    expect(first).toEqual({ answer: { draft: "esi", choice: "Yes", step: 0 }, confidence: 40 });
    const moved = applyEsiEvent(first.answer, first.confidence, { type: "play_step", payload: { seq: 3, action: {}, valid: true } })!;
    expect(moved).toEqual({ answer: { draft: "esi", choice: "Yes", step: 3 }, confidence: 40 });
    expect(applyEsiEvent(draft, null, { type: "choice_made", payload: {} })).toBeNull();
    expect(applyEsiEvent(draft, 10, { type: "belief_changed", payload: { choice: 5 } })).toEqual({ answer: draft, confidence: 10 });
  });

  it("an answer needs every part; what is missing is named", () => {
    const options = { A: ["left", "right"], C: ["left", "right"] };
    expect(esiAnswerOf({ draft: "esi", choice: { A: "left" }, step: 0 }, options)).toBeNull();
    expect(esiMissing({ draft: "esi", choice: { A: "left" }, step: 0 }, options)).toBe("Answer part C");
    expect(esiAnswerOf({ draft: "esi", choice: { C: "right", A: "left", Z: "x" }, step: 0 }, options)).toEqual({ choice: { A: "left", C: "right" } });
    expect(esiAnswerOf({ draft: "esi", choice: "Yes", step: 0 }, ["Yes", "No"])).toEqual({ choice: "Yes" });
    expect(esiMissing(emptyEsiDraft(), ["Yes", "No"])).toBe("Choose your answer");
    expect(choiceKey({ C: "left", A: "right" })).toBe("A=right; C=left");
    expect(choiceKey(null)).toBeNull();
  });
});
