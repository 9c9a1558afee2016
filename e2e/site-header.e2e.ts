import { test, expect, type Page } from "@playwright/test";
import { createDashboardStudy, deleteDashboardStudy, type DashboardFixture } from "./dashboard-fixtures";
import { closeE2eDb } from "./db";
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
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: "the page does not scroll sideways",
    })
    .toBeLessThanOrEqual(0);
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
      for (const name of ["Studies", "Review", "Import", "Users", "API"]) {
        const link = nav.getByRole("link", { name, exact: true });
        await link.scrollIntoViewIfNeeded();
        await expect(link).toBeVisible();
      }
      await nav.getByRole("link", { name: "Users", exact: true }).click();
      await expect(page).toHaveURL(/\/admin\/users$/);
      await expectOneRowHeader(page, viewport.width);
      // one entry marks the page, also on the pages under another entry's path
      for (const [path, current] of [
        ["/research/tokens", "API"],
        ["/research/api", "API"],
        ["/research", "Studies"],
        ["/admin/users", "Users"],
      ]) {
        await page.goto(path);
        await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
        await expect(nav.locator('[aria-current="page"]')).toHaveText(current);
      }
    });
  }
});

test.describe("a staff form on a phone", () => {
  let fixture: DashboardFixture | null = null;
  test.beforeAll(async () => {
    fixture = await createDashboardStudy({ annotators: 2, maxSteps: 4, perCell: 1, agreementPerCell: 1 });
  });
  test.afterAll(async () => {
    if (fixture) await deleteDashboardStudy(fixture);
    await closeE2eDb();
  });
  test.use({ storageState: storageStatePath("researcher"), viewport: { width: 390, height: 844 } });

  test("the new review study form keeps every part on screen (the batch table scrolls in its box)", async ({ page }) => {
    await page.goto("/review/new");
    const fieldsets = page.locator("main form fieldset");
    expect(await fieldsets.count()).toBeGreaterThanOrEqual(3);
    for (const fieldset of await fieldsets.all()) {
      const found = (await fieldset.boundingBox())!;
      expect(found.x + found.width, "a part of the form ends on screen").toBeLessThanOrEqual(390);
    }
    await expect(page.getByText(fixture!.title).first()).toBeAttached();
  });
});
