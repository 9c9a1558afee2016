import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appRoot = path.resolve(import.meta.dirname, "..", "app");

function sourceFiles(dir = appRoot): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

describe("request bodies (lib/http/body.ts)", () => {
  it("are read with a size limit: no route handler or server action reads one directly", () => {
    for (const file of sourceFiles()) {
      const source = readFileSync(file, "utf8");
      const direct = source.match(/\b(request|req)\.(json|text|formData|arrayBuffer|blob)\(\)/);
      expect(direct, `${path.relative(appRoot, file)} calls ${direct?.[0]}: use readJsonBody / readFormBody from lib/http/body.ts`).toBeNull();
    }
  });
});
