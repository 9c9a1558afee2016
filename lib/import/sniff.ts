/**
 * Image type by magic bytes, never by file name: a text file named x.png is not an image.
 * Signatures: PNG (ISO/IEC 15948, 8-byte signature 89 50 4E 47 0D 0A 1A 0A), JPEG (SOI marker
 * FF D8 followed by a marker's FF), WebP (RIFF container: "RIFF" <size> "WEBP",
 * https://developers.google.com/speed/webp/docs/riff_container).
 */

export type ImageMime = "image/png" | "image/jpeg" | "image/webp";

export const acceptedImageTypes = "PNG, JPEG or WebP";

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/** The MIME type of a PNG, JPEG or WebP image, else null. O(1). */
export function sniffImageMime(bytes: Uint8Array): ImageMime | null {
  if (startsWith(bytes, pngSignature)) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/** What a rejected file looks like instead, for error messages ("it is empty", "it starts like text: ..."). */
export function describeNonImage(bytes: Uint8Array): string {
  if (bytes.length === 0) return "it is empty";
  if (startsWith(bytes, ascii("GIF8"))) return "it is a GIF image";
  if (startsWith(bytes, ascii("%PDF"))) return "it is a PDF document";
  if (startsWith(bytes, [0x42, 0x4d])) return "it looks like a BMP image";
  if (startsWith(bytes, ascii("II*\0")) || startsWith(bytes, ascii("MM\0*"))) return "it is a TIFF image";
  if (startsWith(bytes, ascii("PK\x03\x04"))) return "it is a zip archive";
  if (startsWith(bytes, pngSignature.slice(0, 4))) return "it has a damaged PNG signature";
  const head = bytes.subarray(0, 24);
  const printable = head.every((byte) => byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte < 0x7f));
  if (printable) return `it starts like text: ${JSON.stringify(Buffer.from(head).toString("latin1"))}`;
  const hex = Buffer.from(bytes.subarray(0, 8)).toString("hex").replace(/(..)/g, "$1 ").trim();
  return `its first bytes are ${hex}`;
}
