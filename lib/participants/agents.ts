import "server-only";
import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db/client-types";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { issueToken } from "@/lib/auth/api-tokens";
import {
  countAgentSteps,
  countAgentWork,
  disableAgentAccount,
  findAgentOfStudy,
  findAgentStepCap,
  insertAgent,
  listAgentsOfStudy,
  lockAgentSteps,
} from "@/lib/repos/agents";
import { revokeUserTokens } from "@/lib/repos/api-tokens";
import { findStudyAgentStepCap, findStudyConsentVersion } from "@/lib/repos/studies";
import { getStudyBySlug } from "@/lib/studies/studies";
import type { AgentCreateInput } from "@/lib/validations/agent";

/**
 * Model agents (docs/api.md): a researcher makes an identity for one study (name, model,
 * notes); it is a participant account (role ANNOTATOR, `isAgent`, no email or password, a member
 * of that study only) with a "play" token, so the agent goes through the very routes a person's
 * browser uses and its answers are stored and scored as a person's. Dashboards show each agent
 * beside the humans, as a run of its own, never pooled with them (lib/dashboard/agents.ts).
 */

export const AGENT_SOURCE = "agent";

export interface AgentRow {
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

export async function createAgent(slug: string, input: AgentCreateInput, actorId: string): Promise<{ agent: AgentRow; token: string }> {
  const study = await getStudyBySlug(slug);
  const { consentVersion } = await findStudyConsentVersion(study.id);
  // the researcher who makes an agent accepts the study's consent and tutorial on its behalf (a new consent version asks again: status "consent")
  const user = await insertAgent({
    studyId: study.id,
    name: input.name,
    model: input.model,
    notes: input.notes,
    externalSource: AGENT_SOURCE,
    externalId: randomUUID(),
    consentVersion,
  });
  await recordAudit(actorId, "agent.create", `study:${study.id}`, { agentId: user.id, name: input.name, model: input.model });
  const { token } = await issueToken(user.id, { name: `agent ${input.name}`, scopes: ["play"], expiresInDays: input.expiresInDays }, actorId);
  const agent = (await listAgents(slug)).find((row) => row.id === user.id)!;
  return { agent, token };
}

async function agentOf(studyId: string, agentId: string): Promise<{ id: string; name: string }> {
  const agent = await findAgentOfStudy(studyId, agentId);
  if (!agent) throw new AppError("NOT_FOUND", `No agent ${agentId} in this study`);
  return agent;
}

export async function listAgents(slug: string): Promise<AgentRow[]> {
  const study = await getStudyBySlug(slug);
  const agents = await listAgentsOfStudy(study.id);
  const counts = await countAgentWork(study.id);
  const byUser = new Map(counts.map((row) => [row.userId, row]));
  return agents.map((agent) => ({
    id: agent.id,
    name: agent.name,
    model: agent.agentModel ?? "",
    notes: agent.agentNotes ?? "",
    disabled: agent.disabled,
    createdAt: agent.createdAt.toISOString(),
    answers: byUser.get(agent.id)?.answers ?? 0,
    steps: byUser.get(agent.id)?.steps ?? 0,
    tokens: agent.apiTokens.map((t) => ({
      id: t.id,
      prefix: t.prefix,
      expiresAt: t.expiresAt?.toISOString() ?? null,
      lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
      revokedAt: t.revokedAt?.toISOString() ?? null,
    })),
  }));
}

/** A new play token for the agent (shown once); its earlier tokens are revoked. */
export async function renewAgentToken(slug: string, agentId: string, expiresInDays: number, actorId: string): Promise<{ token: string }> {
  const study = await getStudyBySlug(slug);
  const agent = await agentOf(study.id, agentId);
  await revokeUserTokens(agent.id);
  const { token } = await issueToken(agent.id, { name: `agent ${agent.name}`, scopes: ["play"], expiresInDays }, actorId);
  return { token };
}

/** Stops an agent: its tokens are revoked and the account disabled; its answers stay. */
export async function disableAgent(slug: string, agentId: string, actorId: string): Promise<void> {
  const study = await getStudyBySlug(slug);
  const agent = await agentOf(study.id, agentId);
  await disableAgentAccount(agent.id);
  await recordAudit(actorId, "agent.disable", `study:${study.id}`, { agentId: agent.id, name: agent.name });
}

/**
 * Refuses a play step past the study's cap on agent steps (Study.agentStepCap: all its agents'
 * steps together): 429. People are never capped. Called inside the step's transaction, twice:
 * before the step is computed, to refuse early, and with `lock` just before it is stored, when an
 * agent's step in a capped study takes the study's agent-step lock and counts again, so that
 * concurrent steps are counted one after another and the cap holds. The lock is held only for
 * the count, the insert and the commit, never while a step is computed (a simulator call).
 */
export async function assertAgentStepAllowed(tx: Tx, userId: string, studyId: string, options: { lock?: boolean } = {}): Promise<void> {
  const row = await findAgentStepCap(tx, userId, studyId);
  if (!row?.isAgent || row.cap === null) return;
  if (options.lock) await lockAgentSteps(tx, studyId);
  const steps = await countAgentSteps(tx, studyId);
  if (steps >= row.cap) {
    throw new AppError("RATE_LIMITED", `This study's agents have taken their ${row.cap} steps (the study's cap on agent steps)`, { cap: row.cap });
  }
}

/** The study's cap on agent steps (null: none). */
export async function agentStepCapOf(slug: string): Promise<number | null> {
  const study = await findStudyAgentStepCap(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study ${slug}`);
  return study.agentStepCap;
}
