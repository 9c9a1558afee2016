import { test, expect, request as playwrightRequest } from "@playwright/test";
import { storageStatePath } from "./users";

const shots = process.env.E2E_SHOTS_DIR;

/** Personal API tokens, the API reference and a study's agents, as a researcher uses them (docs/api.md). */
test.describe("API tokens and agents in the browser", () => {
  test.use({ storageState: storageStatePath("researcher") });
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`make a token, use it from a script, revoke it; make an agent (${viewport.width}x${viewport.height})`, async ({ page, baseURL }) => {
      await page.setViewportSize(viewport);
      await page.goto("/research/tokens");
      await page.getByLabel("Name").fill(`notebook ${viewport.width}`);
      await page.getByRole("checkbox", { name: /^manage/ }).check();
      await page.getByRole("button", { name: "Create token" }).click();
      const token = (await page.getByTestId("new-token").textContent())!.trim();
      expect(token).toMatch(/^ys_/);
      if (shots) await page.screenshot({ path: `${shots}/tokens-${viewport.width}.png`, fullPage: true });

      // a script: no cookie, no browser headers, only the token
      const script = await playwrightRequest.newContext({ baseURL });
      const slug = `api-e2e-${viewport.width}-${Date.now().toString(36)}`;
      const created = await script.post("/api/studies", { headers: { authorization: `Bearer ${token}` }, data: { title: "Scripted study", slug, overlap: 1 } });
      expect(created.status()).toBe(201);
      expect((await script.get("/api/studies", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
      const openapi = await script.get("/api/openapi.json");
      expect((await openapi.json()).openapi).toBe("3.1.0");

      await page.getByRole("button", { name: `Revoke notebook ${viewport.width}` }).click();
      await expect(page.getByRole("row", { name: new RegExp(`notebook ${viewport.width}`) }).getByText("revoked")).toBeVisible();
      expect((await script.get("/api/studies", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
      await script.dispose();

      await page.goto(`/research/studies/${slug}/agents`);
      await page.getByLabel("Name").fill("baseline");
      await page.getByLabel("Model").fill("trivial-policy");
      await page.getByRole("button", { name: "Make agent" }).click();
      await expect(page.getByTestId("agent-token")).toContainText("ys_");
      await expect(page.getByRole("cell", { name: /^baseline/ })).toBeVisible();
      await expect(page.getByRole("heading", { name: "1 agent", exact: true })).toBeVisible();
      if (shots) await page.screenshot({ path: `${shots}/agents-${viewport.width}.png`, fullPage: true });

      await page.goto("/research/api");
      await expect(page.getByText("/api/studies/{slug}/agents").first()).toBeVisible();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      if (shots) await page.screenshot({ path: `${shots}/api-${viewport.width}.png` });
    });
  }
});
