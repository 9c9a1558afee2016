import { LRUCache } from "lru-cache";
import { AppError } from "@/lib/errors";

/**
 * What an API token may do (issue 23, docs/api.md): "read" results (staff GET routes), "manage"
 * studies and imports (staff routes that change something), "play" the annotation API as a
 * participant or agent (the routes any signed-in user calls).
 */
export const apiScopes = ["read", "manage", "play"] as const;
export type ApiScope = (typeof apiScopes)[number];

/** The scope a bearer token needs on a route; "none": the route takes no token (a session cookie only). */
export type RouteScope = ApiScope | "none";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The scope a route needs when it does not name one: routes of participants ("signed-in",
 * "session-token") need "play"; staff routes need "read" to read and "manage" to change.
 */
export function defaultScope(access: "signed-in" | "session-token" | "public" | readonly string[], method: string): RouteScope {
  if (access === "public") return "none";
  if (access === "signed-in" || access === "session-token") return "play";
  return safeMethods.has(method.toUpperCase()) ? "read" : "manage";
}

/** The requests per minute each token may make (YARDSTICK_API_RATE_PER_MINUTE, default 600). */
export function apiRatePerMinute(): number {
  const value = Number(process.env.YARDSTICK_API_RATE_PER_MINUTE ?? "");
  return Number.isInteger(value) && value > 0 ? value : 600;
}

interface Bucket {
  tokens: number;
  at: number;
}

const buckets = new LRUCache<string, Bucket>({ max: 10_000 });

/**
 * A token bucket per API token, in this server process: `perMinute` requests a minute on
 * average, in bursts of up to a tenth of that (at least 10). Throws 429 with Retry-After past it.
 */
export function takeRateToken(tokenId: string, perMinute = apiRatePerMinute(), now = Date.now()): void {
  const capacity = Math.max(10, Math.ceil(perMinute / 10));
  const perMs = perMinute / 60_000;
  const bucket = buckets.get(tokenId) ?? { tokens: capacity, at: now };
  bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
  bucket.at = now;
  if (bucket.tokens < 1) {
    buckets.set(tokenId, bucket);
    throw new AppError("RATE_LIMITED", `This API token made more than ${perMinute} requests a minute; slow down`, { retryAfterSeconds: (1 - bucket.tokens) / perMs / 1000 });
  }
  bucket.tokens -= 1;
  buckets.set(tokenId, bucket);
}
