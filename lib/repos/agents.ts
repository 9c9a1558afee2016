import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";

/**
 * Data access for model agents (User.isAgent: a participant account of one study) and the study's
 * cap on their play steps. Making, renewing and stopping agents is lib/participants/agents.ts's.
 */

export interface NewAgent {
  studyId: string;
  name: string;
  model: string;
  notes: string;
  externalSource: string;
  externalId: string;
  /** the study's consent version, accepted (with the tutorial) on the agent's behalf */
  consentVersion: number;
}

/** Creates the agent's account and its membership of the study, in one transaction. */
export async function insertAgent(agent: NewAgent): Promise<{ id: string }> {
  return db.$transaction(async (tx) => {
    const created = await tx.user.create({
      data: {
        role: "ANNOTATOR",
        name: agent.name,
        isAgent: true,
        agentModel: agent.model,
        agentNotes: agent.notes,
        externalSource: agent.externalSource,
        externalStudyId: agent.studyId,
        externalId: agent.externalId,
      },
      select: { id: true },
    });
    const now = new Date();
    await tx.studyMember.create({
      data: { studyId: agent.studyId, userId: created.id, consentVersion: agent.consentVersion, consentedAt: now, tutorialDoneAt: now },
    });
    return created;
  });
}

export async function findAgentOfStudy(studyId: string, agentId: string): Promise<{ id: string; name: string } | null> {
  return db.user.findFirst({ where: { id: agentId, isAgent: true, externalStudyId: studyId }, select: { id: true, name: true } });
}

/** The study's agents in the order they were made, with their tokens (newest first). */
export async function listAgentsOfStudy(studyId: string) {
  return db.user.findMany({
    where: { isAgent: true, externalStudyId: studyId },
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
}

/** Per agent of the study: its answers and its play steps. */
export async function countAgentWork(studyId: string): Promise<Array<{ userId: string; answers: number; steps: number }>> {
  return db.$queryRaw<Array<{ userId: string; answers: number; steps: number }>>`
    SELECT a."userId", count(r.id)::int AS answers,
      (SELECT count(*)::int FROM "PlayStep" ps JOIN "Assignment" pa ON pa.id = ps."assignmentId" WHERE pa."userId" = a."userId" AND pa."studyId" = ${studyId} AND ps.seq > 0) AS steps
    FROM "Assignment" a JOIN "User" u ON u.id = a."userId" LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${studyId} AND u."isAgent" GROUP BY a."userId"`;
}

/** Revokes the agent's tokens and disables its account (ending its sessions), in one transaction. */
export async function disableAgentAccount(agentId: string): Promise<void> {
  await db.$transaction([
    db.apiToken.updateMany({ where: { userId: agentId, revokedAt: null }, data: { revokedAt: new Date() } }),
    db.user.update({ where: { id: agentId }, data: { disabled: true, sessionVersion: { increment: 1 } }, select: { id: true } }),
  ]);
}

/** Whether the user is an agent, and the study's cap on agent steps. */
export async function findAgentStepCap(tx: Tx, userId: string, studyId: string): Promise<{ isAgent: boolean; cap: number | null } | undefined> {
  const [row] = await tx.$queryRaw<Array<{ isAgent: boolean; cap: number | null }>>`
    SELECT u."isAgent", s."agentStepCap" AS cap FROM "User" u, "Study" s WHERE u.id = ${userId} AND s.id = ${studyId}`;
  return row;
}

/** The study's agent-step lock, until the transaction ends. */
export async function lockAgentSteps(tx: Tx, studyId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`yardstick:agent-steps:${studyId}`}, 0))::text AS locked`;
}

/** The play steps the study's agents have taken (the start of a run, seq 0, is none). */
export async function countAgentSteps(tx: Tx, studyId: string): Promise<number> {
  const [{ steps }] = await tx.$queryRaw<Array<{ steps: number }>>`
    SELECT count(*)::int AS steps FROM "PlayStep" ps JOIN "Assignment" a ON a.id = ps."assignmentId" JOIN "User" au ON au.id = a."userId"
    WHERE a."studyId" = ${studyId} AND au."isAgent" AND ps.seq > 0`;
  return steps;
}

/** The study's model agents (users), with their answers to its main items. */
export async function findStudyAgents(studyId: string) {
  return db.$queryRaw<Array<{ id: string; name: string; model: string | null; createdAt: Date; answers: number }>>`
    SELECT u.id, u.name, u."agentModel" AS model, u."createdAt",
      (SELECT count(*)::int FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
       WHERE a."userId" = u.id AND a."studyId" = ${studyId} AND NOT i.practice) AS answers
    FROM "User" u
    WHERE u."isAgent" AND (u."externalStudyId" = ${studyId} OR EXISTS (SELECT 1 FROM "Assignment" a WHERE a."userId" = u.id AND a."studyId" = ${studyId}))
    ORDER BY u.name, u.id`;
}

/** The agents' answers to the study's main items, each with its run id (`runIdPrefix` and the agent's user id) and its assignment's condition. */
export async function findAgentAnswers(studyId: string, runIdPrefix: string) {
  return db.$queryRaw<Array<{ runId: string; itemId: string; answer: unknown; score: unknown; correct: boolean | null; condition: string | null }>>`
    SELECT ${runIdPrefix} || a."userId" AS "runId", a."itemId", r.answer, r.score, r.correct, a.condition
    FROM "Response" r
    JOIN "Assignment" a ON a.id = r."assignmentId"
    JOIN "User" u ON u.id = a."userId"
    JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = ${studyId} AND u."isAgent" AND NOT i.practice`;
}
