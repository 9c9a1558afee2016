/**
 * ESI-Bench's four conditions (../shared/benchmarks/esi.md): a study setting (Study.conditions)
 * that assignment counterbalances per item and person (Assignment.condition). An assignment
 * without a condition (a study without conditions) is played actively. Pure.
 */

export const ESI_CONDITIONS = ["passive-single", "passive-multi", "passive-gt", "active"] as const;
export type EsiCondition = (typeof ESI_CONDITIONS)[number];
export type PassiveCondition = Exclude<EsiCondition, "active">;

/** The paper's table order: passive single / passive multi / active / GT passive. */
export const PAPER_CONDITION_ORDER: readonly EsiCondition[] = ["passive-single", "passive-multi", "active", "passive-gt"];

export const CONDITION_LABELS: Record<EsiCondition, string> = {
  "passive-single": "Passive, single view",
  "passive-multi": "Passive, multi-view",
  "passive-gt": "Passive, reference views",
  active: "Active exploration",
};

export function isEsiCondition(value: unknown): value is EsiCondition {
  return typeof value === "string" && (ESI_CONDITIONS as readonly string[]).includes(value);
}

/** An assignment's condition as ESI plays it: null (no conditions in the study) is active. */
export function effectiveCondition(condition: string | null | undefined): EsiCondition | null {
  if (condition === null || condition === undefined || condition === "") return "active";
  return isEsiCondition(condition) ? condition : null;
}

/** Orders condition names the paper's way, unknown names after, alphabetically. */
export function compareConditions(a: string, b: string): number {
  const ia = (PAPER_CONDITION_ORDER as readonly string[]).indexOf(a);
  const ib = (PAPER_CONDITION_ORDER as readonly string[]).indexOf(b);
  if (ia >= 0 && ib >= 0) return ia - ib;
  if (ia >= 0) return -1;
  if (ib >= 0) return 1;
  return a.localeCompare(b);
}

export function conditionLabel(condition: string): string {
  return isEsiCondition(condition) ? CONDITION_LABELS[condition] : condition;
}

/** A condition named in a model run's name: "GPT-5 [active]" is active. */
const CONDITION_IN_NAME = /\b(passive-single|passive-multi|passive-gt|active)\b/;

/**
 * An imported model prediction's condition: its answer's `condition` when that is one of the four,
 * else a condition named in its run's name ("GPT-5 [passive-gt]"), else null (not named).
 */
export function predictionCondition(answer: unknown, runName: string): EsiCondition | null {
  const claimed = answer !== null && typeof answer === "object" ? (answer as { condition?: unknown }).condition : undefined;
  if (isEsiCondition(claimed)) return claimed;
  const named = CONDITION_IN_NAME.exec(runName)?.[1];
  return isEsiCondition(named) ? named : null;
}
