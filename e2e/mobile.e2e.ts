import { randomUUID } from "node:crypto";
import { test, expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { assignmentsOf, createEnactStudy, deleteStudy, responsesOf, storedEvents } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { createKindStudy } from "./kind-fixtures";
import { storageStatePath } from "./users";

/**
 * Every task kind on a phone (390 x 844, touch: `hasTouch`, `isMobile`) and in a laptop window
 * (1280 x 800, mouse): one item answered and submitted, by taps only on the phone
 * (tap a candidate, then tap a step: no drag), with the layout checked where it matters: no
 * horizontal overflow of the page, the panels side by side or stacked but never overlapping, the
 * controls a finger uses at least ~40 px tall, and on the laptop the whole item on one screen.
 * Screenshots of each page go to the test's output folder.
 */

const studies: string[] = [];
test.afterEach(async () => {
  for (const id of studies.splice(0)) await deleteStudy(id);
});
test.afterAll(async () => {
  await closeE2eDb();
});

type Mode = "touch" | "mouse";
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
/** a finger's target; the scene grid's cells are 2.4rem (38.4 px) */
const FINGER = 38;

async function press(locator: Locator, mode: Mode) {
  if (mode === "touch") await locator.tap();
  else await locator.click();
}

interface Box {
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The task's panels: its sections that are not inside another section of the task. */
async function panelBoxes(page: Page): Promise<Box[]> {
  return page.getByTestId("task").evaluate((task) => {
    const sections = [...task.querySelectorAll("section")].filter((section) => !section.parentElement?.closest("section"));
    return sections.map((section) => {
      const rect = section.getBoundingClientRect();
      return { label: section.getAttribute("aria-label") ?? section.className, x: rect.x, y: rect.y + window.scrollY, width: rect.width, height: rect.height };
    });
  });
}

function overlaps(a: Box, b: Box): boolean {
  const tolerance = 1;
  return a.x + tolerance < b.x + b.width && b.x + tolerance < a.x + a.width && a.y + tolerance < b.y + b.height && b.y + tolerance < a.y + a.height;
}

async function checkLayout(page: Page, mode: Mode, controls: Locator[]) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const viewport = page.viewportSize()!;
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
  const boxes = await panelBoxes(page);
  expect(boxes.length, "the task has panels").toBeGreaterThan(0);
  for (const box of boxes) {
    expect(box.width, `panel ${box.label} has room`).toBeGreaterThan(mode === "touch" ? 300 : 200);
    expect(box.x, `panel ${box.label} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `panel ${box.label} ends on screen`).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.height, `panel ${box.label} is not squashed`).toBeGreaterThan(40);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i], boxes[j]), `panels ${boxes[i].label} and ${boxes[j].label} overlap`).toBe(false);
  }
  // the submit bar comes after the task, never over it
  const task = await page.getByTestId("task").boundingBox();
  const submit = page.getByRole("button", { name: "Submit", exact: true });
  const submitBox = await submit.boundingBox();
  expect(task && submitBox && submitBox.y >= task.y + task.height - 1, "the submit bar is under the task").toBe(true);
  if (mode === "mouse") {
    // a laptop shows the whole item: the page does not scroll, Submit is on screen
    expect(submitBox!.y + submitBox!.height, "Submit on the first screen").toBeLessThanOrEqual(viewport.height);
  }
  const fingerControls = [
    ...controls,
    submit,
    ...(await page
      .getByRole("radiogroup", { name: /^Confidence/ })
      .getByRole("radio")
      .all()),
  ];
  for (const control of fingerControls) {
    await control.scrollIntoViewIfNeeded();
    await expect(control).toBeVisible();
    const box = await control.boundingBox();
    const label = (await control.getAttribute("aria-label")) ?? (await control.textContent()) ?? "control";
    if (mode === "touch") expect(box!.height, `${label} is tall enough for a finger`).toBeGreaterThanOrEqual(FINGER);
    expect(box!.x + box!.width, `${label} on screen`).toBeLessThanOrEqual(viewport.width + 0.5);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

async function confidence(page: Page, mode: Mode) {
  await press(page.getByRole("radio", { name: /^3: Fairly sure/ }), mode);
}

async function submitAndCheck(page: Page, studyId: string, slug: string, expected: (answer: unknown) => void) {
  const submit = page.getByRole("button", { name: "Submit", exact: true });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page).toHaveURL(new RegExp(`/s/${slug}/done`), { timeout: 20_000 });
  const [assignment] = await assignmentsOf(studyId, "annotator");
  await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 15_000 }).toBe(1);
  const [response] = await responsesOf(assignment.id);
  expected(response.answer);
}

for (const mode of ["touch", "mouse"] as const) {
  const size = mode === "touch" ? PHONE : LAPTOP;
  const where = mode === "touch" ? "a phone (390x844, touch)" : "a laptop (1280x800, mouse)";

  test.describe(`every task kind on ${where}`, () => {
    test.use({ storageState: storageStatePath("annotator"), viewport: size, hasTouch: mode === "touch", isMobile: mode === "touch" });

    for (const kind of ["enact-forward", "enact-inverse"] as const) {
      test(`${kind}: placed by ${mode === "touch" ? "tapping a candidate, then a step" : "keyboard"}`, async ({ page }, testInfo) => {
        const study = await createEnactStudy({ items: [{ kind, steps: 5 }], members: ["annotator"] });
        studies.push(study.id);
        const order = study.items[0].order;
        await page.goto(`/s/${study.slug}/work`);
        const task = page.getByTestId("task");
        await expect(task.locator("[data-slot]").first()).toBeVisible({ timeout: 20_000 });
        const candidate = (index: number) => task.locator(`[data-candidate="${index}"]`);
        const slot = (step: number) => task.locator(`[data-slot="${step + 1}"]`);
        await checkLayout(page, mode, [...(await task.locator("[data-candidate]").all()), ...(await task.locator("[data-slot]").all())]);
        await shot(page, testInfo, `${kind}-${mode}-empty`);
        if (mode === "touch") {
          // the order on screen: what a finger reaches first is the library, then the steps
          const library = await task.locator('section[aria-label^="Candidate"]').boundingBox();
          const steps = await task.locator('section[aria-label$="and steps"]').boundingBox();
          expect(library!.y, "the candidates come before the steps").toBeLessThan(steps!.y);
          // a change of mind: tap one, tap it again (let go), then the right ones
          await candidate(order[1]).tap();
          await expect(candidate(order[1])).toHaveAttribute("aria-pressed", "true");
          await expect(page.getByTestId("ordering-hint")).toContainText("is selected");
          if (kind === "enact-forward") {
            // the selected picture, large
            await page.getByRole("button", { name: `⤢ Show ${String.fromCharCode(65 + order[1])} large` }).tap();
            await expect(page.getByRole("dialog")).toBeVisible();
            await page
              .getByRole("dialog")
              .getByRole("button", { name: /^Close/ })
              .tap();
            await expect(page.getByRole("dialog")).toHaveCount(0);
          }
          await candidate(order[1]).tap();
          await expect(candidate(order[1])).toHaveAttribute("aria-pressed", "false");
          for (const [step, index] of order.entries()) {
            await candidate(index).tap();
            await slot(step).tap();
            await expect(slot(step)).toHaveAttribute("data-filled", String.fromCharCode(65 + index));
          }
          // the candidates stay in reach, under the site header, while the steps scroll under them
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          const scrolled = await page.evaluate(() => window.scrollY);
          const stuck = (await task.locator('section[aria-label^="Candidate"]').boundingBox())!;
          if (scrolled > library!.y - 57) expect(Math.round(stuck.y), "the library sticks under the header").toBe(57);
          else expect(stuck.y, "the library is on screen").toBeGreaterThanOrEqual(57);
        } else {
          for (const [step, index] of order.entries()) {
            await candidate(index).focus();
            await page.keyboard.press(String(step + 1));
            await expect(slot(step)).toHaveAttribute("data-filled", String.fromCharCode(65 + index));
          }
        }
        await confidence(page, mode);
        await shot(page, testInfo, `${kind}-${mode}-filled`);
        await submitAndCheck(page, study.id, study.slug, (answer) => expect(answer).toEqual({ order }));
        const [assignment] = await assignmentsOf(study.id, "annotator");
        const filled = (await storedEvents(assignment.id)).filter((event) => event.type === "slot_filled");
        expect(filled.map((event) => event.payload.via)).toEqual(order.map(() => (mode === "touch" ? "touch" : "keyboard")));
      });
    }

    test(`enact-forward with 9 steps: readable pictures, the release's captions covered`, async ({ page }, testInfo) => {
      const study = await createEnactStudy({ items: [{ kind: "enact-forward", steps: 10 }], members: ["annotator"] });
      studies.push(study.id);
      await page.goto(`/s/${study.slug}/work`);
      const task = page.getByTestId("task");
      await expect(task.locator("[data-slot]")).toHaveCount(9, { timeout: 20_000 });
      // every candidate carries "Next State k": each is covered, and the page says why
      await expect(task.locator("[data-candidate] [data-testid=label-cover]")).toHaveCount(9);
      await expect(page.getByTestId("label-note")).toContainText("A–I name the candidates");
      for (const tile of await task.locator("[data-candidate]").all())
        expect((await tile.boundingBox())!.width, "a candidate picture").toBeGreaterThanOrEqual(60);
      for (const slot of await task.locator("[data-slot]").all()) {
        const box = (await slot.boundingBox())!;
        expect(Math.min(box.width, box.height), "a step's picture").toBeGreaterThanOrEqual(100);
      }
      const first = study.items[0].order[0];
      if (mode === "touch") {
        await task.locator(`[data-candidate="${first}"]`).tap();
        await task.locator('[data-slot="1"]').tap();
      } else {
        await task.locator(`[data-candidate="${first}"]`).focus();
        await page.keyboard.press("1");
      }
      await expect(task.locator('[data-slot="1"] [data-testid=label-cover]')).toHaveText(String.fromCharCode(65 + first));
      await checkLayout(page, mode, []);
      await shot(page, testInfo, `enact-forward-9-${mode}`);
      // large, the picture keeps its cover
      if (mode === "touch") {
        // a placed candidate: tap it in the library (it is selected again), then "Show large"
        await task.locator(`[data-candidate="${first}"]`).tap();
        await page.getByRole("button", { name: `⤢ Show ${String.fromCharCode(65 + first)} large` }).tap();
      } else {
        await task.locator('[data-slot="1"]').getByRole("button", { name: "Open large" }).click();
      }
      await expect(page.getByRole("dialog").getByTestId("label-cover")).toHaveText(`Candidate ${String.fromCharCode(65 + first)}`);
      await shot(page, testInfo, `enact-forward-9-${mode}-large`);
    });

    test("gridwm-next-obs: a candidate chosen", async ({ page }, testInfo) => {
      const created = await createKindStudy("gridwm-next-obs", `Mobile${randomUUID().slice(0, 6)}`, ["annotator"]);
      studies.push(created.id);
      await page.goto(`/s/${created.slug}/work`);
      const choices = page.locator("[data-choice]");
      await expect(choices).toHaveCount(4, { timeout: 20_000 });
      await checkLayout(page, mode, await choices.all());
      for (const choice of await choices.all()) {
        const box = (await choice.boundingBox())!;
        expect(box.width, "a candidate picture").toBeGreaterThanOrEqual(mode === "touch" ? 140 : 150);
      }
      await press(page.locator('[data-choice="B"]'), mode);
      await expect(page.locator('[data-choice="B"]')).toHaveAttribute("data-selected", "true");
      await confidence(page, mode);
      await shot(page, testInfo, `gridwm-next-obs-${mode}`);
      await submitAndCheck(page, created.id, created.slug, (answer) => expect(answer).toEqual({ choice: "B" }));
    });

    test("gridwm-scene-json: the agent placed and turned", async ({ page }, testInfo) => {
      const created = await createKindStudy("gridwm-scene-json", `Mobile${randomUUID().slice(0, 6)}`, ["annotator"]);
      studies.push(created.id);
      await page.goto(`/s/${created.slug}/work`);
      const grid = page.getByTestId("scene-grid");
      await expect(grid).toBeVisible({ timeout: 20_000 });
      await checkLayout(page, mode, [...(await grid.locator("[data-cell]").all()).slice(0, 8), ...(await page.getByRole("radio", { name: /^Facing/ }).all())]);
      await press(grid.locator('[data-cell="2,3"]'), mode);
      await press(page.getByRole("radio", { name: /^Facing south/ }), mode);
      await confidence(page, mode);
      await shot(page, testInfo, `gridwm-scene-json-${mode}`);
      await submitAndCheck(page, created.id, created.slug, (answer) => expect((answer as { agent: { pos: number[] } }).agent.pos).toEqual([2, 3]));
    });

    test("gridwm-judge: a frame opened, a verdict given", async ({ page }, testInfo) => {
      const created = await createKindStudy("gridwm-judge", `Mobile${randomUUID().slice(0, 6)}`, ["annotator"]);
      studies.push(created.id);
      await page.goto(`/s/${created.slug}/work`);
      const verdicts = page.locator("[data-verdict]");
      await expect(verdicts).toHaveCount(2, { timeout: 20_000 });
      await checkLayout(page, mode, await verdicts.all());
      const storyboard = (await page.locator("section[aria-label=Storyboard]").boundingBox())!;
      expect(storyboard.width, "the storyboard is not a sliver").toBeGreaterThan(mode === "touch" ? 320 : 600);
      const frame = (await page.locator('[data-frame="1"]').boundingBox())!;
      expect(frame.width, "a frame of the storyboard").toBeGreaterThanOrEqual(mode === "touch" ? 75 : 120);
      await press(page.locator('[data-frame="2"]'), mode);
      await expect(page.getByTestId("frame-large")).toHaveAttribute("data-frame", "2");
      await press(page.getByRole("button", { name: /^Close/ }), mode);
      await press(page.locator('[data-verdict="Fail"]'), mode);
      await confidence(page, mode);
      await shot(page, testInfo, `gridwm-judge-${mode}`);
      await submitAndCheck(page, created.id, created.slug, (answer) => expect(answer).toEqual({ verdict: "Fail" }));
    });

    test("explore-scene: an object of the final scene added", async ({ page }, testInfo) => {
      const created = await createKindStudy("explore-scene", `Mobile${randomUUID().slice(0, 6)}`, ["annotator"]);
      studies.push(created.id);
      await page.goto(`/s/${created.slug}/work`);
      await expect(page.getByTestId("explore-actions")).toBeVisible({ timeout: 20_000 });
      const category = page.getByLabel("New object's category");
      await checkLayout(page, mode, [category]);
      await press(category, mode);
      await category.fill("bowl");
      await page.getByLabel("New object's attributes").fill("in the sink");
      await press(page.getByRole("form", { name: "New object" }).getByRole("button"), mode);
      await expect(page.getByTestId("explore-text")).toContainText("bowl");
      await confidence(page, mode);
      await shot(page, testInfo, `explore-scene-${mode}`);
      await submitAndCheck(page, created.id, created.slug, (answer) =>
        expect((answer as { objects: Array<{ category: string }> }).objects[0].category).toBe("bowl"),
      );
    });

    test("esi-explore: a step taken, an answer and its confidence given", async ({ page }, testInfo) => {
      const created = await createKindStudy("esi-explore", `Mobile${randomUUID().slice(0, 6)}`, ["annotator"]);
      studies.push(created.id);
      await page.goto(`/s/${created.slug}/work`);
      await expect(page.getByTestId("esi-step-counter")).toHaveText(/Step 0 of/, { timeout: 20_000 });
      const moves = await page.locator("[data-action]").all();
      await checkLayout(page, mode, [...moves, ...(await page.locator("[data-option]").all())]);
      await press(page.locator('[data-action="move_forward"]'), mode);
      await expect(page.getByTestId("esi-step-counter")).toHaveText(/Step 1 of/);
      await press(page.locator('[data-option="No"]'), mode);
      await confidence(page, mode);
      await shot(page, testInfo, `esi-explore-${mode}`);
      await submitAndCheck(page, created.id, created.slug, (answer) => expect(answer).toMatchObject({ choice: "No" }));
    });

    test("ego2world-play: an area visited and every task done", async ({ page }, testInfo) => {
      const created = await createKindStudy("ego2world-play", `Mobile${randomUUID().slice(0, 6)}`, ["annotator"]);
      studies.push(created.id);
      await page.goto(`/s/${created.slug}/work`);
      const player = page.getByTestId("ego2world-player");
      await expect(page.getByTestId("task-counter")).toHaveText(/Task 1 of/, { timeout: 20_000 });
      await checkLayout(page, mode, [
        ...(await player.locator("nav [data-area]").all()),
        ...(await player.locator("[aria-label='Choose an action'] button").all()),
        player.getByRole("button", { name: "Done with this task" }),
      ]);
      await press(player.locator('nav [data-area="cabinet"]'), mode);
      await expect(page.getByTestId("area-image")).toHaveAttribute("data-area", "cabinet");
      await shot(page, testInfo, `ego2world-play-${mode}`);
      for (let task = 0; task < 4; task++) {
        await press(player.getByRole("button", { name: "Done with this task" }), mode);
        await press(player.getByRole("button", { name: "Yes, done" }), mode);
      }
      await expect(page.getByTestId("task-counter")).toHaveText(/All \d tasks done/);
      await confidence(page, mode);
      await shot(page, testInfo, `ego2world-play-${mode}-done`);
      await submitAndCheck(page, created.id, created.slug, (answer) => expect((answer as { tasks: unknown[] }).tasks.length).toBe(4));
    });
  });
}
