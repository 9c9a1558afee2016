"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import type { LlmScoringStatus, ScoringJobView } from "@/lib/scoring/llm-jobs";
import { Button } from "@/components/ui/button";
import { count } from "@/components/dashboard/format";
import { callApi } from "@/lib/client/api";

/**
 * The LLM scorer's controls on an LLM-scored kind's dashboard section: what is configured, how many answers
 * it has not scored, a "Score with LLM" button (POST /api/studies/[slug]/scoring-jobs: a background
 * job, annotators are never waiting on it) and the latest job's progress, polled every two seconds
 * while it runs; the page's tables refresh when it ends.
 */

const POLL_MS = 2_000;
const running = (job: ScoringJobView | undefined) => job?.status === "PENDING" || job?.status === "RUNNING";

/**
 * `kind`: the LLM-scored kind whose answers the panel counts and scores, and whose jobs it shows
 * (without one: the first kind's counts, every kind's jobs, and a start scores every kind the study
 * has); `title`: the panel's name (default "LLM scorer"); `unconfigured`: what the panel says
 * without a scorer LLM.
 */
export function ExploreLlmPanel({
  slug,
  initial,
  kind,
  title = "LLM scorer",
  unconfigured,
}: {
  slug: string;
  initial: LlmScoringStatus;
  kind?: string;
  title?: string;
  unconfigured?: React.ReactNode;
}) {
  const path = `/api/studies/${slug}/scoring-jobs${kind ? `?kind=${encodeURIComponent(kind)}` : ""}`;
  const router = useRouter();
  const [status, setStatus] = useState(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const latest = status.jobs[0];
  const active = running(latest);

  const poll = useCallback(async () => {
    const result = await callApi<LlmScoringStatus>(path, { noStore: true });
    if (result.ok) setStatus(result.data);
  }, [path]);

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void poll().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [active, poll]);

  // a job just ended: the tables on the page come from the server, so reload them
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) startTransition(() => router.refresh());
    wasActive.current = active;
  }, [active, router]);

  async function start() {
    setBusy(true);
    setMessage(null);
    const result = await callApi<{ job?: ScoringJobView; created?: boolean }>(path, { method: "POST" });
    if (!result.ok && result.unreachable) setMessage("The server did not answer; try again.");
    else if (!result.ok || !result.data.job) setMessage((!result.ok && result.error) || "Could not start LLM scoring");
    else {
      const job = result.data.job;
      if (!result.data.created) setMessage("A job is already scoring this study's answers: its progress is below.");
      // shown as running at once; the polling follows it to its end
      setStatus((previous) => ({ ...previous, jobs: [job, ...previous.jobs.filter((j) => j.id !== job.id)] }));
    }
    setBusy(false);
  }

  if (!status.configured && unconfigured) {
    return (
      <div className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-600" data-testid="explore-llm-panel">
        {unconfigured}
      </div>
    );
  }
  if (!status.configured) {
    return (
      <div className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-600" data-testid="explore-llm-panel">
        <strong className="font-semibold text-slate-700">LLM scorer: not configured.</strong> Set <code>SCORER_LLM_URL</code> (an OpenAI-compatible
        chat-completions endpoint), <code>SCORER_LLM_MODEL</code> and, if needed, <code>SCORER_LLM_API_KEY</code> on the server to score attributes and
        relations with the paper&apos;s prompts. The structured scorer below is always on.
      </div>
    );
  }
  const unscored = status.unscored ?? { responses: 0, predictions: 0 };
  const left = unscored.responses + unscored.predictions;
  const progress = latest?.progress ?? (active ? 0 : null);
  return (
    <div className="space-y-2 rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="explore-llm-panel">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p className="text-xs text-slate-600">
          <strong className="font-semibold text-slate-700">
            {title} ({status.model})
          </strong>
          , prompts {status.promptVersion}:{" "}
          <span data-testid="explore-llm-unscored">
            {left === 0
              ? "every answer is scored"
              : `${count(unscored.responses)} answer${unscored.responses === 1 ? "" : "s"} and ${count(unscored.predictions)} model prediction${unscored.predictions === 1 ? "" : "s"} not scored yet`}
          </span>
          .
        </p>
        <Button size="sm" onClick={start} disabled={busy || active || left === 0}>
          {active ? "Scoring…" : busy ? "Starting…" : "Score with LLM"}
        </Button>
      </div>
      {latest ? (
        <div className="space-y-1" data-testid="explore-llm-job" data-status={latest.status}>
          <div className="flex items-center gap-3 text-xs text-slate-600">
            <span className="w-32 shrink-0 font-medium">
              {latest.status === "PENDING"
                ? "Waiting to start"
                : latest.status === "RUNNING"
                  ? "Scoring"
                  : latest.status === "DONE"
                    ? "Last job done"
                    : "Last job failed"}
            </span>
            <div
              className="h-2 flex-1 overflow-hidden rounded bg-slate-100"
              role="progressbar"
              aria-label="LLM scoring progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress === null ? undefined : Math.round(progress * 100)}
            >
              <div
                className={`h-full ${latest.status === "FAILED" ? "bg-red-400" : "bg-brand-500"}`}
                style={{ width: `${Math.round((progress ?? 0) * 100)}%` }}
              />
            </div>
            <span className="w-10 shrink-0 text-right tabular-nums" data-testid="explore-llm-progress">
              {progress === null ? "–" : `${Math.round(progress * 100)}%`}
            </span>
          </div>
          <p className="text-[11px] text-slate-500">
            {count(latest.done)} of {count(latest.total)} scored{latest.failed > 0 ? `, ${count(latest.failed)} failed after retries` : ""};{" "}
            {count(latest.requests)} request{latest.requests === 1 ? "" : "s"} to the model, {count(latest.cacheHits)} prompt{latest.cacheHits === 1 ? "" : "s"}{" "}
            answered from the cache
            {latest.finishedAt ? `; ended ${latest.finishedAt.slice(0, 16).replace("T", " ")} UTC` : ""}.
          </p>
          {latest.errors.length > 0 ? (
            <details className="text-[11px] text-red-700">
              <summary className="cursor-pointer">Errors ({latest.errors.length} most recent)</summary>
              <ul className="mt-1 list-disc space-y-0.5 pl-5">
                {latest.errors.map((error, i) => (
                  <li key={i}>
                    {error.target}: {error.message}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}
      {message ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-1.5 text-xs text-amber-800">
          {message}
        </p>
      ) : null}
    </div>
  );
}
