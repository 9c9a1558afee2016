"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { callApi, type ApiIssue } from "@/lib/client/api";
import { studyContactChangeSchema, type StudyContactChange } from "@/lib/validations/study-settings";
import { NO_CONTACT_TEXT } from "@/lib/studies/contact-text";
import { FormMessage, type FormOutcome } from "@/components/ui/form-message";

/**
 * How participants reach the research team (PATCH /api/studies/<slug>/contact): named on the
 * pages that tell them to write to the team. Changeable on a frozen study; checked in the browser
 * by the schema the server uses, its issues under their fields.
 */
export function StudyContactForm({ slug, initial }: { slug: string; initial: StudyContactChange }) {
  const router = useRouter();
  const [name, setName] = useState(initial.contactName ?? "");
  const [email, setEmail] = useState(initial.contactEmail ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<FormOutcome | null>(null);
  const [pending, setPending] = useState(false);

  const issuesByField = (issues: ReadonlyArray<{ path: string; message: string }>) => Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    const parsed = studyContactChangeSchema.safeParse({ contactName: name, contactEmail: email });
    if (!parsed.success) {
      setErrors(issuesByField(parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }))));
      setMessage({ tone: "bad", text: "Not saved: see the field." });
      return;
    }
    setErrors({});
    setPending(true);
    const result = await callApi<StudyContactChange>(`/api/studies/${encodeURIComponent(slug)}/contact`, { method: "PATCH", json: parsed.data });
    setPending(false);
    if (!result.ok) {
      const issues: ApiIssue[] = result.issues ?? [];
      setErrors(issuesByField(issues));
      setMessage({
        tone: "bad",
        text: result.unreachable ? "Not saved: the server cannot be reached." : `Not saved: ${result.error ?? "the server refused the change"}`,
      });
      return;
    }
    setMessage({ tone: "good", text: "Saved." });
    router.refresh();
  }

  return (
    <form onSubmit={(event) => void save(event)} noValidate className="space-y-4" data-testid="contact-form" aria-label="Contact for participants">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name or team" hint="e.g. Dr Ana Ruiz, Embodied AI Lab" error={errors.contactName}>
          <input name="contactName" value={name} onChange={(e) => setName(e.target.value)} className={inputClass} autoComplete="off" />
        </Field>
        <Field label="Email address" error={errors.contactEmail}>
          <input
            name="contactEmail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputClass}
            autoComplete="off"
            placeholder="team@lab.example.org"
          />
        </Field>
      </div>
      <p className="text-xs text-slate-500">
        Shown to participants on the study&apos;s pages and wherever a page asks them to write to you (a link that does not work, the end of their
        participation). Empty, those pages say: &ldquo;{NO_CONTACT_TEXT}&rdquo;. It can change at any time, also once the study has answers.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Saving…" : "Save contact"}
        </Button>
        {message ? <FormMessage message={message} /> : null}
      </div>
    </form>
  );
}
