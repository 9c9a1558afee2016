"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, inputClass } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { callApi, issuesByField } from "@/lib/client/api";
import { TokenShownOnce } from "@/components/research/token-shown-once";

export interface AgentPanelRow {
  id: string;
  name: string;
  model: string;
  notes: string;
  disabled: boolean;
  createdAt: string;
  answers: number;
  steps: number;
  tokens: Array<{ id: string; prefix: string; expiresAt: string | null; lastUsedAt: string | null; revokedAt: string | null }>;
}

function lastUsed(agent: AgentPanelRow): string {
  const used = agent.tokens
    .map((t) => t.lastUsedAt)
    .filter((t): t is string => t !== null)
    .sort()
    .pop();
  return used ? used.slice(0, 16).replace("T", " ") : "never";
}

/** A study's model agents: make one (its play token shown once), give it a new token, stop it. */
export function AgentsPanel({ slug, initialAgents, stepCap }: { slug: string; initialAgents: AgentPanelRow[]; stepCap: number | null }) {
  const [agents, setAgents] = useState(initialAgents);
  const [form, setForm] = useState({ name: "", model: "", notes: "" });
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [shown, setShown] = useState<{ name: string; token: string }>();
  const [pending, setPending] = useState(false);

  async function refresh() {
    const result = await callApi<{ agents: AgentPanelRow[] }>(`/api/studies/${slug}/agents`, { noStore: true });
    if (result.ok) setAgents(result.data.agents);
  }

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    setIssues({});
    const result = await callApi<{ agent: AgentPanelRow; token: string }>(`/api/studies/${slug}/agents`, { json: form });
    setPending(false);
    if (!result.ok) {
      setIssues(issuesByField(result.issues));
      return setError(result.error ?? "Could not make the agent");
    }
    setShown({ name: result.data.agent.name, token: result.data.token });
    setForm({ name: "", model: "", notes: "" });
    setAgents((list) => [...list, result.data.agent]);
  }

  async function renew(agent: AgentPanelRow) {
    setError(undefined);
    const result = await callApi<{ token: string }>(`/api/studies/${slug}/agents/${agent.id}/token`, { json: {} });
    if (!result.ok) return setError(result.error ?? "Could not make a new token");
    setShown({ name: agent.name, token: result.data.token });
    await refresh();
  }

  async function stop(agent: AgentPanelRow) {
    setError(undefined);
    const result = await callApi(`/api/studies/${slug}/agents/${agent.id}`, { method: "DELETE" });
    if (!result.ok) return setError(result.error ?? "Could not stop the agent");
    await refresh();
  }

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card>
        <CardHeader
          title={`${agents.length} ${agents.length === 1 ? "agent" : "agents"}`}
          description={`Model agents play this study through the annotators' API with a play token (examples/agent.py). Their answers are scored as a person's and shown on the dashboard beside the humans, never pooled. Cap on all agents' play steps: ${stepCap ?? "none"}.`}
        />
        {error ? (
          <p role="alert" className="mx-5 mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        {shown ? (
          <TokenShownOnce message={`The play token of “${shown.name}”: copy it now, it is not shown again.`} token={shown.token} testId="agent-token" />
        ) : null}
        <div className="overflow-x-auto">
          <Table>
            <thead>
              <tr>
                <Th>Agent</Th>
                <Th>Model</Th>
                <Th align="right">Answers</Th>
                <Th align="right">Steps</Th>
                <Th>Last used</Th>
                <Th />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {agents.map((agent) => (
                <tr key={agent.id}>
                  <Td>
                    <span className="font-medium">{agent.name}</span>{" "}
                    {agent.disabled ? <Badge tone="slate">stopped</Badge> : <Badge tone="violet">agent</Badge>}
                    {agent.notes ? <p className="text-xs text-slate-500">{agent.notes}</p> : null}
                  </Td>
                  <Td className="font-mono text-xs">{agent.model}</Td>
                  <Td align="right">{agent.answers}</Td>
                  <Td align="right">{agent.steps}</Td>
                  <Td className="whitespace-nowrap">{lastUsed(agent)}</Td>
                  <Td align="right">
                    {agent.disabled ? null : (
                      <div className="flex justify-end gap-2">
                        <Button variant="secondary" size="sm" onClick={() => renew(agent)} aria-label={`New token for ${agent.name}`}>
                          New token
                        </Button>
                        <Button variant="secondary" size="sm" onClick={() => stop(agent)} aria-label={`Stop ${agent.name}`}>
                          Stop
                        </Button>
                      </div>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      </Card>
      <Card>
        <CardHeader title="New agent" />
        <CardBody>
          <form onSubmit={create} className="space-y-4">
            <Field label="Name" error={issues.name}>
              <input className={inputClass} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} maxLength={80} required />
            </Field>
            <Field label="Model" hint="e.g. gpt-4o-2024-08-06" error={issues.model}>
              <input className={inputClass} value={form.model} onChange={(e) => setForm({ ...form, model: e.target.value })} maxLength={120} required />
            </Field>
            <Field label="Notes" error={issues.notes}>
              <textarea
                className={`${inputClass} h-20 py-2`}
                value={form.notes}
                onChange={(e) => setForm({ ...form, notes: e.target.value })}
                maxLength={2000}
              />
            </Field>
            <Button type="submit" disabled={pending}>
              Make agent
            </Button>
          </form>
        </CardBody>
      </Card>
    </div>
  );
}
