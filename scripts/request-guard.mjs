/**
 * What the production server (scripts/serve.mjs) answers before Next.js sees a request: a path
 * with malformed percent-encoding ("/api/assets/%FF", "/join/%FF", "/s/%ED%A0%80/work": a byte
 * that is not UTF-8, a surrogate, an overlong form, "%" without two hex digits) gets 400 with a
 * message and the usual security headers. Next.js's router throws on such a path and answered a
 * bare 500 without any header (it tries to render a /400 page the App Router does not have).
 * One decodeURIComponent of the path per request; the query string is left to the handlers (it
 * is decoded leniently). Tested by tests/faults/fuzz.faults.test.ts over every path of app/.
 * It also puts Strict-Transport-Security on every response when the app is served over https.
 */
import { apiContentSecurityPolicy, securityHeaders } from "../lib/security/response-headers.mjs";

/** The reason a request target's path cannot be decoded, or null when it can. */
export function malformedPathProblem(url) {
  if (typeof url !== "string") return null;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes("%")) return null;
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return "The address holds malformed percent-encoding (a % not followed by two hex digits, or bytes that are not UTF-8); nothing was done.";
  }
}

/** Answers 400 for a malformed path and returns true; else false (the request goes on to Next.js). */
export function refuseMalformedPath(request, response) {
  const problem = malformedPathProblem(request.url);
  if (problem === null) return false;
  const api = request.url.startsWith("/api/") || request.url === "/api";
  for (const { key, value } of securityHeaders) response.setHeader(key, value);
  response.setHeader("Content-Security-Policy", apiContentSecurityPolicy);
  response.setHeader("Cache-Control", "no-store");
  // the body of a POST is not read: close the connection so that it is not taken for the next request
  if (request.method !== "GET" && request.method !== "HEAD") response.setHeader("Connection", "close");
  response.statusCode = 400;
  if (api) {
    response.setHeader("Content-Type", "application/json; charset=utf-8");
    response.end(JSON.stringify({ error: problem, code: "INVALID" }));
  } else {
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.end(`400 Bad Request\n\n${problem}\n`);
  }
  return true;
}

/**
 * Strict-Transport-Security when the app's address (NEXTAUTH_URL) is https: browsers then never
 * reach it over plain http again, so a network attacker cannot strip TLS from a later visit. Two
 * years (OWASP); no includeSubDomains, since other hosts of the domain are not Yardstick's to bind.
 * Over http (a local run) the header would mean nothing to a browser and is left out.
 */
export function strictTransportSecurity(env = process.env) {
  return (env.NEXTAUTH_URL ?? "").trim().toLowerCase().startsWith("https://") ? "max-age=63072000" : null;
}

/** The listener behind the guard: a malformed path is answered here; every response carries HSTS over https. */
export function guardListener(listener, env = process.env) {
  const hsts = strictTransportSecurity(env);
  return function guardedListener(request, response) {
    if (hsts) response.setHeader("Strict-Transport-Security", hsts);
    if (refuseMalformedPath(request, response)) return;
    return listener.call(this, request, response);
  };
}

/**
 * Puts the guard in front of every request listener given to http(s).createServer from now on
 * (`next start` creates its server with one: next/dist/server/lib/start-server.js).
 */
export function installRequestGuard(...servers) {
  for (const server of servers) {
    const createServer = server.createServer;
    server.createServer = function guardedCreateServer(...args) {
      const index = args.findIndex((arg) => typeof arg === "function");
      if (index !== -1) {
        args[index] = guardListener(args[index]);
      }
      return createServer.apply(this, args);
    };
  }
}
