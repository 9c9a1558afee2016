"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { STATUS_TRANSITIONS, type StudyStatusValue } from "@/lib/validations/study-settings";
import { callApi } from "@/lib/client/api";

const meaning: Record<StudyStatusValue, string> = {
  DRAFT: "Being set up: nobody can join or work.",
  OPEN: "Participants can join and work.",
  PAUSED: "Nobody gets new work; participants see that the study is paused. Open it again to continue.",
  CLOSED: "Finished for good: no new work, no new participants.",
};

const action: Record<StudyStatusValue, string> = { DRAFT: "Back to draft", OPEN: "Open", PAUSED: "Pause", CLOSED: "Close" };

/** The study's status with the steps the lifecycle allows from it (POST /api/studies/<slug>/status). */
export function StudyLifecycle({ slug, status }: { slug: string; status: StudyStatusValue }) {
  const router = useRouter();
  const [pending, setPending] = useState<StudyStatusValue | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);

  async function change(next: StudyStatusValue) {
    if (next === "CLOSED" && !confirmClose) {
      setConfirmClose(true);
      return;
    }
    setPending(next);
    setError(null);
    const result = await callApi(`/api/studies/${encodeURIComponent(slug)}/status`, { json: { status: next } });
    setPending(null);
    setConfirmClose(false);
    if (!result.ok) {
      setError(result.error ?? "The status could not be changed.");
      return;
    }
    router.refresh();
  }

  return (
    <div className="space-y-3" data-testid="lifecycle">
      <ol className="flex flex-wrap items-center gap-1 text-xs" aria-label="Lifecycle">
        {(["DRAFT", "OPEN", "PAUSED", "CLOSED"] as const).map((step, i) => (
          <li key={step} className="flex items-center gap-1">
            {i > 0 ? (
              <span aria-hidden className="text-slate-300">
                →
              </span>
            ) : null}
            <span
              aria-current={step === status ? "step" : undefined}
              className={`rounded-full px-2 py-0.5 font-medium ${step === status ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-500"}`}
            >
              {step.toLowerCase()}
            </span>
          </li>
        ))}
      </ol>
      <p className="text-sm text-slate-600">{meaning[status]}</p>
      <div className="flex flex-wrap items-center gap-2">
        {STATUS_TRANSITIONS[status].map((next) => (
          <Button
            key={next}
            type="button"
            size="sm"
            variant={next === "CLOSED" ? (confirmClose ? "danger" : "secondary") : next === "OPEN" ? "primary" : "secondary"}
            disabled={pending !== null}
            onClick={() => void change(next)}
          >
            {pending === next ? "…" : next === "CLOSED" && confirmClose ? "Close for good" : action[next]}
          </Button>
        ))}
        {confirmClose ? (
          <>
            <span className="text-xs text-red-700">Closing cannot be undone.</span>
            <Button type="button" size="sm" variant="ghost" onClick={() => setConfirmClose(false)}>
              Cancel
            </Button>
          </>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** "Create a new version" (POST /api/studies/<slug>/versions), then open it. */
export function NewVersionButton({ slug, primary }: { slug: string; primary?: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function create() {
    setPending(true);
    setError(null);
    const result = await callApi<{ slug?: string }>(`/api/studies/${encodeURIComponent(slug)}/versions`, { method: "POST" });
    if (!result.ok || !result.data?.slug) {
      setPending(false);
      setError((!result.ok && result.error) || "The new version could not be created.");
      return;
    }
    router.push(`/research/studies/${result.data.slug}/settings`);
  }
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <Button type="button" size="sm" variant={primary ? "primary" : "secondary"} disabled={pending} onClick={() => void create()}>
        {pending ? "Copying items…" : "Create a new version"}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
