/**
 * Mean relative accuracy (MRA) exactly as VSI-Bench's released code computes it, in IEEE double
 * (vision-x-nyu/thinking-in-space, lmms_eval/tasks/vsibench/utils.py, `mean_relative_accuracy`
 * with start .5, end .95, interval .05): num_pts = int((.95 - .5) / .05 + 2) = 10 (the quotient is
 * 8.999999999999998), thresholds = numpy.linspace(.5, .95, 10), MRA = mean over the thresholds t of
 * [|pred - target| / target <= 1 - t].
 */

const START = 0.5;
const END = 0.95;
const INTERVAL = 0.05;

/** Python's int() of (end - start) / interval + 2: 10 points, as in the release. */
export const MRA_POINTS = Math.trunc((END - START) / INTERVAL + 2);

/**
 * numpy.linspace(start, stop, num) as numpy computes it (numpy/_core/function_base.py): step =
 * (stop - start) / (num - 1); y_i = i * step + start; the last point set to stop.
 */
export function linspace(start: number, stop: number, num: number): number[] {
  if (num <= 0) return [];
  if (num === 1) return [start];
  const div = num - 1;
  const delta = stop - start;
  const step = delta / div;
  const points = Array.from({ length: num }, (_, i) => (step === 0 ? (i / div) * delta : i * step) + start);
  points[num - 1] = stop;
  return points;
}

/** The ten confidence thresholds: 0.5, 0.55, ..., 0.8999999999999999, 0.95. */
export const MRA_THRESHOLDS: readonly number[] = Object.freeze(linspace(START, END, MRA_POINTS));

/** The release's abs_dist_norm: |pred - target| / target. */
export function relativeError(pred: number, target: number): number {
  return Math.abs(pred - target) / target;
}

/**
 * MRA of one prediction against a positive target: the share of the ten thresholds t with
 * |pred - target| / target <= 1 - t (a count over ten, so 0, 0.1, ..., 1 exactly as numpy's mean
 * of booleans: count / 10). A non-finite prediction is right at no threshold (0), as in Python.
 */
export function meanRelativeAccuracy(pred: number, target: number): number {
  const error = relativeError(pred, target);
  let hits = 0;
  for (const t of MRA_THRESHOLDS) if (error <= 1 - t) hits++;
  return hits / MRA_THRESHOLDS.length;
}
