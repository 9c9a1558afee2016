import "server-only";
import { assetResponse } from "@/lib/assets/serve";
import { findAsset, type StoredAsset } from "@/lib/repos/assets";
import { reviewerMaySeeAsset } from "@/lib/repos/review";
import type { Role } from "@/lib/generated/prisma/enums";

const hashPattern = /^[0-9a-f]{64}$/;

/**
 * An image or video for a reviewer (GET /api/review/assets/<hash>), or null: staff see every asset (as on
 * /api/assets); any other user only the assets of the studies whose batches a review study they
 * review covers. Null also for malformed and unknown hashes, so that a caller cannot tell
 * "forbidden" from "absent".
 */
export async function getReviewAssetForUser(hash: string, userId: string, role: Role): Promise<StoredAsset | null> {
  if (!hashPattern.test(hash)) return null;
  if (role === "ADMIN" || role === "RESEARCHER") return findAsset(hash);
  return (await reviewerMaySeeAsset(userId, hash)) ? findAsset(hash) : null;
}

/** GET /api/review/assets/<hash>: the asset (Range-aware, lib/assets/serve.ts) if the reviewer may see it, else 404. */
export async function serveReviewAssetForUser(request: Request, hash: string, user: { id: string; role: Role }): Promise<Response> {
  return assetResponse(request, await getReviewAssetForUser(hash, user.id, user.role));
}
