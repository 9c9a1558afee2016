import "server-only";
import { findReportingAnswersById } from "@/lib/repos/report";
import { reportingAnswersOf } from "@/lib/validations/reporting";

/**
 * What the baseliners were paid, for the checklist's 2.7 entries. One function reads it, so that
 * the source can change in one place: today the study's own Reporting answers (Settings); the
 * recruitment platform's records (rewards, bonuses paid) when the study is synced with one.
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

export async function compensationFacts(studyId: string): Promise<CompensationFacts> {
  const row = await findReportingAnswersById(studyId);
  const stated = reportingAnswersOf(row?.reportingAnswers).compensation;
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
