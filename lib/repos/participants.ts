import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ParticipantStatus } from "@/lib/generated/prisma/enums";

/**
 * Data access for participants (StudyMember, with their work in the study). Their steps and the
 * researchers' actions on them are lib/participants's; the queue's own changes of status are in
 * lib/repos/assignments.ts.
 */

export async function findMember(studyId: string, userId: string) {
  return db.studyMember.findUnique({
    where: { studyId_userId: { studyId, userId } },
    select: { status: true, statusReason: true, statusAt: true, consentVersion: true, consentedAt: true, tutorialDoneAt: true, startedAt: true },
  });
}

export async function setMemberConsent(studyId: string, userId: string, consentVersion: number, consentedAt: Date): Promise<void> {
  await db.studyMember.update({ where: { studyId_userId: { studyId, userId } }, data: { consentVersion, consentedAt }, select: { userId: true } });
}

/** Marks the member's tutorial done (a no-op once it is). */
export async function markTutorialDone(studyId: string, userId: string): Promise<void> {
  await db.studyMember.updateMany({ where: { studyId, userId, tutorialDoneAt: null }, data: { tutorialDoneAt: new Date() } });
}

/** COMPLETE, for an ACTIVE member (a no-op otherwise). */
export async function markMemberComplete(studyId: string, userId: string): Promise<void> {
  await db.studyMember.updateMany({ where: { studyId, userId, status: "ACTIVE" }, data: { status: "COMPLETE", statusReason: null, statusAt: new Date() } });
}

/** The member's status, with its reason, as of now. */
export async function setMemberStatus(tx: Tx, studyId: string, userId: string, status: ParticipantStatus, statusReason: string): Promise<void> {
  await tx.studyMember.update({
    where: { studyId_userId: { studyId, userId } },
    data: { status, statusReason, statusAt: new Date() },
    select: { userId: true },
  });
}

/** The member's status and name, read in the transaction that changes it. */
export async function findMemberStanding(tx: Tx, studyId: string, userId: string) {
  return tx.studyMember.findUnique({
    where: { studyId_userId: { studyId, userId } },
    select: { status: true, statusReason: true, user: { select: { name: true } } },
  });
}

/** Every answer the participant gave in the study, with its item's kind. */
export async function listParticipantAnswers(tx: Tx, studyId: string, userId: string): Promise<Array<{ kind: string; answer: unknown }>> {
  return tx.$queryRaw<Array<{ kind: string; answer: unknown }>>`
      SELECT i.kind, r.answer FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
      WHERE a."studyId" = ${studyId} AND a."userId" = ${userId}`;
}

/** The participant's assignments in the study, and their responses and trajectory events. */
export async function countParticipantWork(tx: Tx, studyId: string, userId: string): Promise<{ assignments: bigint; responses: bigint; events: bigint }> {
  const [counts] = await tx.$queryRaw<Array<{ assignments: bigint; responses: bigint; events: bigint }>>`
      SELECT count(*) AS assignments,
             (SELECT count(*) FROM "Response" r JOIN "Assignment" a2 ON a2.id = r."assignmentId" WHERE a2."studyId" = ${studyId} AND a2."userId" = ${userId}) AS responses,
             (SELECT count(*) FROM "Event" e JOIN "Assignment" a3 ON a3.id = e."assignmentId" WHERE a3."studyId" = ${studyId} AND a3."userId" = ${userId}) AS events
      FROM "Assignment" a WHERE a."studyId" = ${studyId} AND a."userId" = ${userId}`;
  return counts;
}

/** Deletes the participant's assignments in the study, and with them (cascades) their responses, events and play steps. */
export async function deleteParticipantAssignments(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.assignment.deleteMany({ where: { studyId, userId } });
}

/** The study's people (model agents aside) in the order they joined, with what the participant table shows of them. */
export async function listPeopleOfStudy(studyId: string) {
  return db.studyMember.findMany({
    where: { studyId, user: { isAgent: false } },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    select: {
      userId: true,
      createdAt: true,
      status: true,
      statusReason: true,
      statusAt: true,
      consentVersion: true,
      consentedAt: true,
      startedAt: true,
      entrySession: true,
      user: { select: { name: true, externalSource: true, externalId: true } },
    },
  });
}

/** Per user of the study: answers (main and practice), open work, gold answered and failed, and the last activity. */
export async function countWorkByParticipant(
  studyId: string,
): Promise<Array<{ userId: string; main: bigint; practice: bigint; open: bigint; gold: bigint; goldFailed: bigint; last: Date | null }>> {
  return db.$queryRaw<Array<{ userId: string; main: bigint; practice: bigint; open: bigint; gold: bigint; goldFailed: bigint; last: Date | null }>>`
    SELECT a."userId",
      count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE') AS main,
      count(r.id) FILTER (WHERE a.purpose = 'PRACTICE') AS practice,
      count(*) FILTER (WHERE a.status IN ('ASSIGNED', 'STARTED')) AS open,
      count(r.id) FILTER (WHERE i.gold) AS gold,
      count(r.id) FILTER (WHERE i.gold AND NOT r.correct) AS "goldFailed",
      greatest(max(r."createdAt"), max(a."startedAt")) AS last
    FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${studyId}
    GROUP BY a."userId"`;
}

export async function listMemberIdsWithStatus(studyId: string, status: ParticipantStatus): Promise<Array<{ userId: string }>> {
  return db.studyMember.findMany({ where: { studyId, status }, select: { userId: true } });
}

export async function countResponsesOfParticipant(studyId: string, userId: string): Promise<number> {
  return db.response.count({ where: { assignment: { studyId, userId } } });
}

/** The study's members, in the order they joined, with their accounts. */
export async function listMembersWithUsers(studyId: string) {
  return db.studyMember.findMany({
    where: { studyId },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true, user: { select: { id: true, name: true, role: true, externalId: true, disabled: true } } },
  });
}

/** The non-practice assignments of these members in the study, counted per member and status. */
export async function countMemberAssignmentsByStatus(studyId: string, userIds: string[]) {
  return db.assignment.groupBy({
    by: ["userId", "status"],
    where: { studyId, userId: { in: userIds }, purpose: { not: "PRACTICE" } },
    _count: { _all: true },
  });
}

/** Makes these users members of the study; returns how many were not already. */
export async function insertMembers(studyId: string, userIds: string[]): Promise<number> {
  const result = await db.studyMember.createMany({ data: userIds.map((userId) => ({ studyId, userId })), skipDuplicates: true });
  return result.count;
}

/** Ends the membership; false when there was none. */
export async function deleteMember(studyId: string, userId: string): Promise<boolean> {
  const deleted = await db.studyMember.deleteMany({ where: { studyId, userId } });
  return deleted.count > 0;
}

/** The member's standing and the entry session fields stored for them. */
export async function findMemberEntry(studyId: string, userId: string) {
  return db.studyMember.findUnique({ where: { studyId_userId: { studyId, userId } }, select: { status: true, statusReason: true, entrySession: true } });
}

export async function insertMember(tx: Tx, studyId: string, userId: string, entrySession?: Prisma.InputJsonValue): Promise<void> {
  await tx.studyMember.create({ data: { studyId, userId, ...(entrySession === undefined ? {} : { entrySession }) }, select: { userId: true } });
}

/** Makes the user a member (a no-op when they are one). */
export async function ensureMember(studyId: string, userId: string, entrySession?: Prisma.InputJsonValue): Promise<void> {
  await db.studyMember.createMany({ data: [{ studyId, userId, ...(entrySession === undefined ? {} : { entrySession }) }], skipDuplicates: true });
}

export async function setMemberEntrySession(studyId: string, userId: string, entrySession: Prisma.InputJsonValue): Promise<void> {
  await db.studyMember.update({ where: { studyId_userId: { studyId, userId } }, data: { entrySession }, select: { userId: true } });
}

/** The user's memberships of studies that are not drafts and not archived, newest first, with their studies. */
export async function listOpenMemberships(userId: string) {
  return db.studyMember.findMany({
    where: { userId, study: { status: { not: "DRAFT" }, archivedAt: null } },
    orderBy: { createdAt: "desc" },
    select: { status: true, study: { select: { id: true, slug: true, title: true, status: true, completionCode: true } } },
  });
}

/** Everyone who is a member of the study, by joining time, then everyone with an assignment in it, by id (with names): the order of their pseudonyms. */
export async function listStudyPeopleInJoiningOrder(studyId: string): Promise<Array<{ userId: string; user: { name: string } }>> {
  const [members, assigned] = await Promise.all([
    db.studyMember.findMany({
      where: { studyId },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
      select: { userId: true, user: { select: { name: true } } },
    }),
    db.assignment.findMany({
      where: { studyId },
      distinct: ["userId"],
      orderBy: { userId: "asc" },
      select: { userId: true, user: { select: { name: true } } },
    }),
  ]);
  return [...members, ...assigned];
}
