import "server-only";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { assertNoReviewersOf } from "@/lib/review/conflicts";
import { countMemberAssignmentsByStatus, deleteMember, insertMembers, listMembersWithUsers } from "@/lib/repos/participants";
import { findStudyIdBySlug } from "@/lib/repos/studies";
import { findUsersForMembership, listMemberCandidates as listCandidateUsers } from "@/lib/repos/users";
import { assertMayManageStudy, mayManageStudy, type StudyActor } from "@/lib/studies/managers";

/**
 * Study membership: which annotators belong to a study. Reading is for researchers and admins;
 * adding and removing is for admins (the route checks). Names and recruitment ids only: research
 * views never show annotators' emails.
 */

export interface StudyMemberRow {
  userId: string;
  name: string;
  role: "ADMIN" | "RESEARCHER" | "ANNOTATOR";
  externalId: string | null;
  disabled: boolean;
  joinedAt: Date;
  /** non-practice assignments in the study */
  assignments: number;
  /** of which submitted */
  submitted: number;
}

async function studyIdOf(slug: string): Promise<string> {
  const study = await findStudyIdBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study.id;
}

export async function listStudyMembers(slug: string): Promise<StudyMemberRow[]> {
  const studyId = await studyIdOf(slug);
  const members = await listMembersWithUsers(studyId);
  const counts = await countMemberAssignmentsByStatus(
    studyId,
    members.map((m) => m.user.id),
  );
  return members
    .map((m) => {
      const mine = counts.filter((c) => c.userId === m.user.id);
      return {
        userId: m.user.id,
        name: m.user.name,
        role: m.user.role,
        externalId: m.user.externalId,
        disabled: m.user.disabled,
        joinedAt: m.createdAt,
        assignments: mine.reduce((sum, c) => sum + c._count._all, 0),
        submitted: mine.filter((c) => c.status === "SUBMITTED").reduce((sum, c) => sum + c._count._all, 0),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Enabled ANNOTATOR users who are not members of the study yet and belong to no other study (for the admin's picker). */
export async function listMemberCandidates(slug: string): Promise<Array<{ id: string; name: string; externalId: string | null }>> {
  const studyId = await studyIdOf(slug);
  // participant accounts made by another study's link or invite belong to that study
  return listCandidateUsers(studyId);
}

/** Adds annotators to a study; users who are members already are skipped. All or nothing on invalid ids. */
export async function addStudyMembers(slug: string, userIds: string[], actor: StudyActor): Promise<{ added: number; already: number }> {
  await assertMayManageStudy(slug, actor, "add members to");
  const actorId = actor.id;
  const studyId = await studyIdOf(slug);
  const unique = [...new Set(userIds)];
  if (unique.length === 0) throw new AppError("INVALID", "Pick at least one annotator");
  const users = await findUsersForMembership(unique);
  const found = new Map(users.map((u) => [u.id, u]));
  const problems: string[] = [];
  for (const id of unique) {
    const user = found.get(id);
    if (!user) problems.push(`no user with id ${id}`);
    else if (user.role !== "ANNOTATOR") problems.push(`${user.name} is a ${user.role.toLowerCase()}, not an annotator`);
    else if (user.disabled) problems.push(`${user.name} is disabled`);
    else if (user.externalStudyId !== null && user.externalStudyId !== studyId)
      problems.push(`${user.name} is a participant account of another study (made by its link or invite)`);
  }
  if (problems.length > 0) throw new AppError("INVALID", `Cannot add: ${problems.join("; ")}`);
  // reviewers saw the keys of the items they reviewed (lib/review/conflicts.ts)
  await assertNoReviewersOf(studyId, unique);
  const added = await insertMembers(studyId, unique);
  await recordAudit(actorId, "study.members.add", `study:${studyId}`, { userIds: unique, added });
  return { added, already: unique.length - added };
}

/**
 * Removes an annotator from a study. Their assignments and responses stay (the data is the
 * study's); only membership, and with it access to new work, ends.
 */
export async function removeStudyMember(slug: string, userId: string, actor: StudyActor): Promise<void> {
  await assertMayManageStudy(slug, actor, "remove members from");
  const actorId = actor.id;
  const studyId = await studyIdOf(slug);
  if (!(await deleteMember(studyId, userId))) throw new AppError("NOT_FOUND", `That user is not a member of ${slug}`);
  await recordAudit(actorId, "study.members.remove", `study:${studyId}`, { userId });
}

/** The members, and the annotators who could be added when `actor` may add them (mayManageStudy). */
export async function listStudyMembersFor(slug: string, actor: StudyActor) {
  const members = await listStudyMembers(slug);
  return { members, candidates: (await mayManageStudy(slug, actor)) ? await listMemberCandidates(slug) : undefined };
}

// Route schemas (zod), shared by the route handler and the client form.

export const studyMembersAddSchema = z.object({
  userIds: z.array(z.string().min(1).max(64)).min(1, "pick at least one annotator").max(500, "at most 500 at a time"),
});

export const studyMemberRemoveSchema = z.object({ userId: z.string().min(1).max(64) });
