import { route } from "@/lib/http/route";
import { serveAssetForUser } from "@/lib/assets";
import { assetParamSchema } from "@/lib/validations/annotate";

/**
 * GET /api/assets/[hash]: an image or video by its sha256, with HTTP Range (206) so that videos
 * seek without downloading the whole file (lib/assets/serve.ts). The bytes of a hash never
 * change, so the browser may keep them a year. 404 for users who may not see it, as for unknown
 * hashes.
 */
export const GET = route(
  { roles: "signed-in", summary: "An image or video of an item the signed-in person may see (HTTP Range for videos)", params: assetParamSchema },
  async ({ request, params, user }) => serveAssetForUser(request, params.hash, user),
);
