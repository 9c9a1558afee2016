import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { assignmentsOf, responsesOf, storedEvents } from "./annotate-fixtures";
import { e2eDb } from "./db";
import { createMediaStudy, mediaStudiesDeletedAfterEach, openMediaItem, type MediaFixtureStudy } from "./media-fixtures";
import { storageStatePath } from "./users";
import { describeMediaEvent } from "../lib/tasks/shared/media/events";

/**
 * A real video file (the demo clip, WebM, served with Range) in a free-text item, in Chromium
 * against the built app: the annotator plays it, pauses, seeks by keyboard, plays to the end and
 * answers; the player's events are stored in the order they happened, and the researcher's replay
 * steps through them in that order, each described as the dashboard's timeline describes it.
 */

const CLIP = path.join(import.meta.dirname, "..", "scripts", "demo-data", "media", "demo-ball.webm");

const studies = mediaStudiesDeletedAfterEach();

async function videoStudy(): Promise<MediaFixtureStudy> {
  const study = await createMediaStudy(
    "free-text",
    async (studyId) => {
      const bytes = readFileSync(CLIP);
      const hash = createHash("sha256").update(bytes).digest("hex");
      await e2eDb().query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'video/webm', $2, $3) ON CONFLICT (hash) DO NOTHING`, [
        hash,
        bytes.length,
        bytes,
      ]);
      await e2eDb().query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
      return [
        {
          externalId: "ball-1",
          public: { question: "What does the ball do?", media: { video: `/api/assets/${hash}` }, maxChars: 200 },
          key: { answer: "SecretRef it bounces" },
          tags: { category: "physics" },
        },
      ];
    },
    { members: ["annotator"] },
  );
  studies.push(study);
  return study;
}

test.describe("a real video in a free-text item", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("plays, pauses, seeks and ends by keyboard; the events are stored in order and the replay steps through them in that order", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(300_000);
    const study = await videoStudy();
    const task = await openMediaItem(page, study.slug, "free-text");
    const player = task.getByTestId("media-player");
    // the container's duration, read by the browser from the served file
    await expect(task.getByTestId("media-clock")).not.toContainText("?", { timeout: 30_000 });
    await expect(task.getByTestId("media-seek")).toBeEnabled();

    await player.focus();
    await page.keyboard.press("Space");
    await expect(player).toHaveAttribute("data-playing", "true");
    await expect.poll(async () => Number(await player.getAttribute("data-time")), { timeout: 10_000 }).toBeGreaterThan(0.3);
    await page.keyboard.press("k");
    await expect(player).toHaveAttribute("data-playing", "false");
    await page.keyboard.press("Home");
    await expect.poll(async () => Number(await player.getAttribute("data-time"))).toBeLessThan(0.05);
    await page.keyboard.press("Space");
    await expect(player).toHaveAttribute("data-playing", "false", { timeout: 30_000 }); // played to the end
    await page.screenshot({ path: testInfo.outputPath("video-item-1280.png") });

    await task.getByRole("textbox").fill("It bounces");
    await page.getByRole("radio", { name: /^4:/ }).click();
    await page.getByRole("button", { name: "Submit", exact: true }).click();

    const [assignment] = await assignmentsOf(study.id, "annotator");
    await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await storedEvents(assignment.id)).some((e) => e.type === "submitted"), { timeout: 15_000 }).toBe(true);
    const events = await storedEvents(assignment.id);
    const media = events.filter((e) => e.type.startsWith("media_"));
    expect(media.map((e) => e.type)).toEqual(["media_play", "media_pause", "media_seek", "media_play", "media_ended"]);
    expect(media[0].payload).toMatchObject({ time: 0, via: "keyboard" });
    expect(media[2].payload).toMatchObject({ to: 0, via: "keyboard" });
    const ended = media[4].payload as { time: number; duration: number };
    expect(ended.time).toBeCloseTo(ended.duration, 1);
    // stored in the order they happened: seq and the browser's clock agree
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const { rows: clock } = await e2eDb().query<{ t: Date }>(`SELECT "clientTime" AS t FROM "Event" WHERE "assignmentId" = $1 ORDER BY seq`, [assignment.id]);
    for (let i = 1; i < clock.length; i++) expect(clock[i].t.getTime()).toBeGreaterThanOrEqual(clock[i - 1].t.getTime());

    // the researcher's replay: step through every event, in order, with the media events described
    const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
    const staff = await researcher.newPage();
    await staff.goto(`/research/studies/${study.slug}/replay/${assignment.id}`);
    const position = staff.getByTestId("replay-position");
    await expect(position).toContainText(`Event 1 of ${events.length}`, { timeout: 60_000 });
    await staff.getByRole("button", { name: "« Start" }).click();
    const shown: string[] = [];
    for (let i = 0; i < events.length; i++) {
      await staff.getByRole("button", { name: "Next ▶" }).click();
      await expect(position).toContainText(`Event ${i + 1} of ${events.length}`);
      shown.push((await staff.getByTestId("replay-current").innerText()).trim());
    }
    expect(shown.map((line) => Number(/^#(\d+)/.exec(line)?.[1]))).toEqual(events.map((e) => e.seq));
    const described = events.flatMap((e, i) => {
      const text = describeMediaEvent(e as Parameters<typeof describeMediaEvent>[0]);
      return text ? [[i, text] as const] : [];
    });
    expect(described.length).toBe(5);
    for (const [i, text] of described) expect(shown[i]).toContain(text);
    await staff.screenshot({ path: testInfo.outputPath("video-replay-1280.png") });
    await researcher.close();
  });
});
