"use client";

import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";

/**
 * Signs the participant in with next-auth's "study-link" credentials (the link's token and query
 * string; lib/studies/entry.ts creates or resumes the account), then opens the study. Starts by
 * itself; the button is there when something went wrong, with `help` (whom to write to).
 */
export function JoinSignIn({
  credentials,
  next,
  help,
}: {
  credentials: { entryToken: string; query: string } | { invite: string };
  next: string;
  help?: ReactNode;
}) {
  const [state, setState] = useState<{ name: "working" } | { name: "failed"; message: string }>({ name: "working" });
  const started = useRef(false);

  const go = useCallback(async () => {
    setState({ name: "working" });
    const result = await signIn("study-link", { ...credentials, redirect: false }).catch(() => null);
    if (result?.ok && !result.error) {
      // a full navigation, so that server components read the new session cookie
      window.location.assign(next);
      return;
    }
    const message = result?.error && result.error !== "CredentialsSignin" ? result.error : "Signing in did not work. Please try again in a moment.";
    setState({ name: "failed", message });
  }, [credentials, next]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void go();
  }, [go]);

  if (state.name === "working") {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600" data-testid="join-status">
        <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
        Opening the study…
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="join-error">
        {state.message}
      </p>
      <Button type="button" onClick={() => void go()}>
        Try again
      </Button>
      {help ? <p className="text-xs text-slate-500">{help}</p> : null}
    </div>
  );
}
