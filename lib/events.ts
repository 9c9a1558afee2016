import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TrajectoryAck, TrajectoryEvent } from "@/lib/validations/annotate";

/**
 * Stores trajectory events (append-only). Each (assignment, seq) is stored once: a retried or
 * beaconed batch is acknowledged again without writing anything (createMany skipDuplicates on
 * the unique index), and the first copy of a seq wins.
 *
 * Every event must belong to an assignment of `userId` (FORBIDDEN otherwise, and nothing is
 * stored); events after the submission are still stored (a late beacon), they do not change the
 * stored response.
 */
export async function recordEvents(userId: string, events: readonly TrajectoryEvent[]): Promise<TrajectoryAck> {
  if (events.length === 0) return { acked: {} };
  const ids = [...new Set(events.map((event) => event.assignmentId))];
  const assignments = await db.assignment.findMany({ where: { id: { in: ids } }, select: { id: true, userId: true } });
  const found = new Map(assignments.map((a) => [a.id, a.userId]));
  for (const id of ids) {
    const owner = found.get(id);
    if (owner === undefined) throw new AppError("NOT_FOUND", `No assignment ${id}`);
    if (owner !== userId) throw new AppError("FORBIDDEN", `Assignment ${id} belongs to another annotator`);
  }
  const data: Prisma.EventCreateManyInput[] = events.map((event) => ({
    assignmentId: event.assignmentId,
    seq: event.seq,
    type: event.type,
    payload: event.payload as Prisma.InputJsonValue,
    clientTime: new Date(event.clientTime),
  }));
  await db.$transaction([
    db.event.createMany({ data, skipDuplicates: true }),
    // the first stored event marks the assignment started (a prefetched item is not started until shown)
    db.assignment.updateMany({ where: { id: { in: ids }, status: "ASSIGNED" }, data: { status: "STARTED", startedAt: new Date() } }),
  ]);
  const acked: Record<string, number[]> = {};
  for (const event of events) (acked[event.assignmentId] ??= []).push(event.seq);
  for (const seqs of Object.values(acked)) seqs.sort((a, b) => a - b);
  return { acked };
}

/** Stored events of an assignment in seq order (the replay, the time recomputation). */
export async function listEvents(assignmentId: string, upToSeq?: number) {
  return db.event.findMany({
    where: { assignmentId, ...(upToSeq !== undefined ? { seq: { lte: upToSeq } } : {}) },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true, clientTime: true, serverTime: true },
  });
}
