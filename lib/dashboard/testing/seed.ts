import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getTaskModule } from "@/lib/tasks";

/**
 * Seeding helpers for the dashboard's integration tests: ENACT items with index-only keys (exact
 * order match: scores are easy to work out by hand) and submitted answers scored by the real
 * scorer.
 */

let counter = 0;

export async function createBatch(studyId: string, name = "test") {
  counter += 1;
  return db.batch.create({ data: { studyId, fileName: `${name}.jsonl`, checksum: `${name}-${counter}-${Date.now()}-${Math.random()}`, itemCount: 0 } });
}

export async function createOrderItem(
  studyId: string,
  batchId: string,
  options: {
    externalId: string;
    kind?: "enact-forward" | "enact-inverse";
    order: number[];
    tags?: Record<string, string | number | boolean>;
    practice?: boolean;
  },
) {
  const kind = options.kind ?? "enact-forward";
  const L = options.order.length;
  const publicPart =
    kind === "enact-forward"
      ? {
          initialImage: `img/${options.externalId}/0.png`,
          actions: Array.from({ length: L }, (_, i) => `Action ${i + 1}`),
          candidates: Array.from({ length: L }, (_, c) => `img/${options.externalId}/c${c}.png`),
        }
      : {
          observations: Array.from({ length: L + 1 }, (_, i) => `img/${options.externalId}/o${i}.png`),
          candidates: Array.from({ length: L }, (_, c) => `Candidate ${c}`),
        };
  return db.item.create({
    data: {
      studyId,
      batchId,
      externalId: options.externalId,
      kind,
      public: publicPart,
      key: { order: options.order },
      tags: options.tags ?? { steps: L },
      practice: options.practice ?? false,
      contentHash: `${options.externalId}-${Math.random()}`,
    },
  });
}

/** An assignment with a response scored by the kind's scorer. */
export async function answer(
  item: { id: string; studyId: string; kind: string; externalId: string; key: unknown; public: unknown },
  userId: string,
  order: number[],
  options: { purpose?: "MAIN" | "PRACTICE" | "AGREEMENT"; confidence?: number; activeMs?: number; wallMs?: number; at?: Date } = {},
) {
  const taskModule = getTaskModule(item.kind);
  const score = taskModule.score({ order }, item.key, { id: item.externalId, kind: item.kind, public: item.public, key: item.key, tags: {} });
  const at = options.at ?? new Date();
  const existing = await db.assignment.findUnique({ where: { itemId_userId: { itemId: item.id, userId } }, select: { id: true } });
  const assignment = existing
    ? await db.assignment.update({ where: { id: existing.id }, data: { status: "SUBMITTED", startedAt: at, submittedAt: at }, select: { id: true } })
    : await db.assignment.create({
        data: {
          studyId: item.studyId,
          itemId: item.id,
          userId,
          purpose: options.purpose ?? "MAIN",
          status: "SUBMITTED",
          position: counter++,
          startedAt: at,
          submittedAt: at,
        },
        select: { id: true },
      });
  const confidence = options.confidence ?? 0.5;
  counter += 1;
  return db.response.create({
    data: {
      assignmentId: assignment.id,
      clientId: `client-${counter}-${Math.random()}`,
      answer: { order },
      confidenceRaw: confidence * 100,
      confidence,
      wallMs: options.wallMs ?? 10_000,
      activeMs: options.activeMs ?? 8_000,
      score: score as Prisma.InputJsonValue,
      correct: taskModule.correct(score),
      createdAt: at,
    },
  });
}

export async function addEvents(assignmentId: string, types: string[], serverTime?: Date) {
  const last = await db.event.aggregate({ where: { assignmentId }, _max: { seq: true } });
  let seq = (last._max.seq ?? -1) + 1;
  await db.event.createMany({
    data: types.map((type) => ({ assignmentId, seq: seq++, type, payload: {}, clientTime: serverTime ?? new Date(), ...(serverTime ? { serverTime } : {}) })),
  });
}
