import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { taskKinds } from "@/lib/tasks";

/**
 * Shared code never names a task kind (issue 19): a kind lives in lib/tasks/<kind>/ and
 * components/tasks/<kind>/ (a family's shared helpers in lib/tasks/shared/<family>/ and
 * components/tasks/shared/), and shared code reaches it through the registries.
 */

const root = path.resolve(import.meta.dirname, "..");
const scanned = ["lib", "components", "app", "cli", "scripts", "prisma", "config"];

const kindOwned = [/^lib\/tasks\/[^/]+\//, /^components\/tasks\/[^/]+\//];
const registries = ["lib/tasks/index.ts", "lib/tasks/event-registry.ts", "components/tasks/registry.ts", "components/tasks/key-views.ts", "components/tasks/dashboard-sections.ts"];
/**
 * demo data, generated code, test code (tests and their fixtures) and migrations (they move stored
 * data, whose kind ids are data) may name kinds
 */
const exempt = [/^prisma\/migrations\//, /^scripts\/demo-data\//, /^lib\/demo\//, /^lib\/generated\//, /\.test\.tsx?$/, /\/testing\//, /\/__fixtures__\//];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* files(relative);
    } else if (/\.(ts|tsx|mts|mjs|js|prisma|sql|json)$/.test(entry.name)) yield relative;
  }
}

/** The shared files that name a kind id, from the given kind ids. */
function filesNamingKinds(kinds: readonly string[]): string[] {
  const pattern = new RegExp(kinds.map((kind) => kind.replace(/[-]/g, "\\-")).join("|"));
  const found: string[] = [];
  for (const dir of scanned) {
    for (const file of files(dir)) {
      if (kindOwned.some((re) => re.test(file)) || registries.includes(file) || exempt.some((re) => re.test(file))) continue;
      if (pattern.test(readFileSync(path.join(root, file), "utf8"))) found.push(file);
    }
  }
  return found.sort();
}

describe("kind names", () => {
  it("no shared file names a task kind", () => {
    expect(filesNamingKinds(taskKinds)).toEqual([]);
  });
});
