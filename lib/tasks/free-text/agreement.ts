import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaPigeonhole, pigeonholeAlphaMethod } from "@/lib/stats/krippendorff-alpha-pigeonhole";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * The free-text section's alphas (pure): Krippendorff's alpha, interval level, of grades of the
 * same answers, with a 95% percentile pigeonhole bootstrap interval: the graded answers (each one
 * item) and the graders drawn independently, the LLM judge (one fixed model, coder JUDGE) never
 * drawn; or the answers alone when the study takes its people as the population.
 */

export interface AlphaFigure {
  alpha: number | null;
  reason?: string;
  ci: [number, number] | null;
  /** why there is no interval ("one item": one answer graded; "one person": one grader, over people) */
  ciReason?: string;
  units: number;
  values: number;
  /** human graders in the pairable units */
  people?: number;
  level: "interval";
  /** the interval's method in words */
  method?: string;
}

/** A grade and who gave it: the judge is coder JUDGE, never drawn by the bootstrap. */
export interface Grade {
  grade: number;
  grader: number;
}

export const JUDGE = 0;
const RESAMPLES = 1000;

export function alphaFigure(units: Grade[][], seedKey: string, over: GeneraliseOver): AlphaFigure | null {
  const pairable = units.filter((unit) => unit.length >= 2);
  if (pairable.length === 0) return null;
  const values = pairable.map((unit) => unit.map((g) => g.grade));
  const estimate = krippendorffAlphaFromUnits(values, "interval");
  const result = krippendorffAlphaPigeonhole(
    { metric: "interval", units: values },
    pairable.map((unit) => unit.map((g) => g.grader)),
    pairable.map((_, i) => i),
    () => 0,
    1,
    [[0]],
    mulberry32(seedFromString(seedKey)),
    {
      resamples: RESAMPLES,
      confidence: 0.95,
      over,
      fixedCoders: new Set([JUDGE]),
    },
  ).groups[0];
  return {
    alpha: estimate.alpha,
    ...(estimate.reason ? { reason: estimate.reason } : {}),
    ci: estimate.alpha === null ? null : result.ci,
    ...(estimate.alpha !== null && result.ci === null ? { ciReason: result.reason } : {}),
    units: estimate.units,
    values: estimate.n,
    people: result.people,
    level: "interval",
    method: `${pigeonholeAlphaMethod(over, RESAMPLES)}; each graded answer an item${units.some((unit) => unit.some((g) => g.grader === JUDGE)) ? ", the judge never drawn" : ""}`,
  };
}
