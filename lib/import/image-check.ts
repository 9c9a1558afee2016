import sharp, { type Metadata } from "sharp";
import type { ImageMime } from "@/lib/import/sniff";

/**
 * The second look at an image whose magic bytes passed (lib/import/sniff.ts): libvips (sharp)
 * must read its header as the same format, its size must stay under a pixel cap (decompression
 * bombs), and a PNG must end with its IEND chunk and a WebP must be as long as its RIFF header
 * says, so nothing (an HTML or script polyglot, say) rides after the picture. Reading headers
 * costs about 0.6 ms an image here; decoding every pixel would cost 35 ms, so it is not done: the
 * serving side never lets a stored file act as anything but an image (Content-Type from these
 * checks, nosniff, a sandboxing CSP; app/api/assets).
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

const pngEnd = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const formatOf: Record<ImageMime, string> = { "image/png": "png", "image/jpeg": "jpeg", "image/webp": "webp" };

/** What is wrong with the image, or null when it is a readable image of its type. */
export async function imageContentProblem(bytes: Buffer, mime: ImageMime): Promise<string | null> {
  if (mime === "image/png" && !bytes.subarray(bytes.length - pngEnd.length).equals(pngEnd)) {
    return "it does not end with the PNG end chunk (IEND): it is truncated, or something is appended to it";
  }
  if (mime === "image/webp" && bytes.length >= 12 && bytes.readUInt32LE(4) + 8 + (bytes.readUInt32LE(4) % 2) !== bytes.length) {
    return `its RIFF header says ${bytes.readUInt32LE(4) + 8} bytes but the file has ${bytes.length}`;
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    return `it cannot be read as an image (${error instanceof Error ? error.message.split("\n")[0].trim() : "unreadable"})`;
  }
  if (metadata.format !== formatOf[mime]) return `its header reads as ${metadata.format ?? "nothing known"}, not ${formatOf[mime]}`;
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels === 0) return "it has no pixels";
  if (pixels > MAX_IMAGE_PIXELS) return `it is ${metadata.width} x ${metadata.height} pixels, more than ${MAX_IMAGE_PIXELS / 1_000_000} million`;
  return null;
}
