import { AppError } from "@/lib/errors";

/**
 * Cross-site request forgery: a state-changing request (anything but GET, HEAD, OPTIONS) must
 * come from a page of this site. Browsers say where a request comes from in Sec-Fetch-Site (Fetch
 * Metadata) and Origin, and a page on another site cannot forge either; session cookies are
 * SameSite=Lax besides. A request with neither header is not from a browser (curl, the CLI, load
 * tests), which holds no victim's cookies, and passes. next-auth's own routes (/api/auth/*) are
 * left to its double-submit CSRF token. OWASP CSRF Prevention Cheat Sheet, "Fetch Metadata" and
 * "Verifying Origin with standard headers".
 */

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/** Why the request is refused, or null when it may go on. `host`: the Host this server was asked for. */
export function crossSiteRefusal(method: string, headers: Headers, host: string | null): string | null {
  if (safeMethods.has(method.toUpperCase())) return null;
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return `a ${site} request (Sec-Fetch-Site: ${site})`;
  const origin = headers.get("origin");
  if (origin === null) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `a request from origin ${JSON.stringify(origin.slice(0, 100))}`;
  }
  if (!host || originHost.toLowerCase() !== host.toLowerCase()) return `a request from ${origin.slice(0, 100)}`;
  return null;
}

/** The Host a request was sent to: the proxy's X-Forwarded-Host when there is one, else Host. */
export function requestHost(headers: Headers): string | null {
  return headers.get("x-forwarded-host")?.split(",")[0].trim() || headers.get("host");
}

export function refusalMessage(reason: string): string {
  return `Refused ${reason}: changes are accepted only from Yardstick's own pages`;
}

/** Throws 403 for a cross-site request; route() (lib/http/route.ts) calls it for every handler, including those the proxy does not see (large uploads, the annotation API). */
export function assertSameSite(request: Request): void {
  const reason = crossSiteRefusal(request.method, request.headers, requestHost(request.headers));
  if (reason) throw new AppError("FORBIDDEN", refusalMessage(reason));
}
