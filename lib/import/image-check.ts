import sharp, { type Metadata } from "sharp";
import type { ImageMime } from "@/lib/import/sniff";

/**
 * The second look at an image whose magic bytes passed (lib/import/sniff.ts): libvips (sharp)
 * must read its header as the same format, its size must stay under a pixel cap (decompression
 * bombs: a 12 KB one-bit PNG can declare 9999 x 9999 pixels, which a browser would unpack into
 * 400 MB), and a PNG must end with its IEND chunk and a WebP must be as long as its RIFF header
 * says, so nothing (an HTML or script polyglot, say) rides after the picture. Reading headers
 * costs about 0.6 ms an image here; decoding every pixel would cost 35 ms, so it is not done: the
 * serving side never lets a stored file act as anything but an image (Content-Type from these
 * checks, nosniff, a sandboxing CSP; app/api/assets).
 */
export const DEFAULT_MAX_IMAGE_PIXELS = 4096 * 4096;

/**
 * The pixel cap: `YARDSTICK_MAX_IMAGE_PIXELS`, a pixel count ("16777216") or a size ("4096x4096");
 * default 4096 x 4096, more than any task's picture needs. Images over it are refused at import
 * (stored images keep the bytes of the benchmark's release, so they are not re-encoded).
 */
export function maxImagePixels(env: string | undefined = process.env.YARDSTICK_MAX_IMAGE_PIXELS): number {
  if (env === undefined || env.trim() === "") return DEFAULT_MAX_IMAGE_PIXELS;
  const size = /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(env);
  const pixels = size ? Number(size[1]) * Number(size[2]) : /^\s*\d+\s*$/.test(env) ? Number(env) : Number.NaN;
  if (!Number.isSafeInteger(pixels) || pixels < 1) throw new Error(`YARDSTICK_MAX_IMAGE_PIXELS must be a pixel count (16777216) or a size (4096x4096); got ${JSON.stringify(env)}`);
  return pixels;
}

function describeCap(pixels: number): string {
  const side = Math.sqrt(pixels);
  return Number.isInteger(side) ? `${side} x ${side} (${pixels.toLocaleString("en")} pixels)` : `${pixels.toLocaleString("en")} pixels`;
}

const pngEnd = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const formatOf: Record<ImageMime, string> = { "image/png": "png", "image/jpeg": "jpeg", "image/webp": "webp" };

/** What is wrong with the image, or null when it is a readable image of its type. */
export async function imageContentProblem(bytes: Buffer, mime: ImageMime, maxPixels: number = maxImagePixels()): Promise<string | null> {
  if (mime === "image/png" && !bytes.subarray(bytes.length - pngEnd.length).equals(pngEnd)) {
    return "it does not end with the PNG end chunk (IEND): it is truncated, or something is appended to it";
  }
  if (mime === "image/webp" && bytes.length >= 12 && bytes.readUInt32LE(4) + 8 + (bytes.readUInt32LE(4) % 2) !== bytes.length) {
    return `its RIFF header says ${bytes.readUInt32LE(4) + 8} bytes but the file has ${bytes.length}`;
  }
  let metadata: Metadata;
  try {
    // the header only (no pixel is decoded); the cap is checked below with a message of our own
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    return `it cannot be read as an image (${error instanceof Error ? error.message.split("\n")[0].trim() : "unreadable"})`;
  }
  if (metadata.format !== formatOf[mime]) return `its header reads as ${metadata.format ?? "nothing known"}, not ${formatOf[mime]}`;
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels === 0) return "it has no pixels";
  if (pixels > maxPixels) return `it is ${metadata.width} x ${metadata.height} pixels, more than ${describeCap(maxPixels)} (YARDSTICK_MAX_IMAGE_PIXELS)`;
  return null;
}
