import { afterEach, describe, expect, it, vi } from "vitest";
import { callApi, issuesByField } from "@/lib/client/api";

function answer(body: BodyInit | null, status = 200): typeof fetch {
  return vi.fn(async () => new Response(body, { status })) as unknown as typeof fetch;
}

describe("callApi", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends JSON as a POST by default and returns the parsed answer", async () => {
    const fetchMock = answer(JSON.stringify({ slug: "s" }), 201);
    vi.stubGlobal("fetch", fetchMock);
    expect(await callApi<{ slug: string }>("/api/studies", { json: { title: "T" } })).toEqual({ ok: true, status: 201, data: { slug: "s" } });
    expect(fetchMock).toHaveBeenCalledWith("/api/studies", {
      method: "POST",
      signal: undefined,
      headers: { "content-type": "application/json" },
      body: '{"title":"T"}',
    });
  });

  it("sends a form as it is (the browser sets its boundary), and GETs without a body, uncached for polls", async () => {
    const fetchMock = answer(null, 204);
    vi.stubGlobal("fetch", fetchMock);
    const form = new FormData();
    expect(await callApi("/api/x", { form })).toEqual({ ok: true, status: 204, data: undefined });
    expect(fetchMock).toHaveBeenLastCalledWith("/api/x", { method: "POST", signal: undefined, body: form });
    await callApi("/api/x", { noStore: true });
    expect(fetchMock).toHaveBeenLastCalledWith("/api/x", { method: "GET", signal: undefined, cache: "no-store" });
  });

  it("reads an error answer's message, code, issues and details (lib/errors.ts)", async () => {
    vi.stubGlobal("fetch", answer(JSON.stringify({ error: "Invalid request", issues: [{ path: "slug", message: "too short" }] }), 422));
    expect(await callApi("/api/x", { json: {} })).toEqual({
      ok: false,
      status: 422,
      unreachable: false,
      error: "Invalid request",
      code: undefined,
      issues: [{ path: "slug", message: "too short" }],
      details: undefined,
    });
    vi.stubGlobal("fetch", answer("<html>Bad gateway</html>", 502));
    expect(await callApi("/api/x")).toMatchObject({ ok: false, status: 502, unreachable: false, error: undefined });
  });

  it("gives an error answer's Retry-After (seconds) in ms, and nothing for a missing or unreadable one", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ error: "Busy" }), { status: 503, headers: { "retry-after": "3" } })),
    );
    expect(await callApi("/api/x")).toMatchObject({ ok: false, status: 503, error: "Busy", retryAfterMs: 3000 });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ error: "Busy" }), { status: 503, headers: { "retry-after": "soon" } })),
    );
    expect(await callApi("/api/x")).not.toHaveProperty("retryAfterMs");
    vi.stubGlobal("fetch", answer(JSON.stringify({ error: "Busy" }), 503));
    expect(await callApi("/api/x")).not.toHaveProperty("retryAfterMs");
  });

  it("never throws: no answer at all is status 0, unreachable", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect(await callApi("/api/x", { method: "DELETE" })).toEqual({ ok: false, status: 0, unreachable: true });
  });
});

describe("issuesByField", () => {
  it("keeps each field's first message; an issue without a path is the form's", () => {
    expect(
      issuesByField([
        { path: "name", message: "a" },
        { path: "name", message: "b" },
        { path: "", message: "c" },
      ]),
    ).toEqual({ name: "a", form: "c" });
    expect(issuesByField(undefined)).toEqual({});
  });
});
