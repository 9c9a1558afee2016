import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for sign-in rate limiting (LoginThrottle: one row per key, counting failures in a
 * fixed window, with the lock they set). The keys, limits and lock lengths are
 * lib/auth/login-throttle.ts's; each count is one upsert, so concurrent attempts count exactly.
 */

export async function findThrottleRows(keys: string[]): Promise<Array<{ key: string; lockedUntil: Date | null; updatedAt: Date }>> {
  return db.loginThrottle.findMany({ where: { key: { in: keys } }, select: { key: true, lockedUntil: true, updatedAt: true } });
}

/** How a key's failures lock it from `limit` on: for `lockMs`, or a backoff of `baseMs` doubling per failure past the limit, at most `maxMs`. */
export type FailureLock = { kind: "fixed"; lockMs: number } | { kind: "backoff"; baseMs: number; maxMs: number };

/** One more failure in the key's window of `windowMs` (a window that ended starts again); returns the key's lock as it now stands. */
export async function countThrottleFailure(key: string, windowMs: number, limit: number, lock: FailureLock): Promise<Date | null> {
  const expired = Prisma.sql`"LoginThrottle"."windowStart" <= now() - ${windowMs} * interval '1 millisecond'`;
  const failures = Prisma.sql`(CASE WHEN ${expired} THEN 1 ELSE "LoginThrottle".failures + 1 END)`;
  const lockFor = (n: Prisma.Sql) =>
    lock.kind === "fixed"
      ? Prisma.sql`${lock.lockMs}::float8 * interval '1 millisecond'`
      : Prisma.sql`least(${lock.maxMs}::float8, ${lock.baseMs}::float8 * power(2, least(30, ${n} - ${limit}))) * interval '1 millisecond'`;
  const rows = await db.$queryRaw<Array<{ lockedUntil: Date | null }>>`
    INSERT INTO "LoginThrottle" (key, failures, "windowStart", "lockedUntil", "updatedAt")
    VALUES (${key}, 1, now(), CASE WHEN 1 >= ${limit} THEN now() + ${lockFor(Prisma.sql`1`)} END, now())
    ON CONFLICT (key) DO UPDATE SET
      failures = ${failures},
      "windowStart" = CASE WHEN ${expired} THEN now() ELSE "LoginThrottle"."windowStart" END,
      "lockedUntil" = CASE WHEN ${failures} >= ${limit} THEN now() + ${lockFor(failures)} ELSE "LoginThrottle"."lockedUntil" END,
      "updatedAt" = now()
    RETURNING "lockedUntil"`;
  return rows[0]?.lockedUntil ?? null;
}

/** Drops rows untouched for a day, and "known:" rows untouched for `knownAddressMs`. */
export async function pruneThrottleRows(knownAddressMs: number): Promise<void> {
  await db.$executeRaw`DELETE FROM "LoginThrottle" WHERE ("updatedAt" < now() - interval '1 day' AND key NOT LIKE 'known:%')
      OR "updatedAt" < now() - ${knownAddressMs} * interval '1 millisecond'`;
}

export async function deleteThrottleKeys(keys: string[]): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key: { in: keys } } });
}

/** Writes (or refreshes) a row that counts nothing: its updatedAt says when the key was last seen. */
export async function touchThrottleKey(key: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "LoginThrottle" (key, failures, "windowStart", "updatedAt") VALUES (${key}, 0, now(), now())
    ON CONFLICT (key) DO UPDATE SET "updatedAt" = now()`;
}

/** One more attempt under `key` in a fixed window of `windowMs`: the attempts in the window, this one included, and the seconds the window has left. */
export async function countWindowAttempt(key: string, windowMs: number): Promise<{ failures: number; secondsLeft: number } | undefined> {
  const rows = await db.$queryRaw<Array<{ failures: number; secondsLeft: number }>>`
    INSERT INTO "LoginThrottle" (key, failures, "windowStart", "updatedAt") VALUES (${key}, 1, now(), now())
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN "LoginThrottle"."windowStart" <= now() - ${windowMs} * interval '1 millisecond' THEN 1 ELSE "LoginThrottle".failures + 1 END,
      "windowStart" = CASE WHEN "LoginThrottle"."windowStart" <= now() - ${windowMs} * interval '1 millisecond' THEN now() ELSE "LoginThrottle"."windowStart" END,
      "updatedAt" = now()
    RETURNING failures, EXTRACT(EPOCH FROM ("windowStart" + ${windowMs} * interval '1 millisecond' - now()))::float8 AS "secondsLeft"`;
  return rows[0];
}
