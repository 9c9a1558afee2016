import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatch, importBatchFromPath, readBatchSource } from "@/lib/import";
import type { ImportErrorDetails, ImportIssue } from "@/lib/import/types";
import { taskKinds } from "@/lib/tasks";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, image, jsonl, writeFolder, zipOf, type BatchFiles, removeTempFolders } from "@/tests/fixtures/import-batches";

afterAll(removeTempFolders);

const ENACT_ROOT = path.resolve(import.meta.dirname, "../../data/enact-sample");

async function counts() {
  const [batches, items, assets, studyAssets, audits] = await Promise.all([
    db.batch.count(),
    db.item.count(),
    db.asset.count(),
    db.studyAsset.count(),
    db.auditLog.count(),
  ]);
  return { batches, items, assets, studyAssets, audits };
}

async function importFolder(files: BatchFiles, studySlug: string, options: { maxImageBytes?: number } = {}) {
  return importBatch({ source: await readBatchSource({ folder: await writeFolder(files) }), studySlug, ...options });
}

/** Runs an import that must fail with INVALID and change nothing; returns its issues. */
async function expectRejected(run: () => Promise<unknown>): Promise<{ issues: ImportIssue[]; error: AppError }> {
  const before = await counts();
  const error = await run().then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error, "the import should have failed").toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("INVALID");
  expect(await counts()).toEqual(before);
  return { issues: ((error as AppError).details as ImportErrorDetails).errors, error: error as AppError };
}

let studySlug: string;
let studyId: string;

beforeEach(async () => {
  await resetDatabase();
  const study = await createStudy();
  studySlug = study.slug;
  studyId = study.id;
});

describe("importBatch: a valid batch", () => {
  it("stores items, each image once, asset URLs in public, the key, tags, flags and an audit entry", async () => {
    const admin = await createUser("ADMIN");
    // both items use img/start.png as their first observation
    const files = await batchFiles([
      forwardItem("a", { tags: { steps: 3, hand: "right", mirrored: false } }),
      forwardItem("b", { practice: true, order: [0, 1] }),
      forwardItem("c", { gold: true }),
    ]);
    const result = await importBatch({ source: await readBatchSource({ folder: await writeFolder(files, "week-1") }), studySlug, importedById: admin.id });
    expect(result).toMatchObject({ status: "imported", itemCount: 3, newItems: 3, skippedExisting: 0, assetsStored: 7 });
    expect(result.message).toBe(`Imported batch "week-1" into study "${studySlug}": 3 items (3 new, 0 already present), 7 images (7 stored, 0 already stored)`);

    expect(await counts()).toEqual({ batches: 1, items: 3, assets: 7, studyAssets: 7, audits: 1 });
    const batch = await db.batch.findUniqueOrThrow({ where: { id: result.batchId } });
    expect(batch).toMatchObject({ studyId, fileName: "week-1", itemCount: 3, importedById: admin.id, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const items = await db.item.findMany({ orderBy: { externalId: "asc" } });
    expect(items.map((item) => [item.externalId, item.kind, item.practice, item.gold])).toEqual([
      ["a", "enact-forward", false, false],
      ["b", "enact-forward", true, false],
      ["c", "enact-forward", false, true],
    ]);
    const [a, b] = items;
    expect(a.tags).toEqual({ steps: 3, hand: "right", mirrored: false });
    expect(a.key).toEqual({ order: [1, 0] });
    expect(b.key).toEqual({ order: [0, 1] });
    const publicA = a.public as { initialImage: string; actions: string[]; candidates: string[] };
    const publicB = b.public as typeof publicA;
    expect(publicA.actions).toEqual(forwardItem("a").public.actions);
    for (const url of [publicA.initialImage, ...publicA.candidates]) expect(url).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);
    expect(publicA.initialImage).toBe(publicB.initialImage);

    // the shared image is one Asset with the right bytes and type
    const startHash = publicA.initialImage.split("/").pop()!;
    const asset = await db.asset.findUniqueOrThrow({ where: { hash: startHash } });
    expect(Buffer.from(asset.bytes!)).toEqual(files["img/start.png"]);
    expect(asset).toMatchObject({ mime: "image/png", size: (files["img/start.png"] as Buffer).length });
    expect(await db.studyAsset.count({ where: { studyId, assetHash: startHash } })).toBe(1);

    const audit = await db.auditLog.findFirstOrThrow();
    expect(audit).toMatchObject({ action: "batch.import", actorId: admin.id, target: `batch:${result.batchId}` });
    expect(audit.detail).toMatchObject({ status: "imported", studyId, newItems: 3, assetsStored: 7 });
  });

  it("stores an image shared with an earlier batch or another study once, and links it to each study", async () => {
    await importFolder(await batchFiles([forwardItem("a")]), studySlug);
    const other = await createStudy();
    const again = await importFolder(await batchFiles([forwardItem("a")]), other.slug);
    expect(again).toMatchObject({ status: "imported", newItems: 1, assetsStored: 0 });
    expect(await counts()).toMatchObject({ batches: 2, items: 2, assets: 3, studyAssets: 6 });
  });

  it("accepts JPEG and WebP images and records their types", async () => {
    const files = await batchFiles([forwardItem("a", { candidates: ["img/a.jpg", "img/b.webp"] })]);
    files["img/a.jpg"] = await image(20, "jpeg");
    files["img/b.webp"] = await image(21, "webp");
    await importFolder(files, studySlug);
    expect((await db.asset.findMany({ select: { mime: true }, orderBy: { mime: "asc" } })).map((asset) => asset.mime)).toEqual([
      "image/jpeg",
      "image/png",
      "image/webp",
    ]);
  });

  it("skips an item already present with the same content from another batch file, and says so", async () => {
    await importFolder(await batchFiles([forwardItem("a"), forwardItem("b")]), studySlug);
    const result = await importFolder(await batchFiles([forwardItem("b"), forwardItem("c")]), studySlug);
    expect(result).toMatchObject({ status: "imported", itemCount: 2, newItems: 1, skippedExisting: 1 });
    expect(result.message).toContain("2 items (1 new, 1 already present)");
    expect(await db.item.count()).toBe(3);
    const b = await db.item.findUniqueOrThrow({ where: { studyId_externalId: { studyId, externalId: "b" } }, include: { batch: true } });
    expect(b.batch.createdAt.getTime()).toBeLessThan((await db.batch.findUniqueOrThrow({ where: { id: result.batchId } })).createdAt.getTime() + 1);
  });

  it("selects the study by id as well as by slug", async () => {
    const result = await importBatch({ source: await readBatchSource({ folder: await writeFolder(await batchFiles([forwardItem("a")])) }), studyId });
    expect(result.status).toBe("imported");
    await expect(importFolder(await batchFiles([forwardItem("a")]), "no-such-study")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'study "no-such-study" not found',
    });
  });
});

describe("importBatch: the same batch again", () => {
  it("reports 'unchanged' for a folder imported again, and for a zip of the same content (with or without its folder)", async () => {
    const files = await batchFiles([forwardItem("a"), forwardItem("b")]);
    const first = await importFolder(files, studySlug);
    expect(first.status).toBe("imported");
    const afterFirst = await counts();

    const again = await importFolder(files, studySlug);
    expect(again).toMatchObject({ status: "unchanged", batchId: first.batchId, newItems: 0, assetsStored: 0 });
    expect(again.message).toMatch(/is already imported into study .*: nothing changed$/);

    for (const zip of [await zipOf(files), await zipOf(files, { wrap: "batch" })]) {
      const fromZip = await importBatch({ source: await readBatchSource({ zip, fileName: "batch.zip" }), studySlug });
      expect(fromZip).toMatchObject({ status: "unchanged", batchId: first.batchId });
      expect(fromZip.message).toContain('Batch "batch.zip" is already imported');
    }
    // nothing but the audit trail of the attempts
    expect(await counts()).toEqual({ ...afterFirst, audits: afterFirst.audits + 3 });
    const audits = await db.auditLog.findMany({ orderBy: { id: "asc" } });
    expect(audits.map((audit) => (audit.detail as { status: string }).status)).toEqual(["imported", "unchanged", "unchanged", "unchanged"]);
  });

  it("creates one batch when the same batch is imported concurrently", async () => {
    const folder = await writeFolder(await batchFiles([forwardItem("a"), forwardItem("b"), forwardItem("c")]));
    const runs = await Promise.all(Array.from({ length: 4 }, async () => importBatch({ source: await readBatchSource({ folder }), studySlug })));
    expect(runs.map((run) => run.status).sort()).toEqual(["imported", "unchanged", "unchanged", "unchanged"]);
    expect(new Set(runs.map((run) => run.batchId)).size).toBe(1);
    expect(await counts()).toMatchObject({ batches: 1, items: 3, assets: 7, studyAssets: 7 });
  });

  it("imports two different batches sharing items concurrently without duplicates", async () => {
    const one = await writeFolder(await batchFiles([forwardItem("a"), forwardItem("b")]));
    const two = await writeFolder(await batchFiles([forwardItem("b"), forwardItem("c")]));
    const runs = await Promise.all([one, two].map(async (folder) => importBatch({ source: await readBatchSource({ folder }), studySlug })));
    expect(runs.map((run) => run.status)).toEqual(["imported", "imported"]);
    expect(runs.reduce((sum, run) => sum + run.newItems, 0)).toBe(3);
    expect(await db.item.count()).toBe(3);
  });
});

describe("importBatch: failures name file, line and field and change nothing", () => {
  beforeEach(async () => {
    // an earlier import, so that "nothing changed" is checked against a non-empty database
    await importFolder(await batchFiles([forwardItem("existing")]), studySlug);
  });

  it("malformed JSON on line 3", async () => {
    const files = await batchFiles([forwardItem("a")]);
    files["items.jsonl"] = jsonl([forwardItem("a"), forwardItem("b", { candidates: ["img/a-a.png", "img/a-b.png"] }), '{"id": "c", "kind": ']);
    const { issues, error } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([{ file: "items.jsonl", line: 3, message: expect.stringMatching(/^not valid JSON \(/) }]);
    expect(error.message).toMatch(
      /^Batch "batch" was not imported into study ".*" \(nothing was written\): 1 error\. Each is an entry that gives no item: to import the 2 good entries and skip these 1, import again choosing "skip bad entries" \(skipInvalid=1\)\n {2}items\.jsonl line 3: not valid JSON/,
    );
  });

  it("unknown kind", async () => {
    const files = await batchFiles([forwardItem("a", { kind: "enact-sideways" })]);
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([
      { file: "items.jsonl", line: 1, field: "kind", message: `unknown task kind "enact-sideways"; known kinds: ${taskKinds.join(", ")}` },
    ]);
  });

  it("missing image", async () => {
    const files = await batchFiles([forwardItem("a"), forwardItem("b")]);
    delete files["img/b-b.png"];
    const { issues, error } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([{ file: "items.jsonl", line: 2, field: "public.candidates[1]", message: 'image "img/b-b.png" not found in the batch' }]);
    expect(error.message).toContain('items.jsonl line 2, field public.candidates[1]: image "img/b-b.png" not found in the batch');
  });

  it("a text file named x.png", async () => {
    const files = await batchFiles([forwardItem("a", { candidates: ["img/x.png", "img/a-b.png"] })]);
    files["img/x.png"] = "I am not a picture\n";
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([
      {
        file: "items.jsonl",
        line: 1,
        field: "public.candidates[0]",
        message: 'image "img/x.png" is not a PNG, JPEG or WebP image: it starts like text: "I am not a picture\\n"',
      },
    ]);
  });

  it("an image over the default 10 MiB limit, and over a configured limit", async () => {
    const files = await batchFiles([forwardItem("a")]);
    const png = files["img/a-a.png"] as Buffer;
    files["img/a-a.png"] = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([
      {
        file: "items.jsonl",
        line: 1,
        field: "public.candidates[0]",
        message: 'image "img/a-a.png" is 10485761 bytes, over the 10 MiB (10485760 bytes) limit per image',
      },
    ]);
    const small = await batchFiles([forwardItem("a")]);
    const limited = await expectRejected(() => importFolder(small, studySlug, { maxImageBytes: 50 }));
    expect(limited.issues[0]).toMatchObject({
      line: 1,
      field: "public.initialImage",
      message: expect.stringMatching(/^image "img\/start\.png" is \d+ bytes, over the 50 bytes limit per image$/),
    });
  });

  it("a duplicate id with other content within one batch", async () => {
    const files = await batchFiles([forwardItem("a"), forwardItem("b")]);
    files["items.jsonl"] = jsonl([forwardItem("a"), forwardItem("b"), forwardItem("a", { order: [0, 1] })]);
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([
      { file: "items.jsonl", line: 3, field: "id", message: 'duplicate id "a": already on line 1 with other content; ids must be unique in a batch' },
    ]);
  });

  it("a duplicate id with other content against an existing item", async () => {
    const files = await batchFiles([forwardItem("new"), forwardItem("existing", { order: [0, 1] })]);
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([
      { file: "items.jsonl", line: 2, field: "id", message: `item "existing" already exists in study "${studySlug}" (batch "batch") with different content` },
    ]);
  });

  it("a path with ../", async () => {
    const files = await batchFiles([forwardItem("a", { candidates: ["img/a-a.png", "img/../../outside.png"] })]);
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues).toEqual([
      {
        file: "items.jsonl",
        line: 1,
        field: "public.candidates[1]",
        message: 'image path "img/../../outside.png" contains ".." and would leave the batch folder',
      },
    ]);
  });

  it("an absolute path (even to an existing image)", async () => {
    const files = await batchFiles([forwardItem("a")]);
    const folder = await writeFolder(files);
    const absolute = path.join(folder, "img/a-a.png");
    await writeFile(path.join(folder, "items.jsonl"), jsonl([forwardItem("a", { initialImage: absolute })]));
    const { issues } = await expectRejected(async () => importBatch({ source: await readBatchSource({ folder }), studySlug }));
    expect(issues).toEqual([
      {
        file: "items.jsonl",
        line: 1,
        field: "public.initialImage",
        message: `image path "${absolute}" is an absolute path; paths must be relative to the batch folder`,
      },
    ]);
  });

  it("a zip with an entry whose path is outside the folder", async () => {
    const files = await batchFiles([forwardItem("a")]);
    const zip = await zipOf({ ...files, "../evil.png": await image(66) });
    const { issues, error } = await expectRejected(() => importBatchFromZip(zip, "evil.zip"));
    expect(issues).toEqual([{ file: "evil.zip", message: 'entry "../evil.png" contains ".." and would be extracted outside the batch folder' }]);
    expect(error.message).toContain('evil.zip: entry "../evil.png"');
  });

  it("collects every error of a batch in one report (up to the cap)", async () => {
    const files = await batchFiles([forwardItem("a"), forwardItem("existing")]);
    files["items.jsonl"] = jsonl([
      forwardItem("a", { kind: "x" }),
      "nope",
      forwardItem("b", { candidates: ["missing.png", "img/a-a.png"] }),
      forwardItem("existing", { order: [0, 1] }),
    ]);
    const { issues } = await expectRejected(() => importFolder(files, studySlug));
    expect(issues.map((issue) => [issue.line, issue.field])).toEqual([
      [1, "kind"],
      [2, undefined],
      [3, "public.candidates[0]"],
      [4, "id"],
    ]);
    const many = await batchFiles([forwardItem("a")]);
    many["items.jsonl"] = Array.from({ length: 120 }, (_, i) => `bad line ${i}`).join("\n");
    const capped = await expectRejected(() => importFolder(many, studySlug));
    expect(capped.issues).toHaveLength(50);
    expect((capped.error.details as ImportErrorDetails).truncated).toBe(true);
    expect(capped.error.message).toContain("50 errors, where checking stopped (there may be more)");
  });

  it("a database failure in the middle of the write (on its last insert) rolls back everything", async () => {
    // a real error from PostgreSQL on the audit row, the transaction's last insert
    await db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION yardstick_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'forced failure for the rollback test'; END $$ LANGUAGE plpgsql`,
    );
    await db.$executeRawUnsafe(`CREATE TRIGGER yardstick_test_fail BEFORE INSERT ON "AuditLog" FOR EACH ROW EXECUTE FUNCTION yardstick_test_fail()`);
    try {
      const files = await batchFiles([forwardItem("a"), forwardItem("b"), forwardItem("existing")]);
      const before = await counts();
      await expect(importFolder(files, studySlug)).rejects.toThrow(/forced failure for the rollback test/);
      expect(await counts()).toEqual(before);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS yardstick_test_fail ON "AuditLog"`);
      await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS yardstick_test_fail()`);
    }
    // and the same batch imports once the fault is gone
    const files = await batchFiles([forwardItem("a"), forwardItem("b"), forwardItem("existing")]);
    expect(await importFolder(files, studySlug)).toMatchObject({ status: "imported", newItems: 2, skippedExisting: 1 });
  });

  it("a symlink in a folder batch that points outside it", async () => {
    const secret = await writeFolder({ "secret.png": await image(77) }, "elsewhere");
    const files = await batchFiles([forwardItem("a")]);
    delete files["img/a-b.png"];
    const folder = await writeFolder(files);
    const { symlink } = await import("node:fs/promises");
    await symlink(path.join(secret, "secret.png"), path.join(folder, "img/a-b.png"));
    const { issues } = await expectRejected(async () => importBatch({ source: await readBatchSource({ folder }), studySlug }));
    expect(issues).toEqual([
      { file: "items.jsonl", line: 1, field: "public.candidates[1]", message: 'image "img/a-b.png" is a symbolic link to a file outside the batch folder' },
    ]);
  });
});

async function importBatchFromZip(zip: Buffer, fileName: string) {
  return importBatch({ source: await readBatchSource({ zip, fileName }), studySlug });
}

describe("importBatch: ENACT's release format", () => {
  it("imports the 16 real ENACT items from the release folder, then finds the .jsonl path and a zip unchanged", async () => {
    const result = await importBatchFromPath(ENACT_ROOT, { studySlug });
    expect(result).toMatchObject({ status: "imported", itemCount: 16, newItems: 16, skippedExisting: 0 });
    const items = await db.item.findMany({ select: { externalId: true, kind: true, public: true, key: true, tags: true } });
    expect(items).toHaveLength(16);
    expect(new Set(items.map((item) => item.kind))).toEqual(new Set(["enact-forward", "enact-inverse"]));
    const forward = items.find((item) => item.externalId === "preparing_lunch_box_1748410854863188_forward_world_modeling_ordering_10_steps_a57a5da4")!;
    expect(forward.tags).toEqual({ steps: 10, activity: "preparing_lunch_box", source: "enact-release" });
    const publicView = forward.public as { initialImage: string; candidates: string[]; actions: string[] };
    expect(publicView.initialImage).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);
    expect(publicView.candidates).toHaveLength(9);
    expect((forward.key as { order: number[] }).order).toHaveLength(9);
    expect(await db.asset.count()).toBe(result.assetsStored);
    expect(await db.studyAsset.count({ where: { studyId } })).toBe(result.assetsStored);

    const fromFile = await importBatchFromPath(path.join(ENACT_ROOT, "QA/enact_ordering_sample.jsonl"), { studySlug });
    expect(fromFile).toMatchObject({ status: "unchanged", batchId: result.batchId });

    const { readdir, readFile } = await import("node:fs/promises");
    const files: BatchFiles = {};
    for (const entry of await readdir(ENACT_ROOT, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      files[path.relative(ENACT_ROOT, full)] = await readFile(full);
    }
    const fromZip = await importBatchFromZip(await zipOf(files, { wrap: "enact", compression: "STORE" }), "enact.zip");
    expect(fromZip).toMatchObject({ status: "unchanged", batchId: result.batchId });
    // zipped at QA/ itself (its contents at the top of the zip), and at QA/ as the zip's only folder: the same batch
    const inside = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name.replace(/^QA\//u, ""), bytes]));
    const fromInside = await importBatchFromZip(await zipOf(inside, { compression: "STORE" }), "QA.zip");
    expect(fromInside).toMatchObject({ status: "unchanged", batchId: result.batchId });
    const fromQa = await importBatchFromZip(await zipOf(files, { compression: "STORE" }), "QA-folder.zip");
    expect(fromQa).toMatchObject({ status: "unchanged", batchId: result.batchId });
    expect(await db.item.count()).toBe(16);
  });

  it("reports a broken release line with its file, line and field, and writes nothing", async () => {
    const { readFile } = await import("node:fs/promises");
    const lines = (await readFile(path.join(ENACT_ROOT, "QA/enact_ordering_sample.jsonl"), "utf8")).split("\n").filter(Boolean);
    const broken = JSON.parse(lines[1]) as { gt_answer: number[] };
    broken.gt_answer = [1, 1, ...broken.gt_answer.slice(2)];
    const files: BatchFiles = { "QA/enact.jsonl": jsonl([lines[0], broken]) };
    for (const line of [lines[0], lines[1]]) {
      for (const ref of (JSON.parse(line) as { images: string[] }).images) files[ref] = await readFile(path.join(ENACT_ROOT, ref));
    }
    const zip = await zipOf(files);
    const { issues } = await expectRejected(() => importBatchFromZip(zip, "enact.zip"));
    expect(issues).toEqual([{ file: "QA/enact.jsonl", line: 2, field: "gt_answer", message: expect.stringMatching(/^expected a permutation of 1\.\.\d+/) }]);
  });
});
