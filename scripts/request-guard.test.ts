import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module of the production server, without types
import { guardListener } from "./request-guard.mjs";

/** one request to a real server running `listener` behind the guard with `env`; its status and headers */
async function ask(env: Record<string, string | undefined>, path = "/signin"): Promise<{ status: number; headers: Headers }> {
  const server = createServer(
    (guardListener as (listener: RequestListener, env: Record<string, string | undefined>) => RequestListener)((_request, response) => response.end("ok"), env),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    await response.text();
    return { status: response.status, headers: response.headers };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe("the production server's request guard", () => {
  it("sends Strict-Transport-Security on every response when NEXTAUTH_URL is https, and none over http", async () => {
    const secure = await ask({ NEXTAUTH_URL: "https://yardstick.example.org" });
    expect(secure.status).toBe(200);
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=63072000");
    const refused = await ask({ NEXTAUTH_URL: "https://yardstick.example.org" }, "/join/%FF");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("strict-transport-security")).toBe("max-age=63072000");
    expect((await ask({ NEXTAUTH_URL: "http://localhost:3000" })).headers.get("strict-transport-security")).toBeNull();
    expect((await ask({})).headers.get("strict-transport-security")).toBeNull();
  });
});
