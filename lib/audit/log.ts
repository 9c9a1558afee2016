import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { insertAuditEntry, listStudyAuditEntries } from "@/lib/repos/audit";
import { findStudyIdBySlug } from "@/lib/repos/studies";

/**
 * The audit log of admin and researcher actions (imports, setting changes, status changes,
 * invites, participant exclusions and re-inclusions, withdrawals, exports, deletions). Entries
 * about a study have the target `study:<id>`, or carry `studyId` in their detail (imports, whose
 * target is the batch).
 */
export async function recordAudit(actorId: string | null, action: string, target: string, detail: Prisma.InputJsonValue = {}) {
  await insertAuditEntry({ actorId, action, target, detail });
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
  const study = await findStudyIdBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const { total, rows } = await listStudyAuditEntries(study.id, (page - 1) * AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE);
  return {
    entries: rows.map((row) => ({
      id: row.id.toString(),
      at: row.createdAt.toISOString(),
      action: row.action,
      target: row.target,
      actor: row.actor,
      detail: row.detail,
    })),
    total,
    page,
    pageSize: AUDIT_PAGE_SIZE,
  };
}
