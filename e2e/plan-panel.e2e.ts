import { test, expect, type Locator, type Page } from "@playwright/test";
import { closeE2eDb } from "./db";
import { createDashboardStudy, deleteDashboardStudy, type DashboardFixture } from "./dashboard-fixtures";
import { storageStatePath } from "./users";

/**
 * The Plan panel on the study dashboard (components of the answers so far) and in the new-study
 * form (assumed components), at 1280 x 800 and 390 x 844: the panel on screen with nothing
 * sticking out of it (the new-study page without sideways scroll), and the numbers follow the inputs.
 */

let fixture: DashboardFixture | null = null;
test.beforeAll(async () => {
  fixture = await createDashboardStudy();
});
test.afterAll(async () => {
  if (fixture) await deleteDashboardStudy(fixture);
  await closeE2eDb();
});

/** The panel lies within the window and nothing in it is wider than the panel. */
async function fitsOnScreen(page: Page, panel: Locator) {
  const box = (await panel.boundingBox())!;
  expect(box.x, "the panel starts on screen").toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, "the panel ends on screen").toBeLessThanOrEqual(page.viewportSize()!.width + 0.5);
  const overflow = await panel.evaluate((element) =>
    Math.max(0, ...[...element.querySelectorAll("*")].map((e) => e.getBoundingClientRect().right - element.getBoundingClientRect().right)),
  );
  expect(overflow, "nothing in the panel sticks out of it").toBeLessThanOrEqual(0.5);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`${viewport.width} x ${viewport.height}`, () => {
    test.use({ storageState: storageStatePath("researcher"), viewport });

    test("the dashboard's Plan: measured components, the arithmetic, people for h", async ({ page }, testInfo) => {
      await page.goto(`/research/studies/${fixture!.slug}/dashboard`);
      const panel = page.getByTestId("plan-panel");
      await panel.scrollIntoViewIfNeeded();
      await expect(panel).toBeVisible();
      await expect(panel).toContainText("Henderson's Method I");
      await expect(panel).toContainText("places =");
      const peopleH = panel.locator('[data-testid^="plan-people-h-"]').first();
      const before = await peopleH.textContent();
      await panel.getByTestId("plan-h").fill("0.2");
      await expect(peopleH).not.toHaveText(before ?? "");
      await fitsOnScreen(page, panel);
      await page.screenshot({ path: testInfo.outputPath(`dashboard-plan-${viewport.width}.png`), fullPage: false });
      await panel.screenshot({ path: testInfo.outputPath(`dashboard-plan-panel-${viewport.width}.png`) });
    });

    test("the new-study form's Plan: assumed components and the arithmetic", async ({ page }, testInfo) => {
      await page.goto("/research/studies/new");
      const panel = page.getByTestId("plan-panel");
      await panel.scrollIntoViewIfNeeded();
      await expect(panel).toContainText("Components assumed");
      // 100 items x k 3 = 300 places; / 50 items per person = 6 people
      await expect(panel).toContainText("people = places / 50 = 6");
      await panel.getByTestId("plan-k").fill("5");
      await expect(panel).toContainText("people = places / 50 = 10");
      await fitsOnScreen(page, panel);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, "the new-study page does not scroll sideways").toBeLessThanOrEqual(0);
      await panel.screenshot({ path: testInfo.outputPath(`new-study-plan-${viewport.width}.png`) });
    });
  });
}
