import "server-only";
import { db } from "@/lib/db";

/**
 * Data access for stored assets (Asset, StudyAsset). Rules about who may see what live in
 * lib/assets/; this file only reads. The bytes are never read with the row: a range of them is
 * read with readAssetBytes (substring on the bytea, which the column's EXTERNAL storage makes
 * read only the TOAST chunks of the range).
 */

export interface StoredAsset {
  hash: string;
  mime: string;
  size: number;
  /** the bytes are in the Asset row */
  inPostgres: boolean;
  /** the bytes are in the S3 bucket (lib/assets/s3.ts) */
  inObjectStore: boolean;
  durationS: number | null;
  width: number | null;
  height: number | null;
}

interface AssetRow {
  hash: string;
  mime: string;
  size: number;
  inPostgres: boolean;
  inObjectStore: boolean;
  durationS: number | null;
  width: number | null;
  height: number | null;
}

export async function findAsset(hash: string): Promise<StoredAsset | null> {
  const rows = await db.$queryRaw<AssetRow[]>`
    SELECT "hash", "mime", "size", ("bytes" IS NOT NULL) AS "inPostgres", "inObjectStore", "durationS", "width", "height"
    FROM "Asset" WHERE "hash" = ${hash}`;
  return rows[0] ?? null;
}

/**
 * The asset when a study that links it has the user as a member or has an assignment of the
 * user; one query.
 */
export async function findAssetInUserStudies(hash: string, userId: string): Promise<StoredAsset | null> {
  const rows = await db.$queryRaw<AssetRow[]>`
    SELECT a."hash", a."mime", a."size", (a."bytes" IS NOT NULL) AS "inPostgres", a."inObjectStore", a."durationS", a."width", a."height"
    FROM "Asset" a
    WHERE a."hash" = ${hash} AND EXISTS (
      SELECT 1 FROM "StudyAsset" sa
      WHERE sa."assetHash" = a."hash" AND (
        EXISTS (SELECT 1 FROM "StudyMember" m WHERE m."studyId" = sa."studyId" AND m."userId" = ${userId})
        OR EXISTS (SELECT 1 FROM "Assignment" x WHERE x."studyId" = sa."studyId" AND x."userId" = ${userId})
      )
    )`;
  return rows[0] ?? null;
}

/** Bytes `start .. start + length - 1` of the asset's bytea (fewer at its end); null when the row or its bytes are gone. */
export async function readAssetBytes(hash: string, start: number, length: number): Promise<Buffer | null> {
  const rows = await db.$queryRaw<Array<{ part: Uint8Array | null }>>`
    SELECT substring("bytes" FROM ${start + 1}::int FOR ${length}::int) AS "part" FROM "Asset" WHERE "hash" = ${hash}`;
  const part = rows[0]?.part;
  return part ? Buffer.from(part.buffer, part.byteOffset, part.byteLength) : null;
}

/** Assets whose bytes are in PostgreSQL and not (yet) marked as in the object store, by hash, `limit` after `after`. */
export async function listAssetsToMigrate(after: string, limit: number): Promise<Array<{ hash: string; mime: string; size: number }>> {
  return db.$queryRaw`
    SELECT "hash", "mime", "size" FROM "Asset"
    WHERE "bytes" IS NOT NULL AND NOT "inObjectStore" AND "hash" > ${after}
    ORDER BY "hash" LIMIT ${limit}`;
}

export async function countAssets(): Promise<{ total: number; inPostgres: number; inObjectStore: number; onlyInObjectStore: number }> {
  const [row] = await db.$queryRaw<Array<{ total: bigint; inPostgres: bigint; inObjectStore: bigint; onlyInObjectStore: bigint }>>`
    SELECT count(*) AS "total", count(*) FILTER (WHERE "bytes" IS NOT NULL) AS "inPostgres",
           count(*) FILTER (WHERE "inObjectStore") AS "inObjectStore",
           count(*) FILTER (WHERE "inObjectStore" AND "bytes" IS NULL) AS "onlyInObjectStore"
    FROM "Asset"`;
  return {
    total: Number(row.total),
    inPostgres: Number(row.inPostgres),
    inObjectStore: Number(row.inObjectStore),
    onlyInObjectStore: Number(row.onlyInObjectStore),
  };
}

export async function markInObjectStore(hash: string): Promise<void> {
  await db.asset.update({ where: { hash }, data: { inObjectStore: true }, select: { hash: true } });
}

/** Clears the PostgreSQL copy of assets already verified in the object store; returns how many. */
export async function clearPostgresCopies(): Promise<number> {
  return db.$executeRaw`UPDATE "Asset" SET "bytes" = NULL WHERE "inObjectStore" AND "bytes" IS NOT NULL`;
}
