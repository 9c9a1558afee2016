import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageContentProblem } from "@/lib/import/image-check";
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

  it("refuses a decompression bomb by its declared size", async () => {
    // a real PNG whose header (IHDR, with its CRC) declares 12,000 x 10,000 pixels
    const bomb = Buffer.from(await picture("png"));
    bomb.writeUInt32BE(12_000, 16);
    bomb.writeUInt32BE(10_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect(await imageContentProblem(bomb, "image/png")).toContain("12000 x 10000 pixels");
  });
});
