import type { RouteHandler } from "@/lib/http/route";

/** Calls a route handler as Next.js would: a Request to `path` and the path's parameters. */
export async function call(
  handler: RouteHandler,
  options: { method?: string; path?: string; token?: string; json?: unknown; params?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; response: Response }> {
  const headers: Record<string, string> = { host: "localhost", ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${options.path ?? "/api/x"}`, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the text
  }
  return { status: response.status, body, response };
}
