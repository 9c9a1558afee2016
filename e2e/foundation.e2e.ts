import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { test, expect } from "@playwright/test";
import { generateEnactDemoBatch } from "../scripts/demo-data/generate-enact-batch";
import { e2eDb } from "./db";
import { storageStatePath } from "./users";

async function zipFolder(folder: string, files: string[]): Promise<Buffer> {
  const zip = new JSZip();
  for (const file of files) zip.file(file, await readFile(path.join(folder, file)));
  return zip.generateAsync({ type: "nodebuffer" });
}

test.describe("admin imports a batch", () => {
  test.use({ storageState: storageStatePath("admin") });
  let workDir: string;

  test.beforeAll(() => {
    workDir = mkdtempSync(path.join(os.tmpdir(), "yardstick-e2e-batch-"));
  });
  test.afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  test("creates a study, uploads a zip, sees its items; a broken batch is refused and changes nothing", async ({ page }, testInfo) => {
    const slug = `import-e2e-${Date.now().toString(36)}`;
    const batch = await generateEnactDemoBatch({
      outDir: path.join(workDir, "batch"),
      seed: 3,
      perKindPerSteps: 1,
      minSteps: 3,
      maxSteps: 4,
      practicePerKind: 0,
    });

    await page.goto("/research/studies/new");
    await page.getByLabel("Title").fill("Import end-to-end");
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create study" }).click();
    await expect(page).toHaveURL(new RegExp(`/research/studies/${slug}$`));
    await expect(page.getByText("No batches yet")).toBeVisible();

    // a broken batch first: one line points at a missing image
    const items = (await readFile(path.join(batch.outDir, "items.jsonl"), "utf8")).trim().split("\n");
    const brokenLine = items.findIndex((line) => JSON.parse(line).kind === "enact-forward");
    const broken = JSON.parse(items[brokenLine]);
    broken.public.initialImage = "img/missing.png";
    items[brokenLine] = JSON.stringify(broken);
    const brokenZip = new JSZip();
    brokenZip.file("items.jsonl", items.join("\n"));
    const imageFiles = batch.items.flatMap((item) =>
      "initialImage" in item.public ? [item.public.initialImage, ...item.public.candidates] : item.public.observations,
    );
    for (const file of new Set(imageFiles)) brokenZip.file(file, await readFile(path.join(batch.outDir, file)));

    // opened from the menu, the page preselects no study (importing into the wrong one is easy to miss)
    await page.goto("/admin/import");
    await expect(page.locator('form[data-ready="true"]')).toBeVisible();
    await expect(page.getByTestId("study-select")).toHaveValue("");
    // two versions of a study are told apart in the picker
    await expect(page.getByTestId("study-select").locator(`option[value="${slug}"]`)).toContainText("version 1");
    await page
      .getByTestId("zip-input")
      .setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: await brokenZip.generateAsync({ type: "nodebuffer" }) });
    await expect(page.getByRole("button", { name: "Import", exact: true })).toBeDisabled();

    // opened from the study (its "Import a batch" link): that study is chosen
    await page.goto(`/admin/import?study=${slug}`);
    await expect(page.locator('form[data-ready="true"]')).toBeVisible();
    await expect(page.getByTestId("study-select")).toHaveValue(slug);
    await page
      .getByTestId("zip-input")
      .setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: await brokenZip.generateAsync({ type: "nodebuffer" }) });
    await expect(page.getByTestId("chosen-batch")).toContainText("broken.zip");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const alert = page.getByTestId("import-errors");
    await expect(alert).toContainText(`items.jsonl, line ${brokenLine + 1}, field public.initialImage`);
    await expect(alert).toContainText('image "img/missing.png" not found');
    await expect(alert).toContainText("Nothing was imported");
    // the headline is the summary: the error is said once, in the list
    await expect(page.getByTestId("import-error-headline")).toContainText('Batch "broken.zip" was not imported');
    await expect(page.getByTestId("import-error-headline")).not.toContainText("img/missing.png");

    // many errors with long paths: every line wraps inside the box, at desktop and phone widths
    const manyZip = new JSZip();
    const longDir = "a-very-long-folder-name-from-a-benchmark-release/".repeat(4);
    manyZip.file(
      "items.jsonl",
      Array.from({ length: 60 }, (_, index) => items[index % items.length])
        .map((line, index) => {
          const item = JSON.parse(line);
          item.id = `many-${index}`;
          if ("initialImage" in item.public) item.public.initialImage = `${longDir}missing-${index}.png`;
          else item.public.observations = [`${longDir}missing-${index}-a.png`, `${longDir}missing-${index}-b.png`];
          return JSON.stringify(item);
        })
        .join("\n"),
    );
    for (const file of new Set(imageFiles)) manyZip.file(file, await readFile(path.join(batch.outDir, file)));
    await page
      .getByTestId("zip-input")
      .setInputFiles({ name: "many-errors.zip", mimeType: "application/zip", buffer: await manyZip.generateAsync({ type: "nodebuffer" }) });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByTestId("import-error-headline")).toContainText('Batch "many-errors.zip" was not imported');
    await expect(page.getByTestId("import-error-list").locator("li")).toHaveCount(50);
    await expect(page.getByTestId("import-errors")).toContainText("there may be more");
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      const overflow = await page
        .getByTestId("import-errors")
        .evaluate((box) =>
          [box, ...box.querySelectorAll("li, p")]
            .filter((element) => element.scrollWidth > element.clientWidth + 1)
            .map((element) => element.textContent?.slice(0, 60)),
        );
      expect(overflow, `text overflowing its box at ${viewport.width}x${viewport.height}`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`import-errors-${viewport.width}x${viewport.height}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    const { rows: before } = await e2eDb().query(`SELECT count(*)::int AS n FROM "Item" i JOIN "Study" s ON s.id = i."studyId" WHERE s.slug = $1`, [slug]);
    expect(before[0].n).toBe(0);

    // not a zip at all: an issue of the file itself, whose name the headline already says (said once)
    await page.getByTestId("zip-input").setInputFiles({ name: "not-a-zip.zip", mimeType: "application/zip", buffer: Buffer.from("this is not a zip archive") });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByTestId("import-error-headline")).toContainText("not-a-zip.zip");
    await expect(page.getByTestId("import-error-list")).toContainText("not a readable zip archive");
    await expect(page.getByTestId("import-error-list")).not.toContainText("not-a-zip.zip");

    // the good batch
    await page
      .getByTestId("zip-input")
      .setInputFiles({ name: "kitchen.zip", mimeType: "application/zip", buffer: await zipFolder(batch.outDir, ["items.jsonl", ...new Set(imageFiles)]) });
    await expect(page.getByTestId("chosen-batch")).toContainText("kitchen.zip");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByTestId("import-result")).toContainText(`(${batch.items.length} new, 0 already present)`);
    await page.screenshot({ path: testInfo.outputPath("import-done.png") });

    // importing it again is a no-op that says so
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByTestId("import-result")).toContainText("nothing changed");

    await page.getByRole("link", { name: "See the study's items" }).click();
    await expect(page.getByRole("heading", { name: "Items" })).toBeVisible();
    await expect(page.getByText(`${batch.items.length} items`)).toBeVisible();
    await expect(page.getByRole("link", { name: batch.items[0].id })).toBeVisible();
    // filter by kind and by tag
    await page.getByRole("link", { name: /^enact-inverse/ }).click();
    await expect(page.getByText(/items match the filter/)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("study-items.png"), fullPage: true });

    const { rows } = await e2eDb().query(`SELECT count(*)::int AS n FROM "Item" i JOIN "Study" s ON s.id = i."studyId" WHERE s.slug = $1`, [slug]);
    expect(rows[0].n).toBe(batch.items.length);
    const { rows: batches } = await e2eDb().query(`SELECT count(*)::int AS n FROM "Batch" b JOIN "Study" s ON s.id = b."studyId" WHERE s.slug = $1`, [slug]);
    expect(batches[0].n).toBe(1);
  });
});

test.describe("admin creates a user", () => {
  test.use({ storageState: storageStatePath("admin") });

  test("the form checks the shared schema before sending, shows the server's refusal, and lists the new user", async ({ page }) => {
    const email = `form-${Date.now().toString(36)}@e2e.test`;
    await page.goto("/admin/users");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Create user" }) });
    let posted = 0;
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/admin/users") posted += 1;
    });
    await form.locator('input[name="name"]').fill("Form Person");
    await form.locator('input[name="email"]').fill(email);
    await form.locator('input[name="password"]').fill("short");
    await form.getByRole("button", { name: "Create user" }).click();
    await expect(form.getByText("at least 8 characters")).toBeVisible();
    expect(posted).toBe(0);

    await form.locator('input[name="password"]').fill("long enough password");
    await form.locator('select[name="role"]').selectOption("RESEARCHER");
    await form.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByRole("cell", { name: email })).toBeVisible();
    await expect(form.locator('input[name="email"]')).toHaveValue("");
    const { rows } = await e2eDb().query(`SELECT role::text AS role FROM "User" WHERE email = $1`, [email]);
    expect(rows).toEqual([{ role: "RESEARCHER" }]);

    await form.locator('input[name="name"]').fill("Form Person again");
    await form.locator('input[name="email"]').fill(email);
    await form.locator('input[name="password"]').fill("long enough password");
    await form.getByRole("button", { name: "Create user" }).click();
    await expect(form.getByText(`A user with the email ${email} exists already`)).toBeVisible();
    expect(posted).toBe(2);
    await e2eDb().query(`DELETE FROM "User" WHERE email = $1`, [email]);
  });
});

test.describe("an annotator", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("is refused the admin page", async ({ page }, testInfo) => {
    const response = await page.goto("/admin/users");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("annotator-refused.png") });
  });
});
