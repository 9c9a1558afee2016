import { randomBytes } from "node:crypto";
import { test, expect } from "@playwright/test";
import { createEnactStudy, deleteStudy, type FixtureStudy } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { storageStatePath } from "./users";

/**
 * The human-baseline report (docs/report.md): the researcher answers an entry only a person can
 * answer in Settings → Reporting (on a study with an answer, whose other settings are frozen),
 * opens the Report tab from the study's navigation, reads that entry and one Yardstick fills
 * itself, and downloads the LaTeX with the title escaped.
 */

let studies: FixtureStudy[] = [];

test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

test("Settings → Reporting answers reach the Report tab, and the LaTeX download escapes the title", async ({ browser }) => {
  const study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 3 }], title: "R&D: 100% of _ENACT_ #1" });
  studies.push(study);
  const db = e2eDb();
  const annotator = (await db.query(`SELECT id FROM "User" WHERE email = 'annotator@e2e.test'`)).rows[0].id as string;
  await db.query(`INSERT INTO "StudyMember" ("studyId", "userId", status) VALUES ($1, $2, 'COMPLETE')`, [study.id, annotator]);
  const assignment = `as_${randomBytes(8).toString("hex")}`;
  await db.query(`INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", position, status) VALUES ($1, $2, $3, $4, 0, 'SUBMITTED')`, [
    assignment,
    study.id,
    study.items[0].id,
    annotator,
  ]);
  await db.query(
    `INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct) VALUES ($1, $2, $3, '{"order":[0,1,2]}', 3, 0.5, 90000, 60000, '{}', true)`,
    [`re_${randomBytes(8).toString("hex")}`, assignment, randomBytes(8).toString("hex")],
  );

  const context = await browser.newContext({ storageState: storageStatePath("researcher") });
  const page = await context.newPage();
  await page.goto(`/research/studies/${study.slug}/settings`);
  const form = page.getByTestId("reporting-form");
  const ethics = form.locator('[data-entry="1.9"]');
  await ethics.locator("select").selectOption("Yes");
  await ethics.locator("input").fill("IRB 2026-14");
  await form.getByRole("button", { name: "Save reporting answers" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved: the report carries these answers.");

  await page.getByRole("navigation", { name: "Study" }).getByRole("link", { name: "Report" }).click();
  await expect(page).toHaveURL(new RegExp(`/research/studies/${study.slug}/report$`));
  await expect(page.locator('tr[data-entry="1.9"]')).toContainText("IRB 2026-14");
  await expect(page.locator('tr[data-entry="1.9"]')).toContainText("study settings: Reporting");
  await expect(page.locator('tr[data-entry="1.1"]')).toContainText("1 people answered");
  await expect(page.locator('tr[data-entry="5.1.1"]')).toContainText("not reported: no demographics collected");
  await expect(page.locator("tr[data-entry]")).toHaveCount(72);

  // on a phone the tables scroll in their own boxes: the page itself is no wider than the window
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('tr[data-entry="1.9"]')).toContainText("IRB 2026-14");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const href = await page.getByRole("link", { name: "Download LaTeX" }).getAttribute("href");
  const tex = await page.request.get(href!);
  expect(tex.status()).toBe(200);
  expect(await tex.text()).toContain("\\section*{Human baseline report: R\\&D: 100\\% of \\_ENACT\\_ \\#1}");
  await context.close();
});
