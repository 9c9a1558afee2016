import "server-only";
import { db } from "@/lib/db";

/**
 * Data access for stored images (Asset, StudyAsset). Rules about who may see what live in
 * lib/assets.ts; this file only reads.
 */

export interface StoredAsset {
  hash: string;
  mime: string;
  size: number;
  bytes: Uint8Array;
}

const assetSelect = { hash: true, mime: true, size: true, bytes: true } as const;

export async function findAsset(hash: string): Promise<StoredAsset | null> {
  return db.asset.findUnique({ where: { hash }, select: assetSelect });
}

/**
 * The asset when a study that links it has the user as a member or has an assignment of the
 * user; one query.
 */
export async function findAssetInUserStudies(hash: string, userId: string): Promise<StoredAsset | null> {
  return db.asset.findFirst({
    where: {
      hash,
      studies: {
        some: {
          study: {
            OR: [{ members: { some: { userId } } }, { assignments: { some: { userId } } }],
          },
        },
      },
    },
    select: assetSelect,
  });
}
