"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

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
    const result = await callApi<{ message: string }>(`/api/studies/${slug}/agreement-plan`, { json: { perCell, tag: tagKey } });
    if (result.ok) {
      setMessage({ ok: true, text: result.data.message });
      startTransition(() => router.refresh());
    } else setMessage({ ok: false, text: result.unreachable ? "The server did not answer; try again." : (result.error ?? "Could not build the plan") });
    setBusy(false);
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Items per task x {tagKey} x annotator
          <input
            type="number"
            min={1}
            max={100}
            value={perCell}
            onChange={(e) => setPerCell(Number(e.target.value))}
            className="h-9 w-24 rounded-md border border-slate-300 px-2 text-sm"
          />
        </label>
        <Button onClick={build} disabled={busy || !(perCell >= 1)}>
          {busy ? "Building…" : "Build agreement plan"}
        </Button>
      </div>
      {message ? (
        <p
          role={message.ok ? "status" : "alert"}
          className={`rounded-md px-3 py-2 text-sm ${message.ok ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-700"}`}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
