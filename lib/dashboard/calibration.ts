import { brierScore, calibrationBins, confidenceByCorrectness, expectedCalibrationError, type CalibrationBin } from "@/lib/stats/calibration";

/**
 * Confidence against correctness: reliability diagram bins, ECE, Brier score and the mean
 * confidence of right and wrong answers, over the answers that have a correctness. Pure.
 */

export interface CalibrationResult {
  /** answers with a correctness, the figures' n */
  n: number;
  /** answers left out because they have no correctness (an item without a key, an answer not graded yet) */
  withoutCorrectness: number;
  bins: CalibrationBin[];
  ece: number;
  brier: number;
  meanConfidenceRight: number | null;
  meanConfidenceWrong: number | null;
  right: number;
  wrong: number;
}

/**
 * Bins follow the study's scale: a 5-point scale normalised to 0, .25, .5, .75, 1 gets 5 bins
 * (one per scale point), a percentage scale 10 of 10 points.
 */
export function binsForScale(scale: "LIKERT_5" | "PERCENT"): number {
  return scale === "LIKERT_5" ? 5 : 10;
}

/**
 * The probability of being right that a stated confidence means. On the 1-5 scale (normalised to
 * c = (v - 1) / 4) 1 is "guessing", which is right as often as chance on the item (the kind's
 * `chance`: 1/options on a choice item; 0 for kinds without one), and 5 "certain":
 * p = chance + (1 - chance) c. A percentage is a stated probability already: p = c.
 */
export function confidenceProbability(scale: "LIKERT_5" | "PERCENT", normalised: number, chance: number | null): number {
  if (scale !== "LIKERT_5") return normalised;
  const floor = chance !== null && chance > 0 && chance < 1 ? chance : 0;
  return floor + (1 - floor) * normalised;
}

/** The 1-5 scale point (bin 0..4) of a normalised confidence. */
export function likertBin(normalised: number): number {
  return Math.min(4, Math.max(0, Math.round(normalised * 4)));
}

/**
 * `correct[i]`: 1 right, 0 wrong, null when answer i has no correctness (left out, counted); null
 * when no answer has one. `binOf` (optional): each answer's bin, for a scale whose points are the
 * bins (lib/stats/calibration.ts calibrationBins).
 */
export function computeCalibration(
  confidences: ArrayLike<number>,
  correct: ArrayLike<number | null>,
  bins: number,
  binOf?: ArrayLike<number>,
): CalibrationResult | null {
  const known: number[] = [];
  const right: number[] = [];
  const assigned: number[] | undefined = binOf ? [] : undefined;
  for (let i = 0; i < confidences.length; i++) {
    const value = correct[i];
    if (value === null) continue;
    known.push(confidences[i]);
    right.push(value);
    assigned?.push(binOf![i]);
  }
  if (known.length === 0) return null;
  const split = confidenceByCorrectness(known, right);
  return {
    n: known.length,
    withoutCorrectness: confidences.length - known.length,
    bins: calibrationBins(known, right, bins, assigned),
    ece: expectedCalibrationError(known, right, bins, assigned),
    brier: brierScore(known, right),
    meanConfidenceRight: split.correct.meanConfidence,
    meanConfidenceWrong: split.incorrect.meanConfidence,
    right: split.correct.count,
    wrong: split.incorrect.count,
  };
}
