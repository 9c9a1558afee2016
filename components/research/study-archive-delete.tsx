"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { callApi } from "@/lib/client/api";

/**
 * Archive (reversible) and delete (after typing the slug) a study: POST /api/studies/<slug>/archive
 * and DELETE /api/studies/<slug>. Shown to the study's owner and to admins only; the server checks again.
 */
export function StudyArchiveDelete({ slug, archived, counts }: { slug: string; archived: boolean; counts: { items: number; responses: number } }) {
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState<"archive" | "delete" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  async function archive(next: boolean) {
    setError(null);
    setPending("archive");
    const result = await callApi(`/api/studies/${encodeURIComponent(slug)}/archive`, { method: "POST", json: { archived: next } });
    setPending(null);
    if (!result.ok) return setError(result.unreachable ? "The server cannot be reached." : (result.error ?? "Refused"));
    router.refresh();
  }

  async function remove() {
    setError(null);
    setPending("delete");
    const result = await callApi(`/api/studies/${encodeURIComponent(slug)}`, { method: "DELETE", json: { confirm: typed } });
    setPending(null);
    if (!result.ok) return setError(result.unreachable ? "The server cannot be reached." : (result.error ?? "Refused"));
    router.push("/research");
    router.refresh();
  }

  return (
    <div className="space-y-5 text-sm text-slate-600" data-testid="study-archive-delete">
      <div className="flex flex-wrap items-center gap-3">
        <p className="min-w-0 flex-1">
          {archived ? (
            <>
              <strong className="text-slate-900">Archived.</strong> Hidden from the study lists and closed to participants. Restoring shows it again with
              everything in it.
            </>
          ) : (
            <>Archiving hides the study from the lists and closes it to participants; nothing is deleted, and it can be restored.</>
          )}
        </p>
        <Button type="button" variant="secondary" size="sm" disabled={pending !== null} onClick={() => void archive(!archived)}>
          {archived ? "Restore" : "Archive"}
        </Button>
      </div>
      <div className="space-y-2 rounded-md border border-red-200 bg-red-50/50 p-3">
        <p>
          <strong className="text-red-800">Delete for good:</strong> the study, its {counts.items} item{counts.items === 1 ? "" : "s"}, its participants,{" "}
          {counts.responses} response{counts.responses === 1 ? "" : "s"} with their events, its exports and dashboards. The audit log keeps a record of the
          deletion. Export what you need first.
        </p>
        <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
          Type <span className="font-mono">{slug}</span> to confirm
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <input
            id={inputId}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} max-w-xs font-mono`}
          />
          <Button type="button" variant="danger" size="md" disabled={typed.trim() !== slug || pending !== null} onClick={() => void remove()}>
            {pending === "delete" ? "Deleting…" : "Delete the study"}
          </Button>
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
