import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { hashPassword } from "@/lib/auth/passwords";
import { recordAudit } from "@/lib/audit/log";
import { endAllSessions } from "@/lib/auth/session-version";
import type { UserCreateInput, UserUpdateInput } from "@/lib/validations/user";

const userListSelect = { id: true, name: true, email: true, role: true, disabled: true, externalId: true, createdAt: true } as const;

export async function listUsers() {
  return db.user.findMany({ orderBy: [{ role: "asc" }, { createdAt: "asc" }], select: userListSelect });
}

export async function createUserAccount(input: UserCreateInput, actorId: string) {
  try {
    const user = await db.user.create({
      data: { name: input.name, email: input.email, role: input.role, passwordHash: await hashPassword(input.password) },
      select: userListSelect,
    });
    await recordAudit(actorId, "user.create", `user:${user.id}`, { role: user.role });
    return user;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A user with the email ${input.email} exists already`);
    }
    throw error;
  }
}

/** Changes a user's role, name or disabled flag (disabling ends the account's sessions and API tokens for good); an admin cannot lock themselves out. */
export async function updateUserAccount(id: string, input: UserUpdateInput, actorId: string) {
  const existing = await db.user.findUnique({ where: { id }, select: { id: true, role: true } });
  if (!existing) throw new AppError("NOT_FOUND", `No user with id ${id}`);
  if (id === actorId && (input.disabled === true || (input.role && input.role !== "ADMIN"))) {
    throw new AppError("INVALID", "You cannot disable yourself or take away your own admin role");
  }
  // disabling revokes the account's API tokens with the change, so that enabling it again brings none back
  const [user] = await db.$transaction([
    db.user.update({ where: { id }, data: input, select: userListSelect }),
    ...(input.disabled === true ? [db.apiToken.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: new Date() } })] : []),
  ]);
  // and ends every session at once (lib/auth/session-version.ts)
  if (input.disabled === true) await endAllSessions(id);
  await recordAudit(actorId, "user.update", `user:${id}`, input);
  return user;
}
