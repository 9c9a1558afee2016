"use client";

import { useState, useSyncExternalStore } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

/** The URL parameters Prolific fills in ("I'll use URL parameters" in Prolific's study setup). */
export const PROLIFIC_QUERY = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}";

/** This site's origin for links to copy ("" during the server render). */
export function useOrigin(): string {
  return useSyncExternalStore(
    () => () => undefined,
    () => window.location.origin,
    () => "",
  );
}

export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      size="sm"
      variant="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => {
            setCopied(true);
            window.setTimeout(() => setCopied(false), 1500);
          },
          () => undefined,
        );
      }}
    >
      {copied ? "Copied" : label}
    </Button>
  );
}

function LinkRow({ label, url, testId }: { label: string; url: string; testId: string }) {
  return (
    <div>
      <div className="mb-1 text-xs font-medium text-slate-600">{label}</div>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-md border border-slate-200 bg-slate-50 px-2 py-1.5 text-xs" title={url} data-testid={testId}>
          {url}
        </code>
        <CopyButton text={url} />
      </div>
    </div>
  );
}

/** The public entry link: create, replace (old links stop working) or switch off; the Prolific and generic forms to copy. */
export function EntryLinkCard({ slug, entryToken, status }: { slug: string; entryToken: string | null; status: string }) {
  const router = useRouter();
  const origin = useOrigin();
  const [pending, setPending] = useState(false);
  const [confirm, setConfirm] = useState<"create" | "disable" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function change(action: "create" | "disable") {
    if (entryToken && confirm !== action) {
      setConfirm(action);
      return;
    }
    setPending(true);
    setError(null);
    const result = await callApi(`/api/studies/${encodeURIComponent(slug)}/entry-link`, { json: { action } });
    setPending(false);
    setConfirm(null);
    if (!result.ok) {
      setError(result.error ?? "The link could not be changed.");
      return;
    }
    router.refresh();
  }

  const base = entryToken ? `${origin}/join/${entryToken}` : "";
  return (
    <div className="space-y-4" data-testid="entry-link">
      {entryToken ? (
        <>
          <LinkRow label="For Prolific (paste as the study URL; Prolific fills in the ids)" url={`${base}?${PROLIFIC_QUERY}`} testId="entry-link-prolific" />
          <LinkRow label="For any other source (put the participant's id after pid=)" url={`${base}?pid=`} testId="entry-link-generic" />
          <p className="text-xs text-slate-500">
            Each id gets one passwordless account, resumed on any device; participants go through consent and the tutorial first.
            {status !== "OPEN" ? ` The study is ${status.toLowerCase()}: new participants are turned away until it is open.` : ""}
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-600">
          No public link yet. Create one to recruit participants on Prolific or elsewhere; nobody can join without it (or an invite).
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          size="sm"
          variant={entryToken ? (confirm === "create" ? "danger" : "secondary") : "primary"}
          disabled={pending}
          onClick={() => void change("create")}
        >
          {entryToken ? (confirm === "create" ? "Replace: the old link stops working" : "Replace the link") : "Create the public link"}
        </Button>
        {entryToken ? (
          <Button type="button" size="sm" variant={confirm === "disable" ? "danger" : "ghost"} disabled={pending} onClick={() => void change("disable")}>
            {confirm === "disable" ? "Switch off: nobody new can join" : "Switch off"}
          </Button>
        ) : null}
        {confirm ? (
          <Button type="button" size="sm" variant="ghost" onClick={() => setConfirm(null)}>
            Cancel
          </Button>
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
