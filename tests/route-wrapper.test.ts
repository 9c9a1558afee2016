import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedHandlers, readRouteFile, routeFiles } from "./api-route-files";

const apiRoot = path.resolve(import.meta.dirname, "..", "app", "api");
/** next-auth's own handler (its own CSRF token and errors) is the one route not built by route(). */
const nextAuthRoute = path.join("auth", "[...nextauth]", "route.ts");

describe("route handlers (lib/http/route.ts)", () => {
  it("finds handlers in either export form, and tells wrapped from hand-written ones", () => {
    expect(exportedHandlers('export const GET = route({ roles: ["ADMIN"] }, async () => x);')).toEqual([{ method: "GET", wrapped: true }]);
    expect(exportedHandlers("export async function POST(request: Request) {}")).toEqual([{ method: "POST", wrapped: false }]);
    expect(exportedHandlers("const GET = handler;\nexport const PATCH = wrap(x);")).toEqual([{ method: "PATCH", wrapped: false }]);
    expect(exportedHandlers('const nf = route({ roles: "public" }, f);\nexport { nf as GET, other as POST };')).toEqual([
      { method: "GET", wrapped: true },
      { method: "POST", wrapped: false },
    ]);
  });

  it("every handler under app/api is built by route(), and none repeats its checks by hand", () => {
    const files = routeFiles(apiRoot).filter((file) => path.relative(apiRoot, file) !== nextAuthRoute);
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const relative = path.relative(apiRoot, file);
      const source = readRouteFile(file);
      const handlers = exportedHandlers(source);
      expect(handlers.length, `app/api/${relative} exports no handler`).toBeGreaterThan(0);
      for (const { method, wrapped } of handlers) expect(wrapped, `${method} in app/api/${relative} is not built by route() (lib/http/route.ts)`).toBe(true);
      for (const repeated of [/\btry\s*\{/, /\bassertSameSite\(/, /\btoResponse\(/, /\brequireRole\(/, /\brequireSessionUserId\(/]) {
        expect(source, `app/api/${relative} does by hand what route() does`).not.toMatch(repeated);
      }
    }
  });
});
