import { z } from "zod";
import { kendallTauDistance } from "@/lib/stats/kendall-tau-distance";
import { viewArray } from "@/lib/tasks/shared/view-fields";
import type { AgreementEncoding, Json, KindAgentContract, KindDashboardWords, MetricSpec } from "@/lib/tasks/types";

/**
 * What enact-forward and enact-inverse share: answers are orders (permutations of candidate
 * indices), scored by the ENACT online verifier (Wang et al. 2025, "ENACT: Evaluating Embodied
 * Cognition with World Modeling of Egocentric Interaction", arXiv:2511.20937; the authors'
 * `enact/core/evaluators.py` in mll-lab-nu/ENACT). Pure functions only.
 */

/** An answer to either ENACT kind: 0-based indices into the item's shuffled candidates. */
export interface EnactOrderAnswer {
  order: number[];
}

/** Per-item score, also what `yardstick score` prints per item (after the id). */
export interface EnactScore {
  /** exact, or semantically equivalent (equal length, every step's local check passes; no permutation is asked, as in the release) */
  accepted: boolean;
  /** the order equals the key's order */
  exact: boolean;
  /**
   * Steps whose local check passes; L when accepted. For answers of another length: the pairs
   * of the best monotone alignment, scaled by L / max(L, n) so that correctPairs / L is the
   * authors' dp[m][n] / max(m, n) (fractional when the answer is longer than L).
   */
  correctPairs: number;
  /** length of the reference order (number of actions) */
  L: number;
  /** false when the key has no symbolic states (forward) or change sets (inverse): exact index match only */
  semanticAvailable: boolean;
}

// ---------------------------------------------------------------------------------------------
// Orders

/** True when `order` holds each of 0..order.length-1 exactly once. */
export function isPermutation(order: readonly number[]): boolean {
  const seen = new Set<number>();
  for (const index of order) {
    if (!Number.isInteger(index) || index < 0 || index >= order.length || seen.has(index)) return false;
    seen.add(index);
  }
  return true;
}

function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** A valid candidate index for an item with `count` candidates, else null. */
export function candidateIndex(value: number, count: number): number | null {
  return Number.isInteger(value) && value >= 0 && value < count ? value : null;
}

/** Key order: a permutation of 0..L-1 (L >= 1). */
export const keyOrderSchema = z
  .array(z.number().int().nonnegative())
  .min(1, "order needs at least one index")
  .superRefine((order, ctx) => {
    if (!isPermutation(order)) {
      ctx.addIssue({
        code: "custom",
        message: `order must be a permutation of 0..${order.length - 1} (each index once); got [${order.join(", ")}]`,
      });
    }
  });

/**
 * What annotators submit: a permutation of 0..n-1. The item's length is checked by
 * `answerSchemaFor(item)`, which every kind builds from this schema.
 */
export const ENACT_MAX_ORDER = 100;

/** The length first (an oversized answer costs no parsing), then the permutation. */
const answerOrderSchema = z
  .unknown()
  .refine((value) => !Array.isArray(value) || value.length <= ENACT_MAX_ORDER, { message: `order has at most ${ENACT_MAX_ORDER} indices`, abort: true })
  .pipe(keyOrderSchema);

export const enactOrderAnswerSchema = z.strictObject({ order: answerOrderSchema });

/**
 * The ENACT kinds' agent contract: `instructions` say what is ordered; the trivial
 * answer is the candidates in the order given, { order: [0, 1, ..., n - 1] }.
 */
export function enactAgentContract(instructions: string): KindAgentContract<EnactOrderAnswer> {
  return {
    answerInstructions: instructions,
    exampleAnswer: (view: Json) => {
      const candidates = viewArray(view, "candidates");
      return candidates && candidates.length > 0 ? { order: candidates.map((_, i) => i) } : null;
    },
  };
}

/** The strict per-item answer schema: a permutation with exactly `length` entries. */
export function enactOrderAnswerSchemaFor(length: number): z.ZodType<EnactOrderAnswer> {
  return enactOrderAnswerSchema.superRefine((answer, ctx) => {
    if (answer.order.length !== length) {
      ctx.addIssue({
        code: "custom",
        path: ["order"],
        message: `order must place all ${length} candidates; got ${answer.order.length} entries`,
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Facts and change sets

/** A symbolic fact true in a state, e.g. "Open(fridge)". */
export const factSchema = z.string().min(1, "a fact cannot be empty");

/** A change: "+f" (f became true) or "-f" (f stopped being true). */
export const changeSchema = z.string().regex(/^[+-]\S/, 'a change is "+" or "-" followed by a fact, e.g. "+Open(fridge)"');

/** A change set; it cannot hold both "+f" and "-f" (no diff of two states can). */
export const changeSetSchema = z.array(changeSchema).superRefine((changes, ctx) => {
  const set = new Set(changes);
  for (const change of set) {
    if (change.startsWith("+") && set.has(negateChange(change))) {
      ctx.addIssue({
        code: "custom",
        message: `a change set cannot hold both "${change}" and "${negateChange(change)}"`,
      });
    }
  }
});

export function negateChange(change: string): string {
  return (change.startsWith("+") ? "-" : "+") + change.slice(1);
}

export function factOfChange(change: string): string {
  return change.slice(1);
}

/** The diff of states s and t: {"+f" : f in t \ s} U {"-f" : f in s \ t}. */
export function stateDiff(s: readonly string[], t: readonly string[]): Set<string> {
  const before = new Set(s);
  const after = new Set(t);
  const changes = new Set<string>();
  for (const fact of after) if (!before.has(fact)) changes.add(`+${fact}`);
  for (const fact of before) if (!after.has(fact)) changes.add(`-${fact}`);
  return changes;
}

/** The changes whose fact is not hidden (the visible subset C_i of a full change set F_i). */
export function visibleChanges(changes: Iterable<string>, hidden: ReadonlySet<string>): Set<string> {
  const visible = new Set<string>();
  for (const change of changes) if (!hidden.has(factOfChange(change))) visible.add(change);
  return visible;
}

export function isSubset(subset: Iterable<string>, superset: ReadonlySet<string>): boolean {
  for (const element of subset) if (!superset.has(element)) return false;
  return true;
}

/**
 * A predicted change set contradicts a reference one when it asserts the opposite of a reference
 * change: "+f" predicted where the reference step has "-f", or the reverse. ENACT's verifier
 * rejects such steps. Under the subset checks below this is already a failure for well-formed
 * change sets (a diff never holds both "+f" and "-f", and the schemas refuse keys that do), so
 * the explicit check is a guard that keeps the rule true if a local check is ever relaxed (the
 * authors' inverse alignment, for one, also accepts "reference subset of predicted").
 */
export function contradicts(predicted: Iterable<string>, reference: ReadonlySet<string>): boolean {
  for (const change of predicted) if (reference.has(negateChange(change))) return true;
  return false;
}

export function sortedChanges(changes: Iterable<string>): string[] {
  return [...changes].sort();
}

// ---------------------------------------------------------------------------------------------
// Scoring

/**
 * Maximum number of satisfied pairs in a monotone alignment of `referenceLength` reference steps
 * with `predictedLength` predicted steps (the authors' `_calculate_pairwise_accuracy_with_alignment`:
 * dp[i][j] = max(dp[i-1][j], dp[i][j-1], dp[i-1][j-1] + 1 if pair (i, j) is satisfied)).
 * O(m * n) time, O(n) memory.
 */
export function alignedPairs(referenceLength: number, predictedLength: number, satisfied: (referenceStep: number, predictedStep: number) => boolean): number {
  let previous = new Array<number>(predictedLength + 1).fill(0);
  for (let i = 1; i <= referenceLength; i++) {
    const current = new Array<number>(predictedLength + 1).fill(0);
    for (let j = 1; j <= predictedLength; j++) {
      current[j] = Math.max(previous[j], current[j - 1]);
      if (satisfied(i - 1, j - 1)) current[j] = Math.max(current[j], previous[j - 1] + 1);
    }
    previous = current;
  }
  return previous[predictedLength];
}

/**
 * The verifier's per-item decision, shared by both kinds. `predictedSteps[k]` is what the answer
 * puts at step k (a change set, or a candidate index for index-only items; null when the answer
 * makes that step undefined), and `passes(i, step)` is the local check of a predicted step against
 * reference step i. `predictedSteps` may be shorter than the answer: the released inverse verifier
 * drops labels that name no action and closes up the rest, while it still judges the length by the
 * labels given. `alignPasses` (default `passes`) is the check the alignment uses.
 *
 * - the answer as long as the reference: per-step checks; accepted = exact, or every step passes
 *   (as many predicted steps as reference steps). No permutation is asked: neither the paper's
 *   semantic acceptance nor the released verifier asks one (an annotator's answer is one anyway);
 * - another length: never accepted; pairs from the best monotone alignment of the predicted steps
 *   (dp / max(m, n)).
 */
export function scoreOrder<Step>(args: {
  referenceOrder: readonly number[];
  answerOrder: readonly number[];
  predictedSteps: ReadonlyArray<Step | null>;
  passes: (referenceStep: number, predicted: Step | null) => boolean;
  alignPasses?: (referenceStep: number, predicted: Step | null) => boolean;
  semanticAvailable: boolean;
}): EnactScore {
  const { referenceOrder, answerOrder, predictedSteps, passes, semanticAvailable } = args;
  const L = referenceOrder.length;
  const m = predictedSteps.length;
  const exact = sameOrder(answerOrder, referenceOrder);
  if (answerOrder.length === L) {
    let passed = 0;
    for (let i = 0; i < Math.min(L, m); i++) if (passes(i, predictedSteps[i])) passed++;
    const accepted = exact || (m === L && passed === L);
    return { accepted, exact, correctPairs: accepted ? L : passed, L, semanticAvailable };
  }
  const align = args.alignPasses ?? passes;
  const pairs = alignedPairs(L, m, (i, k) => align(i, predictedSteps[k]));
  const correctPairs = m > L ? (pairs * L) / m : pairs;
  return { accepted: false, exact: false, correctPairs, L, semanticAvailable };
}

/** Index-only fallback (no states / change sets): a step passes when it holds the key's index. */
export function scoreByIndex(referenceOrder: readonly number[], answerOrder: readonly number[]): EnactScore {
  return scoreOrder<number>({
    referenceOrder,
    answerOrder,
    predictedSteps: answerOrder.map((index) => candidateIndex(index, referenceOrder.length)),
    passes: (i, index) => index !== null && index === referenceOrder[i],
    semanticAvailable: false,
  });
}

/**
 * TA = mean of accepted; PA = sum of correct pairs / sum of L (the paper's micro-average); PA_item
 * = the mean over items of correct pairs / L, what the released report prints as
 * pairwise_accuracy (evaluators.py report_overall_score: np.mean of the items' ratios).
 */
export function aggregateEnact(scores: readonly EnactScore[]): Record<string, number | null> {
  if (scores.length === 0) return { TA: null, PA: null, PA_item: null };
  const accepted = scores.filter((score) => score.accepted).length;
  const correctPairs = scores.reduce((sum, score) => sum + score.correctPairs, 0);
  const steps = scores.reduce((sum, score) => sum + score.L, 0);
  const ratios = scores.filter((score) => score.L > 0);
  return {
    TA: accepted / scores.length,
    PA: steps > 0 ? correctPairs / steps : null,
    PA_item: ratios.length > 0 ? ratios.reduce((sum, score) => sum + score.correctPairs / score.L, 0) / ratios.length : null,
  };
}

export const enactMetrics: MetricSpec[] = [
  {
    id: "TA",
    label: "Task accuracy",
    type: "proportion",
    description:
      "Share of items whose order is accepted by ENACT's online verifier: exact, or of equal length with every step's reference change reproduced (semantic match).",
  },
  {
    id: "PA",
    label: "Pairwise accuracy",
    type: "ratio",
    description:
      "Steps whose local check passes over all steps (micro-average: sum of correct pairs / sum of L, as the paper pools them); accepted answers count all L; answers of another length by the best monotone alignment.",
  },
  {
    id: "PA_item",
    label: "Pairwise accuracy, per item (released report)",
    type: "ratio",
    description:
      "The mean over items of each item's share of passing steps (correct pairs / L), what ENACT's released evaluator reports as pairwise_accuracy (report_overall_score); the paper's PA pools steps instead, so long items weigh more there.",
  },
];

/**
 * ENACT's words on the shared dashboard cards: the agreement plan is its human study's design
 * (Wang et al. 2025, App. B.1.2), whose human TA / PA come from the main annotation.
 */
export const enactDashboardWords: KindDashboardWords = {
  agreementPlan: {
    name: "ENACT's design",
    origin: "the ENACT human study",
    paper:
      "The paper's human TA / PA come from the main annotation. Differences from the paper: it had three annotators on disjoint work, so each plan item got exactly three labels; here every plan item goes to every annotator of the study, however many, and with overlap an item may already hold more than one main answer.",
  },
  planAnswersLeftOut: ", as in ENACT's table",
  planAnswersIncluded: " (the paper reports human TA / PA from the main annotation only)",
};

// ---------------------------------------------------------------------------------------------
// Model answers

/** ENACT's list pattern (`_parse_answer_string`: r'\[[\d\s,]+\]'); the evaluator takes the last match. */
const listPattern = /\[[\d\s,]+\]/g;
/**
 * What Python's ast.literal_eval reads as a list of ints from such a match: "[3, 1, 2]", "[3,1,2,]",
 * "[00, 1]" (a run of zeros is the literal 0); not "[3 1 2]", "[,1]", "[01]".
 */
const pythonIntList = /^\[\s*(?:(?:0+|[1-9]\d*)\s*(?:,\s*(?:0+|[1-9]\d*)\s*)*,?\s*)?\]$/;

/**
 * The released normalisation of a bracketed list: labels containing 0 are taken as 0-based (each
 * + 1), then a list whose smallest label is above 1 is shifted down to start at 1; 1-based labels
 * become 0-based indices.
 */
function labelsToOrder(labels: number[]): EnactOrderAnswer {
  let shifted = labels;
  if (Math.min(...shifted) === 0) shifted = shifted.map((label) => label + 1);
  const smallest = Math.min(...shifted);
  if (smallest > 1) shifted = shifted.map((label) => label - (smallest - 1));
  return { order: shifted.map((label) => label - 1) };
}

/** 1-based labels taken as they are (the release's fallback and list inputs): 0-based indices, a 0 becoming -1 (no candidate). */
const asGiven = (labels: readonly number[]): EnactOrderAnswer => ({ order: labels.map((label) => label - 1) });

/**
 * A model's prediction (imported model runs) read as ENACT's released evaluator reads it
 * (enact/core/evaluators.py `_parse_answer_string`), given the reference length when the item is
 * known:
 * - a string: the last `[d, d, ...]` match, read as a Python list; when it is longer than the
 *   reference, only its last `referenceLength` labels are kept; then normalised (labelsToOrder).
 *   Without such a list (or one Python cannot read, "[3 1 2]"), every integer in the text is a
 *   1-based label as it is, neither cut nor shifted ("Image 3 comes after image 1" is [3, 1]);
 * - an array of integers: 1-based labels as they are (the release returns a list unchanged, an
 *   empty one included); one with a negative entry is refused (the release's forward verifier
 *   would index its storyboard from the end, Python's negative index);
 * - `{ "order": [...] }`: 0-based indices, taken as they are (Yardstick's own answer shape).
 * Lists of another length or with repeats are kept, and a label 0 is index -1: the scorers read
 * them as the released verifiers do (forward: label 0 is the initial observation; inverse: labels
 * outside 1..L are dropped). Null when nothing can be read (the release skips such an item; the
 * import refuses the line).
 */
export function parseEnactModelAnswer(raw: unknown, referenceLength?: number): EnactOrderAnswer | null {
  if (typeof raw === "string") {
    const matches = raw.match(listPattern);
    const last = matches ? matches[matches.length - 1] : null;
    if (last !== null && pythonIntList.test(last)) {
      let labels = (last.match(/\d+/g) ?? []).map(Number);
      if (referenceLength !== undefined && labels.length > referenceLength) labels = labels.slice(labels.length - referenceLength);
      if (labels.length > 0 && labels.every(Number.isSafeInteger)) return labelsToOrder(labels);
    }
    const numbers = (raw.match(/\d+/g) ?? []).map(Number);
    return numbers.length > 0 && numbers.every(Number.isSafeInteger) ? asGiven(numbers) : null;
  }
  if (Array.isArray(raw)) {
    // an empty list too: the release returns it as it is and scores it (no pair)
    return raw.every((value) => Number.isSafeInteger(value) && value >= 0) ? asGiven(raw as number[]) : null;
  }
  if (raw !== null && typeof raw === "object" && "order" in raw) {
    const order = (raw as { order: unknown }).order;
    if (Array.isArray(order) && order.every((value) => Number.isSafeInteger(value) && value >= 0)) {
      return { order: [...(order as number[])] };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Agreement

/**
 * Distance between two orders for the item-kendall encoding, used by alpha as delta^2: the
 * normalised Kendall tau distance (discordant candidate pairs over n(n-1)/2, on rank vectors).
 * Not squared again: Kendall's distance already is a squared Euclidean distance (between the 0/1
 * "which comes first" vectors of the two orders), the counterpart of the interval metric's
 * (a-b)^2 (Krippendorff 2011, section E), and lib/stats/kendall-tau-distance.ts's
 * `kendallTauAlphaMetric()` uses the same convention. Values that are not permutations of the
 * same length (model answers) are at the maximal distance 1.
 */
export function kendallDelta(a: string | number, b: string | number): number {
  if (a === b) return 0;
  try {
    return kendallTauDistance(String(a), String(b));
  } catch {
    return 1;
  }
}

/** positions(order)[c] = the slot at which candidate c was placed (first placement). */
function positions(order: readonly number[]): number[] {
  const rank: number[] = [];
  order.forEach((candidate, slot) => {
    if (rank[candidate] === undefined) rank[candidate] = slot;
  });
  return rank;
}

/**
 * Three encodings of an order for Krippendorff's alpha (DESIGN.md, "Agreement"); the server
 * prefixes each unit suffix with the item id.
 */
export const enactAgreementEncodings: AgreementEncoding<EnactOrderAnswer>[] = [
  {
    id: "slot-nominal",
    label: "Each slot a unit, nominal on the chosen candidate",
    level: "nominal",
    unitNoun: "slot",
    units: (answer) => answer.order.map((candidate, slot) => ({ unit: `slot-${slot}`, value: candidate })),
  },
  {
    id: "slot-ordinal",
    label: "Each candidate a unit, ordinal on the slot it was placed in",
    level: "ordinal",
    unitNoun: "candidate",
    units: (answer) => {
      const rank = positions(answer.order);
      const units: Array<{ unit: string; value: number }> = [];
      rank.forEach((slot, candidate) => {
        if (slot !== undefined) units.push({ unit: `candidate-${candidate}`, value: slot });
      });
      return units;
    },
  },
  {
    id: "item-kendall",
    label: "Each item a unit, normalised Kendall tau distance between orders",
    level: "custom",
    distance: kendallDelta,
    kendallPermutations: true,
    units: (answer) => [{ unit: "", value: answer.order.join(",") }],
  },
];
