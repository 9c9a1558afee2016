import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatch, readBatchSource } from "@/lib/import";
import type { BatchSource, ImportErrorDetails } from "@/lib/import/types";
import { createStudy, resetDatabase } from "@/tests/db-helpers";
import { forwardItem, image, jsonl, removeTempFolders, writeFolder, zipOf, type BatchFiles } from "@/tests/fixtures/import-batches";

/**
 * Large items files are streamed: read line by line from a zip entry or a folder,
 * checked in a first pass, written in chunks read again inside the one transaction.
 */

afterAll(removeTempFolders);

const LINES = 20_000;

async function counts() {
  const [batches, items, assets, audits] = await Promise.all([db.batch.count(), db.item.count(), db.asset.count(), db.auditLog.count()]);
  return { batches, items, assets, audits };
}

async function largeBatch(lines: unknown[]): Promise<BatchFiles> {
  return { "items.jsonl": jsonl(lines), "img/start.png": await image("s"), "img/a.png": await image("a"), "img/b.png": await image("b") };
}

function items(count: number) {
  return Array.from({ length: count }, (_, n) => forwardItem(`big-${n}`, { candidates: ["img/a.png", "img/b.png"], tags: { n } }));
}

async function rejection(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error, "the import should have failed").toBeInstanceOf(AppError);
  return error as AppError;
}

describe("importing a large items file (streamed)", () => {
  beforeEach(resetDatabase);

  it(`imports ${LINES.toLocaleString("en")} lines from a zip: every item lands, with its content; again: unchanged`, async () => {
    const study = await createStudy();
    const zip = await zipOf(await largeBatch(items(LINES)));
    const result = await importBatch({ source: await readBatchSource({ zip, fileName: "big.zip" }), studySlug: study.slug });
    expect(result).toMatchObject({ status: "imported", itemCount: LINES, newItems: LINES, skippedExisting: 0, assetsStored: 3 });
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(LINES);
    const ids = new Set((await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true } })).map((row) => row.externalId));
    expect(ids.size).toBe(LINES);
    for (const n of [0, 1, 999, 1000, 1001, LINES - 1]) expect(ids.has(`big-${n}`)).toBe(true);
    const last = await db.item.findFirstOrThrow({ where: { studyId: study.id, externalId: `big-${LINES - 1}` } });
    expect(last.tags).toEqual({ n: LINES - 1 });
    expect(last.key).toEqual({ order: [1, 0] });
    expect((last.public as { candidates: string[] }).candidates[0]).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);
    const again = await importBatch({ source: await readBatchSource({ zip, fileName: "big.zip" }), studySlug: study.slug });
    expect(again.status).toBe("unchanged");
  });

  it("never reads an items file whole: only as a stream of chunks (folder and zip)", async () => {
    const study = await createStudy();
    const files = await largeBatch(items(500));
    for (const opened of [
      await readBatchSource({ folder: await writeFolder(files) }),
      await readBatchSource({ zip: await zipOf(files), fileName: "whole.zip" }),
    ]) {
      const wholeReads: string[] = [];
      const readWhole = opened.readFile.bind(opened);
      const source: BatchSource = {
        ...opened,
        readFile: (relPath, options) => {
          if (relPath === "items.jsonl") wholeReads.push(relPath);
          return readWhole(relPath, options);
        },
      };
      await importBatch({ source, studySlug: study.slug });
      expect(wholeReads).toEqual([]);
    }
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(500);
  });

  it("a bad line near the end of a large file (folder and zip) names its line and leaves the database unchanged", async () => {
    const study = await createStudy();
    const lines: unknown[] = items(LINES);
    lines[LINES - 3] = { ...forwardItem("bad"), key: { order: "first" } };
    const files = await largeBatch(lines);
    const before = await counts();
    for (const source of [
      await readBatchSource({ folder: await writeFolder(files) }),
      await readBatchSource({ zip: await zipOf(files), fileName: "bad.zip" }),
    ]) {
      const error = await rejection(() => importBatch({ source, studySlug: study.slug }));
      expect(error.code).toBe("INVALID");
      const { errors } = error.details as ImportErrorDetails;
      expect(errors).toEqual([expect.objectContaining({ file: "items.jsonl", line: LINES - 2, field: "key.order" })]);
      expect(await counts()).toEqual(before);
    }
  });

  it("refuses a line over the per-line cap, naming the file and the line, and writes nothing", async () => {
    const study = await createStudy();
    const lines: unknown[] = items(50);
    lines[41] = forwardItem("long", { candidates: ["img/a.png", "img/b.png"], actions: ["x".repeat(5000), "y"] });
    const files = await largeBatch(lines);
    const before = await counts();
    for (const source of [
      await readBatchSource({ folder: await writeFolder(files) }),
      await readBatchSource({ zip: await zipOf(files), fileName: "long.zip" }),
    ]) {
      const error = await rejection(() => importBatch({ source, studySlug: study.slug, maxLineBytes: 4096 }));
      expect(error.code).toBe("INVALID");
      expect((error.details as ImportErrorDetails).errors).toEqual([{ file: "items.jsonl", line: 42, message: "is longer than the 4 KiB limit for one line" }]);
      expect(error.message).toContain("items.jsonl line 42");
      expect(await counts()).toEqual(before);
    }
  });

  // reads of items.jsonl: the first checks the lines, the second hashes the items (their images
  // are hashed in between), the third writes them inside the transaction
  it.each([
    ["before the items are hashed", 2],
    ["while the items are written (inside the transaction)", 3],
  ])("an items file changed %s: nothing is written, the import is refused as a conflict", async (_when, changedRead) => {
    const study = await createStudy();
    const folder = await writeFolder(await largeBatch(items(3000)));
    const opened = await readBatchSource({ folder });
    let reads = 0;
    const source: BatchSource = {
      ...opened,
      streamFile(relPath, options) {
        reads += 1;
        return opened.streamFile(relPath, options);
      },
    };
    const changing: BatchSource = {
      ...source,
      streamFile(relPath, options) {
        const stream = source.streamFile(relPath, options);
        if (reads !== changedRead) return stream;
        return (async function* () {
          await writeFile(path.join(folder, "items.jsonl"), jsonl(items(3000).map((item, n) => (n === 2999 ? { ...item, tags: { n: -1 } } : item))));
          yield* opened.streamFile(relPath, options);
        })();
      },
    };
    const before = await counts();
    const error = await rejection(() => importBatch({ source: changing, studySlug: study.slug }));
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain('items file "items.jsonl" changed while the batch was being imported');
    expect(await counts()).toEqual(before);
  });
});
