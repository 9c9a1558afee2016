import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { e2eDb } from "./db";

/**
 * The demo that `npm run demo` loads (scripts/demo-data/seed-demo.ts), seeded into this run's
 * database and looked at as its users would: the researcher's dashboard of the demo study with
 * simulated responses (table, chart, alpha), and an annotator starting the real ENACT items.
 */

const demoLogins = {
  researcher: { email: "researcher@yardstick.local", password: "researcher-demo" },
  annotator: { email: "annotator1@yardstick.local", password: "annotator-demo" },
};

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const { rows } = await e2eDb().query(`SELECT count(*)::int AS n FROM "Study" WHERE slug = 'enact-demo'`);
  if (rows[0].n > 0) return;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "yardstick-demo-e2e-"));
  try {
    const out = execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed-demo.ts"], {
      env: { ...process.env, YARDSTICK_DATA_DIR: dataDir },
      encoding: "utf8",
      timeout: 170_000,
    });
    expect(out).toContain("Demo loaded");
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function signIn(page: import("@playwright/test").Page, who: keyof typeof demoLogins) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(demoLogins[who].email);
  await page.getByLabel("Password").fill(demoLogins[who].password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/signin/);
}

test("the researcher sees the demo dashboard: the accuracy table, its chart and alpha", async ({ page }, testInfo) => {
  await signIn(page, "researcher");
  await page.goto("/research");
  await expect(page.getByRole("link", { name: /ENACT demo, simulated responses/ })).toBeVisible();
  await page.goto("/research/studies/enact-demo-simulated/dashboard");
  await expect(page.getByRole("heading", { name: "Accuracy by task and steps" })).toBeVisible({ timeout: 60_000 });
  const table = page.getByTestId("accuracy-table");
  await expect(table.getByRole("cell", { name: "TA", exact: true }).first()).toBeVisible();
  await expect(table).toContainText("Humans (pooled)");
  await expect(table).toContainText("synthetic noisy oracle (not a real model)");
  await expect(page.locator('[data-chart$="-TA-by-steps"] .recharts-line').first()).toBeVisible();
  const headline = page.getByTestId("alpha-headline");
  await expect(headline).toContainText("Krippendorff's alpha");
  await expect(headline).toContainText(/0\.\d{4} \[[-0-9.]+, [-0-9.]+\]/);
  // 46 ordinary items x k=3; the answers to the 2 gold checks (no k, no place) are counted apart
  await expect(page.getByTestId("progress-responses")).toHaveText("138 of 138");
  await page.screenshot({ path: testInfo.outputPath("demo-dashboard.png"), fullPage: true });
});

test("the ESI demo with simulated responses: the progress counts items x conditions x k, and the chart by category names every category", async ({
  page,
}, testInfo) => {
  await signIn(page, "researcher");
  await page.goto("/research/studies/esi-demo-simulated/dashboard");
  // 5 items x 4 conditions x k=2: every one of the 40 simulated answers holds a place
  await expect(page.getByTestId("progress-responses")).toHaveText("40 of 40", { timeout: 60_000 });
  const chart = page.locator('[data-chart$="-accuracy-by-category"]').first();
  await chart.scrollIntoViewIfNeeded();
  const ticks = chart.locator(".recharts-xAxis-tick-labels text");
  await expect(ticks).toHaveCount(4);
  const labels = (await ticks.allTextContents()).join(" | ");
  expect(labels).toContain("Enumerative");
  expect(labels).toContain("Relations");
  // the first and the last label lie inside the chart (the padding makes room for their halves)
  const frame = (await chart.boundingBox())!;
  for (const tick of [ticks.first(), ticks.last()]) {
    const found = (await tick.boundingBox())!;
    expect(found.x).toBeGreaterThanOrEqual(frame.x - 0.5);
    expect(found.x + found.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
  }
  await page.screenshot({ path: testInfo.outputPath("esi-demo-dashboard.png"), fullPage: true });
});

test("an annotator of the demo starts with the practice items of the ENACT demo study", async ({ page }, testInfo) => {
  await signIn(page, "annotator");
  await page.goto("/studies");
  await expect(page.getByText("ENACT demo: forward and inverse world modeling")).toBeVisible();
  await page.goto("/s/enact-demo");
  await expect(page.getByText("Practice: 0 of 4")).toBeVisible();
  await page.getByRole("link", { name: "Start with practice" }).click();
  await expect(page.getByTestId("task")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Practice 1 of 4/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("demo-first-practice.png") });
});
