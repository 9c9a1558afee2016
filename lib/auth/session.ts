import "server-only";
import { LRUCache } from "lru-cache";
import { decode, getToken, type JWT, type JWTDecodeParams } from "next-auth/jwt";
import { cookies } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { authOptions } from "@/lib/auth";
import { signedOutError } from "@/lib/db/enabled-user";
import { sessionVersionIsCurrentCached, tokenSessionVersion } from "@/lib/auth/session-version";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { findSessionUser } from "@/lib/repos/users";

export interface CurrentUser {
  id: string;
  name: string;
  email: string | null;
  role: Role;
}

/**
 * Decrypted session tokens by their exact text. A token's content never changes, so only its
 * expiry is checked again; this spares the key derivation and AES-GCM of every request (the
 * annotation API is called about once a second per annotator: bench/load).
 */
const MAX_DECODED_TOKENS = 10_000;
const decodedTokens = new LRUCache<string, { payload: JWT; exp: number }>({ max: MAX_DECODED_TOKENS });
/** next-auth's decode accepts a token up to 15 s past its expiry; so does the cache */
const CLOCK_TOLERANCE_SECONDS = 15;

async function decodeCached(params: JWTDecodeParams): Promise<JWT | null> {
  const token = params.token;
  if (!token) return null;
  const hit = decodedTokens.get(token);
  if (hit && Date.now() / 1000 <= hit.exp + CLOCK_TOLERANCE_SECONDS) return hit.payload;
  if (hit) decodedTokens.delete(token);
  const payload = await decode(params);
  if (payload && typeof payload.exp === "number") {
    decodedTokens.set(token, { payload, exp: payload.exp });
  }
  return payload;
}

/**
 * The user id in the session cookie: the JWT next-auth set at sign-in, read with next-auth's own
 * getToken (cookie name, chunks, decryption, expiry), without the session endpoint's callbacks and
 * re-encryption that getServerSession runs on every call.
 */
async function sessionToken(): Promise<{ id: string; version: number } | null> {
  const jar = await cookies();
  const token = await getToken({
    req: { cookies: Object.fromEntries(jar.getAll().map((cookie) => [cookie.name, cookie.value])), headers: {} } as unknown as Parameters<
      typeof getToken
    >[0]["req"],
    secureCookie: authOptions.useSecureCookies,
    secret: authOptions.secret ?? process.env.NEXTAUTH_SECRET,
    decode: decodeCached,
  });
  return typeof token?.sub === "string" && token.sub !== "" ? { id: token.sub, version: tokenSessionVersion(token) } : null;
}

/** The signed-in, enabled user, read fresh from the database; null when signed out, disabled or the session was ended. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const session = await sessionToken();
  if (!session) return null;
  // one raw SQL read (lib/repos/users.ts): this runs on every request, and costs half the CPU of the equivalent findUnique (bench/load)
  const user = await findSessionUser(session.id);
  if (!user || user.disabled || user.sessionVersion !== session.version) return null;
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

/**
 * For the annotation API's two busiest handlers (event batches, submissions), whose single SQL
 * statement checks the user itself (`enabledUserSql`): the user id of a valid session token, 401
 * without one or when the session was ended. Spares a query per request (bench/load): the account
 * is checked on every request in the same round trip as the write, and the session version
 * through a cache of a few seconds (lib/auth/session-version.ts).
 */
export async function requireSessionUserId(): Promise<string> {
  const session = await sessionToken();
  if (!session || !(await sessionVersionIsCurrentCached(session.id, session.version))) throw signedOutError();
  return session.id;
}

/** For route handlers and server actions: 401 when signed out, 403 when the role is not allowed. */
export async function requireRole(...roles: Role[]): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw signedOutError();
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

/**
 * For route-group layouts: the signed-in user for the shell, redirecting to sign-in when signed
 * out (pages add the callback) and rendering the 403 page when the role is not allowed, so that a
 * refusal is a real 403 sent before the page streams. Pages check again with requirePageRole.
 */
export async function requireLayoutUser(...roles: Role[]): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) redirect("/signin");
  if (roles.length > 0 && !roles.includes(user.role)) forbidden();
  return user;
}
