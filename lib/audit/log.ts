import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The audit log of admin and researcher actions (imports, setting changes, status changes,
 * invites, participant exclusions and re-inclusions, withdrawals, exports, deletions). Entries
 * about a study have the target `study:<id>`, or carry `studyId` in their detail (imports, whose
 * target is the batch).
 */
export async function recordAudit(actorId: string | null, action: string, target: string, detail: Prisma.InputJsonValue = {}) {
  await db.auditLog.create({ data: { actorId, action, target, detail } });
}

export const AUDIT_PAGE_SIZE = 100;

export const auditQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  target: string;
  /** the actor's name and role; null for the system (e.g. the queue's exclusion rule) */
  actor: { name: string; role: string } | null;
  detail: unknown;
}

/** A study's audit entries, newest first, one page at a time. */
export async function listStudyAudit(slug: string, page = 1): Promise<{ entries: AuditEntry[]; total: number; page: number; pageSize: number }> {
  const study = await db.study.findUnique({ where: { slug }, select: { id: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const where: Prisma.AuditLogWhereInput = { OR: [{ target: `study:${study.id}` }, { detail: { path: ["studyId"], equals: study.id } }] };
  const [total, rows] = await Promise.all([
    db.auditLog.count({ where }),
    db.auditLog.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * AUDIT_PAGE_SIZE,
      take: AUDIT_PAGE_SIZE,
      select: { id: true, createdAt: true, action: true, target: true, detail: true, actor: { select: { name: true, role: true } } },
    }),
  ]);
  return {
    entries: rows.map((row) => ({ id: row.id.toString(), at: row.createdAt.toISOString(), action: row.action, target: row.target, actor: row.actor, detail: row.detail })),
    total,
    page,
    pageSize: AUDIT_PAGE_SIZE,
  };
}
