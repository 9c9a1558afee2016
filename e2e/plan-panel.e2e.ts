import { test, expect, type Page } from "@playwright/test";
import { closeE2eDb } from "./db";
import { createDashboardStudy, deleteDashboardStudy, type DashboardFixture } from "./dashboard-fixtures";
import { storageStatePath } from "./users";

/**
 * The Plan panel on the study dashboard (components of the answers so far) and in the new-study
 * form (assumed components), at 1280 x 800 and 390 x 844: on screen, no sideways scroll, and the
 * numbers follow the inputs.
 */

let fixture: DashboardFixture | null = null;
test.beforeAll(async () => {
  fixture = await createDashboardStudy();
});
test.afterAll(async () => {
  if (fixture) await deleteDashboardStudy(fixture);
  await closeE2eDb();
});

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page does not scroll sideways").toBeLessThanOrEqual(0);
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
      await noSidewaysScroll(page);
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
      await noSidewaysScroll(page);
      await panel.screenshot({ path: testInfo.outputPath(`new-study-plan-${viewport.width}.png`) });
    });
  });
}
