import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedHandlers } from "./api-route-files";

const root = path.resolve(import.meta.dirname, "..");
const apiRoot = path.join(root, "app", "api");

function routeFiles(dir = apiRoot): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** A URL the route answers: "app/api/annotate/studies/[slug]/next/route.ts" -> "/api/annotate/studies/x/next". */
function samplePath(file: string): string {
  const segments = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep);
  return `/${segments
    .filter((segment) => !/^\(.*\)$/.test(segment))
    .map((segment) => (segment.startsWith("[...") ? "x/y" : segment.startsWith("[") ? "x" : segment))
    .join("/")}`;
}

/** proxy.ts's matcher as a RegExp (it is a plain regular expression in a JSON-compatible string). */
function proxyMatcher(): RegExp {
  const source = readFileSync(path.join(root, "proxy.ts"), "utf8");
  const literal = source.match(/matcher:\s*\[[^\]]*?("\/\(\(\?![^\n]*?\.\*\)")/s)?.[1];
  if (!literal) throw new Error('proxy.ts: no matcher of the form "/((?!...).*)" found');
  return new RegExp(`^${JSON.parse(literal) as string}$`);
}

const stateChanging = /export\s+(?:(?:async\s+)?function|const)\s+(POST|PUT|PATCH|DELETE)\b|export\s*\{[^}]*\bas\s+(POST|PUT|PATCH|DELETE)\b/;

describe("CSRF checks cover every state-changing route", () => {
  const matcher = proxyMatcher();
  const unseen = routeFiles().filter((file) => !matcher.test(samplePath(file)));

  it("reads the proxy's matcher: it sees pages and staff routes, not next-auth or the annotation API", () => {
    expect(matcher.test("/research/studies/x")).toBe(true);
    expect(matcher.test("/api/studies/x/settings")).toBe(true);
    expect(matcher.test("/api/auth/callback/credentials")).toBe(false);
    expect(matcher.test("/api/annotate/events")).toBe(false);
    expect(unseen.map(samplePath)).toEqual(expect.arrayContaining(["/api/annotate/events", "/api/annotate/responses", "/api/admin/import"]));
  });

  it("a handler the proxy does not see checks the origin itself (route() calls assertSameSite first)", () => {
    const wrapper = readFileSync(path.join(root, "lib", "http", "route.ts"), "utf8");
    // an API token's request (Authorization: Bearer) carries no cookie to forge; every other request is checked first thing
    expect(
      wrapper.match(/try \{\s*([^\n;]*);\s*([^\n;]*);/)?.slice(1, 3),
      "lib/http/route.ts: the first thing route() does is assertSameSite(request) unless an API token is sent",
    ).toEqual(["const bearer = bearerTokenOf(request)", "if (bearer === null) assertSameSite(request)"]);
    for (const file of unseen) {
      const source = readFileSync(file, "utf8");
      const relative = path.relative(root, file);
      if (relative.startsWith(path.join("app", "api", "auth"))) continue; // next-auth's double-submit token
      if (!stateChanging.test(source)) continue;
      const handlers = exportedHandlers(source).filter(({ method }) => ["POST", "PUT", "PATCH", "DELETE"].includes(method));
      expect(handlers.length, `${relative}: state-changing handlers not found`).toBeGreaterThan(0);
      for (const { method, wrapped } of handlers) {
        expect(
          wrapped,
          `${relative} ${method}: proxy.ts does not see it, so it must be built by route() (lib/http/route.ts), which calls assertSameSite(request)`,
        ).toBe(true);
      }
    }
  });
});
