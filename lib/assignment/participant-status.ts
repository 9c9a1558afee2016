import "server-only";
import type { DbClient } from "@/lib/db/client-types";
import { sqlNow } from "@/lib/db/sql";
import type { ParticipantStatus } from "@/lib/generated/prisma/enums";

/** Sets the participant's open assignments RELEASED: their places go back to the pool. */
export async function releaseOpenWork(client: DbClient, studyId: string, userId: string): Promise<number> {
  return client.$executeRaw`
    UPDATE "Assignment" SET status = 'RELEASED'
    WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status IN ('ASSIGNED', 'STARTED')`;
}

/**
 * Ends a participant's part by rule (EXCLUDED or TIMED_OUT, with the reason), releases their open
 * work and writes an audit entry (actor: none, the rule). Only an ACTIVE or COMPLETE participant
 * changes (the first rule to fire wins); returns whether this call changed them.
 */
export async function endParticipation(client: DbClient, studyId: string, userId: string, status: "EXCLUDED" | "TIMED_OUT", reason: string): Promise<boolean> {
  const changed = await client.$executeRaw`
    UPDATE "StudyMember" SET status = ${status}::"ParticipantStatus", "statusReason" = ${reason}, "statusAt" = ${sqlNow}
    WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status IN ('ACTIVE', 'COMPLETE')`;
  if (changed === 0) return false;
  const released = await releaseOpenWork(client, studyId, userId);
  await client.auditLog.create({
    data: { actorId: null, action: status === "EXCLUDED" ? "participant.exclude" : "participant.time-out", target: `study:${studyId}`, detail: { userId, reason, released, by: "rule" } },
    select: { id: true },
  });
  return true;
}

export const stoppedStatus: Partial<Record<ParticipantStatus, "excluded" | "timed_out" | "returned">> = { EXCLUDED: "excluded", TIMED_OUT: "timed_out", RETURNED: "returned" };
