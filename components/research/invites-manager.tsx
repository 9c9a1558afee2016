"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { CopyButton, useOrigin } from "@/components/research/entry-link-card";
import type { InviteRow } from "@/lib/studies/entry";
import { callApi, issuesByField } from "@/lib/client/api";

/**
 * Invite links for named participants (POST/DELETE /api/studies/<slug>/invites): each invite makes
 * a new passwordless participant account of this study, which the link signs in until it is
 * revoked. Existing users are never invited (an admin adds them on the Members tab).
 */
export function InvitesManager({ slug, invites }: { slug: string; invites: InviteRow[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const origin = useOrigin();
  const [, startTransition] = useTransition();
  const linkOf = (token: string) => `${origin}/join/invite/${token}`;

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setCreated(null);
    const result = await callApi<{ token?: string }>(`/api/studies/${encodeURIComponent(slug)}/invites`, { json: { name } });
    setBusy(false);
    if (!result.ok || !result.data?.token) {
      const failure = result.ok ? undefined : result;
      const next = issuesByField(failure?.issues);
      if (!failure?.issues?.length) next.form = failure?.error ?? "The invite could not be created.";
      setErrors(next);
      return;
    }
    setCreated(result.data.token);
    setName("");
    startTransition(() => router.refresh());
  }

  async function revoke(invite: InviteRow) {
    if (!window.confirm(`Revoke the invite of ${invite.name}? The link stops working; their answers stay.`)) return;
    const result = await callApi(`/api/studies/${encodeURIComponent(slug)}/invites`, { method: "DELETE", json: { inviteId: invite.id } });
    if (!result.ok) setErrors({ form: "The invite could not be revoked." });
    startTransition(() => router.refresh());
  }

  return (
    <div className="flex flex-col-reverse gap-4">
      <div className="min-w-0">
        {invites.length === 0 ? (
          <p className="text-sm text-slate-500">No invites yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="invites">
            {invites.map((invite) => (
              <li key={invite.id} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                <span className="font-medium text-slate-900">{invite.name}</span>
                <span className="text-xs text-slate-500">{invite.usedAt ? `first used ${invite.usedAt.slice(0, 16).replace("T", " ")}` : "not used yet"}</span>
                <span className="ml-auto flex gap-2">
                  <CopyButton text={linkOf(invite.token)} label="Copy link" />
                  <Button type="button" size="sm" variant="ghost" onClick={() => void revoke(invite)}>
                    Revoke
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <form onSubmit={create} className="space-y-3 rounded-md border border-slate-200 bg-slate-50/50 p-3" aria-label="New invite">
        <div className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
          <Field label="Name" hint="A new participant account of this study, without a password." error={errors.name}>
            <input value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
          </Field>
          <Button type="submit" disabled={busy}>
            {busy ? "Creating…" : "Create invite link"}
          </Button>
        </div>
        {errors.form ? (
          <p role="alert" className="text-xs text-red-700">
            {errors.form}
          </p>
        ) : null}
        {created ? (
          <div role="status" className="space-y-1 text-xs text-emerald-800">
            <p>Invite created. Send this link to the annotator:</p>
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 truncate rounded bg-emerald-50 px-2 py-1" data-testid="new-invite-link">
                {linkOf(created)}
              </code>
              <CopyButton text={linkOf(created)} />
            </div>
          </div>
        ) : null}
      </form>
    </div>
  );
}
