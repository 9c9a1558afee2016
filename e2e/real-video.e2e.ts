import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test, expect, type Page } from "@playwright/test";
import { assignmentsOf, responsesOf, storedEvents } from "./annotate-fixtures";
import { e2eDb } from "./db";
import { createMediaStudy, mediaStudiesDeletedAfterEach, openMediaItem, type MediaFixtureStudy } from "./media-fixtures";
import { storageStatePath } from "./users";

/**
 * Videos as researchers bring them: small ffmpeg-made clips (a 4 s MP4 with its index at the front,
 * and a 4 s WebM) in an EgoSchema-style choice item. A small file's metadata can arrive before the
 * page is hydrated, so the player must read the element's state, not only wait for its events: the
 * clock shows the length, the seek bar spans it, the stored events carry it, the dashboard's share
 * watched is a number, and the researcher's item page plays the clip (recording nothing); the
 * EgoSchema submission file is linked from Exports.
 */

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const CLIPS = [
  { file: "testsrc-4s.mp4", mime: "video/mp4" },
  { file: "testsrc-4s.webm", mime: "video/webm" },
] as const;

const studies = mediaStudiesDeletedAfterEach();

async function choiceStudyWith(file: string, mime: string): Promise<MediaFixtureStudy> {
  const study = await createMediaStudy(
    "choice",
    async (studyId) => {
      const bytes = readFileSync(path.join(FIXTURES, file));
      const hash = createHash("sha256").update(bytes).digest("hex");
      await e2eDb().query(`INSERT INTO "Asset" (hash, mime, size, bytes, "durationS") VALUES ($1, $2, $3, $4, 4) ON CONFLICT (hash) DO NOTHING`, [
        hash,
        mime,
        bytes.length,
        bytes,
      ]);
      await e2eDb().query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
      return [
        {
          externalId: "q-1",
          public: {
            question: "What does the camera wearer do?",
            options: ["cooks", "cleans", "reads", "sleeps"].map((text, i) => ({ id: String(i), text })),
            media: { video: `/api/assets/${hash}` },
          },
          key: { answer: "1" },
          tags: { source: "egoschema" },
        },
      ];
    },
    { members: ["annotator"] },
  );
  studies.push(study);
  return study;
}

async function expectLength(page: Page) {
  const clock = page.getByTestId("media-clock").first();
  await expect(clock).toContainText("/ 0:04", { timeout: 30_000 });
  const seek = page.getByTestId("media-seek").first();
  await expect(seek).toBeEnabled();
  expect(Number(await seek.getAttribute("max"))).toBeCloseTo(4, 0);
}

test.describe("real video files", () => {
  test.use({ storageState: storageStatePath("annotator") });

  for (const clip of CLIPS) {
    test(`${clip.file}: the length is known at once, the events carry it, share watched is a number, and the item page plays it`, async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(240_000);
      const study = await choiceStudyWith(clip.file, clip.mime);
      const task = await openMediaItem(page, study.slug, "choice");
      await expectLength(page);
      const player = task.getByTestId("media-player");
      await player.focus();
      await page.keyboard.press("Space");
      await expect(player).toHaveAttribute("data-playing", "false", { timeout: 30_000 }); // played to the end
      await expect(task.getByTestId("media-play")).toHaveText(/Replay/);
      await page.screenshot({ path: testInfo.outputPath(`${clip.file}-item-1280.png`) });

      await page.getByRole("radio", { name: /cleans/ }).click();
      await page.getByRole("radio", { name: /^4:/ }).click();
      await page.getByRole("button", { name: "Submit", exact: true }).click();
      const [assignment] = await assignmentsOf(study.id, "annotator");
      await expect.poll(async () => (await responsesOf(assignment.id)).length, { timeout: 15_000 }).toBe(1);
      await expect.poll(async () => (await storedEvents(assignment.id)).some((e) => e.type === "media_ended"), { timeout: 15_000 }).toBe(true);
      const media = (await storedEvents(assignment.id)).filter((e) => e.type.startsWith("media_"));
      for (const event of media) expect(Number(event.payload.duration)).toBeCloseTo(4, 0);

      const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
      const staff = await researcher.newPage();
      await staff.goto(`/research/studies/${study.slug}/dashboard`);
      const watch = staff.getByTestId("watch-table");
      await expect(watch).toBeVisible({ timeout: 60_000 });
      await expect(watch).toContainText(/share watched 100\.0 %/);

      await staff.goto(`/research/studies/${study.slug}/items/${study.itemIds[0]}`);
      await expectLength(staff);
      // the key beside the item, the answer and its correctness in the kind's own terms
      await expect(staff.getByTestId("item-key").locator('[data-keyed="true"]')).toContainText("cleans");
      await expect(staff.getByRole("cell", { name: /"choice":"1"/ })).toBeVisible();
      await expect(staff.getByText("correct", { exact: true })).toBeVisible();
      const play = staff.getByTestId("media-play").first();
      await expect(play).toBeEnabled();
      const eventsBefore = (await storedEvents(assignment.id)).length;
      await play.click();
      await expect
        .poll(async () => Number(await staff.getByTestId("media-player").first().getAttribute("data-time")), { timeout: 10_000 })
        .toBeGreaterThan(0.3);
      await staff.screenshot({ path: testInfo.outputPath(`${clip.file}-item-page-1280.png`) });
      expect((await storedEvents(assignment.id)).length).toBe(eventsBefore);

      // the benchmark's submission file, linked from Exports
      await staff.goto(`/research/studies/${study.slug}/exports`);
      const files = staff.getByTestId("submission-files");
      await expect(files).toContainText("EgoSchema");
      const href = await files.getByRole("link", { name: "JSON" }).getAttribute("href");
      const reply = await staff.request.get(href!);
      expect(reply.status()).toBe(200);
      expect(await reply.json()).toEqual({ "q-1": 1 });
      await researcher.close();
    });
  }
});
