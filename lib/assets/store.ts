import "server-only";
import { assetStoreKind, s3Settings, type AssetStoreKind, type S3Settings } from "@/lib/assets/config";
import { putObject, readObject } from "@/lib/assets/s3";
import { readAssetBytes, type StoredAsset } from "@/lib/repos/assets";

/**
 * Where the bytes of an asset live. Two stores, one interface: PostgreSQL (the bytea of the Asset
 * row, the embedded default) and an S3-compatible bucket (ASSET_STORE=s3; lib/assets/config.ts).
 * Both key by the sha256 of the bytes, so a re-import stores nothing twice: the importer only
 * saves assets whose hash has no Asset row yet.
 *
 * The Asset row says where its bytes are (`bytes` not null, `inObjectStore`), so reading does not
 * depend on the configured store: an asset imported before a switch to S3 is still served from
 * PostgreSQL until `yardstick assets migrate --to s3` copies it.
 */
export interface NewAssetBytes {
  hash: string;
  mime: string;
  size: number;
  bytes: Uint8Array;
}

/** The storage columns of a new Asset row. */
export interface AssetPlacement {
  bytes: Uint8Array | null;
  inObjectStore: boolean;
}

export interface ByteRange {
  start: number;
  /** inclusive */
  end: number;
}

export interface AssetStore {
  readonly kind: AssetStoreKind;
  /**
   * Puts checked bytes where this store keeps them and returns the Asset row's storage columns.
   * The S3 store uploads here, before the row is written: an object without a row is harmless (the
   * next import of the same bytes overwrites it with the same bytes), a row without bytes is not.
   */
  save(asset: NewAssetBytes): Promise<AssetPlacement>;
  /** Bytes `range` of a stored asset, streamed (never the whole asset in memory); null when they are not there. */
  read(asset: StoredAsset, range: ByteRange): Promise<ReadableStream<Uint8Array> | null>;
}

/** Bytes read from PostgreSQL per query: a 1 MiB range of a 200 MB video reads 1 MiB. */
export const POSTGRES_READ_CHUNK = 1024 * 1024;

export const postgresStore: AssetStore = {
  kind: "postgres",
  async save(asset) {
    return { bytes: asset.bytes, inObjectStore: false };
  },
  async read(asset, range) {
    let next = range.start;
    // the first chunk is read before answering, so that a missing row is a 404 and not a cut stream
    const first = await readAssetBytes(asset.hash, next, Math.min(POSTGRES_READ_CHUNK, range.end - next + 1));
    if (first === null) return null;
    next += first.length;
    let pending: Buffer | null = first;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pending) {
          controller.enqueue(new Uint8Array(pending));
          pending = null;
          if (next > range.end) controller.close();
          return;
        }
        const part = await readAssetBytes(asset.hash, next, Math.min(POSTGRES_READ_CHUNK, range.end - next + 1));
        if (part === null || part.length === 0) {
          controller.error(new Error(`asset ${asset.hash} ended at byte ${next} of ${asset.size}`));
          return;
        }
        next += part.length;
        controller.enqueue(new Uint8Array(part));
        if (next > range.end) controller.close();
      },
    });
  },
};

export function s3Store(settings: S3Settings): AssetStore {
  return {
    kind: "s3",
    async save(asset) {
      await putObject(settings, asset, asset.bytes);
      return { bytes: null, inObjectStore: true };
    },
    read(asset, range) {
      return readObject(settings, asset.hash, range);
    },
  };
}

/** The store new assets are saved to (ASSET_STORE); throws naming the variable on bad settings. */
export function configuredStore(env: Record<string, string | undefined> = process.env): AssetStore {
  return assetStoreKind(env) === "s3" ? s3Store(s3Settings(env)) : postgresStore;
}

/**
 * The store to read an asset from: the bucket when S3 is configured and holds it, else its row,
 * else the bucket (an asset whose PostgreSQL copy was cleared after a migration).
 */
export function storeHolding(asset: StoredAsset, env: Record<string, string | undefined> = process.env): AssetStore {
  const kind = assetStoreKind(env);
  if (asset.inObjectStore && (kind === "s3" || !asset.inPostgres)) return s3Store(s3Settings(env));
  return postgresStore;
}
