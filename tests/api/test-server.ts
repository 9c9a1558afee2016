import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteHandler } from "@/lib/http/route";
import { apiRoutes } from "@/app/api/openapi.json/manifest";
import * as openApiRoute from "@/app/api/openapi.json/route";

/**
 * A test server for API clients (examples/agent.py): the real route handlers of app/api (through
 * the OpenAPI manifest, so every documented route), on a loopback port, over the test database,
 * without a Next.js build. Session cookies are not available here (no Next.js request context):
 * callers use API tokens, which is the point. `seen` records every answer body, for secrecy checks.
 */
export interface ApiTestServer {
  url: string;
  seen: Array<{ method: string; path: string; status: number; body: string }>;
  close(): Promise<void>;
}

const routes = [...apiRoutes, { path: "/api/openapi.json", module: openApiRoute }]
  .map((entry) => {
    const names: string[] = [];
    const pattern = entry.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    // literal segments first: /api/studies/{slug}/agents before /api/studies/{slug}/{x}
    return { entry, regex: new RegExp(`^${pattern}$`), names, literal: entry.path.replace(/\{[^}]+\}/g, "").length };
  })
  .sort((a, b) => b.literal - a.literal);

export async function startApiTestServer(): Promise<ApiTestServer> {
  const seen: ApiTestServer["seen"] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (req.method ?? "GET").toUpperCase();
    let handler: RouteHandler | undefined;
    let params: Record<string, string> = {};
    for (const route of routes) {
      const match = route.regex.exec(url.pathname);
      if (!match) continue;
      handler = route.entry.module[method as "GET"];
      params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
      break;
    }
    let response: Response;
    if (!handler) response = Response.json({ error: `No API endpoint at ${url.pathname}`, code: "NOT_FOUND" }, { status: 404 });
    else {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const body = chunks.length > 0 && method !== "GET" && method !== "HEAD" ? Buffer.concat(chunks) : undefined;
      response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(params) });
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    seen.push({ method, path: url.pathname + url.search, status: response.status, body: bytes.toString("utf8") });
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
