import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { s3Settings } from "@/lib/assets/config";
import { deleteFile, FILE_CHUNK, readFile, S3_PART, writeFile } from "@/lib/assets/files";
import { readObjectAt } from "@/lib/assets/s3";
import { db, disconnectDb } from "@/lib/db";
import { resetDatabase } from "@/tests/db-helpers";
import { setEnv, startS3rver, type TestS3 } from "@/tests/s3rver";

/**
 * The file store (lib/assets/files.ts) that prepared exports are written to, against PostgreSQL
 * and a real S3-compatible server (s3rver): a stream of unknown length is stored in 1 MiB rows or
 * as a multipart upload of 8 MiB parts, with its size and sha256, read back by byte range across
 * chunk and part borders, removed when a write fails or is stopped, and deleted.
 */
const BIG = randomBytes(S3_PART + FILE_CHUNK * 2 + 12_345);

/** The bytes as a stream of uneven pieces (as an export arrives). */
async function* uneven(bytes: Buffer, piece = 300_001): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += piece) yield new Uint8Array(bytes.subarray(at, at + piece));
}

async function read(stream: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  if (!stream) throw new Error("no file");
  return Buffer.from(await new Response(stream).arrayBuffer());
}

afterAll(async () => {
  await disconnectDb();
});

describe.each(["postgres", "s3"] as const)("the %s file store", (storage) => {
  let s3: TestS3 | undefined;
  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    if (storage === "s3") {
      s3 = await startS3rver();
      restoreEnv = setEnv({ ...s3.env, ASSET_STORE: "s3" });
    } else {
      restoreEnv = setEnv({ ASSET_STORE: undefined });
    }
  });
  afterAll(async () => {
    restoreEnv();
    await s3?.stop();
  });
  beforeEach(async () => {
    await resetDatabase();
    if (s3) s3.writes.length = 0;
  });

  it("writes a stream of unknown length with its size and sha256, and reads back any range", async () => {
    const written: number[] = [];
    const file = await writeFile("exports/test/0/big.csv", uneven(BIG), { contentType: "text/csv", onBytes: (n) => void written.push(n) });
    expect(file).toEqual({ storage, key: "exports/test/0/big.csv", size: BIG.length, sha256: createHash("sha256").update(BIG).digest("hex") });
    expect(written.at(-1)).toBe(BIG.length);
    expect(written.length).toBeGreaterThan(30);
    if (storage === "postgres") {
      // 1 MiB rows, the last one shorter
      const chunks = await db.storedFileChunk.findMany({ where: { key: file.key }, select: { seq: true, bytes: true }, orderBy: { seq: "asc" } });
      expect(chunks.map((chunk) => chunk.seq)).toEqual(Array.from({ length: Math.ceil(BIG.length / FILE_CHUNK) }, (_, i) => i));
      expect(chunks.slice(0, -1).every((chunk) => chunk.bytes.length === FILE_CHUNK)).toBe(true);
    } else {
      // more than one part: a multipart upload ("Post"), written once
      expect(s3!.writes).toEqual([{ event: "ObjectCreated:Post", key: file.key }]);
    }
    expect((await read(await readFile(file, { start: 0, end: BIG.length - 1 }))).equals(BIG)).toBe(true);
    // (not bytes=0-0: s3rver answers it with the whole object, as it reads an end of 0 as none)
    for (const [start, end] of [
      [0, 1],
      [FILE_CHUNK - 10, FILE_CHUNK + 10],
      [S3_PART - 1, S3_PART + FILE_CHUNK * 2],
      [BIG.length - 5, BIG.length - 1],
    ]) {
      expect((await read(await readFile(file, { start, end }))).equals(BIG.subarray(start, end + 1)), `bytes ${start}-${end}`).toBe(true);
    }
    await deleteFile(file);
    expect(await readFile(file, { start: 0, end: 9 })).toBeNull();
  });

  it("writes a small file in one piece, and an empty one", async () => {
    const small = Buffer.from("a,b\r\n1,2\r\n");
    const file = await writeFile("exports/test/0/small.csv", uneven(small, 3), { contentType: "text/csv" });
    expect(file.size).toBe(small.length);
    expect((await read(await readFile(file, { start: 2, end: 6 }))).toString()).toBe(small.subarray(2, 7).toString());
    if (s3) expect(s3.writes).toEqual([{ event: "ObjectCreated:Put", key: file.key }]);
    const empty = await writeFile("exports/test/0/empty.jsonl", uneven(Buffer.alloc(0)), { contentType: "application/x-ndjson" });
    expect(empty).toMatchObject({ size: 0, sha256: createHash("sha256").digest("hex") });
  });

  it("leaves nothing behind when the write fails or is stopped halfway", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield* uneven(BIG.subarray(0, S3_PART + FILE_CHUNK));
      throw new Error("the database went away");
    }
    await expect(writeFile("exports/test/0/failed.csv", failing(), { contentType: "text/csv" })).rejects.toThrow("the database went away");
    const stop = new AbortController();
    const stopped = writeFile("exports/test/0/stopped.csv", uneven(BIG), {
      contentType: "text/csv",
      signal: stop.signal,
      onBytes: (n) => {
        if (n > FILE_CHUNK * 3) stop.abort(new Error("the job is no longer this worker's"));
      },
    });
    await expect(stopped).rejects.toThrow("no longer this worker's");
    for (const key of ["exports/test/0/failed.csv", "exports/test/0/stopped.csv"]) {
      if (storage === "postgres") expect(await db.storedFileChunk.count({ where: { key } })).toBe(0);
      else expect(await readObjectAt(s3Settings(), key)).toBeNull();
    }
  });
});
