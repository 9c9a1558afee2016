import { test, expect } from "@playwright/test";
import { assignmentsOf, deleteStudy, responsesOf } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { createGridwmStudy, type GridwmFixtureStudy } from "./gridwm-fixtures";
import { GridwmPage } from "./pages/gridwm-page";
import { storageStatePath } from "./users";

/**
 * GridWM-Judge Task B as the demo batch makes it: the frame is the whole grid with its
 * axes labelled, so that the key's world coordinates can be read off the picture; the clickable
 * grid has the item's size (7x7, 8x8, 16x16); the instructions say the coordinate frame. Each item
 * is photographed at 1280x800 and 390x844 (looked at by hand: solvable from the screen alone), then
 * answered as the key says through the form, and the server must score every answer exact. Then
 * items as the authors' exam file holds them: the agent's own view, world positions past 7, the
 * form at the environment's grid size (MultiRoom 25x25, RedBlueDoors 16x8), at both sizes too.
 */

let studies: GridwmFixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

interface SceneKey {
  agent: { pos: [number, number]; dir: number; carrying: { type: string; color: string } | null };
  front_cell: { pos: [number, number]; type: string; state: number };
  objects: Array<{ type: string; pos: [number, number]; color: string; state: number }>;
}
const COMPASS = ["north", "east", "south", "west"];

test.describe("GridWM Task B frames", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("the whole grid with labelled axes, a clickable grid of the item's size, and answers that score exact", async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    const study = await createGridwmStudy({
      picks: [
        { kind: "gridwm-scene-json", demoPractice: true, practice: true },
        { kind: "gridwm-scene-json", grid: "8x8" },
        { kind: "gridwm-scene-json", grid: "16x16" },
      ],
      members: ["annotator"],
    });
    studies.push(study);
    const gw = new GridwmPage(page);
    const byItem = new Map(study.items.map((item) => [item.id, item]));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/s/${study.slug}/work`);
    let previous: string | undefined;
    const answered: Array<{ assignmentId: string; externalId: string }> = [];
    for (let done = 0; done < study.items.length; done++) {
      await gw.waitForItem(previous);
      const assignmentId = await gw.assignmentId();
      const assignment = (await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId)!;
      const item = byItem.get(assignment.itemId)!;
      const [width, height] = item.public.gridSize as [number, number];
      const name = `${item.externalId}-${width}x${height}`;

      // what a person sees: the frame of the whole grid, the form's grid of the same size, the coordinate frame said
      await expect(gw.task.locator('img[alt="The grid"]')).toBeVisible();
      await expect(page.getByTestId("scene-grid")).toHaveAttribute("data-grid", `${width}x${height}`);
      await expect(gw.task.locator("[data-cell]")).toHaveCount(width * height);
      await expect(page.getByTestId("scene-frame-help")).toContainText(`whole ${width}x${height} grid seen from above, its axes labelled`);
      const lastCell = gw.cell(width - 1, height - 1);
      await expect(lastCell).toBeVisible();
      const box = (await lastCell.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(19);
      await page.screenshot({ path: testInfo.outputPath(`${name}-1280.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: testInfo.outputPath(`${name}-390.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("button", { name: "The grid (open large)" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`${name}-large.png`) });
      await page.keyboard.press("Escape");

      // answer as the key says, through the form
      const key = item.key.answer_json as SceneKey;
      await gw.cell(key.agent.pos[0], key.agent.pos[1]).click();
      const compass = COMPASS[key.agent.dir];
      await page.getByRole("radio", { name: `Facing ${compass} (dir ${key.agent.dir})` }).click();
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
        await gw.cell(object.pos[0], object.pos[1]).click();
      }
      await page.screenshot({ path: testInfo.outputPath(`${name}-answered.png`) });
      await gw.confidence(4, "mouse");
      await gw.submit("mouse");
      if (item.practice) {
        await expect(gw.feedback).toBeVisible({ timeout: 15_000 });
        await expect(gw.feedback).toHaveAttribute("data-correct", "true");
        await gw.feedback.getByRole("button", { name: "Continue" }).click();
      }
      answered.push({ assignmentId, externalId: item.externalId });
      previous = assignmentId;
    }
    await page.waitForURL(/\/done$/, { timeout: 15_000 });
    for (const { assignmentId, externalId } of answered) {
      await expect.poll(async () => (await responsesOf(assignmentId)).length, { timeout: 15_000 }).toBe(1);
      const [response] = await responsesOf(assignmentId);
      expect(response.score, externalId).toMatchObject({ exact: true, componentScore: 1 });
    }
  });

  test("the authors' exam items: the agent's own view, a form of the environment's grid size (MultiRoom 25x25, RedBlueDoors 16x8), positions past 7 entered and scored exact", async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    // golds as the release writes them: world cells past 7, MiniGrid's agent_dir (0 east, 3 north), every object of the grid
    const multiroom = {
      agent: { pos: [18, 20], dir: 3, carrying: null },
      front_cell: { pos: [18, 19], type: "floor", state: 0 },
      objects: [
        { type: "door", pos: [12, 20], color: "red", state: 1 },
        { type: "goal", pos: [22, 3], color: "green", state: 0 },
      ],
    };
    const redblue = {
      agent: { pos: [9, 4], dir: 0, carrying: null },
      front_cell: { pos: [10, 4], type: "floor", state: 0 },
      objects: [
        { type: "door", pos: [4, 3], color: "red", state: 1 },
        { type: "door", pos: [12, 5], color: "blue", state: 1 },
      ],
    };
    const study = await createGridwmStudy({
      picks: [
        { kind: "gridwm-scene-json", exam: { env: "multiroom", gold: multiroom } },
        { kind: "gridwm-scene-json", exam: { env: "redblue", gold: redblue } },
      ],
      members: ["annotator"],
    });
    studies.push(study);
    const gw = new GridwmPage(page);
    const byItem = new Map(study.items.map((item) => [item.id, item]));
    const MINIGRID_COMPASS = ["east", "south", "west", "north"];
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/s/${study.slug}/work`);
    let previous: string | undefined;
    const answered: string[] = [];
    for (let done = 0; done < study.items.length; done++) {
      await gw.waitForItem(previous);
      const assignmentId = await gw.assignmentId();
      const assignment = (await assignmentsOf(study.id, "annotator")).find((a) => a.id === assignmentId)!;
      const item = byItem.get(assignment.itemId)!;
      const [width, height] = item.public.gridSize as [number, number];
      const name = `${item.externalId.split(".")[1]}-${width}x${height}`;
      expect([`${width}x${height}`]).toEqual([item.externalId.includes("multiroom") ? "25x25" : "16x8"]);

      // the frame models get (the agent's own view), the form of the world's size, and what the view cannot show said plainly
      await expect(gw.task.locator(`img[alt="The agent's view"]`)).toBeVisible();
      await expect(page.getByTestId("scene-grid")).toHaveAttribute("data-grid", `${width}x${height}`);
      await expect(gw.task.locator("[data-cell]")).toHaveCount(width * height);
      await expect(page.getByTestId("scene-frame-help")).toContainText("does not show where the agent stands in the world");

      const key = item.key.answer_json as SceneKey;
      await gw.cell(key.agent.pos[0], key.agent.pos[1]).click();
      await page.getByRole("radio", { name: `Facing ${MINIGRID_COMPASS[key.agent.dir]} (dir ${key.agent.dir})` }).click();
      await expect(page.getByTestId("front-cell-pos")).toHaveText(`[${key.front_cell.pos[0]}, ${key.front_cell.pos[1]}]`);
      await page.getByLabel("Front cell's type", { exact: true }).selectOption(key.front_cell.type);
      await page.getByRole("radio", { name: "Add / remove object" }).click();
      for (const object of key.objects) {
        await page.getByLabel("New object's type", { exact: true }).selectOption(object.type);
        await page.getByLabel("New object's colour").selectOption(object.color);
        if (object.type === "door") await page.getByLabel("New object's state").selectOption(String(object.state));
        await gw.cell(object.pos[0], object.pos[1]).click();
      }
      // the far corner is reachable too (the grid scrolls in its panel when wider than the screen)
      await expect(gw.cell(width - 1, height - 1)).toBeAttached();
      await page.screenshot({ path: testInfo.outputPath(`exam-${name}-1280.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await gw.cell(key.agent.pos[0], key.agent.pos[1]).scrollIntoViewIfNeeded();
      await expect(gw.cell(key.agent.pos[0], key.agent.pos[1])).toBeInViewport();
      await page.screenshot({ path: testInfo.outputPath(`exam-${name}-390-grid.png`) });
      await page.screenshot({ path: testInfo.outputPath(`exam-${name}-390.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await gw.confidence(4, "mouse");
      await gw.submit("mouse");
      answered.push(assignmentId);
      previous = assignmentId;
    }
    await page.waitForURL(/\/done$/, { timeout: 15_000 });
    for (const assignmentId of answered) {
      await expect.poll(async () => (await responsesOf(assignmentId)).length, { timeout: 15_000 }).toBe(1);
      const [response] = await responsesOf(assignmentId);
      // right in every field, so exact; of the fields the frame shows (carrying, the front cell's type and state) 3 of 3; the frame alone allows no exact answer
      expect(response.score).toMatchObject({ exact: true, componentScore: 1, readable: { right: 3, of: 3 }, ceiling: { exact: false, componentScore: 0.15 } });
    }
  });
});
