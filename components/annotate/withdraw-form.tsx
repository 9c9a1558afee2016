"use client";

import { useState } from "react";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { useConfirmBox } from "@/components/annotate/use-confirm-box";
import { outboxKey } from "@/components/annotate/queue-provider";
import { callApi } from "@/lib/client/api";

/**
 * Withdrawal after an explicit confirmation (POST /api/annotate/studies/<slug>/withdraw): the
 * server deletes the responses and events; this browser forgets what it still held for the
 * study's participant (the outbox), and the participant is signed out.
 */
export function WithdrawForm({ slug, userId }: { slug: string; userId: string }) {
  const { checked, box } = useConfirmBox();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function withdraw(event: React.FormEvent) {
    event.preventDefault();
    if (!checked) return;
    setPending(true);
    setError(null);
    const result = await callApi(`/api/annotate/studies/${encodeURIComponent(slug)}/withdraw`, { json: { confirm: "withdraw" } });
    if (!result.ok) {
      setPending(false);
      setError(result.error ?? "The withdrawal did not go through. Please try again.");
      return;
    }
    try {
      window.localStorage.removeItem(outboxKey(userId));
    } catch {
      // storage unavailable: nothing was kept there either
    }
    // the landing page names the study's contact: the participant is signed out there
    await signOut({ callbackUrl: `/withdrawn?study=${encodeURIComponent(slug)}` });
  }

  return (
    <form onSubmit={withdraw} className="space-y-4" aria-label="Withdraw">
      <label className="flex items-start gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-900">
        <input {...box} className="mt-0.5 h-4 w-4" />
        <span>Yes, I want to withdraw. Delete my answers in this study; I understand this cannot be undone and that I cannot take part again.</span>
      </label>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="danger" disabled={!checked || pending}>
        {pending ? "Withdrawing…" : "Withdraw and delete my answers"}
      </Button>
    </form>
  );
}
