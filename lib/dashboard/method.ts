import { twoWayMethod, type GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * The dashboard's interval methods in words: what they generalise over (the study setting) and
 * which method each kind of figure gets, one line for the page (every view shows it) and the
 * parts for the API and the tooltips.
 */

export interface IntervalMethod {
  over: GeneraliseOver;
  /** the one line the page shows */
  line: string;
  /** proportions (mean of a 0/1 per answer) */
  proportions: string;
  /** means and ratios of sums */
  means: string;
  /** non-linear figures (alpha, Bradley-Terry, means of per-type means, a kind's own metric) */
  nonLinear: string;
  /** the difference between people and a model */
  differences: string;
}

export const PIGEONHOLE_METHOD = "pigeonhole bootstrap (Owen 2007)";

export function intervalMethod(over: GeneraliseOver): IntervalMethod {
  const proportions = twoWayMethod(over, "proportion");
  const means = twoWayMethod(over, "mean");
  const nonLinear =
    over === "people+items"
      ? `percentile ${PIGEONHOLE_METHOD}: people and items drawn independently`
      : `percentile bootstrap over items (these people taken as the population)`;
  const differences = `people minus model on the items both answered, the same variance of the paired difference${over === "people+items" ? " over people and items" : " over items"}, two-sided p from the same t`;
  // one line for every interval on the page: the accuracy and comparison tables, agreement, and the kinds' own sections
  const line =
    over === "people+items"
      ? "95% intervals generalise over people and items (both are samples), in every table and section: shares Wilson at the effective n, means and ratios ± t, both with the two-way cluster-robust variance (Cameron, Gelbach & Miller 2011), t at min(people, items) − 1 df; alpha, Bradley-Terry strengths and other figures a pigeonhole bootstrap (Owen 2007); a model run's over its items; one person's figures none (n/a)."
      : "95% intervals generalise over items only (these people are the population), in every table and section: shares Wilson at the effective n, means and ratios ± t, both with the variance clustered by item, t at items − 1 df; alpha, Bradley-Terry strengths and other figures a bootstrap over items.";
  return { over, line, proportions, means, nonLinear, differences };
}
