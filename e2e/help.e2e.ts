import { test, expect } from "@playwright/test";
import { storageStatePath } from "./users";

/**
 * The docs inside the app: each staff page links to its part of them, rendered (headings, tables,
 * code), with links between docs kept inside /help; signed-out visitors and annotators get none.
 */

test.describe("help", () => {
  test.use({ storageState: storageStatePath("researcher") });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`a staff page's help link opens its doc rendered, at ${viewport.width}x${viewport.height}`, async ({ page }, testInfo) => {
      await page.setViewportSize(viewport);
      await page.goto("/research/tokens");
      const link = page.getByTestId("help-link");
      await expect(link).toContainText("The API");
      await link.click();
      await expect(page).toHaveURL(/\/help\/api$/);
      const doc = page.getByTestId("help-doc");
      await expect(doc.locator("h1")).toContainText("The API");
      // Markdown rendered, not shown as text
      await expect(doc).not.toContainText("## ");
      await expect(doc.locator("code").first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`help-api-${viewport.width}.png`) });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

      // the exports doc: a table, and a link to another doc inside /help
      await page.goto("/help/readme");
      await expect(page.getByTestId("help-doc").locator("table").first()).toBeVisible();
      const inner = page.getByTestId("help-doc").locator('a[href^="/help/"]').first();
      const href = await inner.getAttribute("href");
      await inner.click();
      await expect(page).toHaveURL(new RegExp(`${href!.split("#")[0]}`));
      await expect(page.getByTestId("help-doc").locator("h1")).toBeVisible();
    });
  }

  test("an unknown doc is 404, a path is not a doc", async ({ page }) => {
    expect((await page.goto("/help/no-such-doc"))!.status()).toBe(404);
    expect((await page.goto("/help/..%2Fpackage.json"))!.status()).toBe(404);
  });
});

test.describe("help for others", () => {
  test("signed out: to sign in", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto("/help/api");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fhelp%2Fapi/);
    await context.close();
  });

  test("an annotator: forbidden", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStatePath("annotator") });
    const page = await context.newPage();
    const reply = await page.goto("/help/api");
    expect(reply!.status()).toBe(403);
    await context.close();
  });
});
