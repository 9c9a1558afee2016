import { route } from "@/lib/http/route";
import { getAssetForUser } from "@/lib/assets";
import { assetParamSchema } from "@/lib/validations/annotate";

/**
 * GET /api/assets/[hash]: an image by its sha256. The bytes of a hash never change, so the browser
 * may keep it for a year without asking again (private: it is behind a login). 404 for users who
 * may not see it, as for unknown hashes.
 */
export const GET = route({ roles: "signed-in", params: assetParamSchema }, async ({ request, params, user }) => {
  const asset = await getAssetForUser(params.hash, user.id, user.role);
  if (!asset) return Response.json({ error: "Not found" }, { status: 404 });
  const etag = `"${asset.hash}"`;
  const headers = {
    "cache-control": "private, max-age=31536000, immutable",
    etag,
    "content-type": asset.mime,
    "x-content-type-options": "nosniff",
    // an image, never a page: opened on its own it shows as the picture it is (CSP sandbox: next.config.js)
    "content-disposition": `inline; filename="${asset.hash}.${asset.mime.slice(6)}"`,
  };
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(asset.bytes), { headers: { ...headers, "content-length": String(asset.bytes.byteLength) } });
});
