import { mulberry32 as mulberryOf, type Rng } from "@/lib/stats/rng";
import type { CrossedAnswer, GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * Crossed studies drawn from known variance components, to measure how often intervals cover the
 * population value (the coverage tests and bench/crossed-coverage.ts). A study draws P people and
 * I items from their populations; person p answers the m items p*m, p*m + 1, ... (mod I), so with
 * P m = I k every item has k answers (m = I: fully crossed).
 * - gaussian: y = mu + a_p + b_i + e, a ~ N(0, sPerson^2), b ~ N(0, sItem^2), e ~ N(0, sResidual^2);
 * - logistic: y ~ Bernoulli(logistic(mu + a_p + b_i)), the residual being the Bernoulli draw.
 * The model answers every item once, fixed given the item: gaussian m_i = modelMu + modelLoading b_i
 * + modelResidual u_i, logistic m_i ~ Bernoulli(logistic(modelMu + modelLoading b_i)).
 * Source: the crossed random-effects model of people and items (e.g. Baayen, Davidson & Bates 2008, "Mixed-effects modeling with crossed random effects for subjects and items", J. Mem. Lang. 59(4)).
 */

export interface CrossedSpec {
  outcome: "gaussian" | "logistic";
  people: number;
  items: number;
  /** items each person answers (default: all) */
  itemsPerPerson?: number;
  mu: number;
  sPerson: number;
  sItem: number;
  /** gaussian only */
  sResidual?: number;
  model?: { mu: number; loading: number; residual?: number };
}

export interface CrossedStudy {
  answers: CrossedAnswer[];
  /** the model's score on each item (index = item) */
  model: Float64Array;
}

/** A standard normal draw (Box-Muller, one of the pair). */
export function normalDraw(rng: Rng): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

export function simulateCrossedStudy(spec: CrossedSpec, rng: Rng): CrossedStudy {
  const { people, items } = spec;
  const m = Math.min(spec.itemsPerPerson ?? items, items);
  const a = Float64Array.from({ length: people }, () => spec.sPerson * normalDraw(rng));
  const b = Float64Array.from({ length: items }, () => spec.sItem * normalDraw(rng));
  const answers: CrossedAnswer[] = [];
  for (let p = 0; p < people; p++) {
    for (let j = 0; j < m; j++) {
      const i = (p * m + j) % items;
      const eta = spec.mu + a[p] + b[i];
      const num = spec.outcome === "gaussian" ? eta + (spec.sResidual ?? 0) * normalDraw(rng) : rng() < logistic(eta) ? 1 : 0;
      answers.push({ item: i, person: p, num });
    }
  }
  const model = new Float64Array(items);
  if (spec.model) {
    const { mu, loading, residual = 0 } = spec.model;
    for (let i = 0; i < items; i++) {
      const eta = mu + loading * b[i];
      model[i] = spec.outcome === "gaussian" ? eta + residual * normalDraw(rng) : rng() < logistic(eta) ? 1 : 0;
    }
  }
  return { answers, model };
}

/** E[logistic(mu + s Z)], Z standard normal, by the trapezoid rule on [-12, 12] (error far below 1e-9). */
export function logisticNormalMean(mu: number, s: number): number {
  if (s === 0) return logistic(mu);
  const steps = 24_000;
  const h = 24 / steps;
  let sum = 0;
  for (let k = 0; k <= steps; k++) {
    const z = -12 + k * h;
    const w = k === 0 || k === steps ? 0.5 : 1;
    sum += w * logistic(mu + s * z) * Math.exp(-(z * z) / 2);
  }
  return (sum * h) / Math.sqrt(2 * Math.PI);
}

/** The population values a study's figures estimate: people's mean over both populations, the model's over the item population, and their difference. */
export function populationValues(spec: CrossedSpec): { humans: number; model: number; difference: number } {
  const humans = spec.outcome === "gaussian" ? spec.mu : logisticNormalMean(spec.mu, Math.hypot(spec.sPerson, spec.sItem));
  const model = !spec.model ? NaN : spec.outcome === "gaussian" ? spec.model.mu : logisticNormalMean(spec.model.mu, Math.abs(spec.model.loading) * spec.sItem);
  return { humans, model, difference: humans - model };
}

export interface CoverageResult {
  studies: number;
  /** share of studies whose 95% interval holds the population value, per figure and setting */
  humans: { twoWay: number; itemsOnly: number };
  difference: { twoWay: number; itemsOnly: number };
  /** median 95% half-width of people's figure (two-way) */
  medianHalfWidth: number;
}

/**
 * Coverage of the 95% intervals of people's figure (a proportion's Wilson interval for logistic
 * studies, a mean's t interval for gaussian ones) and of the paired difference from the model,
 * over `studies` seeded studies of `spec`.
 */
export function crossedCoverage(spec: CrossedSpec, studies: number, seed: number, intervals: CoverageIntervals): CoverageResult {
  const truth = populationValues(spec);
  const rng = mulberryOf(seed);
  const hits = { humansTwoWay: 0, humansItems: 0, diffTwoWay: 0, diffItems: 0 };
  const halfWidths = new Float64Array(studies);
  const covers = (ci: [number, number] | null, value: number) => (ci !== null && ci[0] <= value && value <= ci[1] ? 1 : 0);
  for (let s = 0; s < studies; s++) {
    const study = simulateCrossedStudy(spec, rng);
    const human = spec.outcome === "logistic" ? intervals.proportion : intervals.mean;
    const both = human(study.answers, "people+items");
    hits.humansTwoWay += covers(both, truth.humans);
    hits.humansItems += covers(human(study.answers, "items"), truth.humans);
    halfWidths[s] = both ? (both[1] - both[0]) / 2 : NaN;
    if (spec.model) {
      const model = Array.from(study.model, (score, item) => ({ item, score }));
      hits.diffTwoWay += covers(intervals.difference(study.answers, model, "people+items"), truth.difference);
      hits.diffItems += covers(intervals.difference(study.answers, model, "items"), truth.difference);
    }
  }
  const sorted = halfWidths.sort();
  return {
    studies,
    humans: { twoWay: hits.humansTwoWay / studies, itemsOnly: hits.humansItems / studies },
    difference: { twoWay: hits.diffTwoWay / studies, itemsOnly: hits.diffItems / studies },
    medianHalfWidth: studies % 2 === 1 ? sorted[(studies - 1) / 2] : (sorted[studies / 2 - 1] + sorted[studies / 2]) / 2,
  };
}

type Interval = [number, number] | null;

/** The interval methods under test (passed in, so the simulation does not depend on which). */
export interface CoverageIntervals {
  proportion(answers: CrossedAnswer[], over: GeneraliseOver): Interval;
  mean(answers: CrossedAnswer[], over: GeneraliseOver): Interval;
  difference(answers: CrossedAnswer[], model: Array<{ item: number; score: number }>, over: GeneraliseOver): Interval;
}

/** The coverage tests' regimes (bench/crossed-coverage.ts prints the same): people-dominated, item-dominated and neither, 20 people x 40 items. */
export const COVERAGE_REGIMES: Record<"people" | "items" | "neither", { sPerson: number; sItem: number }> = {
  people: { sPerson: 1.2, sItem: 0.3 },
  items: { sPerson: 0.3, sItem: 1.2 },
  neither: { sPerson: 0.7, sItem: 0.7 },
};

/** A regime's study: a proportion (logistic, people's accuracy about 0.6) or a mean (gaussian, residual sd 1), with a model fixed per item that shares part of the items' difficulty. */
export function regimeSpec(
  regime: keyof typeof COVERAGE_REGIMES,
  outcome: CrossedSpec["outcome"],
  size: { people: number; items: number; itemsPerPerson?: number } = { people: 20, items: 40 },
): CrossedSpec {
  const { sPerson, sItem } = COVERAGE_REGIMES[regime];
  return outcome === "logistic"
    ? { outcome, ...size, mu: 0.5, sPerson, sItem, model: { mu: 0.2, loading: 0.8 } }
    : { outcome, ...size, mu: 0, sPerson, sItem, sResidual: 1, model: { mu: -0.1, loading: 0.8, residual: 0.5 } };
}
