import "server-only";
import { prolificCompensation, type ProlificCompensation } from "@/lib/recruitment/prolific/compensation";
import { findReportingAnswersById } from "@/lib/repos/report";
import { reportingAnswersOf } from "@/lib/validations/reporting";

/**
 * What the baseliners were paid, for the checklist's 2.7 entries. One function reads it, so that
 * the source can change in one place: Prolific's records when the study was run on Prolific from
 * Yardstick (the reward and time sent, the bonuses paid), otherwise the study's own Reporting
 * answers (Settings). The currency is the researcher's (Prolific pays in the workspace's, which its
 * API does not name here).
 */

export interface CompensationFacts {
  /** where the figures come from, in words */
  source: string;
  rewardPerPerson: number | null;
  /** ISO 4217, e.g. "GBP" */
  currency: string | null;
  bonusRule: string | null;
  bonusTotal: number | null;
  estimatedMinutes: number | null;
  /** why nothing is known, when nothing is */
  notReported: string | null;
}

export const COMPENSATION_SOURCE = "study settings: Reporting (compensation)";

export const PROLIFIC_COMPENSATION_SOURCE = "Prolific records (the reward and time sent, the bonuses paid from Yardstick)";

/** A bonus rule in words, amounts in major units: "0.10 per correct answer, at most 2.00". */
function bonusRuleText(rules: ProlificCompensation["bonuses"]["rules"]): string | null {
  const words = [
    ...new Set(rules.map((r) => `${(r.perCorrect / 100).toFixed(2)} per correct answer${r.cap !== undefined ? `, at most ${(r.cap / 100).toFixed(2)}` : ""}`)),
  ];
  return words.length > 0 ? words.join("; ") : null;
}

export async function compensationFacts(studyId: string): Promise<CompensationFacts> {
  const [row, prolific] = await Promise.all([findReportingAnswersById(studyId), prolificCompensation(studyId)]);
  const stated = reportingAnswersOf(row?.reportingAnswers).compensation;
  if (prolific)
    return {
      source: PROLIFIC_COMPENSATION_SOURCE,
      rewardPerPerson: prolific.reward / 100,
      currency: stated.currency ?? null,
      bonusRule: bonusRuleText(prolific.bonuses.rules) ?? stated.bonusRule ?? null,
      bonusTotal: prolific.bonuses.participants > 0 ? prolific.bonuses.total / 100 : null,
      estimatedMinutes: prolific.estimatedMinutes,
      notReported: null,
    };
  const facts = {
    rewardPerPerson: stated.rewardPerPerson ?? null,
    currency: stated.currency ?? null,
    bonusRule: stated.bonusRule ?? null,
    bonusTotal: stated.bonusTotal ?? null,
    estimatedMinutes: stated.estimatedMinutes ?? null,
  };
  const none = Object.values(facts).every((value) => value === null);
  return {
    source: COMPENSATION_SOURCE,
    ...facts,
    notReported: none ? "no pay recorded: no recruitment platform's records, and none stated in the study's Reporting settings" : null,
  };
}
