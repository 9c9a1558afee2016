import "server-only";
import {
  countThrottleFailure,
  countWindowAttempt,
  deleteThrottleKeys,
  findThrottleRows,
  pruneThrottleRows,
  touchThrottleKey,
} from "@/lib/repos/login-throttle";

/**
 * Sign-in rate limiting (SECURITY.md). Failed password sign-ins are counted in fixed windows, in
 * PostgreSQL (LoginThrottle), so every app instance and every restart sees the same counts; one
 * upsert per failure keeps them exact under concurrent attempts. Three keys per failure:
 *
 * - the account and the client address together ("pair:"): 5 failures lock that pair for 15
 *   minutes (one network guessing one account);
 * - the client address ("ip:"): 50 failures over any accounts lock the address for 15 minutes
 *   (one network spraying a password over many accounts; higher, since a lab or a recruitment
 *   platform may put many people behind one address);
 * - the account across all addresses ("email:"): from the 5th failure on, a backoff (2 s, doubling,
 *   at most 60 s after the latest failure) slows a distributed guesser to about one guess a minute,
 *   but never locks the owner out: addresses the account signed in from in the last 30 days
 *   ("known:" rows, written at each successful sign-in) pass the backoff, and elsewhere the owner
 *   waits seconds, not minutes.
 *
 * The client address is the TCP peer (scripts/serve.mjs puts it in PEER_HEADER, overwriting anything
 * a client sent), or, behind TRUST_PROXY=<hops> proxies, the X-Forwarded-For entry that the
 * outermost trusted proxy saw: clients can write X-Forwarded-For, so it is read only as far as the
 * configured proxies vouch for it.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  maxFailuresPerPair: 5,
  maxFailuresPerAddress: 50,
  /** failures of one account (any address) before the backoff starts */
  backoffAfter: 5,
  backoffBaseMs: 2_000,
  backoffMaxMs: 60_000,
  /** how long a successful sign-in makes an address known to the account */
  knownAddressMs: 30 * 24 * 3600 * 1000,
} as const;

/** Set by scripts/serve.mjs from the socket on every request (a client's own value is overwritten). */
export const PEER_HEADER = "x-yardstick-peer-address";

export type LockScope = "email" | "pair" | "address";

export interface Lockout {
  scope: LockScope;
  until: Date;
}

const normal = (email: string) => email.trim().toLowerCase();
const emailKey = (email: string) => `email:${normal(email)}`;
const pairKey = (email: string, address: string) => `pair:${normal(email)}|${address}`;
const addressKey = (address: string) => `ip:${address}`;
const knownKey = (email: string, address: string) => `known:${normal(email)}|${address}`;

/** TRUST_PROXY: how many proxies in front of the app append to X-Forwarded-For (unset, 0 or false: none; true: 1). */
export function trustedProxyHops(value = process.env.TRUST_PROXY): number {
  const raw = (value ?? "").trim().toLowerCase();
  if (raw === "" || raw === "false") return 0;
  if (raw === "true") return 1;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  throw new Error(`TRUST_PROXY must be a number of proxies (0-99), true or false, not ${JSON.stringify(value)}`);
}

function header(headers: Headers | Record<string, unknown> | undefined, name: string): string {
  const raw = headers instanceof Headers ? headers.get(name) : headers?.[name];
  return Array.isArray(raw) ? raw.join(",") : typeof raw === "string" ? raw : "";
}

/**
 * The client address from request headers (a plain record, as next-auth passes them, or Headers).
 * Without trusted proxies: the TCP peer. With n: the chain X-Forwarded-For + peer, read from the
 * right, skipping the n proxies (the entry the outermost trusted proxy added). Without the peer
 * header (a server not started by scripts/serve.mjs, e.g. `next dev`), the last X-Forwarded-For
 * entry, which Next.js fills from the socket when a client sent none.
 */
export function clientAddress(headers: Headers | Record<string, unknown> | undefined, hops = trustedProxyHops()): string {
  const peer = header(headers, PEER_HEADER).trim();
  const forwarded = header(headers, "x-forwarded-for")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  let address: string | undefined;
  if (!peer) address = forwarded.at(-1);
  else if (hops === 0) address = peer;
  else {
    // Next.js adds the peer to X-Forwarded-For when the request had none: do not count it twice
    const chain = forwarded.length === 1 && forwarded[0] === peer ? [peer] : [...forwarded, peer];
    address = chain[Math.max(0, chain.length - 1 - hops)];
  }
  return (address ?? "unknown").slice(0, 100);
}

/**
 * The lockout in force for this sign-in, if any (the one that lasts longest): the pair's or the
 * address's lock, or the account's backoff unless the address is known to the account.
 */
export async function currentLockout(email: string, address: string): Promise<Lockout | null> {
  const rows = await findThrottleRows([emailKey(email), pairKey(email, address), addressKey(address), knownKey(email, address)]);
  const now = Date.now();
  const known = rows.some((row) => row.key.startsWith("known:") && row.updatedAt.getTime() > now - LOGIN_THROTTLE.knownAddressMs);
  let found: Lockout | null = null;
  for (const row of rows) {
    if (!row.lockedUntil || row.lockedUntil.getTime() <= now || row.key.startsWith("known:")) continue;
    const scope: LockScope = row.key.startsWith("email:") ? "email" : row.key.startsWith("pair:") ? "pair" : "address";
    if (scope === "email" && known) continue;
    if (!found || row.lockedUntil > found.until) found = { scope, until: row.lockedUntil };
  }
  return found;
}

/** One more failure in the key's window; the lock (fixed or backoff) it sets from the limit on. */
async function countFailure(key: string, limit: number, lock: "fixed" | "backoff"): Promise<Date | null> {
  const until = await countThrottleFailure(
    key,
    LOGIN_THROTTLE.windowMs,
    limit,
    lock === "fixed"
      ? { kind: "fixed", lockMs: LOGIN_THROTTLE.lockMs }
      : { kind: "backoff", baseMs: LOGIN_THROTTLE.backoffBaseMs, maxMs: LOGIN_THROTTLE.backoffMaxMs },
  );
  return until && until.getTime() > Date.now() ? until : null;
}

/** Counts one failed sign-in for the account, the pair and the address; returns the lockout it starts for this address, if any. */
export async function recordLoginFailure(email: string, address: string): Promise<Lockout | null> {
  await countFailure(emailKey(email), LOGIN_THROTTLE.backoffAfter, "backoff");
  await countFailure(pairKey(email, address), LOGIN_THROTTLE.maxFailuresPerPair, "fixed");
  await countFailure(addressKey(address), LOGIN_THROTTLE.maxFailuresPerAddress, "fixed");
  // rows untouched for a day are history (known addresses for 30 days): drop some now and then
  if (Math.random() < 0.02) {
    await pruneThrottleRows(LOGIN_THROTTLE.knownAddressMs);
  }
  return currentLockout(email, address);
}

/**
 * A successful sign-in clears the account's and the pair's counts (not the address's: one success
 * must not reset a spraying address) and makes the address known to the account.
 */
export async function recordLoginSuccess(email: string, address: string): Promise<void> {
  await deleteThrottleKeys([emailKey(email), pairKey(email, address)]);
  await touchThrottleKey(knownKey(email, address));
}

/**
 * One more attempt under `key` in a fixed window of `windowMs`; returns the attempts in the
 * window, this one included, and the seconds until the window ends (study-link sign-ins:
 * lib/studies/entry.ts LINK_THROTTLE).
 */
export async function countAttempt(key: string, windowMs: number): Promise<{ attempts: number; secondsLeft: number }> {
  const row = await countWindowAttempt(key, windowMs);
  return { attempts: row?.failures ?? 1, secondsLeft: Math.max(1, Math.ceil(row?.secondsLeft ?? windowMs / 1000)) };
}

/**
 * The error a refused sign-in throws: next-auth hands its message to the sign-in form as `error`,
 * which turns it into words (lib/auth/sign-in-errors.ts); only these fixed shapes are shown, never text
 * from the URL. Locks in minutes ("locked:pair:15", "locked:address:15"), the account's backoff in
 * seconds ("wait:email:8").
 */
export function lockoutErrorCode(lockout: Lockout, now = Date.now()): string {
  const ms = lockout.until.getTime() - now;
  if (lockout.scope === "email") return `wait:email:${Math.max(1, Math.ceil(ms / 1000))}`;
  return `locked:${lockout.scope}:${Math.max(1, Math.ceil(ms / 60_000))}`;
}
