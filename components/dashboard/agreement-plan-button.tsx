"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";

/** Builds (or tops up) the agreement plan through the API, then refreshes the page. */
export function AgreementPlanButton({ slug, defaultPerCell, tagKey }: { slug: string; defaultPerCell: number; tagKey: string }) {
  const router = useRouter();
  const [perCell, setPerCell] = useState(defaultPerCell);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();

  async function build() {
    setBusy(true);
    setMessage(null);
    try {
      const response = await fetch(`/api/studies/${slug}/agreement-plan`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ perCell, tag: tagKey }),
      });
      const body = await response.json();
      if (!response.ok) setMessage({ ok: false, text: body.error ?? "Could not build the plan" });
      else {
        setMessage({ ok: true, text: body.message });
        startTransition(() => router.refresh());
      }
    } catch {
      setMessage({ ok: false, text: "The server did not answer; try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Items per task x {tagKey} x annotator
          <input type="number" min={1} max={100} value={perCell} onChange={(e) => setPerCell(Number(e.target.value))} className="h-9 w-24 rounded-md border border-slate-300 px-2 text-sm" />
        </label>
        <Button onClick={build} disabled={busy || !(perCell >= 1)}>
          {busy ? "Building…" : "Build agreement plan"}
        </Button>
      </div>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={`rounded-md px-3 py-2 text-sm ${message.ok ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-700"}`}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
