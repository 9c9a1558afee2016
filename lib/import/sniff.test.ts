import { describe, expect, it } from "vitest";
import { describeNonImage, sniffImageMime } from "@/lib/import/sniff";
import { image } from "@/tests/fixtures/import-batches";

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);

describe("sniffImageMime", () => {
  it("recognises real PNG, JPEG and WebP files written by sharp (libvips)", async () => {
    expect(sniffImageMime(await image(1, "png"))).toBe("image/png");
    expect(sniffImageMime(await image(1, "jpeg"))).toBe("image/jpeg");
    expect(sniffImageMime(await image(1, "webp"))).toBe("image/webp");
  });

  it("reads only the signature", () => {
    expect(sniffImageMime(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(sniffImageMime(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageMime(text("RIFF\x10\x00\x00\x00WEBPVP8L"))).toBe("image/webp");
  });

  it.each([
    ["empty", bytes()],
    ["text named .png", text("this is not a png\n")],
    ["truncated PNG signature", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a)],
    ["PNG signature with a damaged byte", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00)],
    ["JPEG SOI without a marker", bytes(0xff, 0xd8, 0x00)],
    ["RIFF that is not WebP (WAV)", text("RIFF\x10\x00\x00\x00WAVEfmt ")],
    ["GIF", text("GIF89a\x01\x00")],
    ["SVG", text('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])("refuses %s", (_label, value) => {
    expect(sniffImageMime(value)).toBeNull();
  });
});

describe("describeNonImage", () => {
  it("says what the file looks like instead", () => {
    expect(describeNonImage(bytes())).toBe("it is empty");
    expect(describeNonImage(text("hello\n"))).toBe('it starts like text: "hello\\n"');
    expect(describeNonImage(text("GIF89a"))).toBe("it is a GIF image");
    expect(describeNonImage(bytes(0x00, 0x01, 0xfe))).toBe("its first bytes are 00 01 fe");
  });
});
