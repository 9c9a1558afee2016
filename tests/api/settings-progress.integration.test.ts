import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { studyListReplySchema, studyProgressSchema } from "@/lib/validations/api-replies";
import { createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";

/**
 * A partial settings PATCH changes only what it sends (it gave 422 with 15 issues,
 * "expected number, received NaN", for `{ "itemsPerParticipant": 4 }`), and a study's progress has
 * an endpoint of its own (it was only inside the dashboard's JSON). Over HTTP with an API token.
 */
describe("PATCH /api/studies/<slug>/settings (partial) and GET /api/studies/<slug>/progress", () => {
  let server: ApiTestServer;
  let token: string;
  let readOnly: string;
  const api = async (method: string, route: string, body?: unknown, bearer = token) => {
    const response = await fetch(server.url + route, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    await resetDatabase();
    server = await startApiTestServer();
    const researcher = await createUser("RESEARCHER");
    token = (await issueToken(researcher.id, { name: "notebook", scopes: ["read", "manage"], expiresInDays: 1 }, researcher.id)).token;
    readOnly = (await issueToken(researcher.id, { name: "reader", scopes: ["read"], expiresInDays: 1 }, researcher.id)).token;
  });
  afterAll(async () => {
    await server.close();
    await disconnectDb();
  });

  it("changes only the fields sent, and checks the rules between settings on the result", async () => {
    const study = await createStudy({ overlap: 2 });
    const before = (await api("GET", `/api/studies/${study.slug}/settings`)).json.settings as Record<string, unknown>;

    const patched = await api("PATCH", `/api/studies/${study.slug}/settings`, { itemsPerParticipant: 4 });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    const after = patched.json.settings as Record<string, unknown>;
    expect(after).toEqual({ ...before, itemsPerParticipant: 4 });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).itemsPerParticipant).toBe(4);

    // another field alone leaves the first change in place
    expect((await api("PATCH", `/api/studies/${study.slug}/settings`, { title: "Renamed from a notebook" })).status).toBe(200);
    const row = await db.study.findUniqueOrThrow({ where: { id: study.id } });
    expect([row.title, row.itemsPerParticipant, row.overlap]).toEqual(["Renamed from a notebook", 4, 2]);

    // a bad value: one issue, naming the field sent; nothing changes
    const bad = await api("PATCH", `/api/studies/${study.slug}/settings`, { itemsPerParticipant: "many" });
    expect(bad.status).toBe(422);
    expect(bad.json.issues).toEqual([expect.objectContaining({ path: "itemsPerParticipant" })]);
    // an unknown field is refused, not ignored
    expect((await api("PATCH", `/api/studies/${study.slug}/settings`, { itemsPerParticipnt: 5 })).status).toBe(422);
    // the rules between settings hold against the current settings: a gold window without failures
    const window = await api("PATCH", `/api/studies/${study.slug}/settings`, { goldFailWindow: 5 });
    expect(window.status).toBe(422);
    expect(JSON.stringify(window.json.issues)).toContain("goldFailLimit");
    // null clears an optional setting
    expect((await api("PATCH", `/api/studies/${study.slug}/settings`, { itemsPerParticipant: null })).status).toBe(200);
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).itemsPerParticipant).toBeNull();
    // a token without the manage scope may not
    expect((await api("PATCH", `/api/studies/${study.slug}/settings`, { itemsPerParticipant: 3 }, readOnly)).status).toBe(403);
    expect((await api("PATCH", "/api/studies/no-such-study/settings", { itemsPerParticipant: 3 })).status).toBe(404);
  });

  it("answers the study's progress, the same figures as the dashboard's, in the documented shape", async () => {
    const study = await createStudy({ overlap: 3 });
    await createEnactItems(study.id, { count: 4 });
    const progress = await api("GET", `/api/studies/${study.slug}/progress`, undefined, readOnly);
    expect(progress.status).toBe(200);
    expect(studyProgressSchema.parse(progress.json)).toEqual(progress.json);
    expect(progress.json).toMatchObject({ items: 4, overlap: 3, expected: 12, done: 0, itemsComplete: 0 });
    const dashboard = await getStudyDashboard(study.slug, {});
    expect(progress.json).toEqual(JSON.parse(JSON.stringify(dashboard.progress)));
    expect((await api("GET", "/api/studies/no-such-study/progress")).status).toBe(404);
    // the study list in its documented shape too
    const list = await api("GET", "/api/studies", undefined, readOnly);
    expect(studyListReplySchema.parse(list.json).studies.find((row) => row.slug === study.slug)).toMatchObject({ overlap: 3, _count: { items: 4 } });
  });
});
