import { test, expect, type Page } from "@playwright/test";
import { assignmentsOf, deleteStudy, responsesOf, storedEvents } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { createGridwmStudy, type GridwmFixtureItem, type GridwmFixtureStudy } from "./gridwm-fixtures";
import { GridwmPage } from "./pages/gridwm-page";
import { storageStatePath } from "./users";

/**
 * The three GridWM-Judge kinds in Chromium against the built app and PostgreSQL: one item of each
 * kind by mouse and one by keyboard (Task A also as a practice item with feedback), reading the
 * stored response and trajectory back from the database.
 */

let studies: GridwmFixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

type Via = "mouse" | "keyboard";
const COMPASS = ["north", "east", "south", "west"];
const ARROW: Record<string, string> = { north: "ArrowUp", east: "ArrowRight", south: "ArrowDown", west: "ArrowLeft" };

interface SceneKey {
  agent: { pos: [number, number]; dir: number; carrying: { type: string; color: string } | null };
  front_cell: { pos: [number, number]; type: string; state: number };
  objects: Array<{ type: string; pos: [number, number]; color: string; state: number }>;
}

/** Does one item as the key says, by mouse or by keyboard; returns the answer that must be stored. */
async function answerItem(gw: GridwmPage, page: Page, item: GridwmFixtureItem, via: Via, shot: string): Promise<unknown> {
  const byKey = via === "keyboard";
  if (item.kind === "gridwm-next-obs") {
    const letter = item.key.answer as string;
    const other = letter === "A" ? "B" : "A";
    await expect(page.getByTestId("gridwm-action")).toContainText(/turn|move|pick|drop|toggle|done/);
    // a change of mind first: two choice_made events
    if (byKey) {
      await gw.pressOnPage(String("ABCD".indexOf(other) + 1));
      await gw.pressOnPage(letter.toLowerCase());
    } else {
      await gw.choice(other).click();
      await page.getByRole("button", { name: `Candidate ${letter}: open large` }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.keyboard.press("Escape");
      await gw.choice(letter).click();
    }
    await expect(gw.choice(letter)).toHaveAttribute("data-selected", "true");
    await page.screenshot({ path: shot });
    return { choice: letter };
  }
  if (item.kind === "gridwm-judge") {
    const verdict = item.key.answer as "Success" | "Fail";
    if (item.public.preamble) await expect(page.getByTestId("gridwm-preamble")).toHaveText(item.public.preamble as string);
    const frame3 = gw.task.locator('[data-frame="3"]');
    if (byKey) await gw.pressOn(frame3);
    else await frame3.click();
    await expect(page.getByTestId("frame-large")).toHaveAttribute("data-frame", "3");
    if (byKey) await page.keyboard.press("ArrowRight");
    else await page.getByRole("button", { name: "Next →" }).click();
    await expect(page.getByTestId("frame-large")).toHaveAttribute("data-frame", "4");
    await page.screenshot({ path: shot.replace(".png", "-frame.png") });
    if (byKey) await page.keyboard.press("Escape");
    else await page.getByRole("button", { name: /^Close/ }).click();
    await expect(page.getByTestId("frame-large")).toHaveCount(0);
    // a change of mind: the other verdict first
    const other = verdict === "Success" ? "Fail" : "Success";
    if (byKey) {
      await gw.pressOnPage(other === "Success" ? "s" : "f");
      await gw.pressOnPage(verdict === "Success" ? "S" : "F");
    } else {
      await gw.verdict(other).click();
      await gw.verdict(verdict).click();
    }
    await expect(gw.verdict(verdict)).toHaveAttribute("data-selected", "true");
    await page.screenshot({ path: shot });
    return { verdict };
  }
  // Task B: the scene form
  const key = item.key.answer_json as SceneKey;
  const [ax, ay] = key.agent.pos;
  if (byKey) await gw.pressOn(gw.cell(ax, ay));
  else await gw.cell(ax, ay).click();
  const compass = COMPASS[key.agent.dir];
  if (byKey) {
    // another direction first, then the right one, by arrow keys
    await gw.pressOnPage(compass === "north" ? "ArrowDown" : "ArrowUp");
    await gw.pressOnPage(ARROW[compass]);
  } else {
    await page.getByRole("radio", { name: `Facing ${compass === "north" ? "south" : "north"} (dir ${compass === "north" ? 2 : 0})` }).click();
    await page.getByRole("radio", { name: `Facing ${compass} (dir ${key.agent.dir})` }).click();
  }
  await expect(page.getByTestId("front-cell-pos")).toHaveText(`[${key.front_cell.pos[0]}, ${key.front_cell.pos[1]}]`);
  if (key.agent.carrying) {
    await page.getByLabel("What the agent carries", { exact: true }).selectOption(key.agent.carrying.type);
    await page.getByLabel("Colour of what the agent carries").selectOption(key.agent.carrying.color);
  }
  await page.getByLabel("Front cell's type", { exact: true }).selectOption(key.front_cell.type);
  if (key.front_cell.type === "door") await page.getByLabel("Front cell's state").selectOption(String(key.front_cell.state));
  await page.getByRole("radio", { name: "Add / remove object" }).click();
  for (const object of key.objects) {
    await page.getByLabel("New object's type", { exact: true }).selectOption(object.type);
    await page.getByLabel("New object's colour").selectOption(object.color);
    if (object.type === "door") await page.getByLabel("New object's state").selectOption(String(object.state));
    if (byKey) await gw.pressOn(gw.cell(object.pos[0], object.pos[1]));
    else await gw.cell(object.pos[0], object.pos[1]).click();
  }
  await expect(page.getByTestId("scene-json")).toContainText('"agent"');
  await page.screenshot({ path: shot });
  const sorted = [...key.objects].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.pos[0] - b.pos[0] || a.pos[1] - b.pos[1]));
  return { agent: key.agent, front_cell: key.front_cell, objects: sorted };
}

const answerEvent: Record<string, string> = { "gridwm-next-obs": "choice_made", "gridwm-scene-json": "scene_edited", "gridwm-judge": "verdict_made" };

async function workThrough(page: Page, study: GridwmFixtureStudy, via: Via, shots: (name: string) => string) {
  const gw = new GridwmPage(page);
  const byItem = new Map(study.items.map((item) => [item.id, item]));
  const assignments = await assignmentsOf(study.id, "annotator");
  const expected = new Map<string, unknown>();
  let previous: string | undefined;
  for (let done = 0; done < study.items.length; done++) {
    await gw.waitForItem(previous);
    const assignmentId = await gw.assignmentId();
    const current = (await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId) ?? assignments.find((a) => a.id === assignmentId);
    expect(current, "the shown assignment is the annotator's").toBeTruthy();
    const item = byItem.get(current!.itemId)!;
    expect(await gw.kind()).toBe(item.kind);
    expected.set(assignmentId, await answerItem(gw, page, item, via, shots(`${item.kind}-${via}${item.practice ? "-practice" : ""}`)));
    await gw.confidence(4, via);
    await gw.submit(via);
    if (item.practice) {
      await expect(gw.feedback).toBeVisible({ timeout: 15_000 });
      await expect(gw.feedback).toHaveAttribute("data-correct", "true");
      await page.screenshot({ path: shots(`${item.kind}-practice-feedback`) });
      await gw.feedback.getByRole("button", { name: "Continue" }).click();
    }
    previous = assignmentId;
  }
  await page.waitForURL(/\/done$/, { timeout: 15_000 });

  for (const [assignmentId, answer] of expected) {
    const item = byItem.get((await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId)!.itemId)!;
    await expect.poll(async () => (await responsesOf(assignmentId)).length, { timeout: 15_000 }).toBe(1);
    const [response] = await responsesOf(assignmentId);
    expect(response.answer, item.kind).toEqual(answer);
    expect(response.correct, item.kind).toBe(true);
    expect(response.confidenceRaw).toBe(4);
    const events = await storedEvents(assignmentId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("item_shown");
    expect(types.at(-1)).toBe("submitted");
    expect(types.filter((t) => t === "submitted")).toHaveLength(1);
    expect(events.at(-1)!.payload.answer).toEqual(answer);
    const answers = events.filter((e) => e.type === answerEvent[item.kind]);
    expect(answers.length, `${item.kind} answer events`).toBeGreaterThanOrEqual(2);
    const wantVia = via === "keyboard" ? "keyboard" : "click";
    if (item.kind !== "gridwm-scene-json") for (const event of answers) expect(event.payload.via).toBe(wantVia);
    else expect(answers.filter((e) => e.payload.path === "agent.pos" || e.payload.path === "agent.dir").every((e) => e.payload.via === wantVia)).toBe(true);
    if (item.kind === "gridwm-judge") {
      expect(events.filter((e) => e.type === "frame_zoomed").map((e) => [e.payload.frame, e.payload.via])).toEqual([
        [2, wantVia],
        [3, wantVia],
      ]);
      expect(types).toContain("image_closed");
    }
    if (item.kind === "gridwm-next-obs") {
      expect(answers.map((e) => e.payload.choice).at(-1)).toBe((answer as { choice: string }).choice);
      if (via === "mouse") expect(types).toContain("image_zoomed");
    }
    expect(types.filter((t) => t === "confidence_changed")).toHaveLength(1);
  }
}

test.describe("annotating GridWM-Judge items", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("Task A (practice and main), B and C by mouse; the researcher's dashboard shows the GridWM section", async ({ page, browser }, testInfo) => {
    test.setTimeout(180_000);
    const study = await createGridwmStudy({
      picks: [
        { kind: "gridwm-next-obs", practice: true },
        { kind: "gridwm-next-obs" },
        { kind: "gridwm-scene-json" },
        { kind: "gridwm-judge", framing: "positive" },
      ],
      members: ["annotator"],
    });
    studies.push(study);
    await page.goto(`/s/${study.slug}/work`);
    await workThrough(page, study, "mouse", (name) => testInfo.outputPath(`${name}.png`));

    const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
    const staff = await researcher.newPage();
    await staff.goto(`/research/studies/${study.slug}/dashboard`);
    const section = staff.getByTestId("gridwm-section");
    await expect(section).toBeVisible({ timeout: 20_000 });
    // pooled Acc_A: both Task A answers were right (the practice item counts as an answer too when the dashboard includes it)
    await expect(section.getByRole("row", { name: /Humans \(pooled\)/ })).toBeVisible();
    await expect(staff.getByTestId("gridwm-wmc")).toContainText("JCR_temp");
    await staff.locator("#gridwm").screenshot({ path: testInfo.outputPath("dashboard-gridwm.png") });
    await researcher.close();
  });

  test("Task A, B and C by keyboard", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const study = await createGridwmStudy({
      picks: [{ kind: "gridwm-next-obs" }, { kind: "gridwm-scene-json" }, { kind: "gridwm-judge", framing: "neutral" }],
      members: ["annotator"],
    });
    studies.push(study);
    await page.goto(`/s/${study.slug}/work`);
    await workThrough(page, study, "keyboard", (name) => testInfo.outputPath(`${name}.png`));
  });
});
