"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useConfirmBox } from "@/components/annotate/use-confirm-box";
import { callApi } from "@/lib/client/api";

/** Accept the consent text of `version` (POST /api/annotate/studies/<slug>/consent), then go on. */
export function ConsentForm({ slug, version, next }: { slug: string; version: number; next: string }) {
  const { checked, box } = useConfirmBox();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [declined, setDeclined] = useState(false);

  async function accept(event: React.FormEvent) {
    event.preventDefault();
    if (!checked) return;
    setPending(true);
    setError(null);
    const result = await callApi(`/api/annotate/studies/${encodeURIComponent(slug)}/consent`, { json: { version, accept: true } });
    if (!result.ok) {
      setPending(false);
      setError(
        result.status === 409
          ? `${result.error ?? "The consent text changed"}. The page reloads with the new text.`
          : (result.error ?? "Your answer could not be saved. Please try again."),
      );
      if (result.status === 409) window.setTimeout(() => window.location.reload(), 2500);
      return;
    }
    window.location.assign(next);
  }

  return (
    <form onSubmit={accept} className="space-y-4" aria-label="Consent">
      <label className="flex items-start gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-3 text-sm">
        <input {...box} className="mt-0.5 h-4 w-4" />
        <span>I have read the text above and agree to take part.</span>
      </label>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!checked || pending}>
          {pending ? "Saving…" : "I agree: continue"}
        </Button>
        <Button type="button" variant="ghost" onClick={() => setDeclined(true)}>
          I do not agree
        </Button>
      </div>
      {declined ? (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Then please do not take part: nothing has been recorded but your visit. You can close this page; if you came from a recruitment platform such as
          Prolific, return the study there.
        </p>
      ) : null}
    </form>
  );
}
