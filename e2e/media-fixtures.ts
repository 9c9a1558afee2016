import { createHash, randomUUID } from "node:crypto";
import { expect, test, type Browser, type Locator, type Page, type TestInfo } from "@playwright/test";
import { deleteStudy } from "./annotate-fixtures";
import { renderClip, CLIP_FPS, CLIP_PROMPTS, type ClipFlaw, type ClipPrompt } from "../scripts/demo-data/clips";
import { closeE2eDb, e2eDb } from "./db";
import { e2eUsers, storageStatePath, type E2eUserName } from "./users";

/**
 * Studies of the generic media kinds (rating, pairwise) for their specs: drawn clips (PNG frames at
 * 8 fps, scripts/demo-data/clips.ts) stored as assets of the study, and items written straight
 * into the run's database (removed again by deleteStudy).
 */

export interface MediaFixtureStudy {
  id: string;
  slug: string;
  itemIds: string[];
}

const cuid = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 20)}`;

/** Stores a clip's frames as assets of the study; returns the frame URLs. */
export async function storeClip(studyId: string, prompt: ClipPrompt, flaw: ClipFlaw): Promise<string[]> {
  const db = e2eDb();
  const urls: string[] = [];
  for (const png of await renderClip(prompt, flaw)) {
    const hash = createHash("sha256").update(png).digest("hex");
    await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, png.length, png]);
    await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
    urls.push(`/api/assets/${hash}`);
  }
  return urls;
}

export function clipMedia(frames: string[], prompt: ClipPrompt, cutAt?: number) {
  return { text: `Prompt: ${CLIP_PROMPTS[prompt]}`, frames, fps: CLIP_FPS, ...(cutAt ? { cutAt } : {}) };
}

/** A study whose items are given by `build` (called with the study id, to store clips first). */
export async function createMediaStudy(
  kind: string,
  build: (studyId: string) => Promise<Array<{ externalId: string; public: unknown; key: unknown; tags?: Record<string, unknown> }>>,
  options: { members?: E2eUserName[]; taskSettings?: Record<string, unknown> } = {},
): Promise<MediaFixtureStudy> {
  const db = e2eDb();
  const id = cuid("st");
  const slug = `${kind}-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "taskSettings", "pseudonymSalt", "updatedAt")
     VALUES ($1, $2, $3, '## How to work\n\nWatch, then answer.', 1, 'LIKERT_5', 'OPEN', 'MEDIA-E2E', 60, $4, $5, now())`,
    [id, slug, `${kind} (e2e)`, JSON.stringify(options.taskSettings ? { [kind]: options.taskSettings } : {}), randomUUID()],
  );
  const batchId = cuid("ba");
  const items = await build(id);
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'media (e2e)', $3, $4)`, [
    batchId,
    id,
    randomUUID(),
    items.length,
  ]);
  for (const name of options.members ?? [])
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  const itemIds: string[] = [];
  for (const item of items) {
    const itemId = cuid("it");
    itemIds.push(itemId);
    await db.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, false, $9, now())`,
      [itemId, id, batchId, item.externalId, kind, JSON.stringify(item.public), JSON.stringify(item.key), JSON.stringify(item.tags ?? {}), randomUUID()],
    );
  }
  return { id, slug, itemIds };
}

/** Opens the study's work page and waits for its item of `kind`; the task's element. */
export async function openMediaItem(page: Page, slug: string, kind: string): Promise<Locator> {
  await page.goto(`/s/${slug}/work`);
  const task = page.getByTestId("task");
  await expect(task).toHaveAttribute("data-kind", kind, { timeout: 90_000 });
  return task;
}

/** The spec's studies, deleted after each test (push every study made); the database connection closed after the spec. */
export function mediaStudiesDeletedAfterEach(): MediaFixtureStudy[] {
  const studies: MediaFixtureStudy[] = [];
  test.afterEach(async () => {
    for (const study of studies.splice(0)) await deleteStudy(study.id);
  });
  test.afterAll(async () => {
    await closeE2eDb();
  });
  return studies;
}

/**
 * As a researcher, the study's dashboard section `testId` shows each of `texts`; it is
 * photographed at 1280 and at 390 px wide (`<name>-dashboard-<width>.png` in the test's output).
 */
export async function checkDashboardSection(
  browser: Browser,
  testInfo: TestInfo,
  slug: string,
  testId: string,
  texts: readonly string[],
  name: string,
): Promise<void> {
  const researcher = await browser.newContext({ storageState: storageStatePath("researcher") });
  const staff = await researcher.newPage();
  await staff.goto(`/research/studies/${slug}/dashboard`);
  const section = staff.getByTestId(testId);
  await expect(section).toBeVisible({ timeout: 60_000 });
  for (const text of texts) await expect(section).toContainText(text);
  await section.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await staff.screenshot({ path: testInfo.outputPath(`${name}-dashboard-1280.png`) });
  await staff.setViewportSize({ width: 390, height: 844 });
  await section.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await staff.screenshot({ path: testInfo.outputPath(`${name}-dashboard-390.png`) });
  await researcher.close();
}
