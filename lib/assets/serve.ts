import "server-only";
import { s3Settings } from "@/lib/assets/config";
import { parseRange } from "@/lib/assets/range";
import { presignedObjectUrl } from "@/lib/assets/s3";
import { storeHolding, type ByteRange } from "@/lib/assets/store";
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
  return rangedResponse(request, {
    size: asset.size,
    etag,
    headers,
    read: (span) => store.read(asset, span),
    what: `asset ${asset.hash} in the ${store.kind} store`,
  });
}

/**
 * The answer to a GET of `size` bytes with the given validator (a quoted ETag) and headers: 304
 * for a matching If-None-Match, else HTTP Range as assetResponse describes (206 with
 * Content-Range, 416 past the end, If-Range with another validator: the whole body), the bytes
 * streamed by `read`. Assets and prepared export files (lib/exports/export-jobs.ts) are answered
 * by it.
 */
export async function rangedResponse(
  request: Request,
  file: { size: number; etag: string; headers: Record<string, string>; read: (span: ByteRange) => Promise<ReadableStream<Uint8Array> | null>; what: string },
): Promise<Response> {
  const headers = { ...file.headers, etag: file.etag, "accept-ranges": "bytes" };
  if (etagMatches(request.headers.get("if-none-match"), file.etag)) return new Response(null, { status: 304, headers });
  const ifRange = request.headers.get("if-range");
  const range = ifRange !== null && ifRange.trim() !== file.etag ? { kind: "whole" as const } : parseRange(request.headers.get("range"), file.size);
  if (range.kind === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${file.size}` } });
  }
  const span = range.kind === "range" ? { start: range.start, end: range.end } : { start: 0, end: file.size - 1 };
  // an empty file has no bytes to read
  const body = file.size === 0 ? null : await file.read(span);
  if (!body && file.size > 0) throw new Error(`${file.what} has no bytes`);
  const length = String(file.size === 0 ? 0 : span.end - span.start + 1);
  if (range.kind === "range") {
    return new Response(body, {
      status: 206,
      headers: { ...headers, "content-range": `bytes ${span.start}-${span.end}/${file.size}`, "content-length": length },
    });
  }
  return new Response(body, { status: 200, headers: { ...headers, "content-length": length } });
}
