"use client";

import { Field, inputClass } from "@/components/ui/field";
import { CHECKLIST, CHECKLIST_CHOICES, CHECKLIST_SECTIONS } from "@/lib/report/checklist";
import { ASKED_ENTRIES, REPORTING_DETAIL_MAX } from "@/lib/validations/reporting";
import { COMPENSATION_FIELDS, type AnswerDraft, type CompensationDraft } from "@/components/research/reporting-drafts";

/** The Reporting form's fields (components/research/study-reporting-form.tsx): one per asked checklist entry, and the pay. */

const nameOf = (number: string) => CHECKLIST.find((entry) => entry.number === number)?.name ?? number;

function AnswerField({
  entry,
  draft,
  errors,
  onChange,
}: {
  entry: (typeof ASKED_ENTRIES)[number];
  draft: AnswerDraft;
  errors: Record<string, string>;
  onChange: (draft: AnswerDraft) => void;
}) {
  const label = `${entry.number} ${nameOf(entry.number)}`;
  return (
    <div className="grid gap-2 sm:grid-cols-[12rem_1fr]" data-entry={entry.number}>
      {entry.choice ? (
        <Field label={label} error={errors[`answers.${entry.number}.choice`]}>
          <select className={inputClass} name={`choice-${entry.number}`} value={draft.choice} onChange={(e) => onChange({ ...draft, choice: e.target.value })}>
            <option value="">(not answered)</option>
            {CHECKLIST_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <span className="text-sm font-medium text-slate-700">{label}</span>
      )}
      <Field label={entry.choice ? "Details" : "Answer"} hint={entry.hint} error={errors[`answers.${entry.number}.detail`]}>
        <input
          className={inputClass}
          name={`detail-${entry.number}`}
          value={draft.detail}
          maxLength={REPORTING_DETAIL_MAX}
          onChange={(e) => onChange({ ...draft, detail: e.target.value })}
          autoComplete="off"
        />
      </Field>
    </div>
  );
}

export function AnswerSections({
  drafts,
  errors,
  onChange,
}: {
  drafts: Record<string, AnswerDraft>;
  errors: Record<string, string>;
  onChange: (number: string, draft: AnswerDraft) => void;
}) {
  return (
    <>
      {CHECKLIST_SECTIONS.map((section) => {
        const entries = ASKED_ENTRIES.filter((entry) => entry.number.split(".")[0] === section.number);
        if (entries.length === 0) return null;
        return (
          <fieldset key={section.number} className="space-y-3">
            <legend className="text-sm font-semibold text-slate-900">{`${section.number}. ${section.name}`}</legend>
            {entries.map((entry) => (
              <AnswerField
                key={entry.number}
                entry={entry}
                draft={drafts[entry.number] ?? { choice: "", detail: "" }}
                errors={errors}
                onChange={(draft) => onChange(entry.number, draft)}
              />
            ))}
          </fieldset>
        );
      })}
    </>
  );
}

export function CompensationFields({
  draft,
  errors,
  onChange,
}: {
  draft: CompensationDraft;
  errors: Record<string, string>;
  onChange: (draft: CompensationDraft) => void;
}) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-900">2.7 Baseliner Testing Compensation</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {COMPENSATION_FIELDS.map((field) => (
          <Field key={field.name} label={field.label} hint={field.hint} error={errors[`compensation.${field.name}`]}>
            <input
              className={inputClass}
              name={field.name}
              inputMode={field.numeric ? "decimal" : undefined}
              value={draft[field.name]}
              onChange={(e) => onChange({ ...draft, [field.name]: e.target.value })}
              autoComplete="off"
            />
          </Field>
        ))}
      </div>
    </fieldset>
  );
}
