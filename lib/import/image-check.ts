import { inflateSync } from "node:zlib";
import sharp, { type Metadata } from "sharp";
import { holdsMarkup } from "@/lib/import/markup";
import type { ImageMime } from "@/lib/import/sniff";

/**
 * The second look at an image whose magic bytes passed (lib/import/sniff.ts): libvips (sharp)
 * must read its header as the same format, its size must stay under a pixel cap (decompression
 * bombs: a 12 KB one-bit PNG can declare 9999 x 9999 pixels, which a browser would unpack into
 * 400 MB), and a PNG must end with its IEND chunk, a JPEG with the end marker of its last scan
 * (zero padding aside) and a WebP must be as long as its RIFF header says, so nothing (an HTML or
 * script polyglot, say) rides after the picture; nor may a PNG's text chunks hold HTML. Reading headers
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
  if (!Number.isSafeInteger(pixels) || pixels < 1)
    throw new Error(`YARDSTICK_MAX_IMAGE_PIXELS must be a pixel count (16777216) or a size (4096x4096); got ${JSON.stringify(env)}`);
  return pixels;
}

function describeCap(pixels: number): string {
  const side = Math.sqrt(pixels);
  return Number.isInteger(side) ? `${side} x ${side} (${pixels.toLocaleString("en")} pixels)` : `${pixels.toLocaleString("en")} pixels`;
}

const pngEnd = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const formatOf: Record<ImageMime, string> = { "image/png": "png", "image/jpeg": "jpeg", "image/webp": "webp" };

/**
 * Where a JPEG's image ends: after the EOI marker (FF D9) that closes its last scan, found by
 * walking its segments (each marker's length) and its entropy-coded scans (where FF 00 is a
 * stuffed byte and FF D0-D7 a restart marker). An EOI inside an embedded EXIF thumbnail sits
 * within a segment and is skipped with it. Null when the walk finds no end.
 * Source: ITU-T T.81 (JPEG), Annex B (B.1.1.2 markers, B.1.1.5 entropy-coded segments).
 */
export function jpegEnd(bytes: Buffer): number | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++; // fill bytes
      continue;
    }
    if (marker === 0xd9) return at + 2;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    at += 2 + length;
    if (marker !== 0xda) continue;
    // a scan: its entropy-coded data runs to the next marker that is not a stuffed byte or a restart
    while (at + 1 < bytes.length && !(bytes[at] === 0xff && bytes[at + 1] !== 0x00 && !(bytes[at + 1] >= 0xd0 && bytes[at + 1] <= 0xd7))) at++;
  }
  return null;
}

/** A PNG's text chunks (tEXt, zTXt, iTXt) that hold HTML: the type of the first, else null. */
function pngTextWithMarkup(bytes: Buffer): string | null {
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const data = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length));
    if (type === "tEXt" || type === "iTXt" || type === "zTXt") {
      let text: Buffer = data;
      const keywordEnd = data.indexOf(0);
      // zTXt: keyword, 0, method, compressed text; iTXt: keyword, 0, flag, method, language, 0, translated, 0, text (compressed when flag is 1)
      const compressed = type === "zTXt" ? keywordEnd + 2 : type === "iTXt" && data[keywordEnd + 1] === 1 ? afterZeros(data, keywordEnd + 3, 2) : -1;
      if (compressed > 0 && compressed <= data.length) {
        try {
          text = inflateSync(data.subarray(compressed), { maxOutputLength: 1 << 20 });
        } catch {
          text = data;
        }
      }
      if (holdsMarkup(text)) return type;
    }
    at += 12 + length;
  }
  return null;
}

/** The position after the `count`-th zero byte from `from`. */
function afterZeros(data: Buffer, from: number, count: number): number {
  let at = from;
  for (let k = 0; k < count; k++) {
    const zero = data.indexOf(0, at);
    if (zero < 0) return -1;
    at = zero + 1;
  }
  return at;
}

/** What is wrong with the image, or null when it is a readable image of its type. */
export async function imageContentProblem(bytes: Buffer, mime: ImageMime, maxPixels: number = maxImagePixels()): Promise<string | null> {
  if (mime === "image/png" && !bytes.subarray(bytes.length - pngEnd.length).equals(pngEnd)) {
    return "it does not end with the PNG end chunk (IEND): it is truncated, or something is appended to it";
  }
  if (mime === "image/webp" && bytes.length >= 12 && bytes.readUInt32LE(4) + 8 + (bytes.readUInt32LE(4) % 2) !== bytes.length) {
    return `its RIFF header says ${bytes.readUInt32LE(4) + 8} bytes but the file has ${bytes.length}`;
  }
  if (mime === "image/jpeg") {
    const end = jpegEnd(bytes);
    // zero padding after the end is common (cameras, editors) and harmless
    if (end !== null && bytes.subarray(end).some((byte) => byte !== 0))
      return `something is appended after its end marker (FF D9 at byte ${end - 2}): ${bytes.length - end} bytes a browser could read as another kind of file`;
  }
  if (mime === "image/png") {
    const chunk = pngTextWithMarkup(bytes);
    if (chunk) return `its text chunk (${chunk}) holds HTML: a file a browser could render as a page`;
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
