"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, inputClass } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { callApi, issuesByField } from "@/lib/client/api";
import { TokenShownOnce } from "@/components/research/token-shown-once";

type Scope = "read" | "manage" | "play";
export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const scopeInfo: Array<{ scope: Scope; label: string }> = [
  { scope: "read", label: "read: results, progress, dashboards, exports" },
  { scope: "manage", label: "manage: studies, settings, members, imports, model runs" },
  { scope: "play", label: "play: the annotation API (as a participant)" },
];

function day(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "never";
}

function stateOf(row: TokenRow, now: number): { label: string; tone: "green" | "slate" | "red" } {
  if (row.revokedAt) return { label: "revoked", tone: "red" };
  if (row.expiresAt && Date.parse(row.expiresAt) <= now) return { label: "expired", tone: "slate" };
  return { label: "active", tone: "green" };
}

/** The staff's own API tokens: make one (its text shown once), see when each was last used, revoke. */
export function ApiTokensPanel({ initialTokens }: { initialTokens: TokenRow[] }) {
  const [tokens, setTokens] = useState(initialTokens);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [days, setDays] = useState("90");
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<{ token: string; name: string }>();
  const [pending, setPending] = useState(false);
  const [now] = useState(() => Date.now());

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    setIssues({});
    const result = await callApi<{ token: string; summary: TokenRow }>("/api/tokens", { json: { name, scopes, expiresInDays: Number(days) } });
    setPending(false);
    if (!result.ok) {
      setIssues(issuesByField(result.issues));
      setError(result.error ?? "Could not create the token");
      return;
    }
    setTokens((list) => [result.data.summary, ...list]);
    setCreated({ token: result.data.token, name: result.data.summary.name });
    setName("");
  }

  async function revoke(id: string) {
    setError(undefined);
    const result = await callApi<TokenRow>(`/api/tokens/${id}`, { method: "DELETE" });
    if (!result.ok) return setError(result.error ?? "Could not revoke the token");
    setTokens((list) => list.map((row) => (row.id === id ? result.data : row)));
  }

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card>
        <CardHeader
          title={`${tokens.length} tokens`}
          description="A token acts as you, with your role, on the routes its scopes allow. Its text is shown once; only a hash is stored."
        />
        {error ? (
          <p role="alert" className="mx-5 mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        {created ? <TokenShownOnce message={`Copy the token “${created.name}” now: it is not shown again.`} token={created.token} testId="new-token" /> : null}
        <div className="overflow-x-auto">
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Token</Th>
                <Th>Scopes</Th>
                <Th>Expires</Th>
                <Th>Last used</Th>
                <Th>State</Th>
                <Th />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {tokens.map((row) => {
                const state = stateOf(row, now);
                return (
                  <tr key={row.id}>
                    <Td>{row.name}</Td>
                    <Td className="font-mono text-xs">{row.prefix}…</Td>
                    <Td>{row.scopes.join(", ")}</Td>
                    <Td className="whitespace-nowrap">{day(row.expiresAt)}</Td>
                    <Td className="whitespace-nowrap">{day(row.lastUsedAt)}</Td>
                    <Td>
                      <Badge tone={state.tone}>{state.label}</Badge>
                    </Td>
                    <Td align="right">
                      {state.label === "active" ? (
                        <Button variant="secondary" size="sm" onClick={() => revoke(row.id)} aria-label={`Revoke ${row.name}`}>
                          Revoke
                        </Button>
                      ) : null}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </div>
      </Card>
      <Card>
        <CardHeader title="New token" />
        <CardBody>
          <form onSubmit={create} className="space-y-4">
            <Field label="Name" error={issues.name}>
              <input className={inputClass} value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required />
            </Field>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-700">Scopes</legend>
              {scopeInfo.map(({ scope, label }) => (
                <label key={scope} className="flex items-start gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={scopes.includes(scope)}
                    onChange={(e) => setScopes((list) => (e.target.checked ? [...list, scope] : list.filter((s) => s !== scope)))}
                  />
                  <span>{label}</span>
                </label>
              ))}
              {issues.scopes ? <p className="text-sm text-red-700">{issues.scopes}</p> : null}
            </fieldset>
            <Field label="Expires in (days)" error={issues.expiresInDays}>
              <input className={inputClass} type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} required />
            </Field>
            <Button type="submit" disabled={pending}>
              Create token
            </Button>
          </form>
        </CardBody>
      </Card>
    </div>
  );
}
