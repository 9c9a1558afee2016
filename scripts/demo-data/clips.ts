import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

/**
 * Drawn "generated videos" for the rating and pairwise demos: short clips as folders of PNG frames
 * (played at FPS by the player), rasterised from SVG by sharp. Each clip follows a prompt, well or
 * with a flaw a rubric should catch: the ball floats up instead of falling, falls through the
 * table, or the cube ignores the prompt; "noisy" adds speckle (frame quality).
 */

export const CLIP_FPS = 8;
export const CLIP_FRAMES = 16;
const W = 320;
const H = 180;

export type ClipPrompt = "ball" | "cube";
export type ClipFlaw = "none" | "float" | "through" | "ignore" | "noisy";

export const CLIP_PROMPTS: Record<ClipPrompt, string> = {
  ball: "A red ball rolls off the edge of a table and falls to the floor.",
  cube: "A blue cube slides along the table and stops before the edge.",
};

function frameSvg(prompt: ClipPrompt, flaw: ClipFlaw, frame: number, seed: number): string {
  const t = frame / (CLIP_FRAMES - 1);
  const tableTop = 100;
  const parts = [
    `<rect width="${W}" height="${H}" fill="#e8eef6"/>`,
    `<rect y="150" width="${W}" height="30" fill="#b9a78e"/>`,
    `<rect x="20" y="${tableTop}" width="190" height="10" fill="#7a5230"/>`,
    `<rect x="30" y="110" width="8" height="40" fill="#7a5230"/>`,
    `<rect x="192" y="110" width="8" height="40" fill="#7a5230"/>`,
  ];
  if (prompt === "ball") {
    // rolls to the edge (x 60 -> 210) in the first half, then leaves it
    const r = 10;
    let x = 60 + Math.min(t, 0.5) * 2 * 150;
    let y = tableTop - r;
    if (t > 0.5) {
      const u = (t - 0.5) * 2;
      x = 210 + u * 40;
      if (flaw === "float") y = tableTop - r - u * 70;
      else y = Math.min(150 - r, tableTop - r + u * u * 60 * 1.2);
    }
    if (flaw === "through" && t > 0.3) {
      x = 150;
      y = Math.min(150 - r, tableTop - r + (t - 0.3) * 90);
    }
    parts.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="#d62728"/>`);
  } else {
    const size = 20;
    const stop = flaw === "ignore" ? 240 : 170;
    const x = 40 + Math.min(1, t * 1.4) * (stop - 40);
    const y = flaw === "ignore" && x > 190 ? Math.min(150 - size, tableTop - size + (x - 190) * 1.5) : tableTop - size;
    parts.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${size}" height="${size}" fill="#1f77b4"/>`);
  }
  if (flaw === "noisy") {
    let s = seed + frame * 7919;
    const rand = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 140; i++)
      parts.push(`<rect x="${(rand() * W).toFixed(0)}" y="${(rand() * H).toFixed(0)}" width="3" height="3" fill="#${rand() < 0.5 ? "222" : "fff"}"/>`);
  }
  parts.push(`<text x="8" y="18" font-family="sans-serif" font-size="11" fill="#334">frame ${frame + 1}/${CLIP_FRAMES}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join("")}</svg>`;
}

/** A clip's frames as PNG bytes. */
export async function renderClip(prompt: ClipPrompt, flaw: ClipFlaw, seed = 1): Promise<Buffer[]> {
  const frames: Buffer[] = [];
  for (let frame = 0; frame < CLIP_FRAMES; frame++)
    frames.push(
      await sharp(Buffer.from(frameSvg(prompt, flaw, frame, seed)))
        .png()
        .toBuffer(),
    );
  return frames;
}

/** Writes a clip's frames as `<dir>/<name>/fNN.png` and returns their paths relative to `dir`. */
export async function writeClip(dir: string, name: string, prompt: ClipPrompt, flaw: ClipFlaw, seed = 1): Promise<string[]> {
  await mkdir(path.join(dir, name), { recursive: true });
  const frames = await renderClip(prompt, flaw, seed);
  const paths: string[] = [];
  for (const [frame, bytes] of frames.entries()) {
    const rel = `${name}/f${String(frame).padStart(2, "0")}.png`;
    await writeFile(path.join(dir, rel), bytes);
    paths.push(rel);
  }
  return paths;
}
