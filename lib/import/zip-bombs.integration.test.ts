import { crc32, deflateRawSync } from "node:zlib";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatch, readBatchSource } from "@/lib/import";
import { createStudy, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, removeTempFolders } from "@/tests/fixtures/import-batches";

/**
 * Zip bombs, built here by hand (each a few hundred KB at most on disk): an unreferenced entry that
 * would inflate to gigabytes, entries that share one compressed stream, a batch whose entries
 * inflate past the total bound, and an entry compressed past any real file's ratio. The importer
 * must inflate only entries the batch references, each once per read, within bounds, and refuse
 * the rest with a clear error, writing nothing.
 */

afterAll(removeTempFolders);

interface Entry {
  name: string;
  /** the bytes as stored (deflated unless `stored`) */
  data: Buffer;
  crc: number;
  size: number;
  stored?: boolean;
}

function deflated(name: string, content: Buffer): Entry {
  return { name, data: deflateRawSync(content, { level: 9 }), crc: crc32(content), size: content.length };
}

/** `size` zero bytes, deflated (about 1000:1). */
function zeros(name: string, size: number): Entry {
  return deflated(name, Buffer.alloc(size));
}

/**
 * A zip (PKWARE APPNOTE) of the entries; `aliases` adds central-directory entries named `alias`
 * that point at the local header of entry `target` (entries sharing one stream).
 */
function zipBytes(entries: Entry[], aliases: Array<{ alias: string; target: number }> = []): Buffer {
  const locals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x800, 6);
    header.writeUInt16LE(entry.stored ? 0 : 8, 8);
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.data.length, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    locals.push(header, name, entry.data);
    offset += header.length + name.length + entry.data.length;
  }
  const central: Buffer[] = [];
  const all = [
    ...entries.map((entry, index) => ({ entry, name: entry.name, at: offsets[index] })),
    ...aliases.map(({ alias, target }) => ({ entry: entries[target], name: alias, at: offsets[target] })),
  ];
  for (const { entry, name: text, at } of all) {
    const name = Buffer.from(text, "utf8");
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x800, 8);
    header.writeUInt16LE(entry.stored ? 0 : 8, 10);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(at, 42);
    central.push(header, name);
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(all.length, 8);
  end.writeUInt16LE(all.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}

async function batchEntries(ids: string[]): Promise<Entry[]> {
  const files = await batchFiles(ids.map((id) => forwardItem(id)));
  return Object.entries(files).map(([name, content]) => deflated(name, Buffer.isBuffer(content) ? content : Buffer.from(content)));
}

async function counts() {
  const [batches, items, assets] = await Promise.all([db.batch.count(), db.item.count(), db.asset.count()]);
  return { batches, items, assets };
}

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  const before = await counts();
  const error = await run().then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error, "the import should have failed").toBeInstanceOf(AppError);
  expect(await counts()).toEqual(before);
  return error as AppError;
}

describe("zip bombs", () => {
  beforeEach(resetDatabase);

  it("never inflates an entry the batch does not reference (its CRC is not even checked)", async () => {
    const study = await createStudy();
    // 64 MiB of zeros in 64 KB, with a CRC that does not match: inflating it at all (as a CRC
    // check at load does) fails the whole zip; a bomb of gigabytes would cost minutes
    const junk = { ...zeros("junk/unreferenced.bin", 64 * 1024 * 1024), crc: 12345 };
    const zip = zipBytes([...(await batchEntries(["a1", "a2"])), junk]);
    expect(zip.length).toBeLessThan(200 * 1024);
    const started = Date.now();
    const result = await importBatch({ source: await readBatchSource({ zip, fileName: "unreferenced.zip" }), studySlug: study.slug });
    expect(result).toMatchObject({ status: "imported", itemCount: 2 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("still refuses a referenced entry whose content does not match its CRC", async () => {
    const study = await createStudy();
    const entries = await batchEntries(["c1"]);
    const index = entries.findIndex((entry) => entry.name === "img/c1-a.png");
    entries[index] = { ...entries[index], crc: (entries[index].crc + 1) >>> 0 };
    const error = await refusal(async () =>
      importBatch({ source: await readBatchSource({ zip: zipBytes(entries), fileName: "crc.zip" }), studySlug: study.slug }),
    );
    expect(error.message).toContain("img/c1-a.png");
    expect(error.message).toMatch(/CRC/);
  });

  it("refuses entries that share one compressed stream (an overlapping zip bomb), naming them", async () => {
    const study = await createStudy();
    const entries = await batchEntries(["o1"]);
    const target = entries.findIndex((entry) => entry.name === "img/o1-a.png");
    const zip = zipBytes(entries, [
      { alias: "img/copy-1.png", target },
      { alias: "img/copy-2.png", target },
    ]);
    const error = await refusal(async () => importBatch({ source: await readBatchSource({ zip, fileName: "overlap.zip" }), studySlug: study.slug }));
    expect(error.code).toBe("INVALID");
    expect(error.message).toMatch(/overlap|share/);
    expect(error.message).toContain("img/copy-1.png");
  });

  it("bounds the bytes inflated from one zip in total", async () => {
    const study = await createStudy();
    const entries = await batchEntries(["t1", "t2", "t3"]);
    const zip = zipBytes(entries);
    const inflated = entries.reduce((sum, entry) => sum + entry.size, 0);
    const error = await refusal(async () =>
      importBatch({ source: await readBatchSource({ zip, fileName: "total.zip" }, { maxInflatedBytes: Math.floor(inflated / 2) }), studySlug: study.slug }),
    );
    expect(error.code).toBe("TOO_LARGE");
    expect(error.message).toMatch(/inflate/);
    expect(error.message).toContain("total.zip");
  });

  it("refuses an entry compressed far past any real file's ratio (1000:1), before inflating it all", async () => {
    const study = await createStudy();
    const entries = await batchEntries(["r1"]);
    const items = entries.findIndex((entry) => entry.name === "items.jsonl");
    // the items file padded with 48 MiB of blank lines: about 1000:1
    const original = entries[items];
    const content = Buffer.concat([Buffer.from("\n".repeat(48 * 1024 * 1024)), Buffer.from((await batchFiles([forwardItem("r1")]))["items.jsonl"])]);
    entries[items] = deflated(original.name, content);
    expect(entries[items].data.length).toBeLessThan(128 * 1024);
    const error = await refusal(async () =>
      importBatch({ source: await readBatchSource({ zip: zipBytes(entries), fileName: "ratio.zip" }), studySlug: study.slug }),
    );
    expect(error.message).toMatch(/compress/);
    expect(error.message).toContain("items.jsonl");
  });
});
