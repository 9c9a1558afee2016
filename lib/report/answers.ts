import "server-only";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { findReportingAnswersBySlug, setReportingAnswers } from "@/lib/repos/report";
import { reportingAnswersOf, reportingAnswersSchema, type ReportingAnswers } from "@/lib/validations/reporting";

/**
 * The report's answers only a person can give (Study.reportingAnswers): asked once on the
 * Settings tab, changeable once the study has answers (they describe the study, they steer nothing
 * of the work), carried into the report by lib/report/facts.ts.
 */

export async function getReportingAnswers(slug: string): Promise<ReportingAnswers> {
  const study = await findReportingAnswersBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return reportingAnswersOf(study.reportingAnswers);
}

/** Answers with neither a choice nor words are left out, so that the report says "not reported" for them. */
function withoutEmpty(input: ReportingAnswers): ReportingAnswers {
  const answers = Object.fromEntries(
    Object.entries(input.answers).filter(([, answer]) => answer && (answer.choice !== undefined || answer.detail !== undefined)),
  );
  return { answers, compensation: input.compensation };
}

/** Replaces the study's answers (the form sends them all); one audit entry with the entries that changed. */
export async function updateReportingAnswers(slug: string, raw: unknown, actorId: string): Promise<ReportingAnswers> {
  const input = withoutEmpty(reportingAnswersSchema.parse(raw));
  const study = await findReportingAnswersBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const before = reportingAnswersOf(study.reportingAnswers);
  const numbers = new Set([...Object.keys(before.answers), ...Object.keys(input.answers)]) as Set<keyof ReportingAnswers["answers"]>;
  const changed = [...numbers].filter((n) => JSON.stringify(before.answers[n]) !== JSON.stringify(input.answers[n]));
  const compensationChanged = JSON.stringify(before.compensation) !== JSON.stringify(input.compensation);
  if (changed.length === 0 && !compensationChanged) return input;
  await setReportingAnswers(study.id, input);
  await recordAudit(actorId, "study.reporting", `study:${study.id}`, { slug, entries: changed.sort(), compensation: compensationChanged });
  return input;
}
