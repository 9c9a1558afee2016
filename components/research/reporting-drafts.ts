import type { ReportingAnswers } from "@/lib/validations/reporting";

/** The Reporting form's drafts (browser-safe, pure): the stored answers as the fields' text, and the PATCH body the fields make. */

export interface AnswerDraft {
  choice: string;
  detail: string;
}

export const COMPENSATION_FIELDS = [
  { name: "rewardPerPerson", label: "Reward per person", hint: "e.g. 9.00", numeric: true },
  { name: "currency", label: "Currency", hint: "ISO code, e.g. GBP", numeric: false },
  { name: "bonusRule", label: "Performance bonus rule", hint: "e.g. 0.10 per correct answer", numeric: false },
  { name: "bonusTotal", label: "Bonuses paid in total", hint: "in the same currency", numeric: true },
  { name: "estimatedMinutes", label: "Estimated time (minutes)", hint: "as advertised to participants", numeric: true },
] as const;

export type CompensationDraft = Record<(typeof COMPENSATION_FIELDS)[number]["name"], string>;

/** The stored answers as the fields' text. */
export function draftsOf(initial: ReportingAnswers): { answers: Record<string, AnswerDraft>; compensation: CompensationDraft } {
  const answers = Object.fromEntries(Object.entries(initial.answers).map(([number, a]) => [number, { choice: a?.choice ?? "", detail: a?.detail ?? "" }]));
  const compensation = Object.fromEntries(
    COMPENSATION_FIELDS.map((field) => [field.name, initial.compensation[field.name] === undefined ? "" : String(initial.compensation[field.name])]),
  ) as CompensationDraft;
  return { answers, compensation };
}

/** The body the drafts make: empty fields left out, numbers read as numbers (what is not one stays text, and the schema names it). */
export function reportingBodyOf(answers: Record<string, AnswerDraft>, compensation: CompensationDraft): unknown {
  const answerBody = Object.fromEntries(
    Object.entries(answers)
      .filter(([, a]) => a.choice !== "" || a.detail.trim() !== "")
      .map(([number, a]) => [number, { ...(a.choice ? { choice: a.choice } : {}), ...(a.detail.trim() ? { detail: a.detail } : {}) }]),
  );
  const compensationBody = Object.fromEntries(
    COMPENSATION_FIELDS.filter((field) => compensation[field.name].trim() !== "").map((field) => {
      const text = compensation[field.name].trim();
      return [field.name, field.numeric && Number.isFinite(Number(text)) ? Number(text) : text];
    }),
  );
  return { answers: answerBody, compensation: compensationBody };
}
