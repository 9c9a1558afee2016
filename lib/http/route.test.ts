import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";

const session = vi.hoisted(() => ({ requireRole: vi.fn(), requireSessionUserId: vi.fn() }));
vi.mock("@/lib/auth/session", () => session);
const tokens = vi.hoisted(() => ({ authenticateBearer: vi.fn(), takeRateToken: vi.fn() }));
vi.mock("@/lib/auth/api-tokens", () => tokens);

const { route } = await import("@/lib/http/route");

const admin = { id: "u1", name: "Ada", email: null, role: "ADMIN" };
const noParams = { params: Promise.resolve({}) };

function post(body: string, headers: Record<string, string> = {}, url = "http://localhost/api/x"): Request {
  return new Request(url, { method: "POST", body, headers: { host: "localhost", ...headers } });
}

describe("route()", () => {
  beforeEach(() => {
    session.requireRole.mockReset().mockResolvedValue(admin);
    session.requireSessionUserId.mockReset().mockResolvedValue("u2");
  });

  it("refuses a cross-site state-changing request first, before params, session or body (403, the proxy's answer)", async () => {
    const handler = vi.fn();
    const response = await route({ roles: ["ADMIN"], params: z.object({ slug: z.string().min(3) }), body: z.object({}) }, handler)(
      post("not json", { origin: "https://evil.example" }),
      { params: Promise.resolve({ slug: "x" }) },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: "Refused a request from https://evil.example: changes are accepted only from Yardstick's own pages",
      code: "FORBIDDEN",
    });
    expect(session.requireRole).not.toHaveBeenCalled();
    expect(handler).not.toHaveBeenCalled();
    const read = await route({ roles: "public" }, () => new Response("ok"))(
      new Request("http://localhost/api/x", { headers: { "sec-fetch-site": "cross-site" } }),
      noParams,
    );
    expect(read.status).toBe(200);
  });

  it("parses the params before the session (a bad path is a 422 even signed out), then body and query", async () => {
    session.requireRole.mockRejectedValue(new AppError("UNAUTHORIZED", "Sign in first"));
    const options = {
      roles: ["ADMIN", "RESEARCHER"] as const,
      params: z.object({ slug: z.string().min(3) }),
      body: z.object({ n: z.number() }),
      query: z.object({ page: z.coerce.number() }),
    };
    const bad = await route(options, () => new Response())(post("{}"), { params: Promise.resolve({ slug: "x" }) });
    expect(bad.status).toBe(422);
    expect((await bad.json()).issues[0].path).toBe("slug");
    const signedOut = await route(options, () => new Response())(post("{}"), { params: Promise.resolve({ slug: "abc" }) });
    expect(signedOut.status).toBe(401);
    expect(session.requireRole).toHaveBeenLastCalledWith("ADMIN", "RESEARCHER");

    session.requireRole.mockResolvedValue(admin);
    const handler = vi.fn(({ user, params, body, query }) => Response.json({ user: user.id, params, body, query }, { status: 201 }));
    const ok = await route(options, handler)(post('{"n":2}', {}, "http://localhost/api/x?page=3"), { params: Promise.resolve({ slug: "abc" }) });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ user: "u1", params: { slug: "abc" }, body: { n: 2 }, query: { page: 3 } });
    const badBody = await route(options, handler)(post('{"n":"2"}'), { params: Promise.resolve({ slug: "abc" }) });
    expect(badBody.status).toBe(422);
  });

  it("reads the body with its limits (413 past maxBytes, whenEmpty for an empty body)", async () => {
    const tooBig = await route({ roles: "public", body: z.unknown(), json: { maxBytes: 10 } }, () => new Response())(
      post(JSON.stringify({ pad: "x".repeat(50) })),
      noParams,
    );
    expect(tooBig.status).toBe(413);
    const empty = await route({ roles: "public", body: z.object({ perCell: z.number().optional() }), json: { whenEmpty: {} } }, ({ body }) =>
      Response.json(body),
    )(post(""), noParams);
    expect(await empty.json()).toEqual({});
  });

  it("bounds what a validation error costs: a body with too many keys is refused before zod, a reply lists at most 20 issues with a count, each message cut short", async () => {
    const wide: Record<string, number> = {};
    for (let i = 0; i < 90_000; i++) wide[`k${i}`] = 1;
    const parse = vi.fn((value: unknown) => value);
    const spied = z.unknown().transform(parse);
    const refused = await route({ roles: "public", body: z.object({ answer: spied }) }, () => new Response())(post(JSON.stringify({ answer: wide })), noParams);
    expect(refused.status).toBe(422);
    const refusal = await refused.text();
    expect(refusal.length).toBeLessThan(1000);
    expect(JSON.parse(refusal).error).toMatch(/answer.*more than 1,000 keys/);
    expect(parse).not.toHaveBeenCalled();

    // under the key cap, a strict schema's unknown keys and a record's wrong values are many issues: the reply is bounded
    const some: Record<string, number> = {};
    for (let i = 0; i < 1_000; i++) some[`unknown-key-with-a-long-name-${i}`] = 1;
    const strict = await route({ roles: "public", body: z.strictObject({ a: z.string().optional() }) }, () => new Response())(
      post(JSON.stringify(some)),
      noParams,
    );
    const strictReply = await strict.text();
    expect(strict.status).toBe(422);
    expect(strictReply.length).toBeLessThan(4000);
    const record = await route({ roles: "public", body: z.record(z.string(), z.string()) }, () => new Response())(post(JSON.stringify(some)), noParams);
    const recordReply = (await record.json()) as { issues: unknown[]; issueCount: number };
    expect(recordReply.issues).toHaveLength(20);
    expect(recordReply.issueCount).toBe(1_000);
    expect(JSON.stringify(recordReply).length).toBeLessThan(10_000);
    // a few issues are all listed, with no count
    expect(await (await route({ roles: "public", body: z.object({ n: z.number() }) }, () => new Response())(post("{}"), noParams)).json()).toEqual({
      error: "Invalid request",
      issues: [{ path: "n", message: expect.any(String) }],
    });
  }, 30_000);

  it("gives each kind of access its caller", async () => {
    const echo = ({ user }: { user: unknown }) => Response.json({ user });
    expect(await (await route({ roles: "session-token" }, echo)(post("{}"), noParams)).json()).toEqual({ user: { id: "u2" } });
    expect(session.requireRole).not.toHaveBeenCalled();
    expect(await (await route({ roles: "signed-in" }, echo)(post("{}"), noParams)).json()).toEqual({ user: admin });
    expect(session.requireRole).toHaveBeenLastCalledWith();
    expect(await (await route({ roles: "public" }, echo)(post("{}"), noParams)).json()).toEqual({ user: null });
  });

  it("takes an API token instead of the cookie: no same-site check, the route's scope, the user's role", async () => {
    tokens.authenticateBearer.mockReset().mockResolvedValue({ tokenId: "t1", scopes: ["read"], user: { ...admin, role: "RESEARCHER" } });
    const echo = ({ user }: { user: unknown }) => Response.json({ user });
    const crossSite = { origin: "https://evil.example", authorization: "Bearer ys_abc" };
    const get = (headers: Record<string, string>) => new Request("http://localhost/api/x", { headers: { host: "localhost", ...headers } });
    // a GET on a staff route needs "read": allowed, and the token's user is the caller
    const read = await route({ roles: ["ADMIN", "RESEARCHER"] }, echo)(get(crossSite), noParams);
    expect(read.status).toBe(200);
    expect(tokens.authenticateBearer).toHaveBeenLastCalledWith("ys_abc");
    expect(session.requireRole).not.toHaveBeenCalled();
    // a POST needs "manage", even cross-site it is the scope that refuses, not the same-site check
    const write = await route({ roles: ["ADMIN", "RESEARCHER"] }, echo)(post("{}", crossSite), noParams);
    expect(write.status).toBe(403);
    expect((await write.json()).error).toContain('lacks the scope "manage"');
    // the role still counts, and participants' routes need "play"
    expect((await route({ roles: ["ADMIN"] }, echo)(get(crossSite), noParams)).status).toBe(403);
    expect((await route({ roles: "signed-in" }, echo)(get(crossSite), noParams)).status).toBe(403);
    // a route that takes no token refuses it before reading it
    tokens.authenticateBearer.mockClear();
    expect((await route({ roles: ["ADMIN", "RESEARCHER"], scope: "none" }, echo)(get(crossSite), noParams)).status).toBe(403);
    expect(tokens.authenticateBearer).not.toHaveBeenCalled();
    // another scheme (a proxy's Basic authentication) leaves the cookie in charge; a bare "Bearer" is 401
    expect((await route({ roles: ["ADMIN"] }, echo)(get({ authorization: "Basic eDp5" }), noParams)).status).toBe(200);
    expect(session.requireRole).toHaveBeenCalled();
    expect((await route({ roles: ["ADMIN"] }, echo)(get({ authorization: "Bearer" }), noParams)).status).toBe(401);
    // the handler carries its options, for the OpenAPI document
    const options = { roles: ["ADMIN"] as const, summary: "x" };
    expect(route(options, echo).options).toBe(options);
  });

  it("maps what the handler throws to the JSON error answer", async () => {
    const conflict = await route({ roles: "public" }, () => {
      throw new AppError("CONFLICT", "Already answered", { expectedSeq: 3 });
    })(post("{}"), noParams);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: "Already answered", code: "CONFLICT", details: { expectedSeq: 3 } });
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const crash = await route({ roles: "public" }, async () => {
      throw new Error("boom");
    })(post("{}"), noParams);
    spy.mockRestore();
    expect(crash.status).toBe(500);
    expect(await crash.json()).toEqual({ error: "Internal server error" });
  });
});
