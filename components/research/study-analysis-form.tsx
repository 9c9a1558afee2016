"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { callApi } from "@/lib/client/api";
import { GENERALISE_OVER_CHOICES, GENERALISE_OVER_LABELS } from "@/lib/validations/study-settings";

type Over = (typeof GENERALISE_OVER_CHOICES)[number];

const meaning: Record<Over, string> = {
  "people+items":
    "The people and the items are both samples: intervals carry the spread between people and between items, as a claim about people in general needs.",
  items: "These people are the population (a fixed panel): intervals carry the spread between items only, and are narrower.",
};

/** The analysis setting (PATCH /api/studies/<slug>/analysis): changeable on a frozen study; the dashboard recomputes. */
export function StudyAnalysisForm({ slug, generaliseOver }: { slug: string; generaliseOver: Over }) {
  const router = useRouter();
  const [value, setValue] = useState<Over>(generaliseOver);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function change(next: Over) {
    setValue(next);
    setPending(true);
    setError(null);
    const result = await callApi(`/api/studies/${encodeURIComponent(slug)}/analysis`, { method: "PATCH", json: { generaliseOver: next } });
    setPending(false);
    if (!result.ok) {
      setValue(generaliseOver);
      setError(result.error ?? "The setting could not be changed.");
      return;
    }
    router.refresh();
  }

  return (
    <fieldset className="space-y-2" data-testid="analysis-form" disabled={pending}>
      <legend className="text-sm font-medium text-slate-800">Intervals generalise over</legend>
      {GENERALISE_OVER_CHOICES.map((choice) => (
        <label key={choice} className="flex items-start gap-2 text-sm text-slate-700">
          <input type="radio" name="generaliseOver" value={choice} checked={value === choice} onChange={() => void change(choice)} className="mt-1" />
          <span>
            <span className="font-medium">{GENERALISE_OVER_LABELS[choice]}</span>
            <span className="block text-xs text-slate-500">{meaning[choice]}</span>
          </span>
        </label>
      ))}
      <p className="text-xs text-slate-500">
        An analysis choice: it can change at any time, also once the study has answers; the dashboard, its exports and the API follow it.
      </p>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
