import "server-only";
import type { DbClient, Tx } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for interactive episodes: their steps (PlayStep) and hidden state
 * (Assignment.playState). The rules of an episode (order, retries, closing) are
 * lib/annotate/play.ts's.
 */

/** The assignment with what an episode needs, its row locked until the transaction ends; null when there is none. */
export async function lockAssignmentForPlay(tx: Tx, assignmentId: string) {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM "Assignment" WHERE id = ${assignmentId} FOR UPDATE`;
  if (locked.length === 0) return null;
  const assignment = await tx.assignment.findUniqueOrThrow({
    where: { id: assignmentId },
    select: {
      id: true,
      userId: true,
      status: true,
      condition: true,
      playState: true,
      studyId: true,
      study: { select: { taskSettings: true } },
      item: { select: { externalId: true, kind: true, public: true, key: true, tags: true } },
    },
  });
  return { ...assignment, taskSettings: assignment.study.taskSettings };
}

export interface NewPlayStep {
  seq: number;
  action: Prisma.InputJsonValue;
  view: Prisma.InputJsonValue;
  valid: boolean;
  message: string | null;
  /** the episode's hidden state after the step */
  state: Prisma.InputJsonValue | null;
}

/** Stores the step and the episode's state after it. */
export async function insertPlayStep(tx: Tx, assignmentId: string, step: NewPlayStep): Promise<void> {
  await tx.playStep.create({ data: { assignmentId, seq: step.seq, action: step.action, view: step.view, valid: step.valid, message: step.message } });
  await tx.assignment.update({ where: { id: assignmentId }, data: { playState: step.state as Prisma.InputJsonValue } });
}

/** The episode's steps, by seq. */
export async function listPlaySteps(client: DbClient, assignmentId: string) {
  return client.playStep.findMany({
    where: { assignmentId },
    orderBy: { seq: "asc" },
    select: { seq: true, action: true, view: true, valid: true, message: true },
  });
}

export async function findPlayStep(tx: Tx, assignmentId: string, seq: number) {
  return tx.playStep.findUnique({ where: { assignmentId_seq: { assignmentId, seq } }, select: { seq: true, view: true, valid: true, message: true } });
}

/** The seq of the episode's last step; null before it started. */
export async function findLastPlaySeq(tx: Tx, assignmentId: string): Promise<number | null> {
  const last = await tx.playStep.findFirst({ where: { assignmentId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return last ? last.seq : null;
}

/** STARTED now (the first step of an ASSIGNED episode). */
export async function markAssignmentStarted(tx: Tx, assignmentId: string): Promise<void> {
  await tx.assignment.update({ where: { id: assignmentId }, data: { status: "STARTED", startedAt: new Date() } });
}
