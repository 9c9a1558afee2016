/**
 * A JSON answer for the annotation API: never cached, and not gzipped. Next.js gzips every JSON
 * response whose length it does not know, and it drops the Content-Length of route handlers'
 * responses, so a 60-byte event ack got a gzip stream of its own; that cost more CPU than the
 * answer itself under load (bench/load). `no-transform` is what its compression step honours.
 * The answers are small (acks, submissions) or a few KiB (an item's public view).
 */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  headers.set("cache-control", "no-store, no-transform");
  return new Response(JSON.stringify(body), { ...init, headers });
}
