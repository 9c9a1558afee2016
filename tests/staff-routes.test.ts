import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedHandlers } from "./api-route-files";
import {
  annotatorApiFiles,
  apiRouteMatrix,
  openApiRouteFile,
  serverActionFiles,
  signedHookRouteFiles,
  staffApiRoutes,
  unmatchedApiRouteFile,
} from "../e2e/staff-routes";

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
      if (annotatorApiFiles.includes(file) || signedHookRouteFiles.includes(file) || file === unmatchedApiRouteFile || file === openApiRouteFile) continue;
      const methods = exportedHandlers(readFileSync(path.join(apiRoot, file), "utf8")).map((handler) => handler.method);
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
      expect(source, `app/api/${file} has no route({ roles: ["ADMIN"...] }) handler`).toMatch(/route\(\s*\{\s*roles:\s*\[\s*"ADMIN"/);
    }
  });

  it("has every method of every route handler in the authorization matrix (e2e/roles.e2e.ts)", () => {
    for (const file of routeFiles()) {
      if (file === "auth/[...nextauth]/route.ts" || signedHookRouteFiles.includes(file) || file === unmatchedApiRouteFile || file === openApiRouteFile)
        continue; // next-auth's own (its own CSRF token); Prolific's signed hook; the JSON 404; the public OpenAPI document
      const methods = exportedHandlers(readFileSync(path.join(apiRoot, file), "utf8")).map((handler) => handler.method);
      for (const method of methods) {
        expect(
          apiRouteMatrix.some((route) => route.file === file && route.method === method),
          `${method} in app/api/${file} has no row in the authorization matrix (apiRouteMatrix in e2e/staff-routes.ts)`,
        ).toBe(true);
      }
    }
  });

  it("lists every server action file (they are reachable by POST like a route)", () => {
    const roots = ["app", "lib", "components"].map((dir) => path.resolve(apiRoot, "..", "..", dir));
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        if (name === "generated" || name === "node_modules") return [];
        if (statSync(full).isDirectory()) return files(full);
        return /\.(ts|tsx)$/.test(name) && /^\s*["']use server["']/m.test(readFileSync(full, "utf8"))
          ? [path.relative(path.resolve(apiRoot, "..", ".."), full)]
          : [];
      });
    const found = roots.flatMap(files);
    expect(
      found.filter((file) => !serverActionFiles.includes(file)),
      "server actions missing from serverActionFiles in e2e/staff-routes.ts (give them matrix rows)",
    ).toEqual([]);
  });
});
