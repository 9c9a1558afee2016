import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";

/**
 * Data access for invite links (StudyInvite) and the participant accounts they were made for. Who
 * may make, revoke and use them is lib/studies/entry.ts's.
 */

/** The study's invites, newest first, with their accounts' names. */
export async function listInvitesOfStudy(studyId: string) {
  return db.studyInvite.findMany({
    where: { studyId },
    orderBy: { createdAt: "desc" },
    select: { id: true, token: true, userId: true, createdAt: true, usedAt: true, user: { select: { name: true } } },
  });
}

/** A new invite's passwordless ANNOTATOR account, of the study. */
export async function insertInvitedAccount(tx: Tx, name: string, studyId: string, externalId: string): Promise<{ id: string; name: string }> {
  return tx.user.create({
    data: { name, role: "ANNOTATOR", externalSource: "invite", externalStudyId: studyId, externalId },
    select: { id: true, name: true },
  });
}

export async function insertInvite(tx: Tx, token: string, studyId: string, userId: string): Promise<{ id: string; createdAt: Date }> {
  return tx.studyInvite.create({ data: { token, studyId, userId }, select: { id: true, createdAt: true } });
}

/** Deletes the study's invite; false when there was none. */
export async function deleteInvite(studyId: string, inviteId: string): Promise<boolean> {
  const deleted = await db.studyInvite.deleteMany({ where: { id: inviteId, studyId } });
  return deleted.count > 0;
}

/** The invite with its study and its account. */
export async function findInviteByToken(token: string) {
  return db.studyInvite.findUnique({
    where: { token },
    select: {
      id: true,
      usedAt: true,
      studyId: true,
      study: { select: { slug: true, title: true, status: true } },
      user: { select: { id: true, name: true, email: true, role: true, disabled: true, externalSource: true, externalStudyId: true } },
    },
  });
}

/** Marks the invite used, the first time. */
export async function markInviteUsed(inviteId: string): Promise<void> {
  await db.studyInvite.updateMany({ where: { id: inviteId, usedAt: null }, data: { usedAt: new Date() } });
}
