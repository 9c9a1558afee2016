import "server-only";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { Tx } from "@/lib/db/client-types";
import { AppError } from "@/lib/errors";
import { sha256Hex } from "@/lib/import/canonical";
import { defaultConfidenceScaleForKinds } from "@/lib/import/confidence-default";
import { readBatchSource, throwInvalid } from "@/lib/import/source";
import { configuredStore, type AssetStore } from "@/lib/assets/store";
import { maxVideoBytes as maxVideoBytesSetting } from "@/lib/import/video-check";
import { formatIssue, type BatchSource, type ImportIssue, type ImportProgressListener, type ImportResult } from "@/lib/import/types";
import { DEFAULT_MAX_ERRORS, maxImageBytes as maxImageBytesSetting, validateBatch, type BatchValidation, type ValidatedImage } from "@/lib/import/validate";
import {
  createBatch,
  findBatchByChecksum,
  findExistingAssetHashes,
  findItemsByExternalIds,
  findStudy,
  insertAssets,
  databaseIsEmbedded,
  deleteUnlinkedAssets,
  insertItems,
  isUniqueViolation,
  linkAssetsToStudy,
  studyHasItems,
  writeAuditEntry,
  type BatchRef,
  type NewAsset,
  type StudyRef,
} from "@/lib/repos/imports";
import { inTransaction } from "@/lib/repos/transactions";

export const IMPORT_AUDIT_ACTION = "batch.import";
/** skipped entries named in the message; the result lists all of them */
const SKIPPED_SHOWN = 20;
/**
 * bytes of images per INSERT: bounds memory and statement size while a batch is written, and how
 * long one statement holds the embedded database's only session while requests wait
 */
const ASSET_CHUNK_BYTES = 4 * 1024 * 1024;
/** items per streamed chunk written (read again from the items files, so memory is bounded by this, not the file) */
const ITEM_CHUNK_SIZE = 1000;
/** the transaction of a batch with very many items and assets: give it time */
const DEFAULT_TRANSACTION_TIMEOUT_MS = 10 * 60 * 1000;

export type StudySelector = { studySlug: string; studyId?: undefined } | { studyId: string; studySlug?: undefined };

export type ImportBatchOptions = StudySelector & {
  source: BatchSource;
  /** the admin importing (Batch.importedById, AuditLog.actorId) */
  importedById?: string | null;
  /** largest image accepted, in bytes (default 10 MiB) */
  maxImageBytes?: number;
  /** largest video accepted, in bytes (default: YARDSTICK_MAX_VIDEO_BYTES, else 200 MiB with S3, 64 MiB with PostgreSQL) */
  maxVideoBytes?: number;
  /** where new asset bytes go (default: ASSET_STORE, lib/assets/store.ts) */
  store?: AssetStore;
  /** errors collected before giving up (default 50) */
  maxErrors?: number;
  /** longest line of an items file, in bytes (default 8 MiB) */
  maxLineBytes?: number;
  transactionTimeoutMs?: number;
  /** told how far the import is (lib/import/jobs.ts shows it on the import page) */
  onProgress?: ImportProgressListener;
  /** import the good entries and skip those that give no item, listing them (validateBatch's skipInvalid); default all or nothing */
  skipInvalid?: boolean;
  /** import release questions without the media the batch lacks (ReleaseImportOptions.textOnly); default: missing media refuses */
  textOnly?: boolean;
};

async function resolveStudy(selector: StudySelector): Promise<StudyRef> {
  const study = selector.studyId !== undefined ? await findStudy({ id: selector.studyId }) : await findStudy({ slug: selector.studySlug });
  if (!study) {
    const name = selector.studyId !== undefined ? `id ${JSON.stringify(selector.studyId)}` : JSON.stringify(selector.studySlug);
    throw new AppError("NOT_FOUND", `study ${name} not found`);
  }
  return study;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "3 images and 1 video (2 stored, 2 already stored)": videos are named as videos. */
function mediaCounts(validation: BatchValidation, total: number, stored: number): string {
  const videos = [...validation.assets.values()].filter((asset) => asset.mime.startsWith("video/")).length;
  const images = total - videos;
  const what = videos === 0 ? plural(images, "image") : images === 0 ? plural(videos, "video") : `${plural(images, "image")} and ${plural(videos, "video")}`;
  return `${what} (${stored} stored, ${total - stored} already stored)`;
}

/**
 * Items of the batch whose id exists in the study: the same content is skipped ("already
 * present"), other content is an error naming both places.
 */
async function checkAgainstStudy(study: StudyRef, validation: BatchValidation) {
  const existing = await findItemsByExternalIds(
    study.id,
    validation.items.map((item) => item.externalId),
  );
  const byId = new Map(existing.map((row) => [row.externalId, row]));
  const conflicts: ImportIssue[] = [];
  const fresh = [];
  let skipped = 0;
  for (const item of validation.items) {
    const found = byId.get(item.externalId);
    if (!found) fresh.push(item);
    else if (found.contentHash === item.contentHash) skipped += 1;
    else {
      conflicts.push({
        file: item.file,
        line: item.line,
        field: "id",
        message: `item ${JSON.stringify(item.externalId)} already exists in study "${study.slug}" (batch ${JSON.stringify(found.batchFileName)}) with different content`,
      });
    }
  }
  return { conflicts, fresh, skipped };
}

function unchangedResult(study: StudyRef, source: BatchSource, batch: BatchRef): ImportResult {
  return {
    status: "unchanged",
    batchId: batch.id,
    itemCount: batch.itemCount,
    newItems: 0,
    skippedExisting: batch.itemCount,
    assetsStored: 0,
    message: `Batch ${JSON.stringify(source.name)} is already imported into study "${study.slug}" (as ${JSON.stringify(batch.fileName)}, batch ${batch.id}, ${batch.createdAt.toISOString()}): nothing changed`,
  };
}

async function auditUnchanged(study: StudyRef, source: BatchSource, checksum: string, result: ImportResult, actorId: string | null) {
  await writeAuditEntry({
    actorId,
    action: IMPORT_AUDIT_ACTION,
    target: `batch:${result.batchId}`,
    detail: { status: "unchanged", studyId: study.id, studySlug: study.slug, fileName: source.name, checksum },
  });
}

/** Reads an image or video again for storing and checks it is still the validated content. */
async function readVerified(source: BatchSource, image: ValidatedImage, maxBytes: number): Promise<Buffer> {
  const bytes = await source.readFile(image.path, { maxBytes });
  if (bytes.length !== image.size || sha256Hex(bytes) !== image.hash) {
    const what = image.mime.startsWith("video/") ? "video" : "image";
    throw new AppError("CONFLICT", `${what} ${JSON.stringify(image.path)} changed while the batch was being imported; nothing was imported, import it again`);
  }
  return bytes;
}

/** The Asset row of a checked file, its bytes placed by `store` (in the row, or uploaded first). */
async function assetRow(store: AssetStore, image: ValidatedImage, bytes: Buffer): Promise<NewAsset> {
  const placement = await store.save({ hash: image.hash, mime: image.mime, size: image.size, bytes });
  return {
    hash: image.hash,
    mime: image.mime,
    size: image.size,
    ...placement,
    durationS: image.durationS ?? null,
    width: image.width ?? null,
    height: image.height ?? null,
  };
}

/**
 * Imports one batch into a study, all or nothing. First every line and every referenced image is
 * validated without writing (validateBatch); then the batch is compared with the study in one
 * query per table (batch checksum, existing item ids, stored asset hashes); then one transaction
 * writes the Batch, the new Assets, the StudyAsset links, the new Items (read again from the items
 * files, streamed, ITEM_CHUNK_SIZE at a time: memory is bounded by the chunk, not the file) and an
 * AuditLog row.
 *
 * The same content imported again (from a folder, a zip of it or its .jsonl) is "unchanged";
 * so is the loser of two concurrent imports of one batch (the unique (studyId, checksum) fires).
 *
 * @throws AppError INVALID with details { errors: [{ file, line, field, message }], truncated };
 *   NOT_FOUND for an unknown study; CONFLICT when an image changed during the import
 */
export async function importBatch(options: ImportBatchOptions): Promise<ImportResult> {
  const { source } = options;
  const maxImageBytes = options.maxImageBytes ?? maxImageBytesSetting();
  const maxVideoBytes = options.maxVideoBytes ?? maxVideoBytesSetting();
  const store = options.store ?? configuredStore();
  const maxBytesOf = (image: ValidatedImage) => (image.mime.startsWith("video/") ? maxVideoBytes : maxImageBytes);
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const actorId = options.importedById ?? null;
  const study = await resolveStudy(options);

  const validation = await validateBatch(source, {
    maxImageBytes,
    maxVideoBytes,
    maxErrors,
    maxLineBytes: options.maxLineBytes,
    onProgress: options.onProgress,
    skipInvalid: options.skipInvalid,
    textOnly: options.textOnly,
  });
  const summary = (count: number, truncated: boolean) =>
    `Batch ${JSON.stringify(source.name)} was not imported into study "${study.slug}" (nothing was written): ${truncated ? `${count} errors, where checking stopped (there may be more)` : plural(count, "error")}` +
    (validation.skippable && count === validation.issues.length
      ? `. Each is an entry that gives no item: to import the ${plural(validation.items.length, "good entry").replace(/entrys$/u, "entries")} and skip these ${count}, import again choosing "skip bad entries" (skipInvalid=1)`
      : "");

  if (validation.checksum !== null) {
    const previous = await findBatchByChecksum(study.id, validation.checksum);
    if (previous) {
      const result = unchangedResult(study, source, previous);
      await auditUnchanged(study, source, validation.checksum, result, actorId);
      return result;
    }
  }

  for (let attempt = 0; ; attempt++) {
    // with the error cap reached there is no room for more: spare the database the query
    const { conflicts, fresh, skipped } = validation.truncated ? { conflicts: [], fresh: [], skipped: 0 } : await checkAgainstStudy(study, validation);
    const issues = [...validation.issues, ...conflicts].slice(0, maxErrors);
    const truncated = validation.truncated || validation.issues.length + conflicts.length >= maxErrors;
    if (issues.length > 0 || validation.checksum === null) {
      issues.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0));
      throwInvalid(summary(issues.length, truncated), issues, truncated);
    }
    const checksum = validation.checksum;
    const hashes = [...validation.assets.keys()];
    const stored = await findExistingAssetHashes(hashes);
    const toStore = [...validation.assets.values()].filter((image) => !stored.has(image.hash));
    // an object store is written first (an upload must not hold a statement open); the rows, without bytes then, follow in chunks
    const uploaded = new Map<string, NewAsset>();
    if (store.kind !== "postgres") {
      for (const [index, image] of toStore.entries()) {
        uploaded.set(image.hash, await assetRow(store, image, await readVerified(source, image, maxBytesOf(image))));
        await options.onProgress?.({ phase: "uploading", done: index + 1, total: toStore.length });
      }
    }

    // The assets are written a chunk per statement. On a PostgreSQL server they go inside the
    // batch's one transaction, so a crash or an outage at any point leaves nothing behind. On the
    // embedded database (one session for every connection, lib/db/database-url.ts) an open
    // transaction makes every other request wait for its end, and reading and checking the bytes is
    // the slow part of a large batch: there each chunk commits on its own, the requests go on
    // between chunks, and what this import stored is taken back if it fails (deleteUnlinkedAssets).
    const assetsOutsideTransaction = await databaseIsEmbedded();
    const storedNow: string[] = [];
    let read = 0;
    /** in the batch's transaction `tx`, or (undefined) a statement per chunk outside it */
    const storeAssets = async (tx: Tx | undefined) => {
      let chunk: NewAsset[] = [];
      let chunkBytes = 0;
      await options.onProgress?.({ phase: "writing", done: 0, total: toStore.length + fresh.length });
      for (const image of toStore) {
        chunk.push(uploaded.get(image.hash) ?? (await assetRow(store, image, await readVerified(source, image, maxBytesOf(image)))));
        chunkBytes += uploaded.has(image.hash) ? 0 : image.size;
        read += 1;
        if (chunkBytes >= ASSET_CHUNK_BYTES) {
          storedNow.push(...(await insertAssets(chunk, tx)));
          chunk = [];
          chunkBytes = 0;
          if (assetsOutsideTransaction) await options.onProgress?.({ phase: "writing", done: read, total: toStore.length + fresh.length });
        }
      }
      storedNow.push(...(await insertAssets(chunk, tx)));
      if (assetsOutsideTransaction) await options.onProgress?.({ phase: "writing", done: read, total: toStore.length + fresh.length });
    };
    try {
      if (assetsOutsideTransaction) await storeAssets(undefined);

      // then one transaction for the rows that make the batch visible; nothing in it waits on
      // another connection (progress is written before and after it, never inside)
      const result = await inTransaction(
        async (tx) => {
          if (!assetsOutsideTransaction) await storeAssets(tx);
          const assetsStored = storedNow.length;
          // first: a concurrent import of the same batch waits here on the unique index, then fails
          const batch = await createBatch(tx, {
            studyId: study.id,
            fileName: source.name,
            checksum,
            itemCount: validation.items.length,
            importedById: actorId,
          });
          await linkAssetsToStudy(tx, study.id, hashes);
          const hadItems = await studyHasItems(tx, study.id);
          // the items are read again and written a chunk at a time: never all of them in memory
          const freshIds = new Set(fresh.map((item) => item.externalId));
          const freshKinds = new Set(fresh.map((item) => item.kind));
          let newItems = 0;
          for await (const chunk of validation.readItems((item) => freshIds.has(item.externalId), ITEM_CHUNK_SIZE)) {
            newItems += await insertItems(
              tx,
              study.id,
              batch.id,
              chunk.map((item) => ({
                externalId: item.externalId,
                kind: item.kind,
                public: item.public as object,
                key: item.key as object,
                tags: item.tags,
                practice: item.practice,
                gold: item.gold,
                contentHash: item.contentHash,
              })),
            );
          }
          const result: ImportResult = {
            status: "imported",
            batchId: batch.id,
            itemCount: validation.items.length,
            newItems,
            skippedExisting: skipped,
            assetsStored,
            message:
              `Imported batch ${JSON.stringify(source.name)} into study "${study.slug}": ${plural(validation.items.length, "item")} ` +
              `(${newItems} new, ${skipped} already present), ${mediaCounts(validation, hashes.length, assetsStored)}`,
          };
          if (validation.skipped.length > 0) {
            result.skipped = validation.skipped;
            result.message += `. Skipped ${plural(validation.skipped.length, "entry").replace(/entrys$/u, "entries")} that could not be imported (as chosen):\n${validation.skipped
              .slice(0, SKIPPED_SHOWN)
              .map((issue) => `  ${formatIssue(issue)}`)
              .join(
                "\n",
              )}${validation.skipped.length > SKIPPED_SHOWN ? `\n  ... and ${validation.skipped.length - SKIPPED_SHOWN} more (the result's skipped lists them)` : ""}`;
          }
          const scaleNote = await defaultConfidenceScaleForKinds(tx, study.id, [...freshKinds], hadItems);
          if (scaleNote) result.message += `. ${scaleNote}`;
          await writeAuditEntry(
            {
              actorId,
              action: IMPORT_AUDIT_ACTION,
              target: `batch:${batch.id}`,
              detail: {
                status: "imported",
                studyId: study.id,
                studySlug: study.slug,
                fileName: source.name,
                origin: source.origin,
                checksum,
                itemCount: result.itemCount,
                newItems,
                skippedExisting: skipped,
                assetsStored,
                ...(validation.skipped.length > 0 ? { skipped: validation.skipped.length } : {}),
                ...(scaleNote ? { confidenceScale: "PERCENT" } : {}),
              },
            },
            tx,
          );
          return result;
        },
        { maxWait: 30_000, timeout: options.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS },
      );
      await options.onProgress?.({ phase: "writing", done: read + result.newItems, total: toStore.length + fresh.length });
      return result;
    } catch (error) {
      // all or nothing: the assets this attempt stored go again unless a study links them (another import's)
      if (assetsOutsideTransaction)
        await deleteUnlinkedAssets(storedNow).catch((cleanup: unknown) => console.error("import: could not remove the assets of a failed import", cleanup));
      if (!isUniqueViolation(error)) throw error;
      // Another import committed first. The same batch: report the no-op. Otherwise it stored some
      // of the same item ids: check the items again (now "already present" or a conflict).
      const winner = await findBatchByChecksum(study.id, checksum);
      if (winner) {
        const result = unchangedResult(study, source, winner);
        await auditUnchanged(study, source, checksum, result, actorId);
        return result;
      }
      if (attempt >= 2) {
        throw new AppError(
          "CONFLICT",
          `Batch ${JSON.stringify(source.name)} collided with concurrent imports into study "${study.slug}"; nothing was written, import it again`,
        );
      }
    }
  }
}

/**
 * The CLI's entry: a folder, a .zip or a .jsonl file (`yardstick import <path> --study <slug>`).
 */
export async function importBatchFromPath(
  inputPath: string,
  options: StudySelector & Omit<ImportBatchOptions, "source" | "studySlug" | "studyId">,
): Promise<ImportResult> {
  const resolved = path.resolve(inputPath);
  const stat = await fs.stat(resolved).catch(() => null);
  if (!stat) throw new AppError("NOT_FOUND", `${JSON.stringify(resolved)} not found`);
  let source: BatchSource;
  if (stat.isDirectory()) source = await readBatchSource({ folder: resolved });
  else if (resolved.toLowerCase().endsWith(".zip")) {
    source = await readBatchSource({ zip: await fs.readFile(resolved), fileName: path.basename(resolved) });
  } else source = await readBatchSource({ file: resolved });
  return importBatch({ ...options, source } as ImportBatchOptions);
}
