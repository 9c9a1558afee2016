import { test, expect, type Page } from "@playwright/test";
import { deleteStudy, storedEvents } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import {
  createFreeTextDashboardStudy,
  createFreeTextStudy,
  createGradingStudy,
  FREE_TEXT_QUESTION,
  GRADE_ANSWER,
  type FreeTextFixtureStudy,
} from "./free-text-fixtures";
import { GridwmPage } from "./pages/gridwm-page";
import { storageStatePath } from "./users";
import { chatStandIn } from "./chat-stand-in";

/**
 * The free-text kind and its grading kind in Chromium against the built app: answer a question in
 * the text box by keyboard (1280 x 800) and by touch (a phone, 390 x 844), and grade an answer 1-5
 * by keyboard and by touch; read the stored responses and events back. The reference answers never
 * reach the page. As a researcher, grade a study's answers with the LLM judge from the dashboard
 * section against a stand-in chat-completions server served by this spec (port E2E_PORT + 1000,
 * where playwright.config.ts points SCORER_LLM_URL) and read LLM-Match per category.
 */

let studies: FreeTextFixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

async function latestAssignment(studyId: string) {
  const { rows } = await e2eDb().query<{ id: string }>(`SELECT id FROM "Assignment" WHERE "studyId" = $1 ORDER BY "createdAt" DESC LIMIT 1`, [studyId]);
  return rows[0].id;
}
async function responseOf(assignmentId: string) {
  const { rows } = await e2eDb().query<{ answer: unknown; score: unknown; confidenceRaw: number }>(
    `SELECT answer, score, "confidenceRaw" FROM "Response" WHERE "assignmentId" = $1`,
    [assignmentId],
  );
  return rows[0];
}

async function noReferenceOnPage(page: Page) {
  const html = await page.content();
  expect(html).not.toContain("SecretRef");
  expect(html).not.toContain("SecretExtra");
}

test.describe("free-text", () => {
  test.use({ storageState: storageStatePath("annotator"), viewport: { width: 1280, height: 800 } });

  test("answers by keyboard: Tab into the box, type, Esc, confidence and Submit by keys", async ({ page }) => {
    const study = await createFreeTextStudy();
    studies.push(study);
    const ui = new GridwmPage(page);
    await page.goto(`/s/${study.slug}/work`);
    await expect(ui.task).toHaveAttribute("data-kind", "free-text", { timeout: 20_000 });
    await expect(page.getByTestId("free-text-question")).toHaveText(FREE_TEXT_QUESTION);
    await expect(ui.submitButton).toBeDisabled();
    await expect(page.getByText("Type your answer").first()).toBeVisible();
    await noReferenceOnPage(page);
    await page.screenshot({ path: test.info().outputPath("free-text-1280.png") });

    const box = page.getByTestId("free-text-answer");
    await box.focus();
    await page.keyboard.type("It is red, a deep red.");
    await page.keyboard.press("Escape");
    await expect(box).not.toBeFocused();
    await ui.confidence(4, "keyboard");
    await ui.submit("keyboard");
    const assignment = await latestAssignment(study.id);
    await expect.poll(async () => (await responseOf(assignment))?.answer ?? null, { timeout: 15_000 }).toEqual({ text: "It is red, a deep red." });
    expect(await responseOf(assignment)).toMatchObject({ score: { grade: null, score: null }, confidenceRaw: 4 });
    const edits = (await storedEvents(assignment)).filter((event) => event.type === "free_text_edited");
    expect(edits.length).toBeGreaterThan(0);
    expect(edits.at(-1)!.payload).toEqual({ value: "It is red, a deep red.", via: "keyboard" });
  });

  test("answers by touch on a phone", async ({ browser }) => {
    const study = await createFreeTextStudy();
    studies.push(study);
    const context = await browser.newContext({
      storageState: storageStatePath("annotator"),
      hasTouch: true,
      isMobile: true,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    try {
      const ui = new GridwmPage(page);
      await page.goto(`/s/${study.slug}/work`);
      await expect(ui.task).toHaveAttribute("data-kind", "free-text", { timeout: 20_000 });
      const box = page.getByTestId("free-text-answer");
      await box.tap();
      await expect(box).toBeFocused();
      await page.keyboard.type("Red");
      const boxRect = (await box.boundingBox())!;
      expect(boxRect.x + boxRect.width).toBeLessThanOrEqual(390.5);
      await page.getByRole("radio", { name: /^3:/ }).tap();
      await page.screenshot({ path: test.info().outputPath("free-text-390.png"), fullPage: true });
      await expect(ui.submitButton).toBeEnabled();
      await ui.submitButton.tap();
      const assignment = await latestAssignment(study.id);
      await expect.poll(async () => (await responseOf(assignment))?.answer ?? null, { timeout: 15_000 }).toEqual({ text: "Red" });
      const edits = (await storedEvents(assignment)).filter((event) => event.type === "free_text_edited");
      expect(edits.at(-1)!.payload).toEqual({ value: "Red", via: "touch" });
      await noReferenceOnPage(page);
    } finally {
      await context.close();
    }
  });
});

test.describe("free-text-grade", () => {
  test.use({ storageState: storageStatePath("annotator"), viewport: { width: 1280, height: 800 } });

  test("grades by keyboard (4), then changes to 5 by key", async ({ page }) => {
    const study = await createGradingStudy();
    studies.push(study);
    const ui = new GridwmPage(page);
    await page.goto(`/s/${study.slug}/work`);
    await expect(ui.task).toHaveAttribute("data-kind", "free-text-grade", { timeout: 20_000 });
    await expect(page.getByTestId("grade-answer")).toHaveText(GRADE_ANSWER);
    await page.screenshot({ path: test.info().outputPath("grade-1280.png") });
    await ui.pressOnPage("4");
    await expect(page.locator('[data-grade="4"]')).toHaveAttribute("aria-checked", "true");
    await ui.pressOnPage("5");
    await expect(page.locator('[data-grade="5"]')).toHaveAttribute("aria-checked", "true");
    await ui.confidence(5, "keyboard");
    await ui.submit("keyboard");
    const assignment = await latestAssignment(study.id);
    await expect.poll(async () => (await responseOf(assignment))?.answer ?? null, { timeout: 15_000 }).toEqual({ grade: 5 });
    const graded = (await storedEvents(assignment)).filter((event) => event.type === "answer_graded").map((event) => event.payload);
    expect(graded).toEqual([
      { grade: 4, previous: null, via: "keyboard" },
      { grade: 5, previous: 4, via: "keyboard" },
    ]);
  });

  test("grades by touch on a phone", async ({ browser }) => {
    const study = await createGradingStudy();
    studies.push(study);
    const context = await browser.newContext({
      storageState: storageStatePath("annotator"),
      hasTouch: true,
      isMobile: true,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    try {
      const ui = new GridwmPage(page);
      await page.goto(`/s/${study.slug}/work`);
      await expect(ui.task).toHaveAttribute("data-kind", "free-text-grade", { timeout: 20_000 });
      await page.locator('[data-grade="3"]').tap();
      await expect(page.locator('[data-grade="3"]')).toHaveAttribute("aria-checked", "true");
      await page.getByRole("radio", { name: /^2:/ }).tap();
      await page.screenshot({ path: test.info().outputPath("grade-390.png"), fullPage: true });
      await ui.submitButton.tap();
      const assignment = await latestAssignment(study.id);
      await expect.poll(async () => (await responseOf(assignment))?.answer ?? null, { timeout: 15_000 }).toEqual({ grade: 3 });
      const graded = (await storedEvents(assignment)).filter((event) => event.type === "answer_graded").map((event) => event.payload);
      expect(graded).toEqual([{ grade: 3, previous: null, via: "touch" }]);
    } finally {
      await context.close();
    }
  });
});

test.describe("free-text dashboard", () => {
  test.use({ storageState: storageStatePath("researcher"), viewport: { width: 1280, height: 800 } });
  /** the stand-in judge: 5 when the answer holds the reference, else 2 */
  const gradeOf = (answer: string, reference: string) => (answer.toLowerCase().includes(reference.toLowerCase()) ? 5 : 2);
  const requests = chatStandIn((request) => {
    const content = request.messages.at(-1)!.content;
    const reference = /<reference>([\s\S]*?)<\/reference>/.exec(content)?.[1] ?? "";
    const answer = /<answer>([\s\S]*?)<\/answer>/.exec(content)?.[1] ?? "";
    return String(gradeOf(answer, reference));
  });
  const stand = {
    get requests() {
      return requests.map((r) => ({ model: r.model, temperature: r.temperature, seed: r.seed, content: r.messages.at(-1)!.content }));
    },
  };

  test("grades the answers with the judge in the background and shows LLM-Match per category, at 1280 and 390 px", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const study = await createFreeTextDashboardStudy();
    studies.push(study);
    await page.goto(`/research/studies/${study.slug}/dashboard`);
    const section = page.getByTestId("free-text-section");
    await expect(section).toBeVisible({ timeout: 30_000 });
    await expect(section.getByTestId("free-text-judge")).toContainText("No answer is graded yet");
    await expect(section.getByTestId("explore-llm-unscored")).toHaveText("6 answers and 0 model predictions not scored yet");
    await section.getByRole("button", { name: "Score with LLM" }).click();
    await expect(section.getByTestId("explore-llm-job")).toHaveAttribute("data-status", "DONE", { timeout: 60_000 });
    await expect(section.getByTestId("free-text-judge")).toContainText("e2e-stand-in", { timeout: 15_000 });
    expect(stand.requests).toHaveLength(6);
    for (const request of stand.requests) expect(request).toMatchObject({ model: "e2e-stand-in", temperature: 0, seed: 0 });
    const grades = (item: string) => study.answers.filter((a) => a.item === item).map((a) => gradeOf(a.text, a.references[0]));
    const llmMatch = (gs: number[]) => (gs.reduce((sum, g) => sum + (100 * (g - 1)) / 4, 0) / gs.length).toFixed(1);
    const table = section.getByTestId("free-text-table");
    await expect(table.getByRole("row", { name: /attribute recognition/ })).toContainText(llmMatch(grades("ft-1")));
    await expect(table.getByRole("row", { name: /object localization/ })).toContainText(llmMatch([...grades("ft-2"), ...grades("ft-3")]));
    await expect(table.getByRole("row", { name: /^All/ })).toContainText(llmMatch(["ft-1", "ft-2", "ft-3"].flatMap(grades)));
    await expect(section.getByTestId("free-text-grading-batch")).toBeVisible();
    await section.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.evaluate(() => window.scrollBy(0, -130));
    await page.screenshot({ path: testInfo.outputPath("free-text-dashboard-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await section.evaluate((el) => el.scrollIntoView({ block: "start" }));
    // the section itself fits the phone's width (its table scrolls in its own box if it must)
    const box = (await section.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390.5);
    await page.screenshot({ path: testInfo.outputPath("free-text-dashboard-390.png"), fullPage: false });
  });
});
