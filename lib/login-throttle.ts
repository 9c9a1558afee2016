import "server-only";
import { db } from "@/lib/db";

/**
 * Sign-in rate limiting (SECURITY.md). Failed sign-ins are counted per email address (guessing one
 * account's password) and per client address (trying one password on many accounts) in a fixed
 * window; a key that reaches its limit is locked for LOCK_MS, during which even the right password
 * is refused without being checked. The counters live in PostgreSQL (LoginThrottle), so every app
 * instance and every restart sees the same ones; one upsert per failure keeps them exact under
 * concurrent attempts.
 *
 * The address limit is higher than the email limit: a lab or a recruitment platform may put many
 * people behind one address. The client address is the last X-Forwarded-For entry, which is the
 * one the nearest proxy (or Next.js itself, from the socket, when there is none) added: behind no
 * proxy a client can send its own header, so the per-address limit can be dodged there, while the
 * per-email limit holds whatever the client sends.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  maxFailuresPerEmail: 5,
  maxFailuresPerAddress: 50,
} as const;

export type LockScope = "email" | "address";

export interface Lockout {
  scope: LockScope;
  until: Date;
}

function emailKey(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

function addressKey(address: string): string {
  return `ip:${address}`;
}

/** The client address from request headers (a plain record, as next-auth passes them, or Headers). */
export function clientAddress(headers: Headers | Record<string, unknown> | undefined): string {
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers?.["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : typeof raw === "string" ? raw : "";
  const last = value.split(",").map((part) => part.trim()).filter(Boolean).pop();
  return (last ?? "unknown").slice(0, 100);
}

function scopeOf(key: string): LockScope {
  return key.startsWith("email:") ? "email" : "address";
}

/** The lockout in force for this email or address, if any (the one that lasts longest). */
export async function currentLockout(email: string, address: string): Promise<Lockout | null> {
  const rows = await db.loginThrottle.findMany({
    where: { key: { in: [emailKey(email), addressKey(address)] }, lockedUntil: { gt: new Date() } },
    select: { key: true, lockedUntil: true },
    orderBy: { lockedUntil: "desc" },
    take: 1,
  });
  const row = rows[0];
  return row?.lockedUntil ? { scope: scopeOf(row.key), until: row.lockedUntil } : null;
}

async function countFailure(key: string, limit: number): Promise<Date | null> {
  const rows = await db.$queryRaw<Array<{ lockedUntil: Date | null }>>`
    INSERT INTO "LoginThrottle" (key, failures, "windowStart", "lockedUntil", "updatedAt")
    VALUES (${key}, 1, now(), CASE WHEN 1 >= ${limit} THEN now() + ${LOGIN_THROTTLE.lockMs} * interval '1 millisecond' END, now())
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN "LoginThrottle"."windowStart" <= now() - ${LOGIN_THROTTLE.windowMs} * interval '1 millisecond' THEN 1 ELSE "LoginThrottle".failures + 1 END,
      "windowStart" = CASE WHEN "LoginThrottle"."windowStart" <= now() - ${LOGIN_THROTTLE.windowMs} * interval '1 millisecond' THEN now() ELSE "LoginThrottle"."windowStart" END,
      "lockedUntil" = CASE
        WHEN (CASE WHEN "LoginThrottle"."windowStart" <= now() - ${LOGIN_THROTTLE.windowMs} * interval '1 millisecond' THEN 1 ELSE "LoginThrottle".failures + 1 END) >= ${limit}
        THEN now() + ${LOGIN_THROTTLE.lockMs} * interval '1 millisecond'
        ELSE "LoginThrottle"."lockedUntil" END,
      "updatedAt" = now()
    RETURNING "lockedUntil"`;
  const until = rows[0]?.lockedUntil ?? null;
  return until && until.getTime() > Date.now() ? until : null;
}

/** Counts one failed sign-in for the email and the address; returns the lockout it starts, if any. */
export async function recordLoginFailure(email: string, address: string): Promise<Lockout | null> {
  const [byEmail, byAddress] = await Promise.all([
    countFailure(emailKey(email), LOGIN_THROTTLE.maxFailuresPerEmail),
    countFailure(addressKey(address), LOGIN_THROTTLE.maxFailuresPerAddress),
  ]);
  // rows untouched for a day are history: drop some now and then (no job runner needed)
  if (Math.random() < 0.02) await db.loginThrottle.deleteMany({ where: { updatedAt: { lt: new Date(Date.now() - 24 * 3600 * 1000) } } });
  if (byEmail && (!byAddress || byEmail >= byAddress)) return { scope: "email", until: byEmail };
  return byAddress ? { scope: "address", until: byAddress } : null;
}

/** A successful sign-in clears the email's count (not the address's: one success must not reset a spraying address). */
export async function clearLoginFailures(email: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key: emailKey(email) } });
}

/**
 * The error a locked sign-in throws: next-auth hands its message to the sign-in form as
 * `error`, which turns it into words (lockoutMessage); only this fixed shape is shown, never
 * text from the URL.
 */
export function lockoutErrorCode(lockout: Lockout, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((lockout.until.getTime() - now) / 60_000));
  return `locked:${lockout.scope}:${minutes}`;
}
