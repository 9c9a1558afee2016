import { alphaCoincidences, type AlphaMetric, type AlphaUnits } from "@/lib/stats/alpha-coincidences";
import { bootstrapOptions } from "@/lib/stats/bootstrap-ci";
import { alphaFromCoincidences } from "@/lib/stats/krippendorff-alpha";
import { alphaWeightedUnitBootstrap, type AlphaBootstrapResult } from "@/lib/stats/krippendorff-alpha-bootstrap";
import type { Rng } from "@/lib/stats/rng";
import { multinomialWeights } from "@/lib/stats/weighted-bootstrap";

export interface ClusterBootstrapResult extends Omit<AlphaBootstrapResult, "method"> {
  method: "cluster-bootstrap";
  /** Clusters that hold at least one pairable unit: the resampled population. */
  clusters: number;
}

/**
 * Cluster bootstrap CI for Krippendorff's alpha: the percentile bootstrap over clusters of units
 * (e.g. items, each holding one unit per slot of its answer), so that units that belong together
 * are drawn together. Each replicate draws as many clusters as there are clusters with at least
 * one pairable unit, with replacement (draw order: randomInt(rng, C) C times), gives every unit the
 * draw count of its cluster as a weight, and recomputes alpha exactly as krippendorffAlpha would on
 * that resampled data (marginals, expected disagreement and, for ordinal, the metric itself).
 * Replicates with undefined alpha are counted and left out; the CI is the type-7 percentile
 * interval. With one unit per cluster this is the unit bootstrap of krippendorffAlphaBootstrap
 * (same draws, same replicates).
 * Why: units cut from one answer (the slots of an ordering) are not independent; resampling them
 * one by one understates the uncertainty. Resampling whole items is the cluster (two-stage)
 * bootstrap of Davison & Hinkley 1997, section 3.8, and matches how human studies resample their
 * items (ENACT: "1,000 resamples of the 240 items").
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability" (alpha); Davison &
 * Hinkley 1997, "Bootstrap Methods and their Application", section 3.8; Efron & Tibshirani 1993,
 * section 13.3 (percentile interval).
 * O(R (U + V^2)) for R resamples, U pairable units and V distinct values (O(R (U + V)) for nominal
 * and interval).
 * @throws {Error} "krippendorffAlphaClusterBootstrap requires one cluster id per unit", and on bad
 *   options or values that do not suit the level
 * @example
 * // two items, each with two slot units
 * krippendorffAlphaClusterBootstrap([[0, 0], [1, 1], [2, 2], [0, 1]], [0, 0, 1, 1], "nominal", mulberry32(1)).ci;
 */
export function krippendorffAlphaClusterBootstrap(
  units: AlphaUnits,
  clusterOf: ArrayLike<number>,
  metric: AlphaMetric,
  rng: Rng,
  options: { resamples?: number; confidence?: number } = {},
): ClusterBootstrapResult {
  const fnName = "krippendorffAlphaClusterBootstrap";
  if (!Array.isArray(units)) throw new Error(`${fnName} requires an array of units`);
  if (!clusterOf || clusterOf.length !== units.length) throw new Error(`${fnName} requires one cluster id per unit`);
  const { resamples, confidence } = bootstrapOptions(options, fnName);
  const co = alphaCoincidences(units, metric, { perUnit: true, fnName });
  const estimate = alphaFromCoincidences(co, fnName);

  // Pairable unit p (in unit order) -> dense cluster index among clusters with a pairable unit.
  const clusterIndex = new Map<number, number>();
  const unitCluster = new Int32Array(co.units);
  let p = 0;
  for (let u = 0; u < units.length; u++) {
    let m = 0;
    for (const v of units[u]) if (v !== null && v !== undefined) m++;
    if (m < 2) continue;
    const id = clusterOf[u];
    if (!Number.isInteger(id)) throw new Error(`${fnName} requires integer cluster ids (unit ${u} has ${String(id)})`);
    let c = clusterIndex.get(id);
    if (c === undefined) {
      c = clusterIndex.size;
      clusterIndex.set(id, c);
    }
    unitCluster[p++] = c;
  }
  const C = clusterIndex.size;
  const pct = Math.round(confidence * 1000) / 10;
  const description = `${pct}% percentile bootstrap over clusters (${resamples} resamples of ${C} clusters with replacement, each with all its units)`;
  const common = { method: "cluster-bootstrap" as const, description, estimate, confidence, resamples, clusters: C, draws: null };
  if (estimate.alpha === null) {
    return { ...common, ci: null, reason: `alpha is undefined on the full data (${estimate.reason})`, undefinedResamples: 0, replicates: new Float64Array(0) };
  }

  const slots = { count: C, slotOfUnit: unitCluster, drawWeights: multinomialWeights(C) };
  return { ...common, ...alphaWeightedUnitBootstrap(co, slots, rng, resamples, confidence, fnName) };
}
