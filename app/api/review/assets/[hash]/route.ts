import { route } from "@/lib/http/route";
import { assetParamSchema } from "@/lib/validations/annotate";
import { getReviewAssetForUser } from "@/lib/review/assets";

/**
 * GET /api/review/assets/<hash>: an image of an item under review, for its reviewers (of any
 * role) and staff. Cached like /api/assets (the bytes of a hash never change); 404 for users who
 * may not see it, as for unknown hashes.
 */
export const GET = route({ roles: "signed-in", params: assetParamSchema }, async ({ request, params, user }) => {
  const asset = await getReviewAssetForUser(params.hash, user.id, user.role);
  if (!asset) return Response.json({ error: "Not found" }, { status: 404 });
  const etag = `"${asset.hash}"`;
  const headers = { "cache-control": "private, max-age=31536000, immutable", etag, "content-type": asset.mime, "x-content-type-options": "nosniff", "content-disposition": `inline; filename="${asset.hash}.${asset.mime.slice(6)}"` };
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(asset.bytes), { headers: { ...headers, "content-length": String(asset.bytes.byteLength) } });
});
