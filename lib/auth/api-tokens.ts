import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { apiRatePerMinute, apiScopes, type ApiScope } from "@/lib/http/scopes";
import {
  countActiveTokens,
  findTokenByHash,
  findUserToken,
  insertToken,
  listUserTokens,
  setTokenRevokedAt,
  takeFromTokenBucket,
  touchTokenLastUsed,
  type StoredTokenSummary,
} from "@/lib/repos/api-tokens";
import type { CurrentUser } from "@/lib/auth/session";
import type { TokenCreateInput } from "@/lib/validations/api-token";

/**
 * Personal API tokens (docs/api.md). A token is `ys_` and 32 random bytes (base64url);
 * only its SHA-256 is stored (a hash of 256 random bits needs no salt or slow hash: nothing can
 * be guessed from it), with its first characters to tell tokens apart in lists. A request with
 * `Authorization: Bearer <token>` acts as the token's user, with that user's role and
 * authorisation, and only on routes its scopes allow (lib/http/route.ts). Revoking, expiry,
 * disabling the user end it at once: every request reads the token's row.
 */

export const TOKEN_PREFIX = "ys_";
/** tokens a user may hold at once (not revoked, not expired) */
export const MAX_ACTIVE_TOKENS = 50;
/** lastUsedAt is written at most this often per token */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiTokenSummary {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newTokenText(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

function summaryOf(row: StoredTokenSummary): ApiTokenSummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.filter((scope): scope is ApiScope => (apiScopes as readonly string[]).includes(scope)),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Makes a token for `userId` and returns its text, once. `actorId`: who asked (the user, or the
 * researcher making an agent's token).
 */
export async function issueToken(userId: string, input: TokenCreateInput, actorId: string): Promise<{ token: string; summary: ApiTokenSummary }> {
  const active = await countActiveTokens(userId);
  if (active >= MAX_ACTIVE_TOKENS) throw new AppError("CONFLICT", `At most ${MAX_ACTIVE_TOKENS} tokens may be active at once; revoke one first`);
  const token = newTokenText();
  const row = await insertToken({
    userId,
    name: input.name,
    tokenHash: hashToken(token),
    prefix: token.slice(0, TOKEN_PREFIX.length + 6),
    scopes: [...new Set(input.scopes)],
    expiresAt: new Date(Date.now() + input.expiresInDays * 24 * 60 * 60 * 1000),
    createdById: actorId,
  });
  await recordAudit(actorId, "api-token.create", `user:${userId}`, {
    tokenId: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  });
  return { token, summary: summaryOf(row) };
}

/** The user's own tokens, newest first (revoked ones too, for the record). */
export async function listTokens(userId: string): Promise<ApiTokenSummary[]> {
  const rows = await listUserTokens(userId, 200);
  return rows.map(summaryOf);
}

/** Revokes one of the user's own tokens (404 for anyone else's: it is not theirs to see). */
export async function revokeToken(userId: string, tokenId: string, actorId: string = userId): Promise<ApiTokenSummary> {
  const row = await findUserToken(tokenId, userId);
  if (!row) throw new AppError("NOT_FOUND", `No token ${tokenId}`);
  const updated = await setTokenRevokedAt(row.id, row.revokedAt ?? new Date());
  if (!row.revokedAt) await recordAudit(actorId, "api-token.revoke", `user:${userId}`, { tokenId: row.id, name: updated.name, prefix: updated.prefix });
  return summaryOf(updated);
}

export interface BearerCaller {
  tokenId: string;
  scopes: ApiScope[];
  user: CurrentUser;
}

/**
 * The caller of a bearer token: 401 when it is unknown, revoked, expired, or its user is disabled.
 * Notes the last use (at most once a minute per token).
 */
export async function authenticateBearer(token: string): Promise<BearerCaller> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) throw new AppError("UNAUTHORIZED", "The API token is not a Yardstick token");
  const row = await findTokenByHash(hashToken(token));
  if (!row) throw new AppError("UNAUTHORIZED", "The API token is unknown");
  if (row.revokedAt) throw new AppError("UNAUTHORIZED", "The API token was revoked");
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) throw new AppError("UNAUTHORIZED", "The API token has expired");
  if (row.disabled) throw new AppError("UNAUTHORIZED", "The API token's account is disabled");
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await touchTokenLastUsed(row.tokenId);
  }
  return {
    tokenId: row.tokenId,
    scopes: row.scopes.filter((scope): scope is ApiScope => (apiScopes as readonly string[]).includes(scope)),
    user: { id: row.id, name: row.name, email: row.email, role: row.role },
  };
}

/**
 * Takes one request from the token's rate bucket, kept on its ApiToken row so that every app
 * instance counts the same requests (docs/scaling.md): `perMinute` requests a minute on average,
 * in bursts of up to a tenth of that (at least 10). One statement; the row lock orders concurrent
 * requests. Throws 429 with Retry-After past it (a refused request takes nothing).
 */
export async function takeRateToken(tokenId: string, perMinute = apiRatePerMinute()): Promise<void> {
  const capacity = Math.max(10, Math.ceil(perMinute / 10));
  const perSecond = perMinute / 60;
  const row = await takeFromTokenBucket(tokenId, capacity, perSecond);
  if (!row) throw new AppError("UNAUTHORIZED", "The API token is unknown");
  if (row.before < 1) {
    throw new AppError("RATE_LIMITED", `This API token made more than ${perMinute} requests a minute; slow down`, {
      retryAfterSeconds: (1 - row.before) / perSecond,
    });
  }
}
