import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

describe("components", () => {
  it("call the API through lib/client/api.ts, never fetch directly", () => {
    for (const file of sourceFiles(path.join(root, "components"))) {
      expect(readFileSync(file, "utf8"), `${path.relative(root, file)} calls fetch: use callApi (lib/client/api.ts)`).not.toMatch(/\bfetch\(/);
    }
  });
});

/**
 * The imports of the source files in lib/, components/, app/ and cli/: file -> the project files
 * it imports; `import type` too when `withTypes`, dynamic `import("...")` too when `withDynamic`
 * (a lazy import still runs the module it names, so a circle through one is still a circle).
 */
function importGraph({ withTypes, withDynamic = false }: { withTypes: boolean; withDynamic?: boolean }): Map<string, string[]> {
  const resolve = (from: string, spec: string): string | null => {
    const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
    if (!base) return null;
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return null;
  };
  const statement = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']/g;
  const dynamic = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
  const graph = new Map<string, string[]>();
  const folders = ["lib", "components", "app", "cli"].map((dir) => path.join(root, dir)).filter((dir) => existsSync(dir));
  for (const file of folders.flatMap(sourceFiles)) {
    if (file.includes(`${path.sep}generated${path.sep}`)) continue;
    const deps = new Set<string>();
    const source = readFileSync(file, "utf8");
    if (withDynamic) {
      for (const match of source.matchAll(dynamic)) {
        const target = resolve(file, match[1] ?? "");
        if (target) deps.add(target);
      }
    }
    for (const match of source.matchAll(statement)) {
      const names = match[2]?.trim() ?? "";
      const typeOnly =
        Boolean(match[1]) ||
        (/^\{[^}]*\}$/.test(names) &&
          names
            .slice(1, -1)
            .split(",")
            .map((name) => name.trim())
            .filter(Boolean)
            .every((name) => name.startsWith("type ")));
      const target = typeOnly && !withTypes ? null : resolve(file, match[3] ?? match[4] ?? "");
      if (target) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Cycles of the graph, each as "a -> b -> a" (depth-first search: a back edge to a file on the current path). */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    state.set(file, "open");
    for (const dep of graph.get(file) ?? []) {
      if (state.get(dep) === "open") cycles.push([...trail.slice(trail.indexOf(dep)), dep].map((f) => path.relative(root, f)).join(" -> "));
      else if (!state.has(dep)) visit(dep, [...trail, dep]);
    }
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file, [file]);
  return cycles;
}

describe("the import graph", () => {
  const graph = importGraph({ withTypes: false });
  const withTypes = importGraph({ withTypes: true });
  const withDynamic = importGraph({ withTypes: false, withDynamic: true });
  const relative = (file: string) => path.relative(root, file);

  it("reads the tree (the scan finds the imports it checks)", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get(path.join(root, "lib/tasks/index.ts"))?.map(relative)).toContain("lib/tasks/event-registry.ts");
    // a type-only import is an edge of the typed graph only
    expect(graph.get(path.join(root, "lib/tasks/types.ts"))?.map(relative) ?? []).not.toContain("lib/dashboard/types.ts");
    expect(withTypes.get(path.join(root, "lib/tasks/types.ts"))?.map(relative)).toContain("lib/dashboard/types.ts");
    // a lazy import("...") is an edge of the graph with dynamic imports only
    expect(graph.get(path.join(root, "lib/jobs/handlers.ts"))?.map(relative) ?? []).not.toContain("lib/dashboard/view-refresh.ts");
    expect(withDynamic.get(path.join(root, "lib/jobs/handlers.ts"))?.map(relative)).toContain("lib/dashboard/view-refresh.ts");
  });

  it("has no cycles among the imports evaluated at run time", () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("has no cycles when type-only imports count too: contracts live below the code that implements them", () => {
    expect(cyclesOf(withTypes)).toEqual([]);
  });

  it("has no cycles when lazy import() expressions count too: a kind's lazily loaded hooks never reach back into the registry", () => {
    expect(cyclesOf(withDynamic)).toEqual([]);
  });

  it("never imports upward, types included: lib imports neither components nor app, components not app", () => {
    const layer = (file: string) =>
      relative(file).startsWith("app/") ? 3 : relative(file).startsWith("components/") ? 2 : relative(file).startsWith("lib/") ? 1 : 0;
    const upward = [...withTypes].flatMap(([file, deps]) =>
      deps.filter((dep) => layer(file) > 0 && layer(dep) > layer(file)).map((dep) => `${relative(file)} -> ${relative(dep)}`),
    );
    expect(upward).toEqual([]);
  });
});
