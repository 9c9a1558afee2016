import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The HTTP methods a route file may export. */
export const httpMethods = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every route.ts under `dir`. */
export function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/**
 * The HTTP methods a route file exports and whether each is built by route() (lib/http/route.ts):
 * `export const GET = route(...)`, or `const x = route(...)` exported as `export { x as GET }`.
 */
export function exportedHandlers(source: string): Array<{ method: string; wrapped: boolean }> {
  const handlers: Array<{ method: string; wrapped: boolean }> = [];
  for (const [, kind, method, after] of source.matchAll(/export\s+(async\s+function|function|const|let|var)\s+([A-Z]+)\b\s*(=\s*route\()?/g)) {
    if ((httpMethods as readonly string[]).includes(method)) handlers.push({ method, wrapped: kind === "const" && after !== undefined });
  }
  for (const [, list] of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const [, local, method] of list.matchAll(/(\w+)\s+as\s+(\w+)/g)) {
      if (!(httpMethods as readonly string[]).includes(method)) continue;
      handlers.push({ method, wrapped: new RegExp(`const\\s+${local}\\s*=\\s*route\\(`).test(source) });
    }
  }
  return handlers;
}

export function readRouteFile(file: string): string {
  return readFileSync(file, "utf8");
}
