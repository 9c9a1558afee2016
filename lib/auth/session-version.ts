import "server-only";
import { LRUCache } from "lru-cache";
import { findSessionVersion, incrementSessionVersion } from "@/lib/repos/users";

/**
 * Revocable sessions. Session cookies are signed JWTs (lib/auth/index.ts), which the server cannot take
 * back by themselves; so each carries the user's session version (`sv`) from sign-in, and
 * User.sessionVersion is compared on every request. Signing out (next-auth's signOut event) and
 * disabling an account (lib/auth/users.ts) raise the version, which ends every session of the user on
 * every device. A token from before versions existed carries none and counts as version 0.
 *
 * Cost: pages and most handlers read the user row anyway (lib/auth/session.ts getCurrentUser: the
 * version is one more column of the same indexed read). The two busiest handlers (event batches,
 * submissions) check the account inside their write statement and compare the version through a
 * per-process cache of SESSION_VERSION_CACHE_MS (SECURITY.md: a session ended by signing out may
 * still post events and answers to those two endpoints for at most that long; disabling is
 * checked in their own statement at once).
 */
export const SESSION_VERSION_CACHE_MS = 5_000;

export function tokenSessionVersion(token: Record<string, unknown> | null | undefined): number {
  const sv = token?.sv;
  return typeof sv === "number" && Number.isInteger(sv) ? sv : 0;
}

/** The user's current session version; null when the user is missing or disabled. */
export async function currentSessionVersion(userId: string): Promise<number | null> {
  const row = await findSessionVersion(userId);
  return row && !row.disabled ? row.sessionVersion : null;
}

/** Ends every session of the user (sign-out, disabling). */
export async function endAllSessions(userId: string): Promise<void> {
  await incrementSessionVersion(userId);
  cache.delete(userId);
}

const MAX_CACHED = 20_000;
const cache = new LRUCache<string, { version: number | null; at: number }>({ max: MAX_CACHED });

/** Whether a token's version is the user's current one, read at most every SESSION_VERSION_CACHE_MS per user and process. */
export async function sessionVersionIsCurrentCached(userId: string, version: number): Promise<boolean> {
  const now = Date.now();
  const hit = cache.get(userId);
  if (hit && now - hit.at < SESSION_VERSION_CACHE_MS) return hit.version === version;
  const current = await currentSessionVersion(userId);
  cache.set(userId, { version: current, at: now });
  return current === version;
}
