import type { AlphaMetric, AlphaUnits } from "@/lib/stats/alpha-coincidences";
import { krippendorffAlpha, reliabilityMatrixToUnits, type AlphaResult, type ReliabilityMatrix } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap, type AlphaBootstrapOptions, type AlphaBootstrapResult } from "@/lib/stats/krippendorff-alpha-bootstrap";
import type { Rng } from "@/lib/stats/rng";
import { wilsonInterval, type WilsonInterval } from "@/lib/stats/wilson-interval";

export interface PairwiseAlphaEntry {
  /** Row indices of the two coders in the reliability matrix (a < b). */
  a: number;
  b: number;
  result: AlphaResult;
}

export interface PairwiseAlphaResult {
  /** coders x coders; [a][b] = [b][a] = alpha of the pair, null on the diagonal or when undefined. */
  matrix: (number | null)[][];
  /** One entry per pair a < b, in row-major order. */
  pairs: PairwiseAlphaEntry[];
}

/**
 * Pairwise Krippendorff's alpha: alpha for every pair of coders, each on the units both of them
 * coded (the other coders' values ignored), as a symmetric matrix plus a list of pairs.
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability" (alpha on the two-row
 * reliability matrix of each pair).
 * O(C^2 x (U + V^2)) for C coders and U units.
 * @throws {Error} "pairwiseAlpha requires at least 2 coders", and on values that do not suit the level
 * @example
 * pairwiseAlpha([[1, 2, 3], [1, 2, 3], [1, 2, 1]], "nominal").matrix[0][1]; // 1
 */
export function pairwiseAlpha(matrix: ReliabilityMatrix, metric: AlphaMetric): PairwiseAlphaResult {
  reliabilityMatrixToUnits(matrix, "pairwiseAlpha"); // validates shape
  const C = matrix.length;
  const out: (number | null)[][] = Array.from({ length: C }, () => new Array<number | null>(C).fill(null));
  const pairs: PairwiseAlphaEntry[] = [];
  for (let a = 0; a < C; a++) {
    for (let b = a + 1; b < C; b++) {
      const result = krippendorffAlpha([matrix[a], matrix[b]], metric);
      out[a][b] = result.alpha;
      out[b][a] = result.alpha;
      pairs.push({ a, b, result });
    }
  }
  return { matrix: out, pairs };
}

export interface PerfectAgreementResult {
  /** Pairable units (at least two values) on which every value is identical. */
  agreeing: number;
  /** Pairable units. */
  units: number;
  /** agreeing / units, or null when there are no pairable units. */
  share: number | null;
  /** 95% Wilson score interval of the share, or null when there are no pairable units. */
  interval: WilsonInterval | null;
}

/**
 * Perfect agreement share: the share of units with at least two values on which all coders gave
 * exactly the same value (=== equality; nulls ignored), with a 95% Wilson interval.
 * Source: the "perfect agreement" count reported beside alpha in human studies (e.g. ENACT:
 * 184 of 240 items); Wilson 1927 for the interval.
 * O(R) for R ratings.
 * @example
 * perfectAgreementShare([[1, 1, 1], [2, 3], [4]]).share; // 0.5
 */
export function perfectAgreementShare(units: AlphaUnits): PerfectAgreementResult {
  if (!Array.isArray(units)) throw new Error("perfectAgreementShare requires an array of units");
  let agreeing = 0;
  let pairable = 0;
  for (const unit of units) {
    let first: unknown = null;
    let m = 0;
    let same = true;
    for (const v of unit) {
      if (v === null || v === undefined) continue;
      if (m === 0) first = v;
      else if (v !== first) same = false;
      m++;
    }
    if (m < 2) continue;
    pairable++;
    if (same) agreeing++;
  }
  if (pairable === 0) return { agreeing: 0, units: 0, share: null, interval: null };
  return { agreeing, units: pairable, share: agreeing / pairable, interval: wilsonInterval(agreeing, pairable) };
}

export interface AgreementSummary {
  alpha: AlphaBootstrapResult;
  pairwise: PairwiseAlphaResult;
  perfectAgreement: PerfectAgreementResult;
}

/**
 * Agreement summary: the agreement block of a human-study report for a reliability matrix:
 * alpha with its bootstrap CI (unit resampling, 1,000 resamples, 95% unless options say
 * otherwise), pairwise alphas and the perfect-agreement share.
 * Source: Krippendorff 2011 (alpha); Hayes & Krippendorff 2007 and Efron & Tibshirani 1993 (CI);
 * Wilson 1927 (share interval).
 * O(resamples x (U + V^2) + C^2 x (U + V^2)).
 * @throws {Error} "agreementSummary requires at least 2 coders", and as the functions it calls
 * @example
 * agreementSummary(matrix, "ordinal", mulberry32(1)).alpha.ci;
 */
export function agreementSummary(matrix: ReliabilityMatrix, metric: AlphaMetric, rng: Rng, options: AlphaBootstrapOptions = {}): AgreementSummary {
  const units = reliabilityMatrixToUnits(matrix, "agreementSummary");
  return {
    alpha: krippendorffAlphaBootstrap(units, metric, rng, { coders: matrix.length, ...options }),
    pairwise: pairwiseAlpha(matrix, metric),
    perfectAgreement: perfectAgreementShare(units),
  };
}
