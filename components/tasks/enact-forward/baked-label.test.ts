import { readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hasBakedLabel } from "@/components/tasks/enact-forward/baked-label";

const root = path.join(process.cwd(), "data/enact-sample/QA/images");
const images = readdirSync(root, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".png"))
  .map((file) => path.join(root, file))
  .sort();

async function detect(file: string | Buffer): Promise<boolean> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return hasBakedLabel(data, info.width, info.height, 3);
}

describe("hasBakedLabel", () => {
  // about 60 PNG decodes: generous time on a busy machine
  it("finds ENACT's red caption on every released image of the sample", { timeout: 60_000 }, async () => {
    expect(images.length).toBeGreaterThan(50);
    for (const file of images) expect(await detect(file), path.basename(file)).toBe(true);
  });

  it("finds none once the caption is painted over, nor on plain, red or non-square pictures", { timeout: 30_000 }, async () => {
    const sample = images[0];
    const covered = await sharp(sample)
      .composite([{ input: { create: { width: 360, height: 60, channels: 3, background: { r: 40, g: 40, b: 40 } } }, left: 8, top: 16 }])
      .png()
      .toBuffer();
    expect(await detect(covered)).toBe(false);
    const plain = await sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 90, g: 120, b: 150 } } })
      .png()
      .toBuffer();
    expect(await detect(plain)).toBe(false);
    // a red wall fills the band and the strip under it alike
    const red = await sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 250, g: 10, b: 10 } } })
      .png()
      .toBuffer();
    expect(await detect(red)).toBe(false);
    const wide = await sharp(sample).resize(512, 384, { fit: "fill" }).png().toBuffer();
    expect(await detect(wide)).toBe(false);
  });
});
