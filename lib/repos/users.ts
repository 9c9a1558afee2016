import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import type { Role } from "@/lib/generated/prisma/enums";

/**
 * Data access for user accounts (User) and their sessions' version. Sign-in, session and
 * account rules are lib/auth's.
 */

/** The account a password sign-in looks up. */
export async function findUserForSignIn(
  email: string,
): Promise<{ id: string; email: string | null; name: string; passwordHash: string | null; disabled: boolean } | null> {
  return db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, disabled: true },
  });
}

export async function setPasswordHash(userId: string, passwordHash: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { passwordHash }, select: { id: true } });
}

export interface SessionUserRow {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  disabled: boolean;
  sessionVersion: number;
}

/** The user of a session, with what ends it (disabled, the session version). Raw SQL: it runs on every request (bench/load). */
export async function findSessionUser(userId: string): Promise<SessionUserRow | undefined> {
  const [user] = await db.$queryRaw<SessionUserRow[]>`
    SELECT id, name, email, role::text AS role, disabled, "sessionVersion" FROM "User" WHERE id = ${userId}`;
  return user;
}

export async function findSessionVersion(userId: string): Promise<{ sessionVersion: number; disabled: boolean } | undefined> {
  const [row] = await db.$queryRaw<Array<{ sessionVersion: number; disabled: boolean }>>`
    SELECT "sessionVersion", disabled FROM "User" WHERE id = ${userId}`;
  return row;
}

export async function incrementSessionVersion(userId: string): Promise<void> {
  await db.$executeRaw`UPDATE "User" SET "sessionVersion" = "sessionVersion" + 1 WHERE id = ${userId}`;
}

const userListSelect = { id: true, name: true, email: true, role: true, disabled: true, externalId: true, createdAt: true } as const;

export interface UserListRow {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  disabled: boolean;
  externalId: string | null;
  createdAt: Date;
}

export async function listUserRows(): Promise<UserListRow[]> {
  return db.user.findMany({ orderBy: [{ role: "asc" }, { createdAt: "asc" }], select: userListSelect });
}

export async function insertUser(data: { name: string; email: string; role: Role; passwordHash: string }): Promise<UserListRow> {
  return db.user.create({ data, select: userListSelect });
}

export async function findUserRole(userId: string): Promise<{ id: string; role: Role } | null> {
  return db.user.findUnique({ where: { id: userId }, select: { id: true, role: true } });
}

/** Changes a user's name, role or disabled flag; disabling revokes the user's API tokens in the same transaction. */
export async function updateUser(userId: string, data: { name?: string; role?: Role; disabled?: boolean }): Promise<UserListRow> {
  const [user] = await db.$transaction([
    db.user.update({ where: { id: userId }, data, select: userListSelect }),
    ...(data.disabled === true ? [db.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } })] : []),
  ]);
  return user;
}

/** The names of these users, by id. */
export async function findUserNames(userIds: string[]): Promise<Array<{ id: string; name: string }>> {
  return db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } });
}

/** Enabled annotators who are not members of the study and whose account no other study made (by its link or invite), by name. */
export async function listMemberCandidates(studyId: string): Promise<Array<{ id: string; name: string; externalId: string | null }>> {
  return db.user.findMany({
    where: { role: "ANNOTATOR", disabled: false, memberships: { none: { studyId } }, OR: [{ externalStudyId: null }, { externalStudyId: studyId }] },
    orderBy: { name: "asc" },
    select: { id: true, name: true, externalId: true },
  });
}

/** What adding these users to a study checks of them. */
export async function findUsersForMembership(userIds: string[]) {
  return db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, role: true, disabled: true, externalStudyId: true } });
}

/** Who can import a batch: up to `take` enabled admins (not agents) with an email, by name. */
export async function listAdminsWithEmail(take: number): Promise<Array<{ name: string; email: string | null }>> {
  return db.user.findMany({
    where: { role: "ADMIN", disabled: false, isAgent: false, email: { not: null } },
    orderBy: { name: "asc" },
    take,
    select: { name: true, email: true },
  });
}

/** A participant account made by a study's link or invite: identity is (source, study, external id). */
export interface ParticipantIdentity {
  externalSource: string;
  externalStudyId: string;
  externalId: string;
}

const participantAccountSelect = { id: true, name: true, email: true, role: true, disabled: true } as const;

export async function findParticipantAccount(
  identity: ParticipantIdentity,
): Promise<{ id: string; name: string; email: string | null; role: Role; disabled: boolean } | null> {
  return db.user.findFirst({ where: identity, select: participantAccountSelect });
}

/** A new passwordless ANNOTATOR account of a study; throws a unique violation when the identity has one already. */
export async function insertParticipantAccount(
  tx: Tx,
  name: string,
  identity: ParticipantIdentity,
): Promise<{ id: string; name: string; email: string | null; role: Role; disabled: boolean }> {
  return tx.user.create({ data: { name, role: "ANNOTATOR", ...identity }, select: participantAccountSelect });
}
