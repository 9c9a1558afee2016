import "server-only";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { S3Settings } from "@/lib/assets/config";
import { deleteObject, hashObject, headObject, putObject } from "@/lib/assets/s3";
import { postgresStore } from "@/lib/assets/store";
import { clearPostgresCopies, countAssets, listAssetsToMigrate, markInObjectStore, type StoredAsset } from "@/lib/repos/assets";

export interface MigrateToS3Result {
  /** assets in the database */
  total: number;
  /** marked as in the bucket by an earlier run: not looked at again */
  alreadyMigrated: number;
  /** found in the bucket with the right sha256 (an interrupted run uploaded them): marked, not uploaded again */
  foundInBucket: number;
  /** uploaded and verified by sha256 */
  copied: number;
  /** could not be copied or did not verify (left in PostgreSQL, not marked): hash and reason */
  failed: Array<{ hash: string; reason: string }>;
  /** PostgreSQL copies cleared (only with clearPostgres) */
  cleared: number;
  /** bytes uploaded (assets copied) */
  bytesCopied: number;
  message: string;
}

/** How far a run is, after each asset it looked at. */
export interface MigrateProgress {
  /** assets looked at by this run */
  done: number;
  copied: number;
  foundInBucket: number;
  failed: number;
  bytesCopied: number;
}

export interface MigrateOptions {
  clearPostgres?: boolean;
  /** called after each asset (awaited: a job writes its progress here; a throw stops the run) */
  onAsset?: (progress: MigrateProgress) => void | Promise<void>;
  /** stops the run between two assets (a job whose worker lost it) */
  signal?: AbortSignal;
}

const PAGE = 100;

/**
 * `yardstick assets migrate --to s3`: copies every asset whose bytes are in PostgreSQL into the
 * bucket under its sha256, streamed a chunk at a time (lib/assets/store.ts postgresStore.read), then
 * reads the object back and compares its sha256 with the key before marking the row
 * `inObjectStore`. Resumable: marked rows are skipped; an object already in the bucket (an
 * interrupted run) is verified by hash and marked without uploading again; an object that does not
 * verify is deleted and reported. Nothing is removed from PostgreSQL unless `clearPostgres`, and
 * then only the bytes of rows verified in the bucket. Run by the command line (inline) and by the
 * admin's job (lib/assets/migrate-jobs.ts), which a retry resumes the same way.
 */
export async function migrateAssetsToS3(settings: S3Settings, options: MigrateOptions = {}): Promise<MigrateToS3Result> {
  const before = await countAssets();
  const result: MigrateToS3Result = {
    total: before.total,
    alreadyMigrated: before.inObjectStore,
    foundInBucket: 0,
    copied: 0,
    failed: [],
    cleared: 0,
    bytesCopied: 0,
    message: "",
  };
  let after = "";
  let done = 0;
  for (;;) {
    const page = await listAssetsToMigrate(after, PAGE);
    if (page.length === 0) break;
    for (const asset of page) {
      if (options.signal?.aborted) throw new Error("the migration was stopped (its job is no longer this worker's)");
      after = asset.hash;
      try {
        const outcome = await migrateOne(settings, asset);
        if (outcome === "found") result.foundInBucket += 1;
        else {
          result.copied += 1;
          result.bytesCopied += asset.size;
        }
        await markInObjectStore(asset.hash);
      } catch (error) {
        result.failed.push({ hash: asset.hash, reason: error instanceof Error ? error.message : String(error) });
      }
      done += 1;
      await options.onAsset?.({
        done,
        copied: result.copied,
        foundInBucket: result.foundInBucket,
        failed: result.failed.length,
        bytesCopied: result.bytesCopied,
      });
    }
  }
  if (options.clearPostgres) result.cleared = await clearPostgresCopies();
  const now = await countAssets();
  result.message =
    `assets: ${result.total} in all; ${result.alreadyMigrated} already in the bucket, ${result.foundInBucket} found there and verified, ` +
    `${result.copied} copied and verified, ${result.failed.length} failed; ${now.inObjectStore} now in the bucket` +
    (options.clearPostgres ? `; ${result.cleared} PostgreSQL copies cleared` : `; PostgreSQL copies kept (clear them with --clear-postgres)`) +
    result.failed.map((failure) => `\n  ${failure.hash}: ${failure.reason}`).join("");
  return result;
}

async function verified(settings: S3Settings, asset: { hash: string; size: number }): Promise<string | null> {
  const stored = await hashObject(settings, asset.hash);
  if (!stored) return "the object is missing after the upload";
  if (stored.size !== asset.size) return `the object has ${stored.size} bytes, the asset ${asset.size}`;
  if (stored.sha256 !== asset.hash) return `the object's sha256 is ${stored.sha256}`;
  return null;
}

async function migrateOne(settings: S3Settings, asset: { hash: string; mime: string; size: number }): Promise<"found" | "copied"> {
  const head = await headObject(settings, asset.hash);
  if (head && head.size === asset.size && (await verified(settings, asset)) === null) return "found";
  const stored: StoredAsset = { ...asset, inPostgres: true, inObjectStore: false, durationS: null, width: null, height: null };
  const body = await postgresStore.read(stored, { start: 0, end: asset.size - 1 });
  if (!body) throw new Error("its bytes are no longer in PostgreSQL");
  await putObject(settings, asset, Readable.fromWeb(body as NodeReadableStream<Uint8Array>));
  const problem = await verified(settings, asset);
  if (problem) {
    await deleteObject(settings, asset.hash).catch(() => undefined);
    throw new Error(`did not verify: ${problem}`);
  }
  return "copied";
}
