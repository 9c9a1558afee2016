"use client";

import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { focusFirstFieldError } from "@/components/ui/field";
import { callApi, issuesByField } from "@/lib/client/api";
import { reportingAnswersSchema, type ReportingAnswers } from "@/lib/validations/reporting";
import { AnswerSections, CompensationFields } from "@/components/research/study-reporting-fields";
import { draftsOf, reportingBodyOf } from "@/components/research/reporting-drafts";
import { FormMessage, type FormOutcome } from "@/components/ui/form-message";

/**
 * The report's answers only a person can give (PATCH /api/studies/<slug>/reporting): asked once
 * here and carried into the report (docs/report.md). Changeable on a frozen study; checked in the
 * browser by the schema the server uses, its issues under their fields.
 */

export function StudyReportingForm({ slug, initial }: { slug: string; initial: ReportingAnswers }) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [drafts, setDrafts] = useState(() => draftsOf(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<FormOutcome | null>(null);
  const [pending, setPending] = useState(false);

  function refuse(byField: Record<string, string>, text: string) {
    setErrors(byField);
    setMessage({ tone: "bad", text });
    requestAnimationFrame(() => focusFirstFieldError(formRef.current));
  }

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    const parsed = reportingAnswersSchema.safeParse(reportingBodyOf(drafts.answers, drafts.compensation));
    if (!parsed.success)
      return refuse(issuesByField(parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }))), "Not saved: see the fields.");
    setErrors({});
    setPending(true);
    const result = await callApi<ReportingAnswers>(`/api/studies/${encodeURIComponent(slug)}/reporting`, { method: "PATCH", json: parsed.data });
    setPending(false);
    if (!result.ok)
      return refuse(issuesByField(result.issues), result.unreachable ? "Not saved: the server cannot be reached." : `Not saved: ${result.error ?? "refused"}`);
    setMessage({ tone: "good", text: "Saved: the report carries these answers." });
    router.refresh();
  }

  return (
    <form ref={formRef} onSubmit={(event) => void save(event)} noValidate className="space-y-6" data-testid="reporting-form" aria-label="Reporting">
      <AnswerSections
        drafts={drafts.answers}
        errors={errors}
        onChange={(number, draft) => setDrafts((d) => ({ ...d, answers: { ...d.answers, [number]: draft } }))}
      />
      <CompensationFields draft={drafts.compensation} errors={errors} onChange={(compensation) => setDrafts((d) => ({ ...d, compensation }))} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Saving…" : "Save reporting answers"}
        </Button>
        {message ? <FormMessage message={message} /> : null}
      </div>
    </form>
  );
}
