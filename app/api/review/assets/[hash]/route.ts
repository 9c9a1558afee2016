import { route } from "@/lib/http/route";
import { assetParamSchema } from "@/lib/validations/annotate";
import { serveReviewAssetForUser } from "@/lib/review/assets";

/**
 * GET /api/review/assets/<hash>: an image or video of an item under review, for its reviewers (of
 * any role) and staff; served like /api/assets (HTTP Range, cached: the bytes of a hash never
 * change); 404 for users who may not see it, as for unknown hashes.
 */
export const GET = route(
  { roles: "signed-in", summary: "An image or video of an item under review, for its reviewers and staff", params: assetParamSchema },
  async ({ request, params, user }) => serveReviewAssetForUser(request, params.hash, user),
);
