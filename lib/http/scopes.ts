/**
 * What an API token may do (docs/api.md): "read" results (staff GET routes), "manage"
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
