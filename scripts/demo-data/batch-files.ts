import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";

/**
 * Removes outDir/img from an earlier run of the same generator. A generator writes its marker
 * file into outDir; an img/ folder without that marker is someone else's and is left alone.
 */
export async function clearPreviousImages(outDir: string, marker: string): Promise<void> {
  const img = path.join(outDir, "img");
  if (!existsSync(img)) return;
  if (!existsSync(path.join(outDir, marker))) {
    throw new Error(`${img} exists and was not written by this generator (no ${marker}); refusing to replace it`);
  }
  await rm(img, { recursive: true, force: true });
}

/** Runs `fn` over `values` with at most `limit` at a time, keeping order. */
export async function mapLimit<T, R>(values: readonly T[], limit: number, fn: (value: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(values.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, values.length) }, async () => {
      while (next < values.length) {
        const i = next++;
        out[i] = await fn(values[i]);
      }
    }),
  );
  return out;
}
