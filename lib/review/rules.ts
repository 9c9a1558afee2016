/**
 * Item verification rules (docs/review.md): how the pass / fail verdicts of an item's reviewers
 * become the item's outcome. Pure functions: no database, no framework.
 *
 * ESI-Bench's protocol (../shared/benchmarks/esi.md): three reviewers judge each item on
 * correctness, answerability and non-triviality; majority vote per axis; an item stays only if it
 * passes all three. The rules below generalise it:
 *
 * - keep rule MAJORITY_ALL_AXES (default): per axis, more passes than fails is a pass, more fails
 *   than passes a fail, as many of each a tie; UNANIMOUS_ALL_AXES: an axis passes only when every
 *   reviewer passes it (one fail fails it; no ties).
 * - the item is EXCLUDED when any axis fails: one failing axis is enough, whatever the others are;
 * - otherwise, when some axis is tied, the tie rule decides: CONTESTED (default; a researcher
 *   decides), FAIL (excluded) or PASS (kept);
 * - otherwise the item is KEPT.
 * - nothing is decided before the item has the study's number of reviews (PENDING): every
 *   outcome rests on the same number of reviews, and a split is only known once all are in.
 *
 * `split` marks items whose reviewers disagree on some axis: they form the contested queue
 * (decided by the majority but worth a researcher's look, or undecidable ties).
 */

export type KeepRule = "MAJORITY_ALL_AXES" | "UNANIMOUS_ALL_AXES";
export type TieRule = "CONTESTED" | "FAIL" | "PASS";
export type Outcome = "PENDING" | "KEPT" | "EXCLUDED" | "CONTESTED";
export type Decision = "KEEP" | "EXCLUDE";
export type AxisResult = "pass" | "fail" | "tie";

export interface AxisVotes {
  pass: number;
  fail: number;
}

export const keepRuleLabels: Record<KeepRule, string> = {
  MAJORITY_ALL_AXES: "Majority passes every axis",
  UNANIMOUS_ALL_AXES: "Every reviewer passes every axis",
};

export const tieRuleLabels: Record<TieRule, string> = {
  CONTESTED: "Tie: a researcher decides",
  FAIL: "Tie: the axis fails",
  PASS: "Tie: the axis passes",
};

/**
 * One axis's result from its votes under the keep rule.
 * @throws {Error} "axisResult requires at least 1 vote" when there are no votes
 * @example
 * axisResult({ pass: 2, fail: 1 }, "MAJORITY_ALL_AXES"); // "pass"
 * axisResult({ pass: 2, fail: 1 }, "UNANIMOUS_ALL_AXES"); // "fail"
 */
export function axisResult(votes: AxisVotes, keepRule: KeepRule): AxisResult {
  if (!(votes.pass >= 0 && votes.fail >= 0) || votes.pass + votes.fail < 1) throw new Error("axisResult requires at least 1 vote");
  if (keepRule === "UNANIMOUS_ALL_AXES") return votes.fail === 0 ? "pass" : "fail";
  if (votes.pass > votes.fail) return "pass";
  if (votes.fail > votes.pass) return "fail";
  return "tie";
}

export interface ItemRuleInput {
  /** votes per axis, in axis order */
  axes: readonly AxisVotes[];
  /** submitted reviews of the item */
  reviews: number;
  /** reviews the study asks for before deciding */
  reviewersPerItem: number;
  keepRule: KeepRule;
  tieRule: TieRule;
}

export interface ItemRuleResult {
  outcome: Outcome;
  /** per axis; null while the item is pending */
  axes: Array<AxisResult | null>;
  /** reviewers disagree on at least one axis */
  split: boolean;
}

/**
 * An item's outcome from its reviewers' votes (see the module comment for the rules).
 * O(axes).
 * @throws {Error} "itemOutcome requires at least 1 axis", and when reviewersPerItem is below 1
 * @example
 * itemOutcome({ axes: [{ pass: 3, fail: 0 }, { pass: 1, fail: 2 }], reviews: 3, reviewersPerItem: 3, keepRule: "MAJORITY_ALL_AXES", tieRule: "CONTESTED" });
 * // { outcome: "EXCLUDED", axes: ["pass", "fail"], split: true }
 */
export function itemOutcome(input: ItemRuleInput): ItemRuleResult {
  if (input.axes.length < 1) throw new Error("itemOutcome requires at least 1 axis");
  if (!Number.isInteger(input.reviewersPerItem) || input.reviewersPerItem < 1) throw new Error("itemOutcome requires reviewersPerItem of at least 1");
  const split = input.axes.some((votes) => votes.pass > 0 && votes.fail > 0);
  if (input.reviews < input.reviewersPerItem || input.axes.some((votes) => votes.pass + votes.fail < 1)) {
    return { outcome: "PENDING", axes: input.axes.map(() => null), split };
  }
  const axes = input.axes.map((votes) => axisResult(votes, input.keepRule));
  let outcome: Outcome;
  if (axes.includes("fail")) outcome = "EXCLUDED";
  else if (axes.includes("tie")) outcome = input.tieRule === "FAIL" ? "EXCLUDED" : input.tieRule === "PASS" ? "KEPT" : "CONTESTED";
  else outcome = "KEPT";
  return { outcome, axes, split };
}

/** The outcome in force: a researcher's decision overrides the rules. */
export function effectiveOutcome(ruleOutcome: Outcome, decision: Decision | null | undefined): Outcome {
  if (decision === "KEEP") return "KEPT";
  if (decision === "EXCLUDE") return "EXCLUDED";
  return ruleOutcome;
}

/**
 * Whether an item belongs in the contested queue: decided by the rules or contested, reviewers
 * split on some axis, and no researcher decision yet.
 */
export function isContested(item: { ruleOutcome: Outcome; split: boolean; decided: boolean }): boolean {
  if (item.decided || item.ruleOutcome === "PENDING") return false;
  return item.ruleOutcome === "CONTESTED" || item.split;
}
