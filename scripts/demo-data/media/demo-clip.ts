import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";

/**
 * The generic kinds' real demo clip (demo-ball.webm, drawn by make-demo-video.sh beside this file:
 * 320x240, 24 fps, 4 s): a red ball rolls right along a table top, leaves the table's edge and
 * falls to the floor, where it rolls on to the right without bouncing. What the clip shows, from
 * the script's formulas and checked on its frames:
 *
 * - the ball's centre x = 30 + 64 t px and the table's edge at x = 190: it leaves the table at
 *   t = 2.5 s;
 * - it falls 200 (t - 2.5)^2 px from y = 136 to y = 208 (resting on the floor): it lands at
 *   t = 3.1 s, and y stays there: no bounce;
 * - the ball moves right the whole time.
 */
export const DEMO_CLIP = {
  /** where the demo batches keep it, relative to the batch */
  file: "video/demo-ball.webm",
  seconds: 4,
  direction: "right",
  leavesTableAt: 2.5,
  landsAt: 3.1,
  bounces: 0,
  /** a cut just before the ball leaves the table (a "what happens next" clip) */
  cutBeforeFall: 2.4,
} as const;

/** Copies the clip into a demo batch (at DEMO_CLIP.file) and returns its path in the batch. */
export async function copyDemoClip(outDir: string): Promise<string> {
  await mkdir(path.join(outDir, path.dirname(DEMO_CLIP.file)), { recursive: true });
  await copyFile(path.join(import.meta.dirname, "demo-ball.webm"), path.join(outDir, DEMO_CLIP.file));
  return DEMO_CLIP.file;
}
