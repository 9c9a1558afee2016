import { krippendorffAlphaFromUnits, type AlphaResult } from "@/lib/stats/krippendorff-alpha";
import { axisResult, type KeepRule, type Outcome } from "@/lib/review/rules";

/**
 * Review results as numbers (pure: the database part is lib/review/results.ts): per axis the
 * share of passing votes, the share of decided items the axis passes (by the keep rule), and
 * Krippendorff's alpha across reviewers; the same by tag.
 *
 * Alpha: each item is a unit, each reviewer a coder, the value pass (1) or fail (0), nominal
 * level (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"; lib/stats). Units with
 * one review are not pairable and do not count. When every vote on an axis is the same, alpha is
 * undefined (expected disagreement 0) and is reported as null with the reason, never as 1.
 */

export interface VerdictRow {
  reviewItemId: string;
  axis: string;
  reviewer: string;
  pass: boolean;
}

export interface SummaryItem {
  id: string;
  tags: Record<string, string | number | boolean>;
  outcome: Outcome;
}

export interface AxisSummary {
  axis: string;
  votes: number;
  passVotes: number;
  /** passVotes / votes; null without votes */
  votePassRate: number | null;
  /** items with all their reviews in (not pending) */
  decidedItems: number;
  /** decided items that this axis passes under the keep rule (ties do not pass) */
  passItems: number;
  itemPassRate: number | null;
  alpha: AlphaResult;
}

export interface OutcomeCounts {
  items: number;
  PENDING: number;
  KEPT: number;
  EXCLUDED: number;
  CONTESTED: number;
  /** KEPT / (KEPT + EXCLUDED + CONTESTED): the share of decided items that stay (ESI-Bench: 85.1%) */
  keptRate: number | null;
}

export function outcomeCounts(items: readonly Pick<SummaryItem, "outcome">[]): OutcomeCounts {
  const counts = { items: items.length, PENDING: 0, KEPT: 0, EXCLUDED: 0, CONTESTED: 0 };
  for (const item of items) counts[item.outcome] += 1;
  const decided = counts.KEPT + counts.EXCLUDED + counts.CONTESTED;
  return { ...counts, keptRate: decided > 0 ? counts.KEPT / decided : null };
}

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * Per-axis summaries of a set of items and their verdicts (verdicts of other items are ignored).
 * O(verdicts + items x axes).
 */
export function axisSummaries(axes: readonly string[], items: readonly SummaryItem[], verdicts: readonly VerdictRow[], keepRule: KeepRule): AxisSummary[] {
  const wanted = new Set(items.map((item) => item.id));
  const decided = new Set(items.filter((item) => item.outcome !== "PENDING").map((item) => item.id));
  return axes.map((axis) => {
    // item -> reviewer -> value (a reviewer gives an item one verdict per axis)
    const units = new Map<string, Map<string, number>>();
    let votes = 0;
    let passVotes = 0;
    for (const verdict of verdicts) {
      if (verdict.axis !== axis || !wanted.has(verdict.reviewItemId)) continue;
      votes += 1;
      if (verdict.pass) passVotes += 1;
      const unit = units.get(verdict.reviewItemId) ?? new Map<string, number>();
      unit.set(verdict.reviewer, verdict.pass ? 1 : 0);
      units.set(verdict.reviewItemId, unit);
    }
    let passItems = 0;
    for (const id of decided) {
      const values = [...(units.get(id)?.values() ?? [])];
      if (values.length === 0) continue;
      const pass = values.filter((value) => value === 1).length;
      if (axisResult({ pass, fail: values.length - pass }, keepRule) === "pass") passItems += 1;
    }
    const alpha = krippendorffAlphaFromUnits(
      [...units.values()].map((unit) => [...unit.values()]),
      "nominal",
    );
    return {
      axis,
      votes,
      passVotes,
      votePassRate: rate(passVotes, votes),
      decidedItems: decided.size,
      passItems,
      itemPassRate: rate(passItems, decided.size),
      alpha,
    };
  });
}

export interface TagValueSummary {
  value: string;
  counts: OutcomeCounts;
  axes: AxisSummary[];
}

export interface TagSummary {
  key: string;
  values: TagValueSummary[];
  /** values beyond `maxValues` (e.g. a tag that is an id) are left out */
  omitted: number;
}

function compareTagValues(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== "" && b !== "" && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a.localeCompare(b);
}

/** Per tag key and value: outcome counts and axis summaries of the items with that value. */
export function tagSummaries(
  axes: readonly string[],
  items: readonly SummaryItem[],
  verdicts: readonly VerdictRow[],
  keepRule: KeepRule,
  maxValues = 24,
): TagSummary[] {
  const byKey = new Map<string, Map<string, SummaryItem[]>>();
  for (const item of items) {
    for (const [key, raw] of Object.entries(item.tags)) {
      const value = String(raw);
      const values = byKey.get(key) ?? new Map<string, SummaryItem[]>();
      const group = values.get(value) ?? [];
      group.push(item);
      values.set(value, group);
      byKey.set(key, values);
    }
  }
  const verdictsByItem = new Map<string, VerdictRow[]>();
  for (const verdict of verdicts) {
    const list = verdictsByItem.get(verdict.reviewItemId) ?? [];
    list.push(verdict);
    verdictsByItem.set(verdict.reviewItemId, list);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, values]) => {
      const sorted = [...values.entries()].sort(([a], [b]) => compareTagValues(a, b));
      return {
        key,
        omitted: Math.max(0, sorted.length - maxValues),
        values: sorted.slice(0, maxValues).map(([value, group]) => ({
          value,
          counts: outcomeCounts(group),
          axes: axisSummaries(
            axes,
            group,
            group.flatMap((item) => verdictsByItem.get(item.id) ?? []),
            keepRule,
          ),
        })),
      };
    });
}
