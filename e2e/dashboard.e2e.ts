import { test, expect } from "@playwright/test";
import { closeE2eDb, e2eDb } from "./db";
import { createDashboardStudy, deleteDashboardStudy, memberEmails, type DashboardFixture } from "./dashboard-fixtures";
import { e2eUsers, storageStatePath } from "./users";

/**
 * The researcher's dashboards in Chromium against the built app: the accuracy table in the ENACT
 * paper's shape, its charts, alpha with its interval and encoding, the agreement plan, the
 * annotators' quality table and membership (admin), and the exports. Screenshots of every page go
 * to test-results/dashboard/.
 */

const shots = "test-results/dashboard";
let fixture: DashboardFixture | null = null;

test.beforeEach(async () => {
  fixture = await createDashboardStudy();
});
test.afterEach(async () => {
  if (fixture) await deleteDashboardStudy(fixture);
  fixture = null;
});
test.afterAll(async () => {
  await closeE2eDb();
});

test.describe("research dashboards as a researcher", () => {
  test.use({ storageState: storageStatePath("researcher") });

  test("the dashboard shows the accuracy table, its charts and alpha; the plan builds once", async ({ page }) => {
    // the headline, the comparison table, its CSV and two viewports' screenshots besides the figures
    test.setTimeout(120_000);
    const study = fixture!;
    await page.goto(`/research/studies/${study.slug}/dashboard`);
    await expect(page.getByRole("heading", { name: "Accuracy by task and steps" })).toBeVisible({ timeout: 30_000 });

    // progress: disjoint main work, k = 1
    await expect(page.getByTestId("progress-responses")).toHaveText("192 of 192");

    // the table: humans and the model, TA and PA per step length 3..10
    const table = page.getByTestId("accuracy-table");
    await expect(table).toBeVisible();
    for (const header of ["3", "10", "All"]) await expect(table.locator("thead")).toContainText(header);
    await expect(table).toContainText("Humans (pooled)");
    await expect(table).toContainText("GPT-5 (synthetic)");
    await expect(table.getByRole("cell", { name: "TA", exact: true }).first()).toBeVisible();
    await expect(table.getByRole("cell", { name: "PA", exact: true }).first()).toBeVisible();
    await expect(table).toContainText("N=");

    // the charts: one line per series, drawn by recharts
    await expect(page.locator('[data-chart$="-TA-by-steps"] .recharts-line').first()).toBeVisible();
    await expect(page.locator('[data-chart$="-PA-by-steps"] .recharts-line')).toHaveCount(4);

    // alpha, named with its level, encoding and interval
    const headline = page.getByTestId("alpha-headline");
    await expect(headline).toContainText("Krippendorff's alpha");
    await expect(headline).toContainText("ordinal");
    await expect(headline).toContainText("Each candidate a unit");
    await expect(headline).toContainText(/0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\]/);
    // the study generalises over people and items (the default): items and annotators are both resampled
    await expect(headline).toContainText("pigeonhole bootstrap");
    await expect(headline).toContainText("annotators drawn independently");
    await expect(page.getByTestId("pairwise-matrix")).toContainText("Ada Lovelace");
    await expect(page.getByTestId("plan-paragraph")).toContainText(/perfect agreement on \d+ of 96 items/);

    // human TA / PA from the main annotation only (ENACT App. B.1.2); a named toggle adds the plan's answers
    await expect(page.getByLabel("Agreement-plan answers in accuracy")).toHaveValue("without");
    await expect(page.getByText(/come from the main annotation only, as in ENACT's table: the 192 answers given for the agreement plan/)).toBeVisible();

    // the headline a paper can state, the method in one line, and the table of people against each model
    const comparisonHeadline = page.getByTestId("comparison-headline");
    await expect(comparisonHeadline).toContainText(
      /People \d+\.\d% \[\d+\.\d, \d+\.\d\] vs GPT-5 \(synthetic\) \d+\.\d% on the same \d+ items: difference [−+]?\d+\.\d points \[[−\d.]+, [−\d.]+\], p [=<] \d\.\d{3}/,
    );
    await expect(page.getByTestId("method-line")).toContainText("95% intervals generalise over people and items");
    await expect(page.getByTestId("method-line")).toContainText("Cameron, Gelbach & Miller 2011");
    const comparisonTable = page.getByTestId("comparison-table");
    await expect(comparisonTable.getByTestId("comparison-row").filter({ hasText: "GPT-5 (synthetic)" }).first()).toContainText("all");
    expect(await comparisonTable.getByTestId("comparison-row").count()).toBeGreaterThan(1);
    const csv = await page.request.get(`/api/studies/${study.slug}/comparison.csv`);
    expect(csv.status()).toBe(200);
    const csvLines = (await csv.text()).trim().split("\r\n");
    expect(csvLines[0].startsWith("kind,metric,condition,tag_key,tag,model,model_run_id,agent,items,people,answers,humans_estimate,")).toBe(true);
    expect(csvLines.length).toBe(1 + (await comparisonTable.getByTestId("comparison-row").count()));

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${shots}/dashboard-top.png` });
    await page.screenshot({ path: `${shots}/dashboard-full.png`, fullPage: true });
    await page.locator("#accuracy").screenshot({ path: `${shots}/dashboard-accuracy.png` });
    await page.locator("#agreement").screenshot({ path: `${shots}/dashboard-agreement.png` });
    await page.locator("#agreement-plan").screenshot({ path: `${shots}/dashboard-plan.png` });
    await page.locator("#confidence").screenshot({ path: `${shots}/dashboard-confidence.png` });
    await page.locator("#time").screenshot({ path: `${shots}/dashboard-time.png` });
    await page.locator("#models").screenshot({ path: `${shots}/dashboard-models.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${shots}/dashboard-top-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // another encoding changes the headline, and says so
    await page.getByLabel("Agreement encoding").selectOption("item-kendall");
    await expect(headline).toContainText("Kendall tau distance");
    await expect(headline).toContainText("Each item a unit");
    await expect(page).toHaveURL(/[?&]encoding=item-kendall/);
    // back to the default encoding: the link is the default view's again (one link, one stored view)
    await page.getByLabel("Agreement encoding").selectOption("slot-ordinal");
    await expect(headline).toContainText("Each candidate a unit");
    await expect(page).not.toHaveURL(/encoding=/);

    // the plan: top up to 3 items per task x steps x annotator, then nothing more
    const { rows: before } = await e2eDb().query(`SELECT count(*)::int AS n FROM "Assignment" WHERE "studyId" = $1 AND purpose = 'AGREEMENT'`, [study.studyId]);
    await page.getByLabel(/Items per task x steps x annotator/).fill("3");
    await page.getByRole("button", { name: "Build agreement plan" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Sampled 48 new items" })).toBeVisible();
    const { rows: after } = await e2eDb().query(
      `SELECT count(*)::int AS n FROM "Assignment" WHERE "studyId" = $1 AND purpose = 'AGREEMENT' AND status = 'ASSIGNED'`,
      [study.studyId],
    );
    expect(after[0].n).toBe(96);
    expect(before[0].n).toBe(192);
    await page.getByRole("button", { name: "Build agreement plan" }).click();
    await expect(page.getByRole("status").filter({ hasText: "complete already" })).toBeVisible();
  });

  test("the exports stream CSV with the documented header and no emails", async ({ page }) => {
    const study = fixture!;
    await page.goto(`/research/studies/${study.slug}/exports`);
    await expect(page.getByTestId("exports")).toContainText("Responses");
    await page.screenshot({ path: `${shots}/exports.png`, fullPage: true });
    const responses = await page.request.get(`/api/studies/${study.slug}/export/responses?format=csv&kind=enact-forward&tag=steps%3D3`);
    expect(responses.status()).toBe(200);
    expect(responses.headers()["content-disposition"]).toBe(`attachment; filename="${study.slug}-responses-enact-forward-steps-3.csv"`);
    const lines = (await responses.text()).trim().split("\r\n");
    expect(lines[0].startsWith("response_id,item_id,kind,annotator,agent,purpose,practice,answer,confidence_raw,confidence,correct,")).toBe(true);
    expect(lines).toHaveLength(1 + 12 + 12 + 3); // 12 main answers at L = 3, 3 x 2 x 2 agreement answers, 3 practice answers (marked)
    const annotators = await page.request.get(`/api/studies/${study.slug}/export/annotators?format=jsonl`);
    const text = await annotators.text();
    expect(text).not.toContain("@");
    expect(text.trim().split("\n")).toHaveLength(3);
  });

  test("the annotators tab: quality per annotator, the far-faster flag, members without emails", async ({ page }) => {
    const study = fixture!;
    await page.goto(`/research/studies/${study.slug}/annotators`);
    const quality = page.getByTestId("annotator-quality");
    await expect(quality).toContainText("Ada Lovelace");
    await expect(quality.getByRole("row").filter({ hasText: "Cleo Tanaka" })).toContainText("far faster");
    await expect(page.getByTestId("members")).toContainText("Ben Okafor");
    await expect(page.locator("body")).not.toContainText("@e2e.test");
    await expect(page.getByRole("button", { name: /Add .*annotator/ })).toHaveCount(0);
    await page.screenshot({ path: `${shots}/annotators-researcher.png`, fullPage: true });
  });
});

test.describe("membership as an admin", () => {
  test.use({ storageState: storageStatePath("admin") });

  test("an admin adds two annotators at once and removes one", async ({ page }) => {
    const study = fixture!;
    await page.goto(`/research/studies/${study.slug}/annotators`);
    await page.getByLabel("Filter annotators").fill("Annotator");
    await page.getByRole("checkbox", { name: e2eUsers.annotator.name }).check();
    await page.getByRole("checkbox", { name: e2eUsers.annotator2.name }).check();
    await page.screenshot({ path: `${shots}/annotators-admin.png`, fullPage: true });
    await page.getByRole("button", { name: "Add 2 annotators" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added 2 annotators" })).toBeVisible();
    await expect(page.getByTestId("members")).toContainText(e2eUsers.annotator2.name);
    expect(await memberEmails(study.studyId)).toEqual(expect.arrayContaining([e2eUsers.annotator.email, e2eUsers.annotator2.email]));

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: `Remove ${e2eUsers.annotator2.name}` }).click();
    await expect(page.getByTestId("members")).not.toContainText(e2eUsers.annotator2.name);
    expect(await memberEmails(study.studyId)).not.toContain(e2eUsers.annotator2.email);
  });
});

test.describe("research routes refuse annotators", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("an annotator gets 403 from exports, the dashboard JSON, members and the agreement plan", async ({ page }) => {
    const study = fixture!;
    for (const path of [`/api/studies/${study.slug}/export/items?format=csv`, `/api/studies/${study.slug}/dashboard`, `/api/studies/${study.slug}/members`]) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(403);
    }
    expect((await page.request.post(`/api/studies/${study.slug}/agreement-plan`, { data: {} })).status()).toBe(403);
    expect((await page.request.post(`/api/studies/${study.slug}/members`, { data: { userIds: [study.annotators[0].id] } })).status()).toBe(403);
  });
});

test.describe("membership changes are for admins", () => {
  test.use({ storageState: storageStatePath("researcher") });

  test("a researcher reads members but cannot add or remove them; the dashboard JSON answers", async ({ page }) => {
    const study = fixture!;
    const list = await page.request.get(`/api/studies/${study.slug}/members`);
    expect(list.status()).toBe(200);
    const body = await list.json();
    expect(body.members).toHaveLength(3);
    expect(body.candidates).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain("@");
    expect((await page.request.post(`/api/studies/${study.slug}/members`, { data: { userIds: [study.annotators[0].id] } })).status()).toBe(403);
    expect((await page.request.delete(`/api/studies/${study.slug}/members`, { data: { userId: study.annotators[0].id } })).status()).toBe(403);
    const dashboard = await page.request.get(`/api/studies/${study.slug}/dashboard?encoding=item-kendall`);
    expect(dashboard.status()).toBe(200);
    const json = await dashboard.json();
    expect(json.agreement.encoding.id).toBe("item-kendall");
    expect(json.progress.done).toBe(192);
  });
});
