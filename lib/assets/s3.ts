import "server-only";
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3Settings } from "@/lib/assets/config";

/**
 * The S3-compatible object store of assets: one object per asset, its key the sha256 hex of its
 * bytes (so the same bytes are stored once, and a key's content never changes). Checksums are
 * sent only where the API requires them, so MinIO, R2 and s3rver accept the requests as AWS does.
 */

const clients = new Map<string, S3Client>();

export function s3Client(settings: S3Settings): S3Client {
  const id = JSON.stringify([settings.endpoint, settings.region, settings.forcePathStyle]);
  let client = clients.get(id);
  if (!client) {
    client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    clients.set(id, client);
  }
  return client;
}

export function objectKey(hash: string): string {
  return hash;
}

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || error instanceof NotFound || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}

/** Uploads the bytes of an asset (a buffer, or a stream of exactly `size` bytes). */
export async function putObject(settings: S3Settings, asset: { hash: string; mime: string; size: number }, body: Uint8Array | Readable): Promise<void> {
  await s3Client(settings).send(
    new PutObjectCommand({
      Bucket: settings.bucket,
      Key: objectKey(asset.hash),
      Body: body,
      ContentLength: asset.size,
      ContentType: asset.mime,
      CacheControl: "private, max-age=31536000, immutable",
      Metadata: { sha256: asset.hash },
    }),
  );
}

/** The stored object's size, or null when there is none under the hash. */
export async function headObject(settings: S3Settings, hash: string): Promise<{ size: number } | null> {
  try {
    const head = await s3Client(settings).send(new HeadObjectCommand({ Bucket: settings.bucket, Key: objectKey(hash) }));
    return { size: Number(head.ContentLength ?? -1) };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function deleteObject(settings: S3Settings, hash: string): Promise<void> {
  await deleteObjectAt(settings, objectKey(hash));
}

/** Deletes the object under a key (nothing when there is none). */
export async function deleteObjectAt(settings: S3Settings, key: string): Promise<void> {
  await s3Client(settings).send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
}

/** The object's bytes `start..end` (inclusive; the whole object without a range), streamed; null when absent. */
export async function readObject(settings: S3Settings, hash: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null> {
  return readObjectAt(settings, objectKey(hash), range);
}

/**
 * Writes an object of unknown length under a key from parts of at least 5 MiB (all but the last,
 * as S3 requires): one PutObject when the body is a single part, else a multipart upload, aborted
 * when a part fails. At most two parts are in memory at a time.
 */
export async function writeObjectAt(settings: S3Settings, key: string, parts: AsyncIterable<Buffer>, contentType: string): Promise<void> {
  const iterator = parts[Symbol.asyncIterator]();
  try {
    await writeParts(s3Client(settings), settings.bucket, key, iterator, contentType);
  } finally {
    // a failed upload stops reading its source
    await iterator.return?.();
  }
}

async function writeParts(client: S3Client, bucket: string, key: string, iterator: AsyncIterator<Buffer>, contentType: string): Promise<void> {
  const first = await iterator.next();
  const firstPart = first.done ? Buffer.alloc(0) : first.value;
  const second = first.done ? first : await iterator.next();
  if (second.done) {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: firstPart, ContentLength: firstPart.length, ContentType: contentType }));
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }));
  if (!UploadId) throw new Error(`the object store started no multipart upload for ${key}`);
  const uploaded: Array<{ ETag: string | undefined; PartNumber: number }> = [];
  try {
    const put = async (body: Buffer) => {
      const PartNumber = uploaded.length + 1;
      const answer = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body, ContentLength: body.length }));
      uploaded.push({ ETag: answer.ETag, PartNumber });
    };
    await put(firstPart);
    await put(second.value);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) await put(next.value);
    await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: uploaded } }));
  } catch (error) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => undefined);
    throw error;
  }
}

/** Bytes `start..end` (inclusive; all without a range) of the object under a key, streamed; null when absent. */
export async function readObjectAt(settings: S3Settings, key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null> {
  try {
    const answer = await s3Client(settings).send(
      new GetObjectCommand({ Bucket: settings.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    if (!answer.Body) return null;
    return answer.Body.transformToWebStream() as ReadableStream<Uint8Array>;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** sha256 hex and length of the stored object, read through once (verification); null when absent. */
export async function hashObject(settings: S3Settings, hash: string): Promise<{ sha256: string; size: number } | null> {
  const body = await readObject(settings, hash);
  if (!body) return null;
  const digest = createHash("sha256");
  let size = 0;
  for await (const chunk of Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>)) {
    digest.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: digest.digest("hex"), size };
}

/** A GET URL of the object signed for `settings.urlSeconds`, answering with the given headers. */
export async function presignedObjectUrl(settings: S3Settings, asset: { hash: string; mime: string }, headers: { disposition: string }): Promise<string> {
  return getSignedUrl(
    s3Client(settings),
    new GetObjectCommand({
      Bucket: settings.bucket,
      Key: objectKey(asset.hash),
      ResponseContentType: asset.mime,
      ResponseContentDisposition: headers.disposition,
      ResponseCacheControl: "private, max-age=31536000, immutable",
    }),
    { expiresIn: settings.urlSeconds },
  );
}
