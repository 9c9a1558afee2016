import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

export async function recordAudit(actorId: string | null, action: string, target: string, detail: Prisma.InputJsonValue = {}) {
  await db.auditLog.create({ data: { actorId, action, target, detail } });
}
