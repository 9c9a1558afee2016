import "server-only";
import { db } from "@/lib/db";
import type { DbClient } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for the audit log (AuditLog). What is written when, and who may read it, is
 * lib/audit/log.ts's.
 */

export interface NewAuditEntry {
  actorId: string | null;
  action: string;
  target: string;
  detail: Prisma.InputJsonValue;
}

export async function insertAuditEntry(entry: NewAuditEntry, client: DbClient = db): Promise<void> {
  await client.auditLog.create({ data: entry });
}

/** Entries about a study: its target `study:<id>`, or `studyId` in their detail (imports, whose target is the batch). */
function studyAuditWhere(studyId: string): Prisma.AuditLogWhereInput {
  return { OR: [{ target: `study:${studyId}` }, { detail: { path: ["studyId"], equals: studyId } }] };
}

export interface StoredAuditEntry {
  id: bigint;
  createdAt: Date;
  action: string;
  target: string;
  detail: Prisma.JsonValue;
  actor: { name: string; role: string } | null;
}

/** A page of a study's audit entries, newest first, and how many there are in all. */
export async function listStudyAuditEntries(studyId: string, skip: number, take: number): Promise<{ total: number; rows: StoredAuditEntry[] }> {
  const where = studyAuditWhere(studyId);
  const [total, rows] = await Promise.all([
    db.auditLog.count({ where }),
    db.auditLog.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip,
      take,
      select: { id: true, createdAt: true, action: true, target: true, detail: true, actor: { select: { name: true, role: true } } },
    }),
  ]);
  return { total, rows };
}
