"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { callApi } from "@/lib/client/api";
import { MIN_REJECTION_MESSAGE, REJECTION_CATEGORIES, REJECTION_CATEGORY_LABELS, type RejectionCategory } from "@/lib/recruitment/prolific/categories";
import type { ProlificStudyView } from "@/lib/recruitment/prolific/study";
import type { BatchView } from "@/lib/recruitment/prolific/batches";

/** Pence or cents as money in the workspace's currency (Prolific's reward unit). */
function money(minor: number): string {
  return (minor / 100).toFixed(2);
}

const ACTIONS_BY_STATUS: Record<string, Array<"PUBLISH" | "PAUSE" | "START" | "STOP">> = {
  UNPUBLISHED: ["PUBLISH"],
  ACTIVE: ["PAUSE", "STOP"],
  PAUSED: ["START", "STOP"],
};
const ACTION_LABELS = { PUBLISH: "Publish", PAUSE: "Pause", START: "Start again", STOP: "Stop" } as const;

/**
 * The study's recruitment on Prolific (docs/prolific.md): the viewer's Prolific token (stored
 * encrypted; after it is stored only its last four characters show), the draft made from the
 * study, publish / pause / start / stop, the sync of submissions, and batch actions (approve,
 * reject, bonus) by the study's rules, each previewed and confirmed once.
 */
export function ProlificRecruitmentCard({ slug, view }: { slug: string; view: ProlificStudyView }) {
  const router = useRouter();
  const base = `/api/studies/${encodeURIComponent(slug)}/prolific`;
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [token, setToken] = useState("");
  const [draft, setDraft] = useState({
    description: "",
    hourlyRate: "1200",
    estimatedMinutes: view.suggested.pilotMinutes ? String(view.suggested.pilotMinutes) : "",
    places: view.suggested.places ? String(view.suggested.places) : "",
  });
  const [rule, setRule] = useState<{ action: "approve" | "reject" | "bonus"; category: RejectionCategory; message: string; perCorrect: string; cap: string }>({
    action: "approve",
    category: "FAILED_CHECK",
    message: "",
    perCorrect: "5",
    cap: "",
  });
  const [preview, setPreview] = useState<BatchView | null>(null);

  async function run<T>(key: string, path: string, init: { method?: "POST" | "DELETE"; json?: unknown }, done?: (value: T) => void) {
    setPending(key);
    setError(null);
    setNotice(null);
    const result = await callApi<T>(path, { method: init.method ?? "POST", json: init.json ?? {} });
    setPending(null);
    if (!result.ok) {
      const issues = result.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
      setError(issues ? `${result.error ?? "Refused"} (${issues})` : (result.error ?? "The request failed."));
      return;
    }
    done?.(result.data);
    router.refresh();
  }

  const p = view.prolific;
  const canAct = view.isOwner;
  return (
    <div className="space-y-5 text-sm" data-testid="prolific-card">
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800" data-testid="prolific-error">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-800">
          {notice}
        </p>
      ) : null}

      <section aria-label="Prolific token" className="space-y-2">
        <h3 className="font-semibold text-slate-800">Your Prolific API token</h3>
        {view.token.stored ? (
          <div className="flex flex-wrap items-center gap-3">
            <span data-testid="prolific-token-last4">
              Stored, ending in <code className="font-mono">…{view.token.last4}</code>
            </span>
            <Button size="sm" variant="secondary" disabled={pending !== null} onClick={() => run("revoke", "/api/prolific/token", { method: "DELETE" })}>
              Revoke
            </Button>
          </div>
        ) : (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              void run("token", "/api/prolific/token", { json: { token } }, () => {
                setToken("");
                setNotice("Token stored (encrypted). Only its last four characters are shown from now on.");
              });
            }}
          >
            <div className="min-w-0 flex-1 basis-64">
              <Field label="Token" hint="Prolific: Workspace settings > API tokens. Stored encrypted; never shown again.">
                <input
                  className={inputClass}
                  type="password"
                  autoComplete="off"
                  value={token}
                  onChange={(e) => setToken(e.target.value)}
                  name="prolific-token"
                />
              </Field>
            </div>
            <Button type="submit" disabled={pending !== null || token.trim() === ""}>
              Store token
            </Button>
          </form>
        )}
        {!canAct ? (
          <p className="text-slate-600">
            Only the study&apos;s owner acts on Prolific for it: the calls use their token and spend their workspace&apos;s balance
            {view.ownerHasToken === false ? " (they have no token stored yet)" : ""}.
          </p>
        ) : null}
      </section>

      {p === null ? (
        <section aria-label="Prolific draft" className="space-y-3">
          <h3 className="font-semibold text-slate-800">Create the Prolific study (a draft)</h3>
          <p className="text-slate-600">
            The study link with Prolific&apos;s PROLIFIC_PID, STUDY_ID and SESSION_ID, a completion code per ending, places from the planner
            {view.suggested.places ? ` (${view.suggested.places})` : ""}, and the time from the pilot&apos;s median
            {view.suggested.pilotMinutes
              ? ` (${view.suggested.pilotMinutes} min over ${view.suggested.pilotSample} completed)`
              : " (no one has completed yet: enter it)"}
            .
          </p>
          <form
            className="grid gap-3 sm:grid-cols-2"
            onSubmit={(event) => {
              event.preventDefault();
              void run("draft", base, {
                json: {
                  description: draft.description,
                  hourlyRate: Number(draft.hourlyRate),
                  ...(draft.estimatedMinutes ? { estimatedMinutes: Number(draft.estimatedMinutes) } : {}),
                  ...(draft.places ? { places: Number(draft.places) } : {}),
                },
              });
            }}
          >
            <div className="sm:col-span-2">
              <Field label="Description (shown on Prolific)">
                <textarea
                  className={`${inputClass} h-20 py-2`}
                  value={draft.description}
                  maxLength={5000}
                  onChange={(e) => setDraft({ ...draft, description: e.target.value })}
                  name="description"
                />
              </Field>
            </div>
            <Field label="Pay per hour (pence or cents)" hint="e.g. 1200 = 12.00 an hour">
              <input
                className={inputClass}
                inputMode="numeric"
                value={draft.hourlyRate}
                onChange={(e) => setDraft({ ...draft, hourlyRate: e.target.value })}
                name="hourlyRate"
              />
            </Field>
            <Field label="Estimated minutes" hint={view.suggested.pilotMinutes ? "from the pilot's median" : "no pilot yet"}>
              <input
                className={inputClass}
                inputMode="numeric"
                value={draft.estimatedMinutes}
                onChange={(e) => setDraft({ ...draft, estimatedMinutes: e.target.value })}
                name="estimatedMinutes"
              />
            </Field>
            <Field label="Places" hint="from the planner: items × answers per item / items per participant">
              <input
                className={inputClass}
                inputMode="numeric"
                value={draft.places}
                onChange={(e) => setDraft({ ...draft, places: e.target.value })}
                name="places"
              />
            </Field>
            <div className="flex items-end">
              <Button type="submit" disabled={!canAct || pending !== null}>
                Create draft
              </Button>
            </div>
          </form>
        </section>
      ) : (
        <section aria-label="Prolific study" className="space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold text-slate-800">Prolific study</h3>
            <Badge tone={p.status === "ACTIVE" ? "green" : p.status === "UNPUBLISHED" ? "slate" : "amber"}>
              <span data-testid="prolific-status">{p.status}</span>
            </Badge>
            <code className="text-xs text-slate-500">{p.prolificId}</code>
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
            <dt className="text-slate-500">Reward</dt>
            <dd>{money(p.reward)}</dd>
            <dt className="text-slate-500">Time</dt>
            <dd>
              {p.estimatedMinutes} min ({p.timeSource === "pilot" ? `pilot median of ${p.timeSampleSize}` : "entered"})
            </dd>
            <dt className="text-slate-500">Places</dt>
            <dd>{p.places}</dd>
            <dt className="text-slate-500">Sync</dt>
            <dd data-testid="prolific-sync">
              {p.lastSyncAt ? `${p.lastSyncAt.slice(0, 19).replace("T", " ")} UTC` : "not yet"}
              {p.hooked ? ", hooks on" : ", polling only"}
            </dd>
          </dl>
          {p.lastSyncError ? <p className="text-amber-800">{p.lastSyncError}</p> : null}
          <div className="flex flex-wrap gap-2">
            {(ACTIONS_BY_STATUS[p.status] ?? []).map((action) => (
              <Button
                key={action}
                size="sm"
                variant={action === "STOP" ? "danger" : "primary"}
                disabled={!canAct || pending !== null}
                onClick={() => run(action, `${base}/transition`, { json: { action } })}
              >
                {ACTION_LABELS[action]}
              </Button>
            ))}
            <Button
              size="sm"
              variant="secondary"
              disabled={pending !== null}
              onClick={() =>
                run<{ submissions: number; freed: number }>("sync", `${base}/sync`, {}, (r) =>
                  setNotice(`Synced ${r.submissions} submissions; ${r.freed} place${r.freed === 1 ? "" : "s"} freed.`),
                )
              }
            >
              Sync now
            </Button>
          </div>

          {view.submissions.length > 0 ? (
            <Table label="Prolific submissions">
              <thead>
                <tr>
                  <Th>Participant</Th>
                  <Th>On Prolific</Th>
                  <Th>Here</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {view.submissions.map((s) => (
                  <tr key={s.id}>
                    <Td className="font-mono text-xs">{s.participantId}</Td>
                    <Td>{s.status}</Td>
                    <Td>
                      {s.participantStatus?.toLowerCase().replace("_", " ") ?? "not entered"}
                      {s.placeFreed ? " (place freed)" : ""}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : null}

          <section aria-label="Batch action" className="space-y-3 rounded-md border border-slate-200 p-3">
            <h3 className="font-semibold text-slate-800">Batch action by the study&apos;s rules</h3>
            <div className="flex flex-wrap gap-3">
              <Field label="Action">
                <select
                  className={inputClass}
                  value={rule.action}
                  onChange={(e) => {
                    setRule({ ...rule, action: e.target.value as typeof rule.action });
                    setPreview(null);
                  }}
                  name="batch-action"
                >
                  <option value="approve">Approve: completed, not excluded</option>
                  <option value="reject">Reject: failed the attention checks</option>
                  <option value="bonus">Bonus: per correct answer</option>
                </select>
              </Field>
              {rule.action === "reject" ? (
                <Field label="Rejection category">
                  <select
                    className={inputClass}
                    value={rule.category}
                    onChange={(e) => setRule({ ...rule, category: e.target.value as RejectionCategory })}
                    name="category"
                  >
                    {REJECTION_CATEGORIES.map((c) => (
                      <option key={c} value={c}>
                        {REJECTION_CATEGORY_LABELS[c]}
                      </option>
                    ))}
                  </select>
                </Field>
              ) : null}
              {rule.action === "bonus" ? (
                <>
                  <Field label="Per correct answer (pence or cents)">
                    <input
                      className={inputClass}
                      inputMode="numeric"
                      value={rule.perCorrect}
                      onChange={(e) => setRule({ ...rule, perCorrect: e.target.value })}
                      name="perCorrect"
                    />
                  </Field>
                  <Field label="Most per person (optional)">
                    <input className={inputClass} inputMode="numeric" value={rule.cap} onChange={(e) => setRule({ ...rule, cap: e.target.value })} name="cap" />
                  </Field>
                </>
              ) : null}
            </div>
            {rule.action === "reject" ? (
              <Field label="Message to the participant" hint={`at least ${MIN_REJECTION_MESSAGE} characters (${rule.message.trim().length} so far)`}>
                <textarea
                  className={`${inputClass} h-20 py-2`}
                  value={rule.message}
                  maxLength={2000}
                  onChange={(e) => setRule({ ...rule, message: e.target.value })}
                  name="message"
                />
              </Field>
            ) : null}
            <Button
              size="sm"
              variant="secondary"
              disabled={!canAct || pending !== null}
              onClick={() =>
                run<BatchView>(
                  "preview",
                  `${base}/batches`,
                  {
                    json:
                      rule.action === "approve"
                        ? { action: "approve" }
                        : rule.action === "reject"
                          ? { action: "reject", category: rule.category, message: rule.message }
                          : { action: "bonus", perCorrect: Number(rule.perCorrect), ...(rule.cap ? { cap: Number(rule.cap) } : {}) },
                  },
                  setPreview,
                )
              }
            >
              Preview
            </Button>
            {preview ? (
              <div className="space-y-2" data-testid="prolific-preview">
                {preview.rows.length === 0 ? (
                  <p className="text-slate-600">No submission meets this rule now.</p>
                ) : (
                  <Table label="Batch preview">
                    <thead>
                      <tr>
                        <Th>Participant</Th>
                        <Th>Does</Th>
                        <Th>Why</Th>
                        {preview.action === "bonus" ? <Th align="right">Amount</Th> : null}
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {preview.rows.map((r) => (
                        <tr key={r.submissionId}>
                          <Td className="font-mono text-xs">{r.participantId}</Td>
                          <Td>{preview.action}</Td>
                          <Td className="whitespace-normal">{r.reason}</Td>
                          {preview.action === "bonus" ? <Td align="right">{money(r.amount ?? 0)}</Td> : null}
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                )}
                {preview.action === "bonus" ? <p>Total: {money(preview.totalAmount)} (Prolific adds its fees)</p> : null}
                {preview.state === "PREVIEW" && preview.rows.length > 0 ? (
                  <Button
                    disabled={!canAct || pending !== null}
                    onClick={() =>
                      run<BatchView>("confirm", `${base}/batches/confirm`, { json: { batchId: preview.id } }, (done) => {
                        setPreview(done);
                        setNotice(`Done: ${done.action} for ${done.rows.length} submission${done.rows.length === 1 ? "" : "s"}.`);
                      })
                    }
                  >
                    Confirm {preview.action} of {preview.rows.length}
                  </Button>
                ) : preview.state !== "PREVIEW" ? (
                  <p data-testid="prolific-batch-state">Batch {preview.state.toLowerCase()}.</p>
                ) : null}
              </div>
            ) : null}
          </section>

          {view.batches.length > 0 ? (
            <Table label="Batches">
              <thead>
                <tr>
                  <Th>When (UTC)</Th>
                  <Th>Action</Th>
                  <Th>State</Th>
                  <Th align="right">Submissions</Th>
                  <Th align="right">Amount</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {view.batches.map((b) => (
                  <tr key={b.id}>
                    <Td>{b.createdAt.slice(0, 16).replace("T", " ")}</Td>
                    <Td>{b.action}</Td>
                    <Td>{b.state.toLowerCase()}</Td>
                    <Td align="right">{b.rows}</Td>
                    <Td align="right">{b.action === "bonus" ? money(b.totalAmount) : ""}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : null}
        </section>
      )}
    </div>
  );
}
