"use client";

import { ScrollBox } from "@/components/ui/scroll-box";
import { useRouter } from "next/navigation";
import { useMemo, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { callApi } from "@/lib/client/api";

interface MemberRow {
  userId: string;
  name: string;
  role: string;
  externalId: string | null;
  disabled: boolean;
  joinedAt: string;
  assignments: number;
  submitted: number;
}

interface Candidate {
  id: string;
  name: string;
  externalId: string | null;
}

/**
 * The study's members; admins add annotators (pick several existing ANNOTATOR users) and remove
 * them. Names and recruitment ids only, never emails.
 */
export function MembersManager({ slug, canManage, members, candidates }: { slug: string; canManage: boolean; members: MemberRow[]; candidates: Candidate[] }) {
  const router = useRouter();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const shown = useMemo(
    () => candidates.filter((c) => `${c.name} ${c.externalId ?? ""}`.toLowerCase().includes(filter.trim().toLowerCase())),
    [candidates, filter],
  );

  function toggle(id: string) {
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function add() {
    setBusy(true);
    setError(null);
    setNotice(null);
    const result = await callApi<{ added: number; already: number }>(`/api/studies/${slug}/members`, { json: { userIds: [...picked] } });
    setBusy(false);
    if (!result.ok) return setError(result.error ?? "Could not add the annotators");
    const body = result.data;
    setNotice(`Added ${body.added} annotator${body.added === 1 ? "" : "s"}${body.already ? ` (${body.already} already members)` : ""}.`);
    setPicked(new Set());
    startTransition(() => router.refresh());
  }

  async function remove(member: MemberRow) {
    if (!window.confirm(`Remove ${member.name} from this study? Their answers stay; they get no new work here.`)) return;
    setError(null);
    setNotice(null);
    const result = await callApi(`/api/studies/${slug}/members`, { method: "DELETE", json: { userId: member.userId } });
    if (!result.ok) return setError(result.error ?? "Could not remove the member");
    startTransition(() => router.refresh());
  }

  return (
    <div className={`grid gap-6 ${canManage ? "lg:grid-cols-[minmax(0,1fr)_22rem]" : ""}`}>
      <div className="min-w-0">
        {error ? (
          <p role="alert" className="mb-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        {notice ? (
          <p role="status" className="mb-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            {notice}
          </p>
        ) : null}
        {members.length === 0 ? (
          <p className="text-sm text-slate-500">
            No members yet.{canManage ? " Add annotators on the right." : " An admin or the study's owner adds annotators."}
          </p>
        ) : (
          <ScrollBox label="Members">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="members">
              <thead>
                <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                  <th className="px-2 py-1.5">Name</th>
                  <th className="px-2 py-1.5">Participant id</th>
                  <th className="px-2 py-1.5 text-right">Assignments</th>
                  <th className="px-2 py-1.5">Member since</th>
                  {canManage ? <th className="px-2 py-1.5" /> : null}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {members.map((m) => (
                  <tr key={m.userId}>
                    <td className="px-2 py-1.5 font-medium text-slate-800">
                      {m.name} {m.role !== "ANNOTATOR" ? <Badge>{m.role.toLowerCase()}</Badge> : null} {m.disabled ? <Badge tone="red">disabled</Badge> : null}
                    </td>
                    <td className="px-2 py-1.5 font-mono text-xs text-slate-500">{m.externalId ?? "–"}</td>
                    <td className="px-2 py-1.5 text-right tabular-nums">
                      {m.submitted} <span className="text-slate-400">/ {m.assignments}</span>
                    </td>
                    <td className="px-2 py-1.5 text-slate-500">{m.joinedAt.slice(0, 10)}</td>
                    {canManage ? (
                      <td className="px-2 py-1.5 text-right">
                        <button type="button" onClick={() => remove(m)} className="text-xs text-red-700 hover:underline" aria-label={`Remove ${m.name}`}>
                          Remove
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        )}
      </div>
      {canManage ? (
        <div className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4" aria-label="Add annotators">
          <h3 className="text-sm font-semibold text-slate-800">Add annotators</h3>
          {candidates.length === 0 ? (
            <p className="text-sm text-slate-500">Every enabled annotator is a member. Create accounts under Admin → Users.</p>
          ) : (
            <>
              <input
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder="Filter by name or participant id"
                className="h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
                aria-label="Filter annotators"
              />
              <ul className="max-h-56 space-y-0.5 overflow-y-auto rounded-md border border-slate-200 bg-white p-1">
                {shown.map((c) => (
                  <li key={c.id}>
                    <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-slate-50">
                      <input type="checkbox" checked={picked.has(c.id)} onChange={() => toggle(c.id)} />
                      <span className="truncate">{c.name}</span>
                      {c.externalId ? <span className="ml-auto font-mono text-xs text-slate-400">{c.externalId}</span> : null}
                    </label>
                  </li>
                ))}
              </ul>
              <Button size="sm" onClick={add} disabled={busy || picked.size === 0}>
                {busy ? "Adding…" : `Add ${picked.size || ""} annotator${picked.size === 1 ? "" : "s"}`}
              </Button>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
