import "server-only";
import { s3Settings } from "@/lib/assets/config";
import { parseRange } from "@/lib/assets/range";
import { presignedObjectUrl } from "@/lib/assets/s3";
import { storeHolding } from "@/lib/assets/store";
import type { StoredAsset } from "@/lib/repos/assets";

const extensionOf: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

function disposition(asset: StoredAsset): string {
  return `inline; filename="${asset.hash}.${extensionOf[asset.mime] ?? "bin"}"`;
}

function etagMatches(header: string | null, etag: string): boolean {
  return header !== null && header.split(",").some((tag) => tag.trim() === "*" || tag.trim().replace(/^W\//, "") === etag);
}

/**
 * The answer to a GET of an asset the caller may see (null: 404, for unknown and forbidden alike).
 * The bytes of a hash never change, so the browser may keep them a year (private: behind a login)
 * and revalidate with If-None-Match (304). HTTP Range (RFC 9110 section 14): `Accept-Ranges:
 * bytes`; a satisfiable single range is a 206 with Content-Range (of a multi-range request only the
 * first range is answered, as a single-range 206); a range past the end is a 416 with
 * `Content-Range: bytes *\/size`; If-Range with another validator gets the whole body. Bytes are
 * streamed from the store holding them, never read whole: PostgreSQL a chunk at a time, S3 with
 * the range passed through; or, with ASSET_S3_SERVE=redirect, a 302 to a presigned URL of the
 * bucket (which answers Range requests itself) after the same authorisation.
 */
export async function assetResponse(request: Request, asset: StoredAsset | null): Promise<Response> {
  if (!asset) return Response.json({ error: "Not found" }, { status: 404 });
  const etag = `"${asset.hash}"`;
  const headers: Record<string, string> = {
    "cache-control": "private, max-age=31536000, immutable",
    etag,
    "content-type": asset.mime,
    "x-content-type-options": "nosniff",
    "accept-ranges": "bytes",
    // a picture or a video, never a page: opened on its own it shows as what it is (CSP sandbox: next.config.js)
    "content-disposition": disposition(asset),
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });

  const store = storeHolding(asset);
  if (store.kind === "s3") {
    const settings = s3Settings();
    if (settings.serve === "redirect") {
      const url = await presignedObjectUrl(settings, asset, { disposition: disposition(asset) });
      // the URL expires: neither the redirect nor its target may be remembered past that
      return new Response(null, { status: 302, headers: { location: url, "cache-control": "private, no-store", "x-content-type-options": "nosniff" } });
    }
  }

  const ifRange = request.headers.get("if-range");
  const range = ifRange !== null && ifRange.trim() !== etag ? { kind: "whole" as const } : parseRange(request.headers.get("range"), asset.size);
  if (range.kind === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${asset.size}` } });
  }
  const span = range.kind === "range" ? { start: range.start, end: range.end } : { start: 0, end: asset.size - 1 };
  const body = await store.read(asset, span);
  if (!body) throw new Error(`asset ${asset.hash} has no bytes in the ${store.kind} store`);
  const length = String(span.end - span.start + 1);
  if (range.kind === "range") {
    return new Response(body, { status: 206, headers: { ...headers, "content-range": `bytes ${span.start}-${span.end}/${asset.size}`, "content-length": length } });
  }
  return new Response(body, { status: 200, headers: { ...headers, "content-length": length } });
}
