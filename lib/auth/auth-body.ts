import "server-only";
import { NextRequest } from "next/server";
import { readBodyBytes } from "@/lib/http/body";

/**
 * next-auth reads a POST body whole (request.text(), then URLSearchParams) before any check of its
 * own, for signed-out clients too. Its forms (CSRF token, callback URL, the credentials of a
 * sign-in or a study link's query) are a few KiB; the cap leaves room for long study links.
 */
export const MAX_AUTH_BODY_BYTES = 64 * 1024;

/** The request with its body read within MAX_AUTH_BODY_BYTES (TOO_LARGE beyond, declared or while streaming). */
export async function boundedAuthRequest(request: NextRequest): Promise<NextRequest> {
  if (request.method !== "POST") return request;
  const body = await readBodyBytes(request, MAX_AUTH_BODY_BYTES);
  return new NextRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: body.byteLength > 0 ? (body as Uint8Array<ArrayBuffer>) : undefined,
  });
}
