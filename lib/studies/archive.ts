import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { deleteFile } from "@/lib/assets/files";
import type { CurrentUser } from "@/lib/auth/session";
import { insertAuditEntry } from "@/lib/repos/audit";
import { listStoredExportFiles } from "@/lib/repos/export-jobs";
import { countStudyContents, deleteStudyRows, findStudyOwnership, setStudyArchivedAt } from "@/lib/repos/studies";
import { inTransaction } from "@/lib/repos/transactions";

/**
 * The end of a study's life, for its owner (the researcher who created it) or an admin:
 * - archive: the study leaves the study lists (researchers', the import page's, participants')
 *   and is closed to participants (no new work, the entry link refuses) whatever its status, with
 *   nothing deleted; restoring brings it back as it was;
 * - delete: after the study's slug is typed as confirmation, the study and everything of it go
 *   in one transaction: items, batches, participants, invites, assignments with their responses,
 *   events, play steps and step labels, model runs, scorer results, scoring and export jobs,
 *   dashboard rows and tallies, its links to assets (all by the schema's cascades), and its import
 *   jobs (no foreign key); the prepared export files after that. What stays: the audit log (with
 *   the deletion's counts), review studies' copies of its items (ReviewItem.itemId becomes null),
 *   and the content-addressed stores shared with other studies (Asset bytes, ScorerCache).
 * Each is audited.
 */

export const studyArchiveSchema = z.strictObject({ archived: z.boolean() });
export const studyDeleteSchema = z.strictObject({ confirm: z.string().max(200) });

async function ownedStudy(slug: string, user: Pick<CurrentUser, "id" | "role">) {
  const study = await findStudyOwnership(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  if (user.role !== "ADMIN" && study.createdById !== user.id)
    throw new AppError("FORBIDDEN", "Only the researcher who created the study, or an admin, can archive or delete it");
  return study;
}

export async function setStudyArchived(
  slug: string,
  archived: boolean,
  user: Pick<CurrentUser, "id" | "role">,
): Promise<{ archived: boolean; archivedAt: string | null }> {
  const study = await ownedStudy(slug, user);
  if (Boolean(study.archivedAt) === archived) return { archived, archivedAt: study.archivedAt?.toISOString() ?? null };
  const archivedAt = archived ? new Date() : null;
  await inTransaction(async (tx) => {
    await setStudyArchivedAt(tx, study.id, archivedAt);
    await insertAuditEntry({ actorId: user.id, action: archived ? "study.archive" : "study.restore", target: `study:${study.id}`, detail: { slug } }, tx);
  });
  return { archived, archivedAt: archivedAt?.toISOString() ?? null };
}

export interface StudyDeletion {
  slug: string;
  items: number;
  participants: number;
  assignments: number;
  responses: number;
  events: number;
  exportFiles: number;
}

export async function deleteStudy(slug: string, confirm: string, user: Pick<CurrentUser, "id" | "role">): Promise<StudyDeletion> {
  const study = await ownedStudy(slug, user);
  if (confirm.trim() !== study.slug)
    throw new AppError("INVALID", `Type the study's slug, ${study.slug}, to confirm: deleting removes its items, participants, answers and events for good`);
  const { deletion, files } = await inTransaction(
    async (tx) => {
      const counts = await countStudyContents(tx, study.id);
      const files = await listStoredExportFiles(tx, study.id);
      await deleteStudyRows(tx, study.id);
      const deletion: StudyDeletion = { slug: study.slug, ...counts, exportFiles: files.length };
      await insertAuditEntry({ actorId: user.id, action: "study.delete", target: `study:${study.id}`, detail: { ...deletion, title: study.title } }, tx);
      return { deletion, files };
    },
    { timeout: 120_000 },
  );
  // the rows that named the files are gone; a file that cannot be removed now is unreachable, not lost data
  for (const file of files) await deleteFile(file).catch(() => undefined);
  return deletion;
}
