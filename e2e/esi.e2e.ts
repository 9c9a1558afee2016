import { mkdirSync } from "node:fs";
import path from "node:path";
import { test, expect, type Locator, type Page } from "@playwright/test";
import { deleteStudy, responsesOf, storedEvents } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { createEsiStudy, playStepsOf, stepLabelsOf, type EsiFixtureStudy } from "./esi-fixtures";
import { storageStatePath } from "./users";

/**
 * ESI-Bench (`esi-explore`) in Chromium against the built app and PostgreSQL: an annotator
 * explores a kitchen by keyboard (W A S D and the arrows, one server round trip per step), picks
 * up the bowl, changes "my current answer" twice with its confidence, and submits; then answers
 * three items in the passive conditions (one view, a walk's views, the reference views). The
 * stored steps, belief events and response are read back from the database; a researcher then
 * labels a step on the replay page and opens the dashboard's ESI section. Screenshots of each
 * condition go to ESI_SHOTS (default: the test's output folder).
 */

test.use({ storageState: storageStatePath("annotator") });

let study: EsiFixtureStudy | null = null;
test.afterEach(async () => {
  if (study) await deleteStudy(study.id);
  study = null;
});
test.afterAll(async () => {
  await closeE2eDb();
});

function shotsDir(): string {
  const dir = process.env.ESI_SHOTS ?? test.info().outputPath("shots");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Press a key with the focus on the page body (not in a form field). */
async function pressOnPage(page: Page, key: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
}

async function pressOn(locator: Locator, key = "Enter") {
  await locator.focus();
  await locator.page().keyboard.press(key);
}

async function submitByKeyboard(page: Page, previous: string) {
  const submit = page.getByRole("button", { name: "Submit", exact: true });
  await expect(submit).toBeEnabled();
  await pressOn(submit);
  await expect(page.getByTestId("task")).not.toHaveAttribute("data-assignment", previous, { timeout: 15_000 });
}

test("explores by keyboard, changes its answer twice, submits, then answers in each passive condition", async ({ page, browser }) => {
  test.setTimeout(150_000);
  study = await createEsiStudy({
    user: "annotator",
    work: [
      { item: "esi-demo-kitchen-apples", condition: "active" },
      { item: "esi-demo-bedroom-key-blue", condition: "passive-single" },
      { item: "esi-demo-study-on-top", condition: "passive-multi" },
      { item: "esi-demo-living-left-right", condition: "passive-gt" },
    ],
  });
  const [kitchen, bedroom, stack, living] = study.assignments;
  const shots = shotsDir();
  await page.goto(`/s/${study.slug}/work`);

  // --- active: the kitchen --------------------------------------------------------------------
  const player = page.locator('[data-testid="esi-player"][data-mode="active"]');
  await expect(player).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("task")).toHaveAttribute("data-assignment", kitchen.id);
  await expect(page.getByTestId("esi-step-counter")).toHaveText("Step 0 of 30");
  const view = page.getByTestId("esi-view");
  const initialUrl = kitchen.urls.get(kitchen.item.public.initialImage)!;
  await expect(view).toHaveAttribute("src", initialUrl);
  await expect(page.getByTestId("esi-objects")).toContainText("bowl_1");
  // the shortcuts are on the buttons
  await expect(page.locator('[data-action="move_forward"]')).toContainText("W");
  await expect(page.locator('[data-action="turn_left"]')).toContainText("←");
  // the bar below shows no second confidence: the player has it
  await expect(page.getByRole("slider", { name: "Confidence in percent" })).toHaveCount(0);

  // a first answer, and how sure (keyboard on the slider)
  await pressOnPage(page, "1");
  await expect(page.locator('[data-option="3"]')).toHaveAttribute("aria-checked", "true");
  await pressOn(page.locator("#esi-confidence"), "ArrowRight");
  await expect(page.getByTestId("esi-confidence-value")).toHaveText("55%");

  // W: the table is in the way -> refused in place, and it costs a step
  await pressOnPage(page, "w");
  await expect(page.getByTestId("esi-step-counter")).toHaveText("Step 1 of 30");
  await expect(page.getByTestId("esi-step-message")).toHaveText("✗ cannot do that here");
  await expect(view).toHaveAttribute("src", initialUrl);
  // → turns right: the stool's apple; ← turns back
  await pressOnPage(page, "ArrowRight");
  await expect(page.getByTestId("esi-step-counter")).toHaveText("Step 2 of 30");
  await expect(page.getByTestId("esi-objects")).toContainText("apple_5");
  await expect(page.getByTestId("esi-step-message")).toHaveCount(0);
  await pressOnPage(page, "ArrowLeft");
  await expect(page.getByTestId("esi-step-counter")).toHaveText("Step 3 of 30");
  await expect(view).toHaveAttribute("src", initialUrl);

  // first change of mind
  await pressOnPage(page, "2");
  await expect(page.locator('[data-option="4"]')).toHaveAttribute("aria-checked", "true");

  // pick up the bowl: what was under it shows
  await page.getByLabel("Pick up: object").selectOption("bowl_1");
  await pressOn(page.getByRole("button", { name: "Do it" }));
  await expect(page.getByTestId("esi-step-counter")).toHaveText("Step 4 of 30");
  await expect(page.getByTestId("esi-objects")).toContainText("apple_4");
  await expect(page.getByTestId("esi-objects")).toContainText("In hand");

  // second change of mind, now sure
  await pressOnPage(page, "3");
  await expect(page.locator('[data-option="5"]')).toHaveAttribute("aria-checked", "true");
  await pressOn(page.locator("#esi-confidence"), "End");
  await expect(page.getByTestId("esi-confidence-value")).toHaveText("100%");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: path.join(shots, "esi-active.png") });
  await submitByKeyboard(page, kitchen.id);

  // --- passive, single view -------------------------------------------------------------------
  await expect(page.locator('[data-testid="esi-player"][data-mode="passive-single"]')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("task")).toHaveAttribute("data-assignment", bedroom.id);
  await expect(page.getByTestId("esi-view")).toHaveAttribute("src", bedroom.urls.get(bedroom.item.public.initialImage)!);
  await expect(page.locator('[data-action="move_forward"]')).toHaveCount(0);
  await pressOnPage(page, "2");
  await pressOn(page.locator("#esi-confidence"), "ArrowLeft");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: path.join(shots, "esi-passive-single.png") });
  await submitByKeyboard(page, bedroom.id);

  // --- passive, views along a random walk -----------------------------------------------------
  await expect(page.locator('[data-testid="esi-player"][data-mode="passive-multi"]')).toBeVisible({ timeout: 20_000 });
  // views that look alike are one image (assets are stored by content): the gallery shows each once
  const multi = [...new Set([stack.item.public.initialImage, ...stack.item.key.views.multi].map((image) => stack.urls.get(image)!))];
  await expect(page.getByTestId("esi-gallery-position")).toHaveText(`View 1 of ${multi.length}`);
  await pressOnPage(page, "ArrowRight");
  await expect(page.getByTestId("esi-gallery-position")).toHaveText(`View 2 of ${multi.length}`);
  await expect(page.getByTestId("esi-view")).toHaveAttribute("src", multi[1]);
  await pressOnPage(page, "1");
  await pressOn(page.locator("#esi-confidence"), "ArrowRight");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: path.join(shots, "esi-passive-multi.png") });
  await submitByKeyboard(page, stack.id);

  // --- passive, the reference trajectory's views; a question with parts -----------------------
  await expect(page.locator('[data-testid="esi-player"][data-mode="passive-gt"]')).toBeVisible({ timeout: 20_000 });
  const gt = [...new Set([living.item.public.initialImage, ...living.item.key.views.gt].map((image) => living.urls.get(image)!))];
  await expect(page.getByTestId("esi-gallery-position")).toHaveText(`View 1 of ${gt.length}`);
  await page.getByRole("option", { name: `View ${gt.length}` }).click();
  await expect(page.getByTestId("esi-view")).toHaveAttribute("src", gt[gt.length - 1]);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toBeDisabled();
  await page.locator('[data-part="A"] [data-option="left"]').click();
  await expect(page.getByText("Answer part C")).toBeVisible();
  await page.locator('[data-part="C"] [data-option="right"]').click();
  await pressOn(page.locator("#esi-confidence"), "End");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: path.join(shots, "esi-passive-gt.png") });
  await pressOn(page.getByRole("button", { name: "Submit", exact: true }));
  await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/done`), { timeout: 20_000 });

  // --- what the server stored -----------------------------------------------------------------
  const steps = await playStepsOf(kitchen.id);
  expect(steps.map((step) => [step.seq, step.action.name ?? null, step.valid])).toEqual([
    [0, null, true],
    [1, "move_forward", false],
    [2, "turn_right", true],
    [3, "turn_left", true],
    [4, "pick_up", true],
  ]);
  const [response] = await responsesOf(kitchen.id);
  expect(response).toMatchObject({ answer: { choice: "5", steps: 4 }, correct: true, confidenceRaw: 100 });
  const events = await storedEvents(kitchen.id);
  const beliefs = events
    .filter((event) => event.type === "belief_changed")
    .map((event) => [event.payload.choice, event.payload.confidence, event.payload.step, event.payload.via]);
  expect(beliefs).toEqual([
    ["3", null, 0, "keyboard"],
    ["3", 55, 0, "keyboard"],
    ["4", 55, 3, "keyboard"],
    ["5", 55, 4, "keyboard"],
    ["5", 100, 4, "keyboard"],
  ]);
  expect(events.filter((event) => event.type === "play_step").map((event) => [event.payload.seq, event.payload.valid])).toEqual([
    [1, false],
    [2, true],
    [3, true],
    [4, true],
  ]);
  expect((await responsesOf(living.id))[0]).toMatchObject({ answer: { choice: { A: "left", C: "right" }, steps: 0 }, correct: true });
  expect(await playStepsOf(bedroom.id)).toHaveLength(1);

  // --- a researcher labels a step on the replay and opens the dashboard ----------------------
  const staffContext = await browser.newContext({ storageState: storageStatePath("researcher") });
  const staff = await staffContext.newPage();
  await staff.goto(`/research/studies/${study.slug}/replay/${kitchen.id}`);
  const panel = staff.getByTestId("esi-step-label-panel");
  await expect(panel).toBeVisible();
  await expect(panel.locator("li[data-seq]")).toHaveCount(4);
  await pressOn(panel.locator('li[data-seq="4"]'), "3");
  await expect(panel.locator('li[data-seq="4"] [role="radio"][aria-checked="true"]')).toContainText("contrastive");
  await panel
    .locator('li[data-seq="1"]')
    .getByRole("radio", { name: /redundant/ })
    .click();
  await expect(panel.locator('li[data-seq="1"] [role="radio"][aria-checked="true"]')).toContainText("redundant");
  expect(await stepLabelsOf(kitchen.id)).toEqual([
    { seq: 1, label: "REDUNDANT" },
    { seq: 4, label: "CONTRASTIVE" },
  ]);
  // the replay shows the frame of each step: at the end, the bowl in hand
  await staff.getByRole("button", { name: "End »" }).click();
  await expect(staff.getByTestId("esi-view")).toHaveAttribute("src", (steps[4].view as { image: string }).image);
  await expect(staff.getByTestId("esi-steps")).toContainText("Pick up bowl_1");
  await staff.screenshot({ path: path.join(shots, "esi-replay.png"), fullPage: true });

  await staff.goto(`/research/studies/${study.slug}/dashboard`);
  const section = staff.getByTestId("esi-section");
  await expect(section).toBeVisible();
  await expect(section.getByTestId("esi-accuracy-table")).toContainText("Occluded Counting");
  // the mean over the one subcategory this study has, flagged as not comparable with a full table's
  await expect(staff.getByTestId("esi-mean-humans-active")).toHaveText(/^100\.0\s*1 of 4 subcategories$/);
  await expect(section.getByTestId("esi-trajectory-table")).toContainText("Active exploration (pooled)");
  // Fig. 5: steps to a correct answer beside steps overall (the kitchen's 4); confidence read as c in [0, 1]
  await expect(section.getByTestId("esi-steps-correct").first()).toContainText("4.0");
  await expect(section.getByTestId("esi-confidence-mapping")).toContainText("0–100%");
  await staff.screenshot({ path: path.join(shots, "esi-dashboard.png"), fullPage: true });
  await staffContext.close();
});
