import { brierScore, calibrationBins, confidenceByCorrectness, expectedCalibrationError, type CalibrationBin } from "@/lib/stats/calibration";

/**
 * Confidence against correctness: reliability diagram bins, ECE, Brier score and the mean
 * confidence of right and wrong answers. Pure.
 */

export interface CalibrationResult {
  n: number;
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
 * (one per scale point: (0, .2], (.2, .4], ...), a percentage scale 10.
 */
export function binsForScale(scale: "LIKERT_5" | "PERCENT"): number {
  return scale === "LIKERT_5" ? 5 : 10;
}

export function computeCalibration(confidences: ArrayLike<number>, correct: ArrayLike<number>, bins: number): CalibrationResult | null {
  if (confidences.length === 0) return null;
  const split = confidenceByCorrectness(confidences, correct);
  return {
    n: confidences.length,
    bins: calibrationBins(confidences, correct, bins),
    ece: expectedCalibrationError(confidences, correct, bins),
    brier: brierScore(confidences, correct),
    meanConfidenceRight: split.correct.meanConfidence,
    meanConfidenceWrong: split.incorrect.meanConfidence,
    right: split.correct.count,
    wrong: split.incorrect.count,
  };
}
