"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

/**
 * A researcher's final decision on an item: keep or exclude, with a note (required). It overrides
 * the rules; every decision is in the audit log.
 */
export function DecisionForm({
  slug,
  reviewItemId,
  current,
  nextHref,
}: {
  slug: string;
  reviewItemId: string;
  current: { decision: "KEEP" | "EXCLUDE"; note: string } | null;
  nextHref: string | null;
}) {
  const router = useRouter();
  const [decision, setDecision] = useState<"KEEP" | "EXCLUDE" | null>(current?.decision ?? null);
  const [note, setNote] = useState(current?.note ?? "");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!decision) {
      setError("Choose keep or exclude");
      return;
    }
    setPending(true);
    setError(null);
    const result = await callApi(`/api/review/studies/${slug}/decisions`, { json: { reviewItemId, decision, note } });
    setPending(false);
    if (!result.ok) {
      setError(result.issues ? result.issues.map((issue) => issue.message).join("; ") : (result.error ?? "Could not save the decision"));
      return;
    }
    setSaved(true);
    if (nextHref) router.push(nextHref);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Final decision">
      <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Decision">
        {(
          [
            ["KEEP", "Keep the item", "border-emerald-600 bg-emerald-600 text-white"],
            ["EXCLUDE", "Exclude the item", "border-red-600 bg-red-600 text-white"],
          ] as const
        ).map(([value, label, activeClass]) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={decision === value}
            onClick={() => setDecision(value)}
            className={`h-9 rounded-md border px-3 text-sm font-semibold ${decision === value ? activeClass : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
          >
            {label}
          </button>
        ))}
      </div>
      <label className="block space-y-1">
        <span className="text-sm font-medium text-slate-800">Note</span>
        <textarea
          value={note}
          onChange={(e) => setNote(e.target.value)}
          rows={3}
          required
          minLength={3}
          placeholder="Why: e.g. “the key's step 3 is wrong: the drawer is closed, not opened”"
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
        />
      </label>
      {error ? (
        <p className="text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : current ? "Change the decision" : nextHref ? "Decide, then next contested" : "Decide"}
        </Button>
        {saved ? <span className="text-sm text-emerald-700">Saved.</span> : null}
        <span className="text-xs text-slate-500">Recorded in the audit log with your note.</span>
      </div>
    </form>
  );
}
