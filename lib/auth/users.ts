import "server-only";
import { AppError } from "@/lib/errors";
import { isUniqueViolation } from "@/lib/db/errors";
import { hashPassword } from "@/lib/auth/passwords";
import { recordAudit } from "@/lib/audit/log";
import { endAllSessions } from "@/lib/auth/session-version";
import type { UserCreateInput, UserUpdateInput } from "@/lib/validations/user";
import { findUserRole, insertUser, listUserRows, updateUser } from "@/lib/repos/users";

export async function listUsers() {
  return listUserRows();
}

export async function createUserAccount(input: UserCreateInput, actorId: string) {
  try {
    const user = await insertUser({ name: input.name, email: input.email, role: input.role, passwordHash: await hashPassword(input.password) });
    await recordAudit(actorId, "user.create", `user:${user.id}`, { role: user.role });
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `A user with the email ${input.email} exists already`);
    }
    throw error;
  }
}

/** Changes a user's role, name or disabled flag (disabling ends the account's sessions and API tokens for good); an admin cannot lock themselves out. */
export async function updateUserAccount(id: string, input: UserUpdateInput, actorId: string) {
  const existing = await findUserRole(id);
  if (!existing) throw new AppError("NOT_FOUND", `No user with id ${id}`);
  if (id === actorId && (input.disabled === true || (input.role && input.role !== "ADMIN"))) {
    throw new AppError("INVALID", "You cannot disable yourself or take away your own admin role");
  }
  // disabling revokes the account's API tokens with the change, so that enabling it again brings none back
  const user = await updateUser(id, input);
  // and ends every session at once (lib/auth/session-version.ts)
  if (input.disabled === true) await endAllSessions(id);
  await recordAudit(actorId, "user.update", `user:${id}`, input);
  return user;
}
