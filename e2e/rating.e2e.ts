import { test, expect, type Page } from "@playwright/test";
import { assignmentsOf, responsesOf, storedEvents } from "./annotate-fixtures";
import {
  clipMedia,
  createMediaStudy,
  storeClip,
  type MediaFixtureStudy,
  openMediaItem,
  mediaStudiesDeletedAfterEach,
  checkDashboardSection,
} from "./media-fixtures";
import { storageStatePath } from "./users";
import { watchStats } from "../lib/tasks/shared/media/events";

/**
 * The rubric rating kind (`rating`) with the shared video player, in Chromium against the built
 * app: one drawn clip (frames at 8 fps) played, paused, sought and replayed, then rated by keyboard
 * (arrows, digits, Y / N) and, on a phone with touch, by taps; the stored answer, score and the
 * player's events read back from the database, and the watch figures derived from them.
 */

const studies = mediaStudiesDeletedAfterEach();

const RUBRIC = [
  { id: "instruction", type: "likert", dimension: "instruction", label: "Instruction following", min: 0, max: 3, anchors: { "0": "not at all", "3": "fully" } },
  { id: "gravity", type: "check", dimension: "physics", label: "Do objects fall as gravity would make them?", pass: "yes" },
  { id: "penetration", type: "check", dimension: "physics", label: "Does an object pass through another?", pass: "no" },
];

async function ratingStudy(taskSettings?: Record<string, unknown>): Promise<MediaFixtureStudy> {
  const study = await createMediaStudy(
    "rating",
    async (studyId) => [
      {
        externalId: "clip-1",
        public: { question: "Rate the generated video", media: clipMedia(await storeClip(studyId, "ball", "float"), "ball", 1.5), rubric: RUBRIC },
        key: { reference: { instruction: 1, gravity: "no", penetration: "no" } },
        tags: { model: "gen-b" },
      },
    ],
    { members: ["annotator"], ...(taskSettings ? { taskSettings } : {}) },
  );
  studies.push(study);
  return study;
}

const openItem = (page: Page, slug: string) => openMediaItem(page, slug, "rating");

test.describe("rating", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("plays the clip and rates the rubric by keyboard; the events and score are stored, and the dashboard shows them", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(300_000);
    const study = await ratingStudy();
    const task = await openItem(page, study.slug);
    const player = task.getByTestId("media-player");
    await expect(task.getByTestId("media-clock")).toContainText("/ 0:01.5"); // 16 frames at 8 fps, cut at 1.5 s
    // play with Space on the focused player, pause with K, seek back with ←, replay after the end with R
    await player.focus();
    await page.keyboard.press("Space");
    await expect(player).toHaveAttribute("data-playing", "true");
    await page.waitForTimeout(600);
    await page.keyboard.press("k");
    await expect(player).toHaveAttribute("data-playing", "false");
    await page.keyboard.press("ArrowLeft");
    await expect(player).toHaveAttribute("data-time", "0.00");
    await page.keyboard.press("Space");
    await expect(task.getByTestId("media-play")).toHaveText(/Replay/, { timeout: 5_000 });
    await page.keyboard.press("r");
    await expect(task.getByTestId("media-play")).toHaveText(/Replay/, { timeout: 5_000 });
    await page.screenshot({ path: testInfo.outputPath("rating-keyboard-1280.png") });

    // the rubric by keys: the first row is chosen; 1 rates it and moves on; N, N answer the checks
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("2");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("1");
    await page.keyboard.press("n");
    await page.keyboard.press("n");
    await expect(task.locator('[data-rubric="instruction"] [aria-checked="true"]')).toHaveText(/^1/);
    await page.getByRole("radio", { name: /^4:/ }).focus();
    await page.keyboard.press("Enter");
    const submit = page.getByRole("button", { name: "Submit", exact: true });
    await expect(submit).toBeEnabled();
    await submit.focus();
    await page.keyboard.press("Enter");

    const [assignment] = await assignmentsOf(study.id, "annotator");
    await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 10_000 }).toBe(1);
    const [response] = await responsesOf(assignment.id);
    expect(response.answer).toEqual({ ratings: { instruction: 1, gravity: "no", penetration: "no" } });
    expect(response.score).toEqual({
      items: { instruction: 1, gravity: 0, penetration: 1 },
      dimensions: { instruction: 1, physics: 1 },
      total: 2,
      missing: 0,
      agree: 1,
    });
    expect(response.correct).toBe(true);
    await expect.poll(async () => (await storedEvents(assignment.id)).some((e) => e.type === "submitted"), { timeout: 10_000 }).toBe(true);
    const events = await storedEvents(assignment.id);
    const media = events.filter((e) => e.type.startsWith("media_"));
    // on a fast machine: play, pause, seek, play, ended, replay, ended; a slow one may reach the end before K
    expect(media[0]).toMatchObject({ type: "media_play", payload: { time: 0, via: "keyboard" } });
    expect(media.find((e) => e.type === "media_seek")?.payload).toMatchObject({ to: 0, via: "keyboard" });
    expect(media.find((e) => e.type === "media_replay")?.payload).toMatchObject({ via: "keyboard" });
    expect(media.filter((e) => e.type === "media_ended").every((e) => e.payload.time === 1.5 && e.payload.duration === 1.5)).toBe(true);
    expect(media.at(-1)!.type).toBe("media_ended");
    expect(watchStats(media).shareWatched).toBe(1);
    const ratings = events.filter((e) => e.type === "rating_set");
    expect(ratings.map((e) => [e.payload.id, e.payload.value, e.payload.via])).toEqual([
      ["instruction", 2, "keyboard"],
      ["instruction", 1, "keyboard"],
      ["gravity", "no", "keyboard"],
      ["penetration", "no", "keyboard"],
    ]);

    // the researcher's dashboard shows the kind's section, at 1280 and 390 px
    await checkDashboardSection(
      browser,
      testInfo,
      study.slug,
      "rating-section",
      ["People (pooled)", "Generator gen-b", "Krippendorff", "Watching", "clip-1"],
      "rating",
    );
  });

  test("on a phone, taps play the clip and rate the rubric", async ({ browser }, testInfo) => {
    test.setTimeout(300_000);
    const study = await ratingStudy({ playback: "once" });
    const context = await browser.newContext({
      storageState: storageStatePath("annotator"),
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    const task = await openItem(page, study.slug);
    // watch once: no seek bar, no speed; the play button plays it to the end, then it is watched
    await expect(task.getByTestId("media-seek")).toHaveCount(0);
    await task.getByTestId("media-play").tap();
    await expect(task.getByTestId("media-play")).toHaveText(/Watched/, { timeout: 5_000 });
    await expect(task.getByTestId("media-play")).toBeDisabled();
    // a seek by key is reverted and logged blocked
    await task.getByTestId("media-player").focus();
    await page.keyboard.press("Home");
    await expect(task.getByTestId("media-player")).toHaveAttribute("data-time", "1.50");

    await task.locator('[data-rubric="instruction"]').getByRole("radio", { name: /^3/ }).tap();
    await task.locator('[data-rubric="gravity"]').getByRole("radio", { name: /^Yes/ }).tap();
    await task.locator('[data-rubric="penetration"]').getByRole("radio", { name: /^No/ }).tap();
    await page.getByRole("radio", { name: /^5:/ }).tap();
    await page.screenshot({ path: testInfo.outputPath("rating-touch-390.png"), fullPage: true });
    await page.getByRole("button", { name: "Submit", exact: true }).tap();
    const [assignment] = await assignmentsOf(study.id, "annotator");
    await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 15_000 }).toBe(1);
    const [response] = await responsesOf(assignment.id);
    expect(response.answer).toEqual({ ratings: { instruction: 3, gravity: "yes", penetration: "no" } });
    const events = await storedEvents(assignment.id);
    const media = events.filter((e) => e.type.startsWith("media_"));
    expect(media.map((e) => e.type)).toEqual(["media_play", "media_ended", "media_seek"]);
    expect(media[0].payload).toMatchObject({ via: "touch" });
    expect(media[2].payload).toMatchObject({ blocked: true, from: 1.5, to: 0 });
    expect(events.filter((e) => e.type === "rating_set").every((e) => e.payload.via === "touch")).toBe(true);
    await context.close();
  });
});
