import { test, expect, type Page, type TestInfo } from "@playwright/test";
import { assignmentsOf, deleteStudy, storedEvents } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { createChoiceStudy, type ChoiceFixtureStudy } from "./choice-fixtures";
import { storageStatePath } from "./users";

/**
 * The generic `choice` and `numeric` kinds in Chromium against the built app: answer a
 * study of one of each by keyboard on a laptop (1280x800: keys 1-9 / A-I at the place shown, the
 * number typed, Enter on Submit) and by touch on a phone (390x844, hasTouch: taps); read back the
 * stored answers (the option's id, whatever the order shown), scores (MRA 0.9 for 11 against 10)
 * and the trajectory (the order shown logged before the choice, `via` keyboard or touch). As a
 * researcher, read the dashboard's sections: accuracy with chance beside it, MRA and VSI overall.
 */

let studies: ChoiceFixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

async function responsesOf(studyId: string) {
  const result = await e2eDb().query(
    `SELECT i.kind, r.answer, r.score, r.correct, a.id AS "assignmentId" FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = $1 ORDER BY i.kind`,
    [studyId],
  );
  return result.rows as Array<{ kind: string; answer: Record<string, unknown>; score: Record<string, unknown>; correct: boolean; assignmentId: string }>;
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

/** Answers both items; `mode` keyboard (laptop) or touch (phone). Returns the option's place the person saw. */
async function answerBoth(page: Page, study: ChoiceFixtureStudy, mode: "keyboard" | "touch", testInfo: TestInfo): Promise<number> {
  const task = page.getByTestId("task");
  const submit = page.getByRole("button", { name: "Submit", exact: true });
  let shownAt = -1;
  for (let n = 0; n < 2; n++) {
    await expect(task).toBeVisible({ timeout: 20_000 });
    await expect(task.locator("[data-option], #numeric-answer").first()).toBeVisible({ timeout: 20_000 });
    const kind = await task.getAttribute("data-kind");
    const previous = await task.getAttribute("data-assignment");
    await shot(page, testInfo, `${kind}-${mode}`);
    await expect(submit).toBeDisabled();
    if (kind === "choice") {
      const keyed = task.locator(`[data-option="${study.keyed}"]`);
      shownAt = Number(await keyed.getAttribute("data-position"));
      if (mode === "keyboard") {
        // a wrong option first by its number, then the right one by its letter
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press(String(((shownAt + 1) % 5) + 1));
        await expect(task.locator('[data-selected="true"]')).toHaveAttribute("data-position", String((shownAt + 1) % 5));
        await page.keyboard.press(String.fromCharCode(97 + shownAt));
      } else {
        await keyed.tap();
      }
      await expect(keyed).toHaveAttribute("data-selected", "true");
    } else {
      const box = task.locator("#numeric-answer");
      if (mode === "keyboard") {
        await expect(box).toBeFocused();
        await page.keyboard.type("1,1");
        await expect(task.getByText("Use a point for decimals, no commas")).toBeVisible();
        await expect(submit).toBeDisabled();
        await page.keyboard.press("Backspace");
        await page.keyboard.press("Backspace");
        await page.keyboard.type("1");
      } else {
        await box.tap();
        await box.fill("11");
      }
      await expect(box).toHaveValue("11");
      await expect(task.getByTestId("numeric-unit")).toHaveText("meters");
    }
    const confidence = page.getByRole("radio", { name: /^3: Fairly sure/ });
    if (mode === "keyboard") {
      await confidence.focus();
      await page.keyboard.press("Enter");
    } else await confidence.tap();
    await expect(confidence).toHaveAttribute("aria-checked", "true");
    await shot(page, testInfo, `${kind}-${mode}-answered`);
    if (mode === "keyboard") {
      await submit.focus();
      await page.keyboard.press("Enter");
    } else await submit.tap();
    if (n === 0) await expect(task).not.toHaveAttribute("data-assignment", previous ?? "", { timeout: 20_000 });
  }
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/done`), { timeout: 20_000 });
  return shownAt;
}

async function checkStored(study: ChoiceFixtureStudy, via: "keyboard" | "touch", shownAt: number) {
  await expect.poll(async () => (await responsesOf(study.id)).length, { timeout: 15_000 }).toBe(2);
  const [choice, numeric] = await responsesOf(study.id);
  expect(choice.kind).toBe("choice");
  expect(choice.answer).toEqual({ choice: study.keyed });
  expect(choice.score).toEqual({ correct: true, score: 1, options: 5 });
  expect(choice.correct).toBe(true);
  expect(numeric.answer).toEqual({ value: 11 });
  expect(numeric.score).toEqual({ score: 0.9, invalid: false });
  const events = await storedEvents(choice.assignmentId);
  const shown = events.filter((e) => e.type === "choice_options_shown");
  expect(shown).toHaveLength(1);
  const order = shown[0].payload.order as string[];
  expect([...order].sort()).toEqual(study.options.map((o) => o.id).sort());
  expect(order.indexOf(study.keyed)).toBe(shownAt);
  const chosen = events.filter((e) => e.type === "choice_option_chosen");
  expect(chosen.at(-1)?.payload).toMatchObject({ option: study.keyed, position: shownAt, via });
  expect(events.findIndex((e) => e.type === "choice_options_shown")).toBeLessThan(events.findIndex((e) => e.type === "choice_option_chosen"));
  expect(events.findIndex((e) => e.type === "item_shown")).toBeLessThan(events.findIndex((e) => e.type === "choice_options_shown"));
  const typed = (await storedEvents(numeric.assignmentId)).filter((e) => e.type === "numeric_value_typed");
  expect(typed.at(-1)?.payload).toEqual({ text: "11" });
}

test.describe("choice and numeric on a laptop, by keyboard", () => {
  test.use({ storageState: storageStatePath("annotator"), viewport: { width: 1280, height: 800 } });
  test("chooses by keys 1-9 / A-I at the place shown, types the number, submits with Enter", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const study = await createChoiceStudy({ members: ["annotator"] });
    studies.push(study);
    await page.goto(`/s/${study.slug}/work`);
    const shownAt = await answerBoth(page, study, "keyboard", testInfo);
    await checkStored(study, "keyboard", shownAt);
  });
});

test.describe("choice and numeric on a phone, by touch", () => {
  test.use({ storageState: storageStatePath("annotator"), viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test("taps the option, the box and Submit", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const study = await createChoiceStudy({ members: ["annotator"] });
    studies.push(study);
    await page.goto(`/s/${study.slug}/work`);
    const shownAt = await answerBoth(page, study, "touch", testInfo);
    await checkStored(study, "touch", shownAt);
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe("the generic kinds' dashboard sections", () => {
  test("show accuracy with chance, MRA per question type and VSI-Bench's overall", async ({ browser }, testInfo) => {
    test.setTimeout(150_000);
    const study = await createChoiceStudy({ members: ["annotator"] });
    studies.push(study);
    const annotator = await browser.newContext({ storageState: storageStatePath("annotator"), viewport: { width: 1280, height: 800 } });
    const work = await annotator.newPage();
    await work.goto(`/s/${study.slug}/work`);
    await answerBoth(work, study, "keyboard", testInfo);
    await annotator.close();
    expect((await assignmentsOf(study.id, "annotator")).length).toBe(2);

    const researcher = await browser.newContext({ storageState: storageStatePath("researcher"), viewport: { width: 1280, height: 800 } });
    const page = await researcher.newPage();
    await page.goto(`/research/studies/${study.slug}/dashboard`);
    const choice = page.getByTestId("choice-section");
    await expect(choice).toBeVisible({ timeout: 30_000 });
    await expect(choice.locator('[data-series="People"]')).toContainText("100.0%");
    await expect(choice.locator('[data-series="People"]')).toContainText("chance 20.0%");
    const numeric = page.getByTestId("numeric-section");
    await expect(numeric).toContainText("90.0%");
    // VSI overall: mean of the two types' means: (1 + 0.9) / 2
    await expect(numeric.getByTestId("vsi-overall").locator("[data-vsi-overall]")).toHaveAttribute("data-vsi-overall", "0.95");
    await choice.scrollIntoViewIfNeeded();
    await testInfo.attach("dashboard-generic", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    await researcher.close();
  });
});
