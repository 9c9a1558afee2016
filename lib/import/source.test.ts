import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { BatchFileError, readBatchSource } from "@/lib/import/source";
import type { ImportErrorDetails } from "@/lib/import/types";
import { readZipEntryNames } from "@/lib/import/zip-names";
import { image, writeFolder, zipOf, removeTempFolders } from "@/tests/fixtures/import-batches";

const outside = path.join(os.tmpdir(), `yardstick-outside-${process.pid}.png`);

afterAll(async () => {
  await removeTempFolders();
  await rm(outside, { force: true });
});

const ENACT_ROOT = path.resolve(import.meta.dirname, "../../data/enact-sample");

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readBatchSource: zips", () => {
  it("JSZip sanitises '../evil.png' to 'evil.png' but keeps the raw name, and so does the central directory", async () => {
    const zip = await zipOf({ "items.jsonl": "{}\n", "../evil.png": "x" });
    const loaded = await JSZip.loadAsync(zip);
    expect(loaded.file("evil.png")?.unsafeOriginalName).toBe("../evil.png");
    expect(readZipEntryNames(zip)?.map((entry) => entry.name)).toEqual(["items.jsonl", "../evil.png"]);
  });

  it("rejects a zip-slip entry, naming the zip and the raw entry name", async () => {
    const zip = await zipOf({ "items.jsonl": "{}\n", "../evil.png": "x", "img/../../up.png": "y" });
    const error = await rejection(readBatchSource({ zip, fileName: "slip.zip" }));
    expect(error.code).toBe("INVALID");
    expect((error.details as ImportErrorDetails).errors).toEqual([
      { file: "slip.zip", message: 'entry "../evil.png" contains ".." and would be extracted outside the batch folder' },
      { file: "slip.zip", message: 'entry "img/../../up.png" contains ".." and would be extracted outside the batch folder' },
    ]);
    expect(error.message).toContain('slip.zip: entry "../evil.png" contains ".."');
  });

  it("rejects absolute, backslashed and NUL entry names", async () => {
    const zip = await zipOf({ "items.jsonl": "{}\n", "/etc/evil.png": "x", "img\\a.png": "y", "a\0.png": "z" });
    const error = await rejection(readBatchSource({ zip, fileName: "bad.zip" }));
    const messages = (error.details as ImportErrorDetails).errors.map((issue) => issue.message);
    expect(messages).toContain('entry "/etc/evil.png" is an absolute path; zip entries must be relative to the archive root');
    expect(messages).toContain('entry "img\\\\a.png" contains a backslash; separate folders with "/"');
    expect(messages).toContain('entry "a\\u0000.png" contains a NUL character');
  });

  it("rejects an unsafe entry even when a later entry of the same sanitised name hides it from JSZip", async () => {
    // JSZip keeps the last of "../x.png" and "x.png" under "x.png": only the central directory still shows the first
    const zip = await zipOf({ "items.jsonl": "{}\n", "../x.png": "evil", "x.png": "fine" });
    const loaded = await JSZip.loadAsync(zip);
    expect(loaded.file("x.png")?.unsafeOriginalName).toBe("x.png");
    const error = await rejection(readBatchSource({ zip, fileName: "hidden.zip" }));
    expect((error.details as ImportErrorDetails).errors[0].message).toBe('entry "../x.png" contains ".." and would be extracted outside the batch folder');
  });

  it("rejects symbolic links stored in a zip", async () => {
    const zip = new JSZip();
    zip.file("items.jsonl", "{}\n");
    zip.file("img/a.png", "/etc/passwd", { unixPermissions: 0o120777 });
    const bytes = await zip.generateAsync({ type: "nodebuffer", platform: "UNIX" });
    const error = await rejection(readBatchSource({ zip: bytes, fileName: "link.zip" }));
    expect((error.details as ImportErrorDetails).errors).toEqual([
      { file: "link.zip", message: 'entry "img/a.png" is a symbolic link; a zip batch must hold plain files' },
    ]);
  });

  it("says when the bytes are not a zip", async () => {
    const error = await rejection(readBatchSource({ zip: Buffer.from("not a zip"), fileName: "x.zip" }));
    expect((error.details as ImportErrorDetails).errors[0].message).toMatch(/^not a readable zip archive/);
  });

  it("uses the single top-level folder of a zipped folder as the root", async () => {
    const png = await image(1);
    const source = await readBatchSource({ zip: await zipOf({ "items.jsonl": "{}\n", "img/a.png": png }, { wrap: "batch" }), fileName: "batch.zip" });
    expect(source.itemsFiles).toEqual([{ path: "items.jsonl", format: "native" }]);
    expect(await source.readFile("img/a.png")).toEqual(png);
    await expect(source.readFile("img/missing.png")).rejects.toMatchObject({ problem: "missing", predicate: "not found in the batch" });
    await expect(source.readFile("img")).rejects.toMatchObject({ problem: "not-a-file" });
    await expect(source.readFile("../batch/img/a.png")).rejects.toMatchObject({ problem: "unsafe-path" });
  });

  it("stops decompressing an entry at the size limit", async () => {
    const source = await readBatchSource({ zip: await zipOf({ "items.jsonl": "{}\n", "big.png": Buffer.alloc(5 * 1024 * 1024) }), fileName: "b.zip" });
    const error = await source.readFile("big.png", { maxBytes: 1024 }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(BatchFileError);
    expect(error).toMatchObject({ problem: "too-large", code: "TOO_LARGE", predicate: "is over the 1 KiB limit" });
  });

  it("finds ENACT release files in QA/ when there is no items.jsonl", async () => {
    const release = JSON.stringify({ id: "x", type: "forward_world_modeling_ordering_3_steps", question: "?", gt_answer: [1, 2] });
    const source = await readBatchSource({ zip: await zipOf({ "QA/release.jsonl": `${release}\n`, "QA/notes.jsonl": '{"a":1}\n' }), fileName: "e.zip" });
    expect(source.itemsFiles).toEqual([{ path: "QA/release.jsonl", format: "enact-release" }]);
  });

  it("says so when there is no items file", async () => {
    const error = await rejection(readBatchSource({ zip: await zipOf({ "other.jsonl": '{"a":1}\n' }), fileName: "none.zip" }));
    expect((error.details as ImportErrorDetails).errors).toEqual([
      { file: "none.zip", message: "no items.jsonl at the top level and no ENACT release .jsonl (found other.jsonl, but not in ENACT's release format)" },
    ]);
  });
});

describe("readBatchSource: folders and files", () => {
  it("reads a folder and refuses symlinks that point outside it, but follows those that stay inside", async () => {
    await writeFile(outside, await image(9));
    const root = await writeFolder({ "items.jsonl": "{}\n", "img/a.png": await image(1) });
    await symlink(outside, path.join(root, "img/out.png"));
    await symlink(path.join(root, "img/a.png"), path.join(root, "img/in.png"));
    await mkdir(path.join(root, "sub"));
    await symlink(os.tmpdir(), path.join(root, "sub/tmp"));
    const source = await readBatchSource({ folder: root });
    expect(source).toMatchObject({ origin: "folder", name: "batch", itemsFiles: [{ path: "items.jsonl", format: "native" }] });
    await expect(source.readFile("img/out.png")).rejects.toMatchObject({
      problem: "outside",
      message: '"img/out.png" is a symbolic link to a file outside the batch folder',
    });
    expect(await source.readFile("img/in.png")).toEqual(await source.readFile("img/a.png"));
    // a symlinked folder that leaves the batch
    await expect(source.readFile(`sub/tmp/${path.basename(outside)}`)).rejects.toMatchObject({ problem: "outside" });
    await expect(source.readFile("img/a.png", { maxBytes: 10 })).rejects.toMatchObject({ problem: "too-large" });
    await expect(source.readFile("/etc/passwd")).rejects.toMatchObject({ problem: "unsafe-path" });
  });

  it("takes the folder containing QA/ as the root of an ENACT release .jsonl given as a file", async () => {
    const source = await readBatchSource({ file: path.join(ENACT_ROOT, "QA/enact_ordering_sample.jsonl") });
    expect(source.itemsFiles).toEqual([{ path: "QA/enact_ordering_sample.jsonl", format: "enact-release" }]);
    expect(source.name).toBe("enact_ordering_sample.jsonl");
    const folder = await readBatchSource({ folder: ENACT_ROOT });
    expect(folder.itemsFiles).toEqual(source.itemsFiles);
  });

  it("reports a missing folder", async () => {
    await expect(readBatchSource({ folder: "/nonexistent/batch" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
