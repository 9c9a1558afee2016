import "server-only";
import { getServerSession } from "next-auth";
import { forbidden, redirect } from "next/navigation";
import { authOptions } from "@/lib/auth";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";

export interface CurrentUser {
  id: string;
  name: string;
  email: string | null;
  role: Role;
}

/** The signed-in, enabled user, read fresh from the database; null when signed out or disabled. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const user = await db.user.findUnique({ where: { id }, select: { id: true, name: true, email: true, role: true, disabled: true } });
  if (!user || user.disabled) return null;
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

/** For route handlers and server actions: 401 when signed out, 403 when the role is not allowed. */
export async function requireRole(...roles: Role[]): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in first");
  if (roles.length > 0 && !roles.includes(user.role)) throw new AppError("FORBIDDEN", `This needs the role ${roles.join(" or ")}`);
  return user;
}

/** For pages: redirect to sign-in when signed out, render the 403 page when the role is not allowed. */
export async function requirePageRole(callbackPath: string, ...roles: Role[]): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(callbackPath)}`);
  if (roles.length > 0 && !roles.includes(user.role)) forbidden();
  return user;
}
