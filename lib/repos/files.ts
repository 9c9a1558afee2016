import "server-only";
import { db } from "@/lib/db";

/**
 * Data access for the PostgreSQL file store (lib/assets/files.ts): a file is StoredFileChunk rows
 * (key, seq) of a fixed size but the last, so that a byte range is read from the chunks it covers
 * only, one at a time.
 */

export async function insertFileChunk(key: string, seq: number, bytes: Uint8Array): Promise<void> {
  await db.$executeRaw`INSERT INTO "StoredFileChunk" ("key", "seq", "bytes") VALUES (${key}, ${seq}, ${bytes})`;
}

/** Removes a file's chunks; returns how many there were. */
export async function deleteFileChunks(key: string): Promise<number> {
  return db.$executeRaw`DELETE FROM "StoredFileChunk" WHERE "key" = ${key}`;
}

/** Bytes `start .. start + length - 1` of one chunk (fewer at its end); null when the chunk is gone. */
export async function readFileChunk(key: string, seq: number, start: number, length: number): Promise<Buffer | null> {
  const rows = await db.$queryRaw<Array<{ part: Uint8Array | null }>>`
    SELECT substring("bytes" FROM ${start + 1}::int FOR ${length}::int) AS "part" FROM "StoredFileChunk" WHERE "key" = ${key} AND "seq" = ${seq}`;
  const part = rows[0]?.part;
  return part ? Buffer.from(part.buffer, part.byteOffset, part.byteLength) : null;
}
