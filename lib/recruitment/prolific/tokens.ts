import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { insertAuditEntry } from "@/lib/repos/audit";
import { findActiveProlificToken, insertProlificToken, revokeProlificTokens, touchProlificToken } from "@/lib/repos/prolific";
import { inTransaction } from "@/lib/repos/transactions";
import { openSecret, sealSecret } from "@/lib/security/secret-box";
import { ProlificClient, type ClientCall } from "@/lib/recruitment/prolific/client";

/**
 * A researcher's Prolific API token (Prolific: Workspace settings > API tokens). It is stored
 * encrypted (lib/security/secret-box.ts), never sent back: after it is stored only its last four
 * characters show. Storing replaces the one before; revoking forgets it. Every store, revoke and
 * use is in the audit log (target `user:<id>`, or the study's for calls made for a study).
 */

export const prolificTokenBodySchema = z.object({
  token: z
    .string()
    .trim()
    .min(20, "at least 20 characters: paste the whole token Prolific showed")
    .max(512, "at most 512 characters")
    .regex(/^[A-Za-z0-9._~+/=-]+$/, "a Prolific token has letters, digits and - _ . ~ + / = only"),
});

export interface ProlificTokenView {
  stored: boolean;
  last4: string | null;
  createdAt: string | null;
  lastUsedAt: string | null;
}

export async function prolificTokenStatus(userId: string): Promise<ProlificTokenView> {
  const token = await findActiveProlificToken(userId);
  return token
    ? { stored: true, last4: token.last4, createdAt: token.createdAt.toISOString(), lastUsedAt: token.lastUsedAt?.toISOString() ?? null }
    : { stored: false, last4: null, createdAt: null, lastUsedAt: null };
}

export async function storeProlificToken(userId: string, raw: unknown): Promise<ProlificTokenView> {
  const { token } = prolificTokenBodySchema.parse(raw);
  const ciphertext = sealSecret(token);
  const last4 = token.slice(-4);
  await inTransaction(async (tx) => {
    const replaced = await revokeProlificTokens(tx, userId, new Date());
    const row = await insertProlificToken(tx, { userId, ciphertext, last4 });
    await insertAuditEntry({ actorId: userId, action: "prolific.token.store", target: `user:${userId}`, detail: { tokenId: row.id, last4, replaced } }, tx);
  });
  return prolificTokenStatus(userId);
}

export async function revokeProlificToken(userId: string): Promise<ProlificTokenView> {
  await inTransaction(async (tx) => {
    const revoked = await revokeProlificTokens(tx, userId, new Date());
    if (revoked === 0) throw new AppError("NOT_FOUND", "No Prolific token is stored for you");
    await insertAuditEntry({ actorId: userId, action: "prolific.token.revoke", target: `user:${userId}`, detail: { revoked } }, tx);
  });
  return prolificTokenStatus(userId);
}

/**
 * A client acting with the user's stored token; each call it makes is an audit entry
 * (`prolific.call`, with method, path, Prolific's status and the attempts) on `target`.
 */
export async function prolificClientFor(userId: string, target: { studyId: string; slug?: string } | null, actorId: string | null): Promise<ProlificClient> {
  const stored = await findActiveProlificToken(userId);
  if (!stored)
    throw new AppError(
      "CONFLICT",
      target ? "The study's owner has no Prolific token stored: they store one in the study's Recruitment card" : "Store your Prolific API token first",
    );
  const token = openSecret(stored.ciphertext);
  await touchProlificToken(stored.id);
  return new ProlificClient({
    token,
    onCall: async (call: ClientCall) => {
      await insertAuditEntry({
        actorId,
        action: "prolific.call",
        target: target ? `study:${target.studyId}` : `user:${userId}`,
        detail: { ...(target ? { studyId: target.studyId, slug: target.slug } : {}), tokenId: stored.id, ...call },
      });
    },
  });
}
