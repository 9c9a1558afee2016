"use client";

import { useEffect, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { useOptionalTrajectoryQueue } from "@/components/annotate/queue-provider";

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the platform";
  }
}

/** How long the last events may take to reach the server before the redirect is offered anyway. */
const FLUSH_TIMEOUT_MS = 20_000;
const REDIRECT_DELAY_S = 3;

/**
 * The end of a study: the completion code, and the redirect (Prolific's completion URL) once this
 * browser's outbox is empty, so that the last events and answers reach the server before the
 * participant leaves (lib/client/trajectory-queue.ts). The server render (no browser storage,
 * so no queue) shows "Saving your last answers"; the browser takes over from there.
 */
export function Completion({ code, redirectUrl, label = "Your completion code:" }: { code: string | null; redirectUrl: string | null; label?: string }) {
  const queue = useOptionalTrajectoryQueue();
  const [saved, setSaved] = useState<"saving" | "saved" | "timeout">("saving");
  const [countdown, setCountdown] = useState(REDIRECT_DELAY_S);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!queue) return;
    let finished = false;
    const pendingNow = () => {
      const status = queue.status();
      return status.pendingEvents + status.pendingSubmissions;
    };
    const settle = (result: "saved" | "timeout") => {
      if (finished) return;
      finished = true;
      setSaved(result);
    };
    const unsubscribe = queue.subscribe((status) => {
      if (status.pendingEvents + status.pendingSubmissions === 0) settle("saved");
    });
    void queue.flush().then(() => {
      if (pendingNow() === 0) settle("saved");
    });
    if (pendingNow() === 0) settle("saved");
    const timer = window.setTimeout(() => settle("timeout"), FLUSH_TIMEOUT_MS);
    return () => {
      finished = true;
      unsubscribe();
      window.clearTimeout(timer);
    };
  }, [queue]);

  useEffect(() => {
    if (saved !== "saved" || !redirectUrl) return;
    if (countdown <= 0) {
      window.location.assign(redirectUrl);
      return;
    }
    const timer = window.setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [saved, redirectUrl, countdown]);

  return (
    <div className="mt-6 space-y-4">
      {code ? (
        <div>
          <p className="text-sm text-slate-600">{label}</p>
          <div className="mt-1 flex items-center justify-center gap-2">
            <p
              className="select-all rounded-md border border-slate-300 bg-slate-50 px-4 py-3 font-mono text-xl font-semibold tracking-wider"
              data-testid="completion-code"
            >
              {code}
            </p>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() =>
                void navigator.clipboard?.writeText(code).then(
                  () => setCopied(true),
                  () => undefined,
                )
              }
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
          <p className="mt-1 text-xs text-slate-500">
            {redirectUrl
              ? "It is sent along automatically; keep it in case you need it."
              : "Copy it into the recruitment platform to confirm that you finished."}
          </p>
        </div>
      ) : null}
      <p role="status" className="text-sm text-slate-600" data-testid="completion-sync" data-state={saved}>
        {saved === "saving"
          ? "Saving your last answers…"
          : saved === "saved"
            ? "All your answers are saved."
            : "Your last answers are still being sent: please stay online for a moment."}
      </p>
      {redirectUrl ? (
        <div className="space-y-2">
          {saved === "saved" ? (
            <p className="text-sm text-slate-700" data-testid="redirect-countdown">
              Taking you back to {hostOf(redirectUrl)} in {countdown} s…
            </p>
          ) : null}
          <a
            href={redirectUrl}
            className={buttonClass(saved === "saved" ? "primary" : "secondary", "md")}
            data-testid="completion-redirect"
            aria-disabled={saved === "saving"}
            onClick={(event) => {
              if (saved === "saving") event.preventDefault();
            }}
          >
            {saved === "timeout" ? "Go back anyway" : "Go back now"}
          </a>
        </div>
      ) : null}
    </div>
  );
}
