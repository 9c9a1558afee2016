import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_IMAGE_PIXELS, imageContentProblem, maxImagePixels } from "@/lib/import/image-check";
import { DEFAULT_MAX_IMAGE_BYTES, maxImageBytes } from "@/lib/import/validate";
import { sniffImageMime } from "@/lib/import/sniff";

async function picture(format: "png" | "jpeg" | "webp", width = 4, height = 3): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return format === "png" ? base.png().toBuffer() : format === "jpeg" ? base.jpeg().toBuffer() : base.webp().toBuffer();
}

const script = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");

describe("imageContentProblem", () => {
  it("passes real PNG, JPEG and WebP images", async () => {
    for (const format of ["png", "jpeg", "webp"] as const) {
      const bytes = await picture(format);
      expect(await imageContentProblem(bytes, sniffImageMime(bytes)!)).toBeNull();
    }
  });

  it("refuses HTML behind a PNG signature, a PNG with a script appended, and a truncated PNG", async () => {
    const signatureOnly = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), script]);
    expect(sniffImageMime(signatureOnly)).toBe("image/png"); // magic bytes alone would let it in
    expect(await imageContentProblem(signatureOnly, "image/png")).toContain("PNG end chunk");
    const png = await picture("png");
    expect(await imageContentProblem(Buffer.concat([png, script]), "image/png")).toContain("something is appended");
    expect(await imageContentProblem(png.subarray(0, png.length - 20), "image/png")).toContain("truncated");
  });

  it("refuses a WebP with bytes after its RIFF length, and a JPEG signature with no image behind it", async () => {
    const webp = await picture("webp");
    expect(await imageContentProblem(Buffer.concat([webp, script]), "image/webp")).toContain("RIFF header says");
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), script]);
    expect(await imageContentProblem(fakeJpeg, "image/jpeg")).toContain("cannot be read as an image");
  });

  it("refuses polyglots: a JPEG with HTML after its end marker, a PNG with HTML in a text chunk (plain or compressed)", async () => {
    const jpeg = await picture("jpeg");
    expect(await imageContentProblem(Buffer.concat([jpeg, script]), "image/jpeg")).toContain("after its end marker");
    // zero padding after the end marker is common and harmless
    expect(await imageContentProblem(Buffer.concat([jpeg, Buffer.alloc(16)]), "image/jpeg")).toBeNull();
    const png = await picture("png");
    const withChunk = (type: string, data: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(data.length, 0);
      head.write(type, 4, "latin1");
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
      // after the IHDR chunk (8 signature bytes + 25 bytes of IHDR)
      return Buffer.concat([png.subarray(0, 33), head, data, crc, png.subarray(33)]);
    };
    const tEXt = withChunk("tEXt", Buffer.concat([Buffer.from("Comment\0", "latin1"), script]));
    expect(sniffImageMime(tEXt)).toBe("image/png");
    expect(await imageContentProblem(tEXt, "image/png")).toContain("text chunk (tEXt) holds HTML");
    const zTXt = withChunk("zTXt", Buffer.concat([Buffer.from("Comment\0\0", "latin1"), deflateSync(script)]));
    expect(await imageContentProblem(zTXt, "image/png")).toContain("text chunk (zTXt) holds HTML");
    // an XMP packet is XML, not HTML: kept
    const xmp = withChunk("iTXt", Buffer.from('XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF></rdf:RDF></x:xmpmeta>', "latin1"));
    expect(await imageContentProblem(xmp, "image/png")).toBeNull();
  });

  it("refuses a decompression bomb by its declared size", async () => {
    // a real PNG whose header (IHDR, with its CRC) declares 12,000 x 10,000 pixels
    const bomb = Buffer.from(await picture("png"));
    bomb.writeUInt32BE(12_000, 16);
    bomb.writeUInt32BE(10_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect(await imageContentProblem(bomb, "image/png")).toContain("12000 x 10000 pixels");
  });

  it("refuses a real one-bit PNG of 9999 x 9999 (12 KB on disk): more pixels than the cap a task needs (default 4096 x 4096)", async () => {
    const bomb = oneBitPng(9999, 9999);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await imageContentProblem(bomb, "image/png")).toContain("9999 x 9999 pixels, more than 4096 x 4096");
    expect(DEFAULT_MAX_IMAGE_PIXELS).toBe(4096 * 4096);
    expect(await imageContentProblem(oneBitPng(4096, 4096), "image/png")).toBeNull();
    expect(await imageContentProblem(oneBitPng(4097, 4096), "image/png")).toContain("more than");
  });

  it("reads the pixel cap from YARDSTICK_MAX_IMAGE_PIXELS (a count, or W x H), refusing nonsense", () => {
    expect(maxImagePixels(undefined)).toBe(4096 * 4096);
    expect(maxImagePixels("1000000")).toBe(1_000_000);
    expect(maxImagePixels("2048x1024")).toBe(2048 * 1024);
    expect(() => maxImagePixels("lots")).toThrow(/YARDSTICK_MAX_IMAGE_PIXELS/);
    expect(() => maxImagePixels("0")).toThrow(/YARDSTICK_MAX_IMAGE_PIXELS/);
  });
});

/** A genuine PNG (grey, 1 bit a pixel, all black): width x height pixels in a few KB of deflate. */
function oneBitPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 and zero bits, row after row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("YARDSTICK_MAX_IMAGE_BYTES", () => {
  it("is read by the batch checks (README: the largest image accepted in a batch), refusing nonsense", () => {
    expect(maxImageBytes(undefined)).toBe(DEFAULT_MAX_IMAGE_BYTES);
    expect(maxImageBytes("")).toBe(DEFAULT_MAX_IMAGE_BYTES);
    expect(maxImageBytes("2048")).toBe(2048);
    expect(() => maxImageBytes("ten megabytes")).toThrow(/YARDSTICK_MAX_IMAGE_BYTES/);
    expect(() => maxImageBytes("0")).toThrow(/YARDSTICK_MAX_IMAGE_BYTES/);
  });
});
