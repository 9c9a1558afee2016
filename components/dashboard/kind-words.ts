import { count } from "@/components/dashboard/format";
import type { KindInfo } from "@/lib/dashboard/accuracy";
import type { KindDashboardWords, MetricSpec } from "@/lib/tasks/types";

/**
 * The words of shared dashboard cards that belong to a benchmark: taken from the
 * study's kinds (KindInfo.words, the module's dashboardWords; the metrics' ids, scales and
 * ranges), never written here, so that a choice study's dashboard reads no ENACT or EXPLORE-Bench
 * terms. A kind's words are used when every kind of the study gives the same ones.
 */

/** The words every kind gives alike, or null when one gives none or another. */
export function sharedWords<K extends keyof KindDashboardWords>(kinds: readonly Pick<KindInfo, "words">[], key: K): NonNullable<KindDashboardWords[K]> | null {
  if (kinds.length === 0) return null;
  const first = kinds[0].words?.[key];
  if (first === undefined) return null;
  const same = JSON.stringify(first);
  return kinds.every((kind) => JSON.stringify(kind.words?.[key]) === same) ? (first as NonNullable<KindDashboardWords[K]>) : null;
}

/** The dashboard's note on answers given for the agreement plan, in or out of accuracy. */
export function planAnswersNote(kinds: readonly KindInfo[], planAnswers: number, included: boolean): string {
  return included
    ? `; accuracy and calibration include the ${count(planAnswers)} answers given for the agreement plan${sharedWords(kinds, "planAnswersIncluded") ?? ""}`
    : `; accuracy and calibration come from the main annotation only${sharedWords(kinds, "planAnswersLeftOut") ?? ""}: the ${count(planAnswers)} answers given for the agreement plan feed the agreement figures`;
}

/** The kinds' metrics, each id once, in the kinds' order. */
export function metricsOf(kinds: readonly Pick<KindInfo, "metrics">[]): MetricSpec[] {
  const seen = new Map<string, MetricSpec>();
  for (const kind of kinds) for (const metric of kind.metrics) if (!seen.has(metric.id)) seen.set(metric.id, metric);
  return [...seen.values()];
}

/** "a", "a and b", "a, b and c" */
export function listJoin(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * The metrics shown on their own scale rather than in percent, grouped by their ends:
 * "S_obj, S_uni and S_abn 0-100; S_att, S_rel and S_key 0-5"; "" when every metric is a share.
 */
export function pointsScales(metrics: readonly MetricSpec[]): string {
  const groups = new Map<string, string[]>();
  for (const metric of metrics) {
    if (metric.scale !== "points") continue;
    const range = metric.range ? `${metric.range[0]}-${metric.range[1]}` : "";
    groups.set(range, [...(groups.get(range) ?? []), metric.id]);
  }
  return [...groups].map(([range, ids]) => `${listJoin(ids)}${range ? ` ${range}` : ""}`).join("; ");
}
