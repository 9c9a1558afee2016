"use client";

import { useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import type { ParticipantStatus } from "@/lib/generated/prisma/enums";
import type { ParticipantRow } from "@/lib/participants/participants";
import { callApi } from "@/lib/client/api";

type Status = ParticipantStatus;

export const statusLabel: Record<Status, string> = {
  ACTIVE: "active",
  COMPLETE: "complete",
  EXCLUDED: "excluded",
  RETURNED: "returned",
  TIMED_OUT: "timed out",
};
const statusTone = { ACTIVE: "blue", COMPLETE: "green", EXCLUDED: "red", RETURNED: "slate", TIMED_OUT: "amber" } as const;

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "–");

/**
 * Participants of a study with their status, reason and times; researchers mark someone returned
 * (their open items go back to the pool) or re-include an excluded participant
 * (POST /api/studies/<slug>/participants). Times in UTC.
 */
export function ParticipantsTable({
  slug,
  rows,
  counts,
  consentVersion,
}: {
  slug: string;
  rows: ParticipantRow[];
  counts: Record<Status, number>;
  consentVersion: number;
}) {
  const router = useRouter();
  const [filter, setFilter] = useState<Status | "ALL">("ALL");
  const [acting, setActing] = useState<{ userId: string; action: "return" | "reinclude" } | null>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const shown = useMemo(() => (filter === "ALL" ? rows : rows.filter((r) => r.status === filter)), [rows, filter]);

  async function act() {
    if (!acting) return;
    setBusy(true);
    setError(null);
    const result = await callApi<{ released?: number }>(`/api/studies/${encodeURIComponent(slug)}/participants`, {
      json: { action: acting.action, userId: acting.userId, reason: reason.trim() || undefined },
    });
    setBusy(false);
    if (!result.ok) {
      setError(result.error ?? "The change could not be saved.");
      return;
    }
    const body = result.data;
    const who = rows.find((r) => r.userId === acting.userId)?.name ?? "The participant";
    setNotice(
      acting.action === "return"
        ? `${who} is marked returned; ${body?.released ?? 0} open item${body?.released === 1 ? "" : "s"} went back to the pool.`
        : `${who} is active again.`,
    );
    setActing(null);
    setReason("");
    startTransition(() => router.refresh());
  }

  return (
    <div>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-5 py-3 text-sm" role="group" aria-label="Filter by status">
        {(["ALL", "ACTIVE", "COMPLETE", "EXCLUDED", "RETURNED", "TIMED_OUT"] as const).map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={filter === s}
            onClick={() => setFilter(s)}
            className={`rounded-full border px-2.5 py-0.5 text-xs font-medium ${filter === s ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-200 bg-white text-slate-600 hover:border-slate-300"}`}
          >
            {s === "ALL" ? "all" : statusLabel[s]}{" "}
            <span className="tabular-nums text-slate-400" data-testid={`count-${s}`}>
              {s === "ALL" ? rows.length : counts[s]}
            </span>
          </button>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mx-5 mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="mx-5 mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {notice}
        </p>
      ) : null}
      {shown.length === 0 ? (
        <p className="px-5 py-6 text-sm text-slate-500">{rows.length === 0 ? "Nobody has joined yet." : "Nobody with this status."}</p>
      ) : (
        <Table>
          <thead>
            <tr>
              <Th>Participant</Th>
              <Th>Status</Th>
              <Th>Joined</Th>
              <Th>Consent</Th>
              <Th>Last activity</Th>
              <Th align="right">Items done</Th>
              <Th align="right">Open</Th>
              <Th align="right">Gold failed</Th>
              <Th />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" data-testid="participants">
            {shown.map((row) => (
              <tr key={row.userId} data-participant={row.externalId ?? row.name} className="align-top">
                <Td className="max-w-[17rem] whitespace-normal">
                  <div className="truncate font-medium text-slate-900" title={row.name}>
                    {row.externalId && row.name.includes(row.externalId)
                      ? row.externalSource === "prolific"
                        ? "Prolific participant"
                        : "Link participant"
                      : row.name}
                  </div>
                  {row.externalId ? (
                    <div className="break-all font-mono text-xs text-slate-500" title={`${row.externalSource}: ${row.externalId}`}>
                      {row.externalSource}: {row.externalId}
                    </div>
                  ) : null}
                  {typeof row.entrySession?.SESSION_ID === "string" ? (
                    <div className="truncate font-mono text-[11px] text-slate-400">session {row.entrySession.SESSION_ID}</div>
                  ) : null}
                </Td>
                <Td className="max-w-[18rem] whitespace-normal">
                  <Badge tone={statusTone[row.status]}>{statusLabel[row.status]}</Badge>
                  {row.statusReason ? <div className="mt-0.5 text-xs text-slate-600">{row.statusReason}</div> : null}
                  {row.statusAt ? <div className="text-[11px] text-slate-400">{when(row.statusAt)}</div> : null}
                </Td>
                <Td className="text-xs">{when(row.joinedAt)}</Td>
                <Td className="text-xs">
                  {row.consentedAt ? (
                    <span
                      className={row.consentVersion === consentVersion ? "" : "text-amber-700"}
                      title={row.consentVersion === consentVersion ? "the current text" : "an earlier text: asked again"}
                    >
                      v{row.consentVersion}, {when(row.consentedAt)}
                    </span>
                  ) : (
                    "–"
                  )}
                </Td>
                <Td className="text-xs">{when(row.lastActivity)}</Td>
                <Td align="right" className="tabular-nums">
                  {row.mainSubmitted}
                  {row.practiceSubmitted > 0 ? <span className="block text-[11px] text-slate-400">+{row.practiceSubmitted} practice</span> : null}
                </Td>
                <Td align="right" className="tabular-nums">
                  {row.open}
                </Td>
                <Td align="right" className="tabular-nums">
                  {row.goldAnswered > 0 ? `${row.goldFailed} of ${row.goldAnswered}` : "–"}
                </Td>
                <Td align="right">
                  {acting?.userId === row.userId ? (
                    <div className="flex min-w-[13rem] flex-col items-end gap-1.5">
                      <input
                        value={reason}
                        onChange={(e) => setReason(e.target.value)}
                        placeholder={acting.action === "return" ? "Reason (e.g. returned on Prolific)" : "Reason (optional)"}
                        className={`${inputClass} h-8 text-xs`}
                        aria-label="Reason"
                        autoFocus
                      />
                      <div className="flex gap-1">
                        <Button type="button" size="sm" variant="ghost" onClick={() => setActing(null)}>
                          Cancel
                        </Button>
                        <Button type="button" size="sm" variant={acting.action === "return" ? "danger" : "primary"} disabled={busy} onClick={() => void act()}>
                          {acting.action === "return" ? "Mark returned" : "Re-include"}
                        </Button>
                      </div>
                    </div>
                  ) : (
                    <div className="flex justify-end gap-1">
                      {row.status === "EXCLUDED" ? (
                        <Button
                          type="button"
                          size="sm"
                          variant="secondary"
                          onClick={() => (setActing({ userId: row.userId, action: "reinclude" }), setReason(""))}
                        >
                          Re-include
                        </Button>
                      ) : null}
                      {row.status !== "RETURNED" && row.status !== "COMPLETE" ? (
                        <Button type="button" size="sm" variant="ghost" onClick={() => (setActing({ userId: row.userId, action: "return" }), setReason(""))}>
                          Mark returned
                        </Button>
                      ) : null}
                    </div>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
