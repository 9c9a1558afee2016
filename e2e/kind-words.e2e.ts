import { randomUUID } from "node:crypto";
import { test, expect, type Page } from "@playwright/test";
import { closeE2eDb, e2eDb } from "./db";
import { createDashboardStudy, deleteDashboardStudy, type DashboardFixture } from "./dashboard-fixtures";
import { createChoiceStudy } from "./choice-fixtures";
import { deleteStudy } from "./annotate-fixtures";
import { e2eUsers, storageStatePath } from "./users";

/**
 * The dashboard in each kind's own words: an ENACT study with both tasks shows TA / PA
 * over both pooled (its own section) beside the per-task rows; a study of generic kinds reads no
 * ENACT or EXPLORE-Bench term (TA, PA, slots, S_*) on the shared cards. Screenshots at 1280x800
 * and 390x844.
 */

const shots = process.env.OPSENTRY_SHOTS ?? "test-results/kind-words";
let fixture: DashboardFixture | null = null;
const cleanups: string[] = [];

test.afterEach(async () => {
  if (fixture) await deleteDashboardStudy(fixture);
  fixture = null;
  for (const id of cleanups.splice(0)) await deleteStudy(id);
});
test.afterAll(async () => {
  await closeE2eDb();
});
test.use({ storageState: storageStatePath("researcher") });

async function shoot(page: Page, name: string, scrollTo?: string) {
  for (const [size, viewport] of [
    ["1280", { width: 1280, height: 800 }],
    ["390", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    if (scrollTo) await page.getByTestId(scrollTo).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/${name}-${size}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an ENACT study with both tasks shows TA / PA over both pooled, as the database holds them", async ({ page }) => {
  test.setTimeout(120_000);
  fixture = await createDashboardStudy();
  await page.goto(`/research/studies/${fixture.slug}/dashboard`);
  const overall = page.getByTestId("enact-overall");
  await expect(overall).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "ENACT overall: both tasks pooled" })).toBeVisible();
  // the people's TA: accepted main answers (not practice, not the plan's) over all of them, both tasks
  const { rows } = await e2eDb().query(
    `SELECT count(*) FILTER (WHERE (r.score->>'accepted')::boolean)::int AS accepted, count(*)::int AS n, count(DISTINCT i.kind)::int AS kinds
     FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
     WHERE a."studyId" = $1 AND a.purpose = 'MAIN' AND NOT i.practice`,
    [fixture.studyId],
  );
  expect(rows[0].kinds).toBe(2);
  const humans = overall.locator('tr[data-series="humans"]');
  await expect(humans).toContainText(((rows[0].accepted / rows[0].n) * 100).toFixed(2));
  await expect(humans).toContainText(`forward ${rows[0].n / 2}`);
  await expect(overall.locator("tr[data-series]")).toHaveCount(2); // the people and the model run
  await shoot(page, "enact-overall", "enact-overall");
  // the agreement card counts slots, the plan is ENACT's own design
  await expect(page.getByTestId("plan-design")).toContainText("ENACT's design");
});

test("a study of generic kinds reads no ENACT or EXPLORE-Bench term on the shared cards", async ({ page }) => {
  test.setTimeout(120_000);
  const study = await createChoiceStudy({ members: ["annotator", "annotator2"] });
  cleanups.push(study.id);
  const db = e2eDb();
  // both annotators answer the choice item (one right, one wrong): agreement has an item to show
  const item = (await db.query(`SELECT id FROM "Item" WHERE "studyId" = $1 AND kind = 'choice'`, [study.id])).rows[0].id as string;
  for (const [who, choice] of [
    ["annotator", study.keyed],
    ["annotator2", "sofa"],
  ] as const) {
    const user = (await db.query(`SELECT id FROM "User" WHERE email = $1`, [e2eUsers[who].email])).rows[0].id as string;
    const assignment = randomUUID();
    await db.query(
      `INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", position, status, "startedAt", "submittedAt") VALUES ($1, $2, $3, $4, 0, 'SUBMITTED', now(), now())`,
      [assignment, study.id, item, user],
    );
    const right = choice === study.keyed;
    await db.query(
      `INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct) VALUES ($1, $2, $3, $4, 3, 0.5, 9000, 8000, $5, $6)`,
      [randomUUID(), assignment, randomUUID(), JSON.stringify({ choice }), JSON.stringify({ correct: right, score: right ? 1 : 0, options: 5 }), right],
    );
  }
  await page.goto(`/research/studies/${study.slug}/dashboard`);
  await expect(page.getByTestId("accuracy-table")).toBeVisible({ timeout: 30_000 });
  const jargon = /\bTA\b|\bPA\b|ENACT|EXPLORE|S_obj|\bslots?\b|forward|inverse/;
  for (const id of ["accuracy", "agreement", "agreement-plan", "confidence"]) await expect(page.locator(`section#${id}`)).not.toContainText(jargon);
  await expect(page.getByTestId("plan-design")).toContainText("Cross-annotation, applied to choice");
  await expect(page.getByTestId("alpha-headline")).toContainText("Perfect agreement: 0 of 1 item");
  await expect(page.getByTestId("enact-overall")).toHaveCount(0);
  await shoot(page, "generic-accuracy", "accuracy-table");
  await shoot(page, "generic-agreement", "alpha-headline");
});
