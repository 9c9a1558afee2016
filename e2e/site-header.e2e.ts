import { test, expect, type Page } from "@playwright/test";
import { storageStatePath } from "./users";

/** The header keeps one row at every width (the annotator pages' sticky panels sit under its 57 px). */
async function expectOneRowHeader(page: Page, width: number) {
  const header = page.locator("header").first();
  const box = await header.boundingBox();
  expect(box, "the header is drawn").not.toBeNull();
  expect(box!.height, "the header is one row").toBeLessThanOrEqual(58);
  const signOut = header.getByRole("button", { name: "Sign out" });
  await expect(signOut).toBeVisible();
  const signOutBox = await signOut.boundingBox();
  expect(signOutBox!.height, "Sign out stays on one line").toBeLessThan(40);
  expect(signOutBox!.x + signOutBox!.width, "Sign out is inside the screen").toBeLessThanOrEqual(width);
  // polled: while a client navigation streams in, the old and new page can briefly be wider together
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { message: "the page does not scroll sideways" }).toBeLessThanOrEqual(0);
}

test.describe("the staff header on a phone and a laptop", () => {
  test.use({ storageState: storageStatePath("admin") });
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`admin's header at ${viewport.width}x${viewport.height}: one row, every link reachable`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/research");
      await expectOneRowHeader(page, viewport.width);
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const name of ["Studies", "Review", "Import", "Users"]) {
        const link = nav.getByRole("link", { name, exact: true });
        await link.scrollIntoViewIfNeeded();
        await expect(link).toBeVisible();
      }
      await nav.getByRole("link", { name: "Users", exact: true }).click();
      await expect(page).toHaveURL(/\/admin\/users$/);
      await expectOneRowHeader(page, viewport.width);
    });
  }
});
