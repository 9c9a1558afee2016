/**
 * ENACT's released images carry a red caption of their own in the top left corner ("Next State 2",
 * "Current State"), drawn by the benchmark's renderer in the release's file order. In the forward
 * task the candidates are shuffled and lettered, so "Next State 2" on the image that belongs in
 * step 1 misleads. The page finds the caption in the image's pixels and covers it with the
 * candidate's letter (components/tasks/enact-forward/enact-forward-task.tsx); images without the
 * caption are shown whole. Pure: no React, no DOM.
 *
 * Where the caption sits, measured on every image of data/enact-sample (512 x 512 renders): pure
 * red text between x 18-335 and y 26-62 px. The band below covers it with a margin, as fractions
 * of the (square) image.
 */
export const BAKED_LABEL_BAND = { left: 0.02, top: 0.035, width: 0.68, height: 0.105 } as const;

/** The caption's red: (255, 0, 0) after PNG/JPEG rounding. */
function captionRed(r: number, g: number, b: number): boolean {
  return r >= 220 && g <= 50 && b <= 50;
}

/** Share of caption-red pixels in a region of an RGBA or RGB pixel buffer. */
function redShare(pixels: ArrayLike<number>, width: number, channels: number, x0: number, y0: number, x1: number, y1: number): number {
  let red = 0;
  let total = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * width + x) * channels;
      total++;
      if (captionRed(pixels[i], pixels[i + 1], pixels[i + 2])) red++;
    }
  }
  return total === 0 ? 0 : red / total;
}

/**
 * Does this image carry ENACT's caption? Square images only (the cover is placed by fractions of
 * the image); the band must hold clearly more caption-red than the strip right under it, so that a
 * red wall or a red object is not taken for a caption.
 */
export function hasBakedLabel(pixels: ArrayLike<number>, width: number, height: number, channels: 3 | 4): boolean {
  if (width < 64 || width !== height) return false;
  const x0 = Math.floor(BAKED_LABEL_BAND.left * width);
  const x1 = Math.ceil((BAKED_LABEL_BAND.left + BAKED_LABEL_BAND.width) * width);
  const y0 = Math.floor(BAKED_LABEL_BAND.top * height);
  const y1 = Math.ceil((BAKED_LABEL_BAND.top + BAKED_LABEL_BAND.height) * height);
  const band = redShare(pixels, width, channels, x0, y0, x1, y1);
  const below = redShare(pixels, width, channels, x0, y1, x1, Math.min(height, y1 + (y1 - y0)));
  return band >= 0.04 && band >= 4 * below;
}

/** The cover's place over the image, as CSS percentages of its box. */
export const bakedLabelCoverStyle = {
  left: `${BAKED_LABEL_BAND.left * 100}%`,
  top: `${BAKED_LABEL_BAND.top * 100}%`,
  width: `${BAKED_LABEL_BAND.width * 100}%`,
  height: `${BAKED_LABEL_BAND.height * 100}%`,
} as const;
