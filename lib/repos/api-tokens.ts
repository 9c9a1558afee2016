import "server-only";
import { db } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";

/**
 * Data access for personal API tokens (ApiToken). Issuing, scopes, expiry and rate rules are
 * lib/auth/api-tokens.ts's; only a token's SHA-256 is ever stored or looked up.
 */

export interface StoredTokenSummary {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const summarySelect = { id: true, name: true, prefix: true, scopes: true, createdAt: true, expiresAt: true, lastUsedAt: true, revokedAt: true } as const;

/** The user's tokens that are neither revoked nor expired. */
export async function countActiveTokens(userId: string): Promise<number> {
  return db.apiToken.count({ where: { userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] } });
}

export async function insertToken(data: {
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date;
  createdById: string;
}): Promise<StoredTokenSummary> {
  return db.apiToken.create({ data, select: summarySelect });
}

/** The user's own tokens, newest first. */
export async function listUserTokens(userId: string, take: number): Promise<StoredTokenSummary[]> {
  return db.apiToken.findMany({ where: { userId }, orderBy: { createdAt: "desc" }, select: summarySelect, take });
}

export async function findUserToken(tokenId: string, userId: string): Promise<{ id: string; revokedAt: Date | null } | null> {
  return db.apiToken.findFirst({ where: { id: tokenId, userId }, select: { id: true, revokedAt: true } });
}

export async function setTokenRevokedAt(tokenId: string, revokedAt: Date): Promise<StoredTokenSummary> {
  return db.apiToken.update({ where: { id: tokenId }, data: { revokedAt }, select: summarySelect });
}

/** Revokes every token of the user that is not revoked yet. */
export async function revokeUserTokens(userId: string): Promise<void> {
  await db.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

export interface BearerTokenRow {
  tokenId: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  id: string;
  name: string;
  email: string | null;
  role: Role;
  disabled: boolean;
}

/** The token with this hash and its user, in one query. */
export async function findTokenByHash(tokenHash: string): Promise<BearerTokenRow | undefined> {
  const [row] = await db.$queryRaw<
    BearerTokenRow[]
  >`SELECT t.id AS "tokenId", t.scopes, t."expiresAt", t."revokedAt", t."lastUsedAt", u.id, u.name, u.email, u.role::text AS role, u.disabled
    FROM "ApiToken" t JOIN "User" u ON u.id = t."userId" WHERE t."tokenHash" = ${tokenHash}`;
  return row;
}

export async function touchTokenLastUsed(tokenId: string): Promise<void> {
  await db.$executeRaw`UPDATE "ApiToken" SET "lastUsedAt" = now() WHERE id = ${tokenId}`;
}

/**
 * Takes one request from the token's bucket (kept on its row: refilled at `perSecond` up to
 * `capacity` since it was last touched) in one statement, under the row's lock; returns the
 * tokens the bucket held before, a refused request (before < 1) taking nothing; undefined for an
 * unknown token.
 */
export async function takeFromTokenBucket(tokenId: string, capacity: number, perSecond: number): Promise<{ before: number } | undefined> {
  const [row] = await db.$queryRaw<Array<{ before: number }>>`
    WITH bucket AS (
      SELECT id, LEAST(${capacity}::float8, COALESCE("rateTokens", ${capacity}::float8)
        + GREATEST(0, EXTRACT(EPOCH FROM (clock_timestamp() - COALESCE("rateAt", clock_timestamp()))))::float8 * ${perSecond}::float8) AS before
      FROM "ApiToken" WHERE id = ${tokenId} FOR UPDATE
    )
    UPDATE "ApiToken" AS t SET "rateTokens" = CASE WHEN bucket.before >= 1 THEN bucket.before - 1 ELSE bucket.before END, "rateAt" = clock_timestamp()
    FROM bucket WHERE t.id = bucket.id RETURNING bucket.before`;
  return row;
}
