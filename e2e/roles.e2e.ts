import { test, expect, request as playwrightRequest } from "@playwright/test";
import { staffApiRoutes, staffPages } from "./staff-routes";
import { storageStatePath } from "./users";

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
