import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { crossSiteRefusal, refusalMessage, requestHost } from "@/lib/security/csrf";
import { pageContentSecurityPolicy } from "@/lib/security/headers";
import { assetRedirectOrigin } from "@/lib/assets/config";

/** Page prefixes whose signed-out visitors go to sign in (and come back afterwards). */
const signedInPrefixes = ["/admin", "/research", "/studies", "/s/", "/help"];

/**
 * Runs before every page and API request (except static files, next-auth's own routes and the two
 * large uploads, which check the origin themselves: see `config`):
 * - API: refuses cross-site state-changing requests (CSRF; lib/security/csrf.ts);
 * - pages: a Content-Security-Policy with a fresh nonce (lib/security/headers.ts), and signed-out
 *   visitors of a signed-in page go to sign in. Only a convenience: every page and route handler
 *   checks the session and the role itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    const reason = crossSiteRefusal(request.method, request.headers, requestHost(request.headers));
    if (reason) return NextResponse.json({ error: refusalMessage(reason), code: "FORBIDDEN" }, { status: 403 });
    return NextResponse.next();
  }

  if (signedInPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`))) {
    const token = await getToken({ req: request });
    if (!token) {
      const url = request.nextUrl.clone();
      url.pathname = "/signin";
      url.search = `?callbackUrl=${encodeURIComponent(pathname + request.nextUrl.search)}`;
      return NextResponse.redirect(url);
    }
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = pageContentSecurityPolicy(nonce, {
    development: process.env.NODE_ENV === "development",
    https: (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
    assetOrigin: assetRedirectOrigin(),
  });
  // Next.js reads the nonce from the request's CSP header and puts it on its scripts
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    // everything but static files, next-auth (its own CSRF token), the multipart uploads, whose
    // bodies may pass the proxy's 10 MB buffer, and the annotation API (/api/annotate/*: about one
    // request a second per annotator, where the proxy's own cost was a fifth of a request's CPU,
    // bench/load/RESULTS.md). Their route() wrapper (lib/http/route.ts) calls assertSameSite; tests/csrf-coverage.test.ts
    // fails when a state-changing handler the proxy does not see lacks it.
    "/((?!_next/static|_next/image|favicon\\.ico|api/auth/|api/annotate/|api/admin/import$|api/studies/[^/]+/model-runs$).*)",
  ],
};
