import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("pages, layouts and route handlers", () => {
  it("never query the database themselves: each query is a function in lib/", () => {
    for (const file of [...sourceFiles(path.join(root, "app")), ...sourceFiles(path.join(root, "components"))]) {
      const source = readFileSync(file, "utf8");
      expect(source, `${path.relative(root, file)} imports the database client: move the query into lib/`).not.toMatch(/from\s+["']@\/lib\/db(\/[^"']*)?["']/);
    }
  });
});

describe("staff components", () => {
  it("call the API through lib/client/api.ts, never fetch directly", () => {
    for (const folder of ["admin", "research", "review", "dashboard", "replay", "auth", "join", "layout"]) {
      for (const file of sourceFiles(path.join(root, "components", folder))) {
        expect(readFileSync(file, "utf8"), `${path.relative(root, file)} calls fetch: use callApi (lib/client/api.ts)`).not.toMatch(/\bfetch\(/);
      }
    }
  });
});
