/**
 * Calibration of stated confidence against correctness: reliability-diagram bins, expected
 * calibration error, Brier score and mean confidence of right vs wrong answers.
 */

/** Correctness per answer: true/false or 1/0. */
export type Correctness = ArrayLike<boolean | number>;

export interface CalibrationBin {
  index: number;
  /** Bin b covers (lower, upper] = ((b)/B, (b+1)/B]; the first bin also holds confidence 0. */
  lower: number;
  upper: number;
  count: number;
  /** Mean confidence in the bin, null when empty. */
  meanConfidence: number | null;
  /** Share correct in the bin, null when empty. */
  accuracy: number | null;
}

function checkInputs(confidences: ArrayLike<number>, correct: Correctness, fnName: string): Float64Array {
  const n = confidences.length;
  if (n < 1) throw new Error(`${fnName} requires at least 1 data point`);
  if (correct.length !== n) {
    throw new Error(`${fnName} requires as many correctness values as confidences (got ${correct.length} and ${n})`);
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = confidences[i];
    if (typeof c !== "number" || !(c >= 0 && c <= 1)) {
      throw new Error(`${fnName} requires confidences in [0, 1] (value ${i} is ${String(c)})`);
    }
    const k = correct[i];
    if (k === true || k === 1) y[i] = 1;
    else if (k === false || k === 0) y[i] = 0;
    else throw new Error(`${fnName} requires correctness as true/false or 1/0 (value ${i} is ${String(k)})`);
  }
  return y;
}

function checkBins(bins: number, fnName: string): void {
  if (!Number.isInteger(bins) || bins < 1) throw new Error(`${fnName} requires at least 1 bin`);
}

/** Bin of confidence c among B equal bins ((b)/B, (b+1)/B], 0 in the first; exact at the edges. */
function binOf(c: number, B: number): number {
  let i = Math.ceil(c * B) - 1;
  if (i < 0) i = 0;
  if (i > B - 1) i = B - 1;
  while (i > 0 && c <= i / B) i--;
  while (i < B - 1 && c > (i + 1) / B) i++;
  return i;
}

function checkAssigned(assigned: ArrayLike<number> | undefined, n: number, bins: number, fnName: string): void {
  if (assigned === undefined) return;
  if (assigned.length !== n) throw new Error(`${fnName} requires as many bin indices as confidences (got ${assigned.length} and ${n})`);
  for (let i = 0; i < n; i++) {
    const b = assigned[i];
    if (!Number.isInteger(b) || b < 0 || b >= bins) throw new Error(`${fnName} requires bin indices 0..${bins - 1} (value ${i} is ${String(b)})`);
  }
}

/**
 * Calibration bins (reliability diagram): splits confidence in [0, 1] into B equal bins
 * ((b-1)/B, b/B] (confidence 0 goes to the first) and gives each its count, mean confidence and
 * accuracy; empty bins have null mean and accuracy. `assigned` (optional) gives each answer's bin
 * instead, for a discrete scale whose points are the bins (a 1-5 scale read as probabilities that
 * depend on the item): lower and upper are then the scale's equal steps, not the confidences'.
 * Source: Guo, Pleiss, Sun & Weinberger 2017, "On Calibration of Modern Neural Networks", ICML,
 * section 2 (reliability diagrams, bins I_m = ((m-1)/M, m/M]).
 * O(N + B).
 * @throws {Error} "calibrationBins requires at least 1 data point", confidences outside [0, 1],
 *   mismatched lengths, or bins < 1
 * @example
 * calibrationBins([0.9, 0.8, 0.3], [true, false, false], 2)[1]; // { count: 2, meanConfidence: 0.85, accuracy: 0.5, ... }
 */
export function calibrationBins(confidences: ArrayLike<number>, correct: Correctness, bins = 10, assigned?: ArrayLike<number>): CalibrationBin[] {
  const y = checkInputs(confidences, correct, "calibrationBins");
  checkBins(bins, "calibrationBins");
  checkAssigned(assigned, y.length, bins, "calibrationBins");
  const count = new Float64Array(bins);
  const confSum = new Float64Array(bins);
  const rightSum = new Float64Array(bins);
  for (let i = 0; i < y.length; i++) {
    const b = assigned ? assigned[i] : binOf(confidences[i], bins);
    count[b]++;
    confSum[b] += confidences[i];
    rightSum[b] += y[i];
  }
  const out: CalibrationBin[] = [];
  for (let b = 0; b < bins; b++) {
    out.push({
      index: b,
      lower: b / bins,
      upper: (b + 1) / bins,
      count: count[b],
      meanConfidence: count[b] > 0 ? confSum[b] / count[b] : null,
      accuracy: count[b] > 0 ? rightSum[b] / count[b] : null,
    });
  }
  return out;
}

/**
 * Expected calibration error: ECE = sum_b (n_b / N) |acc_b - conf_b| over B equal-width bins
 * (default 10), the weighted gap between accuracy and mean confidence; `assigned` as in
 * calibrationBins (each answer's bin given).
 * Source: Naeini, Cooper & Hauskrecht 2015, "Obtaining Well Calibrated Probabilities Using
 * Bayesian Binning", AAAI; Guo et al. 2017, section 2, eq. (3).
 * O(N + B).
 * @throws {Error} "expectedCalibrationError requires at least 1 data point", and as calibrationBins
 * @example
 * expectedCalibrationError([0.9, 0.8, 0.3], [true, false, false], 2); // 0.3333333333333333
 */
export function expectedCalibrationError(confidences: ArrayLike<number>, correct: Correctness, bins = 10, assigned?: ArrayLike<number>): number {
  checkInputs(confidences, correct, "expectedCalibrationError");
  checkBins(bins, "expectedCalibrationError");
  const N = confidences.length;
  let ece = 0;
  for (const bin of calibrationBins(confidences, correct, bins, assigned)) {
    if (bin.count > 0) ece += (bin.count / N) * Math.abs(bin.accuracy! - bin.meanConfidence!);
  }
  return ece;
}

/**
 * Brier score: mean squared difference between confidence and outcome (1 correct, 0 wrong);
 * 0 is perfect, 0.25 is what constant 0.5 earns.
 * Source: Brier 1950, "Verification of forecasts expressed in terms of probability", Monthly
 * Weather Review 78(1) (binary form).
 * O(N).
 * @throws {Error} "brierScore requires at least 1 data point", confidences outside [0, 1], mismatched lengths
 * @example
 * brierScore([0.9, 0.8, 0.3], [true, false, false]); // 0.24666666666666667
 */
export function brierScore(confidences: ArrayLike<number>, correct: Correctness): number {
  const y = checkInputs(confidences, correct, "brierScore");
  let sum = 0;
  for (let i = 0; i < y.length; i++) {
    const d = confidences[i] - y[i];
    sum += d * d;
  }
  return sum / y.length;
}

export interface ConfidenceByCorrectness {
  correct: { count: number; meanConfidence: number | null };
  incorrect: { count: number; meanConfidence: number | null };
}

/**
 * Confidence by correctness: mean stated confidence of right answers and of wrong answers (null
 * for a group with no answers); a well-calibrated, discriminating annotator shows a clear gap.
 * Source: descriptive split used beside reliability diagrams (Guo et al. 2017, section 2).
 * O(N).
 * @throws {Error} "confidenceByCorrectness requires at least 1 data point", and as calibrationBins
 * @example
 * confidenceByCorrectness([0.9, 0.8, 0.3], [true, false, false]).incorrect.meanConfidence; // 0.55
 */
export function confidenceByCorrectness(confidences: ArrayLike<number>, correct: Correctness): ConfidenceByCorrectness {
  const y = checkInputs(confidences, correct, "confidenceByCorrectness");
  let nRight = 0;
  let sumRight = 0;
  let sumWrong = 0;
  for (let i = 0; i < y.length; i++) {
    if (y[i] === 1) {
      nRight++;
      sumRight += confidences[i];
    } else {
      sumWrong += confidences[i];
    }
  }
  const nWrong = y.length - nRight;
  return {
    correct: { count: nRight, meanConfidence: nRight > 0 ? sumRight / nRight : null },
    incorrect: { count: nWrong, meanConfidence: nWrong > 0 ? sumWrong / nWrong : null },
  };
}
