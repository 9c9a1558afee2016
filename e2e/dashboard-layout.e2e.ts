import { test, expect, type Locator, type Page } from "@playwright/test";
import { closeE2eDb } from "./db";
import { createDashboardStudy, deleteDashboardStudy, type DashboardFixture } from "./dashboard-fixtures";
import { storageStatePath } from "./users";

/**
 * The research dashboard with wider data than the demo: nine annotators with long
 * names and twelve step lengths (3..14), at 1280 and 1920 px wide. The pairwise alpha matrix must
 * not squeeze the alpha headline, the tables' "All" column must be on screen, the time chart's
 * annotator labels must not run into each other, and the page must not scroll sideways.
 */

let fixture: DashboardFixture | null = null;
test.beforeAll(async () => {
  fixture = await createDashboardStudy({ annotators: 9, maxSteps: 14, perCell: 1, agreementPerCell: 1 });
});
test.afterAll(async () => {
  if (fixture) await deleteDashboardStudy(fixture);
  await closeE2eDb();
});

async function box(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const found = await locator.boundingBox();
  expect(found, "the element is laid out").not.toBeNull();
  return found!;
}

/** The "All" header of a table is inside the table's visible (scrolling) box. */
async function allColumnVisible(page: Page, table: Locator) {
  const frame = await box(table.locator("xpath=.."));
  const all = await box(table.locator("thead th").last());
  await expect(table.locator("thead th").last()).toHaveText(/^All$/i);
  expect(all.x, "All starts inside the table's box").toBeGreaterThanOrEqual(frame.x - 0.5);
  expect(all.x + all.width, "All ends inside the table's box").toBeLessThanOrEqual(frame.x + frame.width + 0.5);
  expect(all.x + all.width, "All is on screen").toBeLessThanOrEqual(page.viewportSize()!.width);
}

/**
 * With more columns than its box holds, the table scrolls and "All" stays in view: the window is
 * narrowed until the table is wider than its box (the fixture's twelve columns fit at 1280 px),
 * then restored.
 */
async function allColumnVisibleWhileScrolling(page: Page, table: Locator) {
  const frame = table.locator("xpath=..");
  const size = page.viewportSize()!;
  const { scroll, client } = await frame.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  if (scroll <= client) await page.setViewportSize({ width: Math.max(360, size.width - (client - scroll) - 160), height: size.height });
  await expect
    .poll(() => frame.evaluate((element) => element.scrollWidth - element.clientWidth), { message: "the table is wider than its box" })
    .toBeGreaterThan(0);
  // measured as a person first sees it: scrolled to its start (scrollIntoViewIfNeeded would scroll All into view)
  await frame.evaluate((element) => {
    element.scrollIntoView({ block: "center" });
    element.scrollLeft = 0;
  });
  const frameBox = (await frame.boundingBox())!;
  const all = (await table.locator("thead th").last().boundingBox())!;
  expect(all.x + all.width, "All ends inside the scrolling table's box").toBeLessThanOrEqual(frameBox.x + frameBox.width + 0.5);
  expect(all.x + all.width, "All is on screen").toBeLessThanOrEqual(page.viewportSize()!.width);
  await page.setViewportSize(size);
}

for (const width of [1280, 1920]) {
  test.describe(`at ${width} px`, () => {
    test.use({ storageState: storageStatePath("researcher"), viewport: { width, height: 900 } });

    test("nine annotators and twelve step lengths fit", async ({ page }, testInfo) => {
      const study = fixture!;
      await page.goto(`/research/studies/${study.slug}/dashboard`);
      await expect(page.getByRole("heading", { name: "Accuracy by task and steps" })).toBeVisible({ timeout: 60_000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);

      // the accuracy table: 12 step columns; "All" stays in view
      const accuracy = page.getByTestId("accuracy-table");
      await expect(accuracy.locator("thead th")).toHaveCount(3 + 12 + 1);
      await allColumnVisible(page, accuracy);
      await page.screenshot({ path: testInfo.outputPath(`accuracy-${width}.png`) });
      await allColumnVisibleWhileScrolling(page, accuracy);

      // agreement: the headline keeps its width beside the 9 x 9 matrix
      const headline = page.getByTestId("alpha-headline");
      const matrix = page.getByTestId("pairwise-matrix");
      await expect(matrix.locator("tbody tr")).toHaveCount(9);
      const head = await box(headline);
      expect(head.width, "the alpha headline is not squeezed").toBeGreaterThanOrEqual(300);
      const title = await box(headline.getByText("Krippendorff's alpha", { exact: false }).first());
      expect(title.height, "its title stays on one or two lines").toBeLessThan(40);
      const matrixFrame = await box(matrix.locator("xpath=.."));
      expect(head.x + head.width <= matrixFrame.x + 0.5 || head.y + head.height <= matrixFrame.y + 0.5, "headline and matrix do not overlap").toBe(true);
      expect(matrixFrame.x + matrixFrame.width, "the matrix ends on screen").toBeLessThanOrEqual(width);
      for (const name of study.annotators.map((a) => a.name)) await expect(matrix.getByRole("rowheader", { name })).toBeVisible();
      await allColumnVisible(page, page.getByTestId("alpha-by-cell"));
      await allColumnVisibleWhileScrolling(page, page.getByTestId("alpha-by-cell"));
      await page.screenshot({ path: testInfo.outputPath(`agreement-${width}.png`) });

      // the time chart: one label per annotator, none running into the next
      const chart = page.locator('[data-chart$="-active-time-by-annotator"]');
      await chart.scrollIntoViewIfNeeded();
      // recharts 3 draws tick values in a layer of their own per axis
      const ticks = chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
      await expect(ticks).toHaveCount(9);
      const boxes = [];
      for (const tick of await ticks.all()) boxes.push((await tick.boundingBox())!);
      boxes.sort((a, b) => a.y - b.y);
      const chartBox = (await chart.boundingBox())!;
      for (let i = 0; i < boxes.length; i++) {
        expect(boxes[i].x, "a label starts inside the chart").toBeGreaterThanOrEqual(chartBox.x - 0.5);
        // one line per name (12 px type): a wrapped name runs into its neighbours once rows are tight
        expect(boxes[i].height, `label ${i + 1} is one line`).toBeLessThan(20);
        if (i > 0) expect(boxes[i].y, `label ${i + 1} clears label ${i}`).toBeGreaterThanOrEqual(boxes[i - 1].y + boxes[i - 1].height - 0.5);
      }
      const xTicks = chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
      const xLabel = chart.locator(".recharts-label").filter({ hasText: "seconds" });
      const label = (await xLabel.boundingBox())!;
      for (const tick of await xTicks.all()) {
        const t = (await tick.boundingBox())!;
        expect(t.y + t.height <= label.y + 0.5 || label.x + label.width <= t.x || t.x + t.width <= label.x, "the axis title clears the tick values").toBe(true);
      }
      await page.screenshot({ path: testInfo.outputPath(`time-${width}.png`) });
    });
  });
}

test.describe("at 390 px (a phone)", () => {
  test.use({ storageState: storageStatePath("researcher"), viewport: { width: 390, height: 844 } });

  test("every control of the dashboard lies on screen", async ({ page }, testInfo) => {
    await page.goto(`/research/studies/${fixture!.slug}/dashboard`);
    await expect(page.getByRole("heading", { name: "Accuracy by task and steps" })).toBeVisible({ timeout: 60_000 });
    const selects = page.locator("main select");
    expect(await selects.count()).toBeGreaterThan(3);
    for (const select of await selects.all()) {
      const found = (await select.boundingBox())!;
      expect(found.x, `${await select.getAttribute("name")} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(found.x + found.width, `${await select.getAttribute("name")} ends on screen`).toBeLessThanOrEqual(390 + 0.5);
    }
    await page.screenshot({ path: testInfo.outputPath("controls-390.png") });
  });
});
