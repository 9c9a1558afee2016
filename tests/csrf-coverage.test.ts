import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
  if (!literal) throw new Error("proxy.ts: no matcher of the form \"/((?!...).*)\" found");
  return new RegExp(`^${JSON.parse(literal) as string}$`);
}

const stateChanging = /export\s+(?:async\s+)?function\s+(POST|PUT|PATCH|DELETE)\b|export\s*\{[^}]*\bas\s+(POST|PUT|PATCH|DELETE)\b/;

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

  it("a handler the proxy does not see checks the origin itself (assertSameSite)", () => {
    for (const file of unseen) {
      const source = readFileSync(file, "utf8");
      const relative = path.relative(root, file);
      if (relative.startsWith(path.join("app", "api", "auth"))) continue; // next-auth's double-submit token
      if (!stateChanging.test(source)) continue;
      const handlers = [...source.matchAll(/export\s+async\s+function\s+(POST|PUT|PATCH|DELETE)\s*\(([^)]*)\)\s*\{([\s\S]*?)\n\}/g)];
      expect(handlers.length, `${relative}: state-changing handlers not written as "export async function METHOD(...) {...}"`).toBeGreaterThan(0);
      for (const [, method, , body] of handlers) {
        expect(body, `${relative} ${method}: proxy.ts does not see it, so it must call assertSameSite(request) (lib/security/csrf.ts)`).toMatch(/assertSameSite\(request\)/);
      }
    }
  });
});
