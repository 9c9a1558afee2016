import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { issueToken } from "@/lib/auth/api-tokens";
import { getStudyBySlug } from "@/lib/studies/studies";
import type { AgentCreateInput } from "@/lib/validations/agent";

/**
 * Model agents (issue 23, docs/api.md): a researcher makes an identity for one study (name, model,
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
  const { consentVersion } = await db.study.findUniqueOrThrow({ where: { id: study.id }, select: { consentVersion: true } });
  const user = await db.$transaction(async (tx) => {
    const created = await tx.user.create({
      data: {
        role: "ANNOTATOR",
        name: input.name,
        isAgent: true,
        agentModel: input.model,
        agentNotes: input.notes,
        externalSource: AGENT_SOURCE,
        externalStudyId: study.id,
        externalId: randomUUID(),
      },
      select: { id: true },
    });
    // the researcher who makes an agent accepts the study's consent and tutorial on its behalf (a new consent version asks again: status "consent")
    const now = new Date();
    await tx.studyMember.create({ data: { studyId: study.id, userId: created.id, consentVersion, consentedAt: now, tutorialDoneAt: now } });
    return created;
  });
  await recordAudit(actorId, "agent.create", `study:${study.id}`, { agentId: user.id, name: input.name, model: input.model });
  const { token } = await issueToken(user.id, { name: `agent ${input.name}`, scopes: ["play"], expiresInDays: input.expiresInDays }, actorId);
  const agent = (await listAgents(slug)).find((row) => row.id === user.id)!;
  return { agent, token };
}

async function agentOf(studyId: string, agentId: string): Promise<{ id: string; name: string }> {
  const agent = await db.user.findFirst({ where: { id: agentId, isAgent: true, externalStudyId: studyId }, select: { id: true, name: true } });
  if (!agent) throw new AppError("NOT_FOUND", `No agent ${agentId} in this study`);
  return agent;
}

export async function listAgents(slug: string): Promise<AgentRow[]> {
  const study = await getStudyBySlug(slug);
  const agents = await db.user.findMany({
    where: { isAgent: true, externalStudyId: study.id },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      name: true,
      agentModel: true,
      agentNotes: true,
      disabled: true,
      createdAt: true,
      apiTokens: { orderBy: { createdAt: "desc" }, select: { id: true, prefix: true, expiresAt: true, lastUsedAt: true, revokedAt: true } },
    },
  });
  const counts = await db.$queryRaw<Array<{ userId: string; answers: number; steps: number }>>`
    SELECT a."userId", count(r.id)::int AS answers,
      (SELECT count(*)::int FROM "PlayStep" ps JOIN "Assignment" pa ON pa.id = ps."assignmentId" WHERE pa."userId" = a."userId" AND pa."studyId" = ${study.id} AND ps.seq > 0) AS steps
    FROM "Assignment" a JOIN "User" u ON u.id = a."userId" LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${study.id} AND u."isAgent" GROUP BY a."userId"`;
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
    tokens: agent.apiTokens.map((t) => ({ id: t.id, prefix: t.prefix, expiresAt: t.expiresAt?.toISOString() ?? null, lastUsedAt: t.lastUsedAt?.toISOString() ?? null, revokedAt: t.revokedAt?.toISOString() ?? null })),
  }));
}

/** A new play token for the agent (shown once); its earlier tokens are revoked. */
export async function renewAgentToken(slug: string, agentId: string, expiresInDays: number, actorId: string): Promise<{ token: string }> {
  const study = await getStudyBySlug(slug);
  const agent = await agentOf(study.id, agentId);
  await db.apiToken.updateMany({ where: { userId: agent.id, revokedAt: null }, data: { revokedAt: new Date() } });
  const { token } = await issueToken(agent.id, { name: `agent ${agent.name}`, scopes: ["play"], expiresInDays }, actorId);
  return { token };
}

/** Stops an agent: its tokens are revoked and the account disabled; its answers stay. */
export async function disableAgent(slug: string, agentId: string, actorId: string): Promise<void> {
  const study = await getStudyBySlug(slug);
  const agent = await agentOf(study.id, agentId);
  await db.$transaction([
    db.apiToken.updateMany({ where: { userId: agent.id, revokedAt: null }, data: { revokedAt: new Date() } }),
    db.user.update({ where: { id: agent.id }, data: { disabled: true, sessionVersion: { increment: 1 } }, select: { id: true } }),
  ]);
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
  const [row] = await tx.$queryRaw<Array<{ isAgent: boolean; cap: number | null }>>`
    SELECT u."isAgent", s."agentStepCap" AS cap FROM "User" u, "Study" s WHERE u.id = ${userId} AND s.id = ${studyId}`;
  if (!row?.isAgent || row.cap === null) return;
  if (options.lock) await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`yardstick:agent-steps:${studyId}`}, 0))::text AS locked`;
  const [{ steps }] = await tx.$queryRaw<Array<{ steps: number }>>`
    SELECT count(*)::int AS steps FROM "PlayStep" ps JOIN "Assignment" a ON a.id = ps."assignmentId" JOIN "User" au ON au.id = a."userId"
    WHERE a."studyId" = ${studyId} AND au."isAgent" AND ps.seq > 0`;
  if (steps >= row.cap) {
    throw new AppError("RATE_LIMITED", `This study's agents have taken their ${row.cap} steps (the study's cap on agent steps)`, { cap: row.cap });
  }
}

/** The study's cap on agent steps (null: none). */
export async function agentStepCapOf(slug: string): Promise<number | null> {
  const study = await db.study.findUnique({ where: { slug }, select: { agentStepCap: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study ${slug}`);
  return study.agentStepCap;
}
