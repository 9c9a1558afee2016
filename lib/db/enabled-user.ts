import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The account check of lib/auth/session.ts getCurrentUser (the user exists and is not disabled) as SQL,
 * for the statements of the annotation API's busiest handlers (event batches, submissions): they
 * take the user id from the session token (requireSessionUserId) and check the account in the
 * same round trip as their write, one query less per request (bench/load/RESULTS.md).
 */
export function enabledUserSql(userId: string): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "User" u WHERE u.id = ${userId} AND NOT u.disabled)`;
}

/** What a caller without a usable account hears (signed out, or the account was disabled or deleted since sign-in). */
export function signedOutError(): AppError {
  return new AppError("UNAUTHORIZED", "Sign in first");
}
