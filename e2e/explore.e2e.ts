import { test, expect } from "@playwright/test";
import { assignmentsOf, deleteStudy, responsesOf, storedEvents } from "./annotate-fixtures";
import { closeE2eDb, e2eDb } from "./db";
import { createExploreDashboardStudy, createExploreStudy, type ExploreFixtureStudy } from "./explore-fixtures";
import { GridwmPage } from "./pages/gridwm-page";
import { storageStatePath } from "./users";
import { chatStandIn } from "./chat-stand-in";

/**
 * The EXPLORE-Bench scene editor (`explore-scene`) in Chromium against the built app: read and
 * filter the actions, open the image, build a scene of three objects and two relations by
 * keyboard and mouse (a fourth object added and deleted with the Delete key), submit, and read the
 * stored response and trajectory back from the database. In a study's free-text mode, type the
 * description instead. As a researcher, read the EXPLORE dashboard section and score the answers
 * with the LLM scorer against an OpenAI-compatible stand-in served by this spec (port E2E_PORT +
 * 1000, where playwright.config.ts points SCORER_LLM_URL).
 */

let studies: ExploreFixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

test.describe("explore-scene", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("builds a scene of three objects and two relations by keyboard and mouse, and stores it", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const study = await createExploreStudy({ members: ["annotator"] });
    studies.push(study);
    const ui = new GridwmPage(page);
    await page.goto(`/s/${study.slug}/work`);
    await expect(ui.task).toHaveAttribute("data-kind", "explore-scene", { timeout: 20_000 });
    const task = ui.task;
    const list = task.getByTestId("explore-actions");
    await expect(list.locator("[data-action]")).toHaveCount(study.actions.length);
    await expect(ui.submitButton).toBeDisabled();
    await expect(page.getByText("Add at least one object of the final scene").first()).toBeVisible();

    // reading: scroll the list (recorded at most once a second), filter it, open the image
    await list.evaluate((el) => (el.scrollTop = 1200));
    await page.waitForTimeout(1300);
    await list.evaluate((el) => (el.scrollTop = 1500));
    await page.waitForTimeout(1300);
    const filter = task.getByRole("searchbox", { name: "Filter the actions" });
    await filter.fill("faucet");
    await expect(list.locator("[data-action]")).toHaveCount(study.actions.filter((a) => a.includes("faucet")).length);
    await page.waitForTimeout(900);
    await filter.fill("");
    await expect(list.locator("[data-action]")).toHaveCount(study.actions.length);
    await task.getByRole("button", { name: "The initial scene (open large)" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();

    // objects by keyboard: category, Tab, attributes, Enter
    const category = task.getByRole("combobox", { name: "New object's category" });
    await category.focus();
    await page.keyboard.type("bowl");
    await page.keyboard.press("Tab");
    await page.keyboard.type("white ceramic");
    await page.keyboard.press("Enter");
    await expect(task.locator('[data-ref="bowl"]')).toBeVisible();
    await expect(category).toBeFocused();
    await page.keyboard.type("kitchen counter");
    await page.keyboard.press("Enter");
    // by mouse: a sink, and a colander that is then deleted with the Delete key
    await category.fill("sink");
    await task.getByRole("button", { name: "Add object" }).click();
    await category.fill("colander");
    await task.getByRole("button", { name: "Add object" }).click();
    await expect(task.locator("[data-object]")).toHaveCount(4);
    await task.locator('[data-ref="colander"]').focus();
    await page.keyboard.press("Delete");
    await expect(task.locator("[data-object]")).toHaveCount(3);
    // an attribute chip on the sink
    await task.getByRole("textbox", { name: "Attributes of sink" }).click();
    await task.getByRole("button", { name: "material", exact: true }).click();
    await task.getByRole("button", { name: "metal", exact: true }).click();
    await expect(task.getByRole("textbox", { name: "Attributes of sink" })).toHaveValue("metal");

    // relations: bowl on kitchen counter by keyboard, bowl next to sink by mouse
    await task.getByRole("combobox", { name: "Relation subject" }).selectOption({ label: "bowl" });
    await task.getByRole("combobox", { name: "Relation object" }).selectOption({ label: "kitchen counter" });
    await task.getByRole("combobox", { name: "Relation", exact: true }).focus();
    await page.keyboard.type("on");
    await page.keyboard.press("Enter");
    await expect(task.locator('[data-relation="bowl on kitchen counter"]')).toBeVisible();
    await task.getByRole("combobox", { name: "Relation", exact: true }).fill("next to");
    await task.getByRole("combobox", { name: "Relation object" }).selectOption({ label: "sink" });
    await task.getByRole("button", { name: "Add relation" }).click();
    await expect(task.locator('[data-relation="bowl next to sink"]')).toBeVisible();

    const text = "The bowl is white ceramic, on the kitchen counter and next to the sink. There is a kitchen counter. The sink is metal.";
    await expect(task.getByTestId("explore-text")).toHaveText(text);
    await ui.confidence(4, "mouse");
    await expect(ui.submitButton).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath("explore-scene.png") });
    const [assignment] = await assignmentsOf(study.id, "annotator");
    await ui.submit("mouse");

    const answer = {
      objects: [
        { category: "bowl", description: "white ceramic", relation: ["bowl on kitchen counter", "bowl next to sink"] },
        { category: "kitchen counter", description: "", relation: [] },
        { category: "sink", description: "metal", relation: [] },
      ],
      text,
    };
    // the trajectory (sent before the response), then the response
    await expect.poll(async () => (await storedEvents(assignment.id)).some((e) => e.type === "submitted"), { timeout: 15_000 }).toBe(true);
    const events = await storedEvents(assignment.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("item_shown");
    expect(types.at(-1)).toBe("submitted");
    expect(events.at(-1)!.payload.answer).toEqual(answer);
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
    expect(of("scene_object_added").map((p) => [p.object, p.category, p.description, p.via])).toEqual([
      [0, "bowl", "white ceramic", "keyboard"],
      [1, "kitchen counter", "", "keyboard"],
      [2, "sink", "", "click"],
      [3, "colander", "", "click"],
    ]);
    expect(of("scene_object_removed")).toEqual([{ object: 3, via: "keyboard" }]);
    expect(of("scene_object_edited")).toEqual([{ object: 2, field: "description", value: "metal", via: "click" }]);
    expect(of("relation_added")).toEqual([
      { subject: 0, relation: "on", object: 1, via: "keyboard" },
      { subject: 0, relation: "next to", object: 2, via: "click" },
    ]);
    const scrolls = of("actions_scrolled");
    expect(scrolls.length).toBeGreaterThanOrEqual(1);
    expect(scrolls.length).toBeLessThanOrEqual(4);
    expect(scrolls.some((p) => Number(p.first) > 20)).toBe(true);
    expect(of("actions_searched").map((p) => p.query)).toEqual(["faucet", ""]);
    expect(types).toContain("image_zoomed");
    await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 15_000 }).toBe(1);
    const [response] = await responsesOf(assignment.id);
    expect(response.answer).toEqual(answer);
    expect(response.confidenceRaw).toBe(4);
    await page.waitForURL(/\/done$/, { timeout: 15_000 });
  });
});

test.describe("explore-scene free-text mode", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("types the description instead of building the scene, and stores it as free text", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const study = await createExploreStudy({ members: ["annotator"], freeText: true, actionCount: 30 });
    studies.push(study);
    const ui = new GridwmPage(page);
    await page.goto(`/s/${study.slug}/work`);
    await expect(ui.task).toHaveAttribute("data-kind", "explore-scene", { timeout: 20_000 });
    const box = ui.task.getByRole("textbox", { name: "Description of the final scene" });
    await expect(box).toBeVisible();
    await expect(ui.task.getByRole("combobox", { name: "New object's category" })).toHaveCount(0);
    await expect(page.getByText("Describe the final scene in the text box").first()).toBeVisible();
    await expect(ui.submitButton).toBeDisabled();

    const text = "A white ceramic bowl is on the kitchen counter next to the metal sink.";
    await box.click();
    await page.keyboard.type(text, { delay: 5 });
    await ui.confidence(3, "keyboard");
    await expect(ui.submitButton).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath("explore-free-text.png") });
    const [assignment] = await assignmentsOf(study.id, "annotator");
    await ui.submit("keyboard");

    await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 15_000 }).toBe(1);
    const [response] = await responsesOf(assignment.id);
    expect(response.answer).toEqual({ objects: [], text });
    const { rows } = await e2eDb().query<{ score: { scorer: string; source: string; S_obj: number } }>(
      `SELECT score FROM "Response" r WHERE r."assignmentId" = $1`,
      [assignment.id],
    );
    expect(rows[0].score).toMatchObject({ scorer: "structured", source: "text" });
    // bowl and kitchen counter match exactly; "metal sink" against the key's "sink" counts 0.9 (a modifier on one side)
    expect(rows[0].score.S_obj).toBeCloseTo((100 * (1 + 1 + 0.9)) / 3);
    const events = await storedEvents(assignment.id);
    const typed = events.filter((e) => e.type === "scene_text_edited").map((e) => e.payload.value);
    expect(typed.length).toBeGreaterThanOrEqual(1);
    expect(typed.at(-1)).toBe(text);
    expect(events.filter((e) => e.type === "scene_object_added")).toEqual([]);
  });
});

test.describe("EXPLORE dashboard", () => {
  test.use({ storageState: storageStatePath("researcher") });

  // 3 for attributes, 2 for relations: a fixed, recognisable reply (Listing 8 as the system message, then the user prompt)
  const requests = chatStandIn((request) => (request.messages.at(-1)!.content.includes("describe the attributes") ? "3" : "2"));
  const stand = {
    get requests() {
      return requests.map((r) => ({
        model: r.model,
        temperature: r.temperature,
        system: r.messages[0].role === "system" ? r.messages[0].content : "",
        content: r.messages.at(-1)!.content,
        thinking: r.chat_template_kwargs,
      }));
    },
  };

  test("shows the paper's table per scorer and scores the answers with the LLM in the background", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const study = await createExploreDashboardStudy();
    studies.push(study);
    await page.goto(`/research/studies/${study.slug}/dashboard`);
    const section = page.getByTestId("explore-section");
    await expect(section).toBeVisible({ timeout: 30_000 });
    const structured = section.getByTestId("explore-table-structured");
    await expect(structured).toHaveAttribute("data-scorer", "structured scorer");
    for (const text of ["Humans (pooled)", "Ann Annotator", "Bo Annotator", "Model X (e2e)", "Short", "Medium", "Long", "Full", "S_uni"])
      await expect(structured).toContainText(text);
    await expect(structured.getByTestId("explore-paper-row")).toContainText("59.08");
    await expect(section.getByTestId("explore-alpha-structured")).toContainText("over 3 units");
    await expect(section.getByTestId("explore-abnormal-structured")).toContainText("S_abn");
    await expect(section.getByTestId("explore-abnormal-structured")).toContainText("91.64");
    await expect(section.getByTestId("explore-llm-unscored")).toHaveText("6 answers and 2 model predictions not scored yet");
    await expect(section.getByTestId("explore-table-llm")).toHaveCount(0);

    const panel = section.getByTestId("explore-llm-panel");
    await panel.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.evaluate(() => window.scrollBy(0, -130));
    await page.screenshot({ path: testInfo.outputPath("explore-dashboard-before.png") });

    await section.getByRole("button", { name: "Score with LLM" }).click();
    await expect(section.getByTestId("explore-llm-job")).toHaveAttribute("data-status", "DONE", { timeout: 60_000 });
    await expect(section.getByTestId("explore-llm-progress")).toHaveText("100%");
    const llm = section.getByTestId("explore-table-llm");
    await expect(llm).toHaveAttribute("data-scorer", "LLM scorer (e2e-stand-in)", { timeout: 15_000 });
    await expect(llm).toContainText("8 of 8 answers scored");
    await expect(section.getByTestId("explore-abnormal-llm")).toContainText("S_key");
    await expect(section.getByTestId("explore-llm-unscored")).toHaveText("every answer is scored");
    expect(stand.requests.length).toBeGreaterThan(0);
    for (const request of stand.requests) {
      expect(request.temperature).toBe(0);
      expect(request.model).toBe("e2e-stand-in");
      expect(request.system).toMatch(/^You are a Natural Language Processing \(NLP\) expert\./);
      expect(request.thinking).toEqual({ enable_thinking: false });
      expect(request.content).toMatch(
        /^Sentence: '.*'\. Phrase: '.*'\. Please check if the sentence contains parts that accurately describe the (attributes|relations|states) referenced/s,
      );
    }
    // what the researcher sees at 1280 x 720: the panel and the structured table, then the LLM table
    for (const [target, name] of [
      [panel, "explore-dashboard-top.png"],
      [llm, "explore-dashboard-llm.png"],
      [section.getByTestId("explore-abnormal-llm"), "explore-dashboard-abnormal.png"],
    ] as const) {
      await target.evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.evaluate(() => window.scrollBy(0, -130));
      await page.screenshot({ path: testInfo.outputPath(name) });
    }
    const { rows } = await e2eDb().query<{ n: string }>(`SELECT count(*) AS n FROM "ScorerResult" WHERE "studyId" = $1`, [study.id]);
    expect(Number(rows[0].n)).toBe(8);
  });
});
