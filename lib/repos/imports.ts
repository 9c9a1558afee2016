import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { DbClient, Tx } from "@/lib/db/client-types";

/**
 * Data access for batch imports: reads that validation needs (one query each) and the writes of
 * one import (its assets chunk by chunk, the rest in one short transaction). Rules live in lib/import.
 */

export interface StudyRef {
  id: string;
  slug: string;
}

export async function findStudy(where: { slug: string } | { id: string }, client: DbClient = db): Promise<StudyRef | null> {
  return client.study.findUnique({ where, select: { id: true, slug: true } });
}

export interface BatchRef {
  id: string;
  fileName: string;
  itemCount: number;
  createdAt: Date;
}

export async function findBatchByChecksum(studyId: string, checksum: string, client: DbClient = db): Promise<BatchRef | null> {
  return client.batch.findUnique({
    where: { studyId_checksum: { studyId, checksum } },
    select: { id: true, fileName: true, itemCount: true, createdAt: true },
  });
}

export interface ExistingItem {
  externalId: string;
  contentHash: string;
  batchFileName: string;
}

/** The study's items with these external ids, in one query (an array parameter, whatever the count). */
export async function findItemsByExternalIds(studyId: string, externalIds: string[], client: DbClient = db): Promise<ExistingItem[]> {
  if (externalIds.length === 0) return [];
  return client.$queryRaw<ExistingItem[]>`
    SELECT i."externalId", i."contentHash", b."fileName" AS "batchFileName"
    FROM "Item" i JOIN "Batch" b ON b."id" = i."batchId"
    WHERE i."studyId" = ${studyId} AND i."externalId" = ANY(${externalIds}::text[])`;
}

/** Which of these hashes are stored already, in one query. */
export async function findExistingAssetHashes(hashes: string[], client: DbClient = db): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await client.$queryRaw<Array<{ hash: string }>>`
    SELECT "hash" FROM "Asset" WHERE "hash" = ANY(${hashes}::text[])`;
  return new Set(rows.map((row) => row.hash));
}

export async function createBatch(
  client: DbClient,
  data: { studyId: string; fileName: string; checksum: string; itemCount: number; importedById: string | null },
): Promise<{ id: string }> {
  return client.batch.create({ data, select: { id: true } });
}

export interface NewAsset {
  hash: string;
  mime: string;
  size: number;
  /** null when the bytes are in the object store (lib/assets/store.ts) */
  bytes: Uint8Array | null;
  inObjectStore: boolean;
  durationS: number | null;
  width: number | null;
  height: number | null;
}

/** Inserts assets, skipping hashes stored meanwhile by another import; returns how many rows were new. */
/**
 * Stores assets not stored yet (content-addressed: a stored hash is skipped) and returns the
 * hashes this call stored, so that an import that fails later can take back exactly those
 * (deleteUnlinkedAssets).
 */
export async function insertAssets(assets: NewAsset[], client: DbClient = db): Promise<string[]> {
  if (assets.length === 0) return [];
  const result = await client.asset.createManyAndReturn({
    select: { hash: true },
    data: assets.map((asset) => ({
      hash: asset.hash,
      mime: asset.mime,
      size: asset.size,
      bytes: asset.bytes === null ? null : new Uint8Array(asset.bytes),
      inObjectStore: asset.inObjectStore,
      durationS: asset.durationS,
      width: asset.width,
      height: asset.height,
    })),
    skipDuplicates: true,
  });
  return result.map((row) => row.hash);
}

/** Deletes the given assets that no study links (what a failed import had stored); those a study links are kept. */
export async function deleteUnlinkedAssets(hashes: string[]): Promise<void> {
  const chunkSize = 5000;
  for (let start = 0; start < hashes.length; start += chunkSize) {
    await db.$executeRaw`DELETE FROM "Asset" a WHERE a.hash = ANY(${hashes.slice(start, start + chunkSize)}::text[]) AND NOT EXISTS (SELECT 1 FROM "StudyAsset" sa WHERE sa."assetHash" = a.hash)`;
  }
}

export async function linkAssetsToStudy(client: DbClient, studyId: string, hashes: string[]): Promise<void> {
  const chunkSize = 5000;
  for (let start = 0; start < hashes.length; start += chunkSize) {
    await client.studyAsset.createMany({
      data: hashes.slice(start, start + chunkSize).map((assetHash) => ({ studyId, assetHash })),
      skipDuplicates: true,
    });
  }
}

export interface NewItem {
  externalId: string;
  kind: string;
  public: Prisma.InputJsonValue;
  key: Prisma.InputJsonValue;
  tags: Prisma.InputJsonValue;
  practice: boolean;
  gold: boolean;
  contentHash: string;
}

/** An id like Prisma's cuid() default (rows inserted with SQL get no Prisma default). */
function newItemId(): string {
  return `c${Date.now().toString(36)}${randomBytes(10).toString("hex")}`;
}

/**
 * Items in chunks of 500, each one statement whose rows travel as one JSON parameter
 * (jsonb_to_recordset): Prisma's createMany spent seconds of CPU on 1,000 rows, holding the
 * process (and the annotators it serves); between chunks the event loop runs.
 */
export async function insertItems(client: DbClient, studyId: string, batchId: string, items: NewItem[]): Promise<number> {
  const chunkSize = 500;
  let count = 0;
  for (let start = 0; start < items.length; start += chunkSize) {
    const rows = JSON.stringify(
      items.slice(start, start + chunkSize).map((item) => ({
        i: newItemId(),
        e: item.externalId,
        k: item.kind,
        p: item.public,
        y: item.key,
        t: item.tags,
        r: item.practice,
        g: item.gold,
        h: item.contentHash,
      })),
    );
    count += await client.$executeRaw`
      INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, "public", "key", tags, practice, gold, "contentHash", "createdAt")
      SELECT x.i, ${studyId}, ${batchId}, x.e, x.k, x.p, x.y, x.t, x.r, x.g, x.h, (now() AT TIME ZONE 'UTC')
      FROM jsonb_to_recordset(${rows}::jsonb) AS x(i text, e text, k text, p jsonb, y jsonb, t jsonb, r boolean, g boolean, h text)`;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return count;
}

/** Whether the study has any item (read in the import's transaction, before its items are written). */
export async function studyHasItems(tx: Tx, studyId: string): Promise<boolean> {
  return (await tx.item.findFirst({ where: { studyId }, select: { id: true } })) !== null;
}

export async function writeAuditEntry(
  entry: { actorId: string | null; action: string; target: string; detail: Prisma.InputJsonValue },
  client: DbClient = db,
): Promise<void> {
  await client.auditLog.create({ data: entry, select: { id: true } });
}

export { isUniqueViolation } from "@/lib/db/errors";

let embeddedAnswer: Promise<boolean> | undefined;
/**
 * Whether the database is the embedded PGlite (one session serves every connection, so an open
 * transaction stalls every other request) rather than a PostgreSQL server. Asked once per process.
 */
export function databaseIsEmbedded(): Promise<boolean> {
  embeddedAnswer ??= db.$queryRaw<Array<{ version: string }>>`SELECT version()`.then(
    ([row]) => /PGlite/i.test(row?.version ?? ""),
    (error: unknown) => {
      embeddedAnswer = undefined;
      throw error;
    },
  );
  return embeddedAnswer;
}
