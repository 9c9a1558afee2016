import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { annotatorApiFiles, staffApiRoutes } from "../e2e/staff-routes";

const apiRoot = path.resolve(import.meta.dirname, "..", "app", "api");

function routeFiles(dir = apiRoot): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [path.relative(apiRoot, full)] : [];
  });
}

describe("the role test table (e2e/staff-routes.ts)", () => {
  it("lists every method of every route handler that is not the annotator's own", () => {
    for (const file of routeFiles()) {
      if (annotatorApiFiles.includes(file)) continue;
      const methods = [...readFileSync(path.join(apiRoot, file), "utf8").matchAll(/export async function (GET|POST|PATCH|PUT|DELETE)\b/g)].map((m) => m[1]);
      for (const method of methods) {
        expect(
          staffApiRoutes.some((route) => route.file === file && route.method === method),
          `${method} in app/api/${file} is missing from e2e/staff-routes.ts`,
        ).toBe(true);
      }
    }
  });

  it("checks the role in every staff handler", () => {
    for (const file of new Set(staffApiRoutes.map((r) => r.file))) {
      const source = readFileSync(path.join(apiRoot, file), "utf8");
      expect(source, `app/api/${file} never calls requireRole("ADMIN"...)`).toMatch(/requireRole\("ADMIN"/);
    }
  });
});
