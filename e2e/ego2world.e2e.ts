import { randomUUID } from "node:crypto";
import { test, expect, request as playwrightRequest, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { assignmentsOf, deleteStudy, responsesOf, storedEvents } from "./annotate-fixtures";
import { closeE2eDb } from "./db";
import { createEgoStudy, playStepsOf, type EgoFixtureStudy } from "./ego2world-fixtures";
import { storageStatePath, type E2eUserName } from "./users";

/**
 * Ego2World in Chromium against the built app and PostgreSQL: an annotator plays the coffee
 * episode's first task to success with the mouse and the keyboard, sees a refused action's
 * feedback, edits a note, moves through the remaining tasks and submits; the stored response is
 * rebuilt from the server's steps. Then two people's plays (over the API, as the browser sends
 * them) and the demo's synthetic agent runs fill the researcher's dashboard section.
 */

let studies: EgoFixtureStudy[] = [];
test.afterEach(async () => {
  for (const study of studies) await deleteStudy(study.id);
  studies = [];
});
test.afterAll(async () => {
  await closeE2eDb();
});

const shots = process.env.EGO_SHOTS_DIR;
async function shot(page: Page | Locator, name: string, fallback: string) {
  await page.screenshot({ path: shots ? `${shots}/${name}.png` : fallback });
}

/** Press a key with the focus on the page body (not in a form field). */
async function pressOnPage(page: Page, key: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
}

test.describe("Ego2World play", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("plays a task to success by mouse and keyboard, edits a note, and submits; the server scores its own steps", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const study = await createEgoStudy({ members: ["annotator"] });
    studies.push(study);
    await page.goto(`/s/${study.slug}/work`);
    const player = page.getByTestId("ego2world-player");
    await expect(player).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("task-counter")).toHaveText("Task 1 of 4");
    await expect(page.getByTestId("task-instruction")).toContainText("Bring a clean cup");
    await expect(page.getByTestId("area-image")).toHaveAttribute("data-area", "counter");
    await expect(page.getByTestId("objects-here")).toContainText("spoon_01");
    // the notes start with what is seen
    await expect(page.locator('[data-note="spoon_01"] [data-field="area"]')).toHaveValue("counter");
    await expect.poll(() => page.getByTestId("area-image").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await shot(page, "ego-player-start", testInfo.outputPath("start.png"));

    // mouse: go to the cabinet
    await player.locator('nav [data-area="cabinet"]').click();
    await expect(page.getByTestId("area-image")).toHaveAttribute("data-area", "cabinet");
    await expect(page.getByTestId("feedback")).toHaveAttribute("data-accepted", "true");
    await expect(page.getByTestId("objects-here")).toContainText("cup_01");

    // keyboard: 1 = pick_up, its picker gets the focus; the first choice is cup_01; Tab to "Do it", Enter
    await pressOnPage(page, "1");
    const picker = player.locator('select[data-param="x"]');
    await expect(picker).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(picker).toHaveValue("cup_01");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("hand")).toContainText("cup_01");
    await expect(page.getByTestId("feedback")).toContainText("pick_up(cup_01)");

    // keyboard: the area button, focused, Enter
    const stationButton = player.locator('nav [data-area="coffee_station"]');
    await stationButton.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("area-image")).toHaveAttribute("data-area", "coffee_station");

    // mouse: put_down(cup_01)
    await player.locator('[data-action="put_down"]').click();
    await player.locator('select[data-param="x"]').selectOption("cup_01");
    await expect(page.getByTestId("composed-action")).toHaveText("put_down(cup_01)");
    await player.getByRole("button", { name: /Do it/ }).click();
    await expect(page.getByTestId("objects-here")).toContainText("cup_01");
    await expect(page.getByTestId("changes")).toContainText("cup_01 (cup) was brought here");

    // a refused action: the machine has no pod yet
    await player.locator('[data-action="brew"]').click();
    await player.locator('select[data-param="m"]').selectOption("machine_01");
    await player.locator('select[data-param="c"]').selectOption("cup_01");
    await player.getByRole("button", { name: /Do it/ }).click();
    await expect(page.getByTestId("feedback")).toHaveAttribute("data-accepted", "false");
    await expect(page.getByTestId("feedback")).toContainText("machine_01.pod = loaded");

    // the note on the cup: where it is now (mouse), its state (keyboard), how sure
    const cupNote = page.locator('[data-note="cup_01"]');
    await expect(cupNote.locator('[data-field="area"]')).toHaveValue("cabinet");
    await cupNote.locator('[data-field="area"]').selectOption("coffee_station");
    await cupNote.locator('[data-field="state"]').fill("clean, empty");
    await cupNote.locator('[data-field="state"]').press("Enter");
    await cupNote.locator('[data-field="confidence"]').selectOption("medium");
    await expect(cupNote.locator('[data-field="area"]')).toHaveValue("coffee_station");
    await shot(page, "ego-player-playing", testInfo.outputPath("playing.png"));

    // done with task 1 (mouse, then the confirmation by keyboard: it has the focus)
    await player.getByRole("button", { name: "Done with this task" }).click();
    await expect(player.getByRole("button", { name: "Yes, done" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("task-counter")).toHaveText("Task 2 of 4");
    await expect(page.getByTestId("task-instruction")).toContainText("Make a cup of coffee");
    // never told whether task 1 succeeded
    await expect(page.getByTestId("last-task")).toHaveCount(0);
    for (const next of ["Task 3 of 4", "Task 4 of 4", "All 4 tasks done"]) {
      await player.getByRole("button", { name: "Done with this task" }).click();
      await player.getByRole("button", { name: "Yes, done" }).click();
      await expect(page.getByTestId("task-counter")).toHaveText(next);
    }
    const radio = page.getByRole("radio", { name: /^4:/ });
    await radio.click();
    const submit = page.getByRole("button", { name: "Submit", exact: true });
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page).toHaveURL(new RegExp(`/s/${study.slug}/done`), { timeout: 20_000 });

    // the database: the answer from the server's steps, scored; the trajectory holds steps and note edits
    const [assignment] = await assignmentsOf(study.id, "annotator");
    const [response] = await responsesOf(assignment.id);
    expect(response.answer).toEqual({
      tasks: [
        { id: "t1", actions: ["go_to(cabinet)", "pick_up(cup_01)", "go_to(coffee_station)", "put_down(cup_01)", "brew(machine_01, cup_01)"] },
        { id: "t2", actions: [] },
        { id: "t3", actions: [] },
        { id: "t4", actions: [] },
      ],
    });
    const score = response.score as { TSR: number; validity: number; tasks: Array<{ id: string; success: boolean; TCR: number | null; accepted: boolean[] }> };
    expect(score.tasks[0]).toMatchObject({ id: "t1", success: true, TCR: 1, accepted: [true, true, true, true, false] });
    expect(score.TSR).toBe(0.25);
    expect(score.validity).toBe(0.8);
    expect(await playStepsOf(assignment.id)).toHaveLength(1 + 5 + 4);
    const events = await storedEvents(assignment.id);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "play_step")).toHaveLength(9);
    expect(events.filter((event) => event.type === "note_added" && event.payload.via === "auto").map((event) => event.payload.object)).toEqual(
      expect.arrayContaining(["spoon_01", "cup_01", "pod_01", "machine_01"]),
    );
    expect(events.filter((event) => event.type === "note_edited").map((event) => [event.payload.object, event.payload.field, event.payload.value])).toEqual([
      ["cup_01", "area", "coffee_station"],
      ["cup_01", "state", "clean, empty"],
      ["cup_01", "confidence", "medium"],
    ]);
    expect(types).toContain("episode_finished");
    expect(types.at(-1)).toBe("submitted");
  });
});

/** One person's play over the API, as the player sends it: steps, then the trajectory, then the response. */
async function playOverApi(user: E2eUserName, study: EgoFixtureStudy, actionsPerTask: string[][], baseURL: string) {
  const api: APIRequestContext = await playwrightRequest.newContext({ baseURL, storageState: storageStatePath(user) });
  const next = (await (await api.get(`/api/annotate/studies/${study.slug}/next`)).json()) as { status: string; assignment: { assignmentId: string } };
  expect(next.status).toBe("item");
  const assignmentId = next.assignment.assignmentId;
  const start = (await (await api.get(`/api/annotate/assignments/${assignmentId}/play`)).json()) as { view: { objects: Array<{ id: string }>; area: string } };
  const now = Date.now() - 600_000;
  const events: Array<{ assignmentId: string; seq: number; clientTime: number; type: string; payload: Record<string, unknown> }> = [];
  const record = (type: string, payload: Record<string, unknown>) =>
    events.push({ assignmentId, seq: events.length, clientTime: now + events.length * 4000, type, payload });
  record("item_shown", { kind: "ego2world-play", resumed: false });
  const noted = new Set<string>();
  const noteSeen = (view: { objects: Array<{ id: string }>; area: string; hand?: { id: string } | null }) => {
    for (const object of view.objects) {
      if (noted.has(object.id)) continue;
      noted.add(object.id);
      record("note_added", { object: object.id, area: view.area, state: "", confidence: "high", source: "seen", via: "auto" });
    }
  };
  noteSeen(start.view);
  let seq = 0;
  for (const actions of actionsPerTask) {
    for (const action of [...actions.map((text) => ({ type: "act", action: text })), { type: "done" }]) {
      seq++;
      const ack = (await (await api.post(`/api/annotate/assignments/${assignmentId}/play`, { data: { seq, action } })).json()) as {
        valid: boolean;
        view: { objects: Array<{ id: string }>; area: string };
      };
      record("play_step", { seq, action, valid: ack.valid });
      noteSeen(ack.view);
    }
  }
  record("episode_finished", { tasks: actionsPerTask.length });
  record("confidence_changed", { value: 4, previous: null });
  const clientId = randomUUID();
  const submitSeq = events.length;
  record("submitted", { answer: { tasks: [] }, confidence: 4, clientId });
  const stored = await api.post("/api/annotate/events", { data: { events } });
  expect(stored.ok()).toBe(true);
  const response = await api.post("/api/annotate/responses", {
    data: { assignmentId, clientId, answer: { tasks: [] }, confidence: 4, wallMs: 60_000, activeMs: 50_000, submitSeq },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await api.dispose();
}

test.describe("Ego2World dashboard", () => {
  test.use({ storageState: storageStatePath("researcher") });

  test("shows people beside the agent runs, with paired differences", async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const study = await createEgoStudy({ members: ["annotator", "annotator2"], agentRuns: true });
    studies.push(study);
    const reference = (study.items[0].key as { tasks: Array<{ reference: string[] }> }).tasks.map((task) => task.reference);
    await playOverApi("annotator2", study, reference, baseURL!);
    // the other person forgets the pod in task 2 and gives up on it
    await playOverApi(
      "annotator",
      study,
      [
        reference[0],
        ["go_to(coffee_station)", "open(machine_01)", "close(machine_01)", "pick_up(cup_01)", "place_under(cup_01, machine_01)", "brew(machine_01, cup_01)"],
        reference[2],
        reference[3],
      ],
      baseURL!,
    );

    await page.goto(`/research/studies/${study.slug}/dashboard`);
    const section = page.getByTestId("ego2world-section");
    await expect(section).toBeVisible({ timeout: 20_000 });
    const table = section.getByRole("table", { name: "Ego2World results" });
    await expect(table.locator('tr[data-row="annotator"]')).toHaveCount(2);
    await expect(table.locator('tr[data-row="agent"]')).toHaveCount(2);
    // pooled over 8 task units: 4 + 1 reached (without a pod there is no coffee: tasks 2, 3 and 4 fail for the second person)
    await expect(table.locator('tr[data-row="pooled"]')).toContainText("1 / 8");
    await expect(table.locator('tr[data-row="pooled"]')).toContainText("62.5");
    await expect(section.getByRole("table", { name: "Humans minus agent" }).locator("tbody tr")).toHaveCount(2);
    await page.locator("#ego2world").screenshot({ path: shots ? `${shots}/ego-dashboard.png` : test.info().outputPath("dashboard.png") });
  });
});
