import "server-only";
import type { Role } from "@/lib/generated/prisma/enums";
import { findAsset, findAssetInUserStudies, type StoredAsset } from "@/lib/repos/assets";

/**
 * Images and videos are stored once by content hash (Asset) and served at /api/assets/<sha256>;
 * the URL never changes for the same bytes, so the route can cache it forever (immutable). Where
 * the bytes live (PostgreSQL or an S3 bucket): lib/assets/store.ts; serving with HTTP Range:
 * lib/assets/serve.ts; docs/media.md.
 */

const hashPattern = /^[0-9a-f]{64}$/;

export function isAssetHash(value: string): boolean {
  return hashPattern.test(value);
}

/** The served URL of an asset: "/api/assets/<sha256 hex>". */
export function assetUrl(hash: string): string {
  if (!hashPattern.test(hash)) throw new TypeError(`assetUrl needs a sha256 hex hash, got ${JSON.stringify(hash)}`);
  return `/api/assets/${hash}`;
}

export type { StoredAsset };

/**
 * The asset if the user may see it, else null (also for malformed hashes and unknown assets, so a
 * caller cannot tell "forbidden" from "absent"). ADMIN and RESEARCHER see every asset; an
 * ANNOTATOR only assets of a study they are a member of or have an assignment in.
 */
export async function getAssetForUser(hash: string, userId: string, role: Role): Promise<StoredAsset | null> {
  if (!hashPattern.test(hash)) return null;
  if (role === "ADMIN" || role === "RESEARCHER") return findAsset(hash);
  if (role === "ANNOTATOR") return findAssetInUserStudies(hash, userId);
  return null;
}

/** GET /api/assets/<hash>: the asset (Range-aware) if the user may see it, else 404. */
export async function serveAssetForUser(request: Request, hash: string, user: { id: string; role: Role }): Promise<Response> {
  const { assetResponse } = await import("@/lib/assets/serve");
  return assetResponse(request, await getAssetForUser(hash, user.id, user.role));
}
