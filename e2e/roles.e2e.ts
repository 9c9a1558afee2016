import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { apiRouteMatrix, staffApiRoutes, staffPages, type MatrixActor, type MatrixFixture, type MatrixRoute } from "./staff-routes";
import { e2eUsers, storageStatePath, type E2eUserName } from "./users";

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3310}`;

test.describe("an annotator is refused every admin and researcher route", () => {
  test.use({ storageState: storageStatePath("annotator") });

  for (const route of staffApiRoutes) {
    test(`${route.method} ${route.path} -> 403`, async ({ request }) => {
      const response = await request.fetch(route.path, { method: route.method, data: route.body });
      expect(response.status()).toBe(403);
    });
  }

  for (const path of staffPages) {
    test(`page ${path} -> 403 page`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    });
  }
});

test.describe("a researcher is refused admin routes", () => {
  test.use({ storageState: storageStatePath("researcher") });
  for (const route of staffApiRoutes.filter((r) => !r.allowed.includes("RESEARCHER"))) {
    test(`${route.method} ${route.path} -> 403`, async ({ request }) => {
      const response = await request.fetch(route.path, { method: route.method, data: route.body });
      expect(response.status()).toBe(403);
    });
  }
});

test.describe("signed-out visitors", () => {
  test("get 401 from every staff API route", async () => {
    const anonymous = await playwrightRequest.newContext({ baseURL });
    for (const route of staffApiRoutes) {
      const response = await anonymous.fetch(route.path, { method: route.method, data: route.body });
      expect(response.status(), `${route.method} ${route.path}`).toBe(401);
    }
    await anonymous.dispose();
  });

  for (const path of [...staffPages, "/studies"]) {
    test(`are sent to sign in from ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/signin/);
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    });
  }
});

// --- the authorization matrix (e2e/staff-routes.ts apiRouteMatrix; SECURITY.md) ------------

test.describe("the authorization matrix: every API route by every kind of caller", () => {
  let study: FixtureStudy | null = null;
  let fixture: MatrixFixture;
  const contexts = new Map<E2eUserName | "anonymous", APIRequestContext>();

  async function as(account: E2eUserName | "anonymous"): Promise<APIRequestContext> {
    if (!contexts.has(account))
      contexts.set(account, await playwrightRequest.newContext({ baseURL, storageState: account === "anonymous" ? undefined : storageStatePath(account) }));
    return contexts.get(account)!;
  }

  test.beforeAll(async () => {
    // a study the annotator works in (annotator2 is no member; the researcher did not create it) ...
    study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], members: ["annotator"], title: "Matrix study" });
    const next = await (await as("annotator")).get(`/api/annotate/studies/${study.slug}/next`);
    expect(next.status()).toBe(200);
    const assignmentId = ((await next.json()) as { assignment: { assignmentId: string } }).assignment.assignmentId;
    // ... and a review study over its batch that reviewer1 works in
    const db = e2eDb();
    const batchId = (await db.query(`SELECT "batchId" FROM "Item" WHERE "studyId" = $1 LIMIT 1`, [study.id])).rows[0].batchId as string;
    const reviewerIds = (
      await db.query(`SELECT id FROM "User" WHERE email = ANY($1) ORDER BY email`, [
        [e2eUsers.reviewer1.email, e2eUsers.reviewer2.email, e2eUsers.reviewer3.email],
      ])
    ).rows.map((row) => row.id as string);
    const reviewSlug = `matrix-review-${Date.now().toString(36)}`;
    const created = await (
      await as("researcher")
    ).post("/api/review/studies", { data: { title: "Matrix review", slug: reviewSlug, batchIds: [batchId], reviewerIds } });
    expect(created.status(), await created.text()).toBe(201);
    const review = await (await as("reviewer1")).get(`/api/review/studies/${reviewSlug}/next`);
    const reviewView = (await review.json()) as { status: string; view: { assignmentId: string } };
    expect(reviewView.status).toBe("item");
    const reviewAssetHash = /\/api\/review\/assets\/([0-9a-f]{64})/.exec(JSON.stringify(reviewView))?.[1];
    expect(reviewAssetHash).toBeTruthy();
    fixture = {
      studySlug: study.slug,
      assignmentId,
      assetHash: study.items[0].candidates[0].split("/").pop()!,
      reviewSlug,
      reviewAssignmentId: reviewView.view.assignmentId,
      reviewAssetHash: reviewAssetHash!,
    };
  });

  test.afterAll(async () => {
    if (fixture?.reviewSlug) await e2eDb().query(`DELETE FROM "ReviewStudy" WHERE slug = $1`, [fixture.reviewSlug]);
    if (study) await deleteStudy(study.id);
    for (const context of contexts.values()) await context.dispose();
    await closeE2eDb();
  });

  function accountOf(actor: MatrixActor, route: MatrixRoute): E2eUserName | "anonymous" {
    if (actor === "owner") return route.owner;
    if (actor === "intruder") return "annotator2";
    return actor;
  }

  async function send(route: MatrixRoute, actor: MatrixActor, headers: Record<string, string> = {}) {
    const context = await as(accountOf(actor, route));
    const options: Parameters<APIRequestContext["fetch"]>[1] = { method: route.method, headers, maxRedirects: 0 };
    if (route.bodyKind === "multipart") options.multipart = { study: fixture.studySlug, name: "matrix" };
    else if (route.body) options.data = route.body(fixture, actor);
    return context.fetch(route.path(fixture), options);
  }

  // the owner last: its calls may change the fixture (events, a consent)
  for (const actor of ["anonymous", "intruder", "researcher", "admin", "owner"] as const) {
    test(`as ${actor === "intruder" ? "another annotator using the owner's ids (IDOR)" : actor}`, async () => {
      const wrong: string[] = [];
      for (const route of apiRouteMatrix) {
        const expected = actor === "anonymous" ? 401 : route.expect[actor];
        const response = await send(route, actor);
        const status = response.status();
        const ok = expected === "allowed" ? status < 500 && status !== 401 && status !== 403 : status === expected;
        if (!ok)
          wrong.push(`${route.method} ${route.path(fixture)} (${route.file}): expected ${expected}, got ${status} ${(await response.text()).slice(0, 160)}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  test("a state-changing request from another site's page is refused on every route, even with an admin's session (CSRF)", async () => {
    const wrong: string[] = [];
    for (const route of apiRouteMatrix.filter((r) => r.method !== "GET")) {
      const response = await send(route, "admin", { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
      const text = await response.text();
      if (response.status() !== 403 || !text.includes("Refused a cross-site request"))
        wrong.push(`${route.method} ${route.path(fixture)}: ${response.status()} ${text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });
});
