import "server-only";
import { createHash } from "node:crypto";
import { assetStoreKind, s3Settings, type AssetStoreKind } from "@/lib/assets/config";
import { deleteObjectAt, readObjectAt, writeObjectAt } from "@/lib/assets/s3";
import type { ByteRange } from "@/lib/assets/store";
import { deleteFileChunks, insertFileChunk, readFileChunk } from "@/lib/repos/files";

/**
 * Files the app makes and serves back (exports prepared in the background,
 * lib/exports/export-jobs.ts), beside the assets and in the same store (ASSET_STORE,
 * lib/assets/config.ts) under a key of the caller's choosing:
 * - PostgreSQL: StoredFileChunk rows of FILE_CHUNK bytes (lib/repos/files.ts);
 * - S3: one object under the key, written as a multipart upload of S3_PART parts when it is
 *   larger than one part.
 * A file is written from a stream of unknown length, never held whole in memory (one chunk or
 * part at a time), with its size and sha256 computed on the way; it is read back by byte range.
 * Unlike assets, a file is not keyed by its content: its writer names it (a job-scoped key) and
 * deletes it.
 */

export interface StoredFile {
  storage: AssetStoreKind;
  key: string;
  size: number;
  sha256: string;
}

/** Bytes per StoredFileChunk row. */
export const FILE_CHUNK = 1024 * 1024;
/** Bytes per part of a multipart upload (S3 wants at least 5 MiB but for the last). */
export const S3_PART = 8 * 1024 * 1024;

type Env = Record<string, string | undefined>;

/** The store a new file goes to: the asset store configured (ASSET_STORE). */
export function fileStorage(env: Env = process.env): AssetStoreKind {
  return assetStoreKind(env);
}

/** The stream cut into pieces of exactly `size` bytes (the last one shorter), hashed and counted as they pass. */
async function* pieces(
  body: AsyncIterable<Uint8Array>,
  size: number,
  seen: (chunk: Uint8Array) => void | Promise<void>,
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of body) {
    signal?.throwIfAborted();
    await seen(chunk);
    pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    pendingBytes += chunk.byteLength;
    while (pendingBytes >= size) {
      const joined = Buffer.concat(pending, pendingBytes);
      yield joined.subarray(0, size);
      pending = [joined.subarray(size)];
      pendingBytes -= size;
    }
  }
  signal?.throwIfAborted();
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * Writes a stream to the file store under `key` (replacing what was there) and returns where it
 * is, its size and sha256. `onBytes` is told the bytes written so far as they pass; `signal` stops
 * the write (the partial file is then removed).
 */
export async function writeFile(
  key: string,
  body: AsyncIterable<Uint8Array>,
  options: { contentType: string; onBytes?: (written: number) => void | Promise<void>; signal?: AbortSignal; env?: Env },
): Promise<StoredFile> {
  const storage = fileStorage(options.env);
  const digest = createHash("sha256");
  let size = 0;
  const seen = async (chunk: Uint8Array) => {
    digest.update(chunk);
    size += chunk.byteLength;
    await options.onBytes?.(size);
  };
  try {
    if (storage === "s3") {
      await writeObjectAt(s3Settings(options.env), key, pieces(body, S3_PART, seen, options.signal), options.contentType);
    } else {
      await deleteFileChunks(key);
      let seq = 0;
      for await (const piece of pieces(body, FILE_CHUNK, seen, options.signal)) await insertFileChunk(key, seq++, piece);
    }
  } catch (error) {
    await deleteFile({ storage, key }, options.env).catch(() => undefined);
    throw error;
  }
  return { storage, key, size, sha256: digest.digest("hex") };
}

/** Bytes `range` of a stored file, streamed a chunk at a time; null when the file is not there. */
export async function readFile(
  file: { storage: AssetStoreKind; key: string; size: number },
  range: ByteRange,
  env: Env = process.env,
): Promise<ReadableStream<Uint8Array> | null> {
  if (file.storage === "s3") return readObjectAt(s3Settings(env), file.key, range);
  let next = range.start;
  const readNext = async () => {
    const seq = Math.floor(next / FILE_CHUNK);
    const offset = next - seq * FILE_CHUNK;
    return readFileChunk(file.key, seq, offset, Math.min(FILE_CHUNK - offset, range.end - next + 1));
  };
  // the first piece is read before answering, so that a missing file is an error and not a cut stream
  const first = await readNext();
  if (first === null) return null;
  next += first.length;
  let pending: Buffer | null = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let part = pending;
      pending = null;
      if (!part) {
        part = await readNext();
        if (part === null || part.length === 0) {
          controller.error(new Error(`file ${file.key} ended at byte ${next} of ${file.size}`));
          return;
        }
        next += part.length;
      }
      controller.enqueue(new Uint8Array(part));
      if (next > range.end) controller.close();
    },
  });
}

/** Removes a stored file (nothing when it is gone already). */
export async function deleteFile(file: { storage: AssetStoreKind | string; key: string }, env: Env = process.env): Promise<void> {
  if (file.storage === "s3") await deleteObjectAt(s3Settings(env), file.key);
  else await deleteFileChunks(file.key);
}
