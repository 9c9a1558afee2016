import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_CLIP } from "@/scripts/demo-data/media/demo-clip";

/**
 * The demo items' keys about the real clip (DEMO_CLIP) agree with the script that draws it
 * (make-demo-video.sh): its ball's motion read from the script's ffmpeg expressions and followed
 * frame by frame at the clip's 24 fps. Redrawing the clip differently fails here until the keys
 * follow.
 */

const script = readFileSync(path.join(import.meta.dirname, "make-demo-video.sh"), "utf8");
const num = (pattern: RegExp): number => {
  const match = pattern.exec(script);
  if (!match) throw new Error(`make-demo-video.sh no longer has ${pattern}`);
  return Number(match[1]);
};

const R = num(/\bR=(\d+)/);
const FPS = num(/\bFPS=(\d+)/);
const DUR = num(/\bDUR=(\d+)/);
// XC="min(30+64*t,300)"
const [x0, vx, xMax] = (/XC="min\((\d+)\+(\d+)\*t,(\d+)\)"/.exec(script) ?? []).slice(1).map(Number);
// YC="min(if(lt(t,2.5),$((150 - R)),$((150 - R))+200*pow(t-2.5,2)),$((222 - R)))"
const yc = /YC="min\(if\(lt\(t,([\d.]+)\),\$\(\((\d+) - R\)\),\$\(\((\d+) - R\)\)\+(\d+)\*pow\(t-([\d.]+),2\)\),\$\(\((\d+) - R\)\)\)"/.exec(script);
if (!yc) throw new Error("make-demo-video.sh no longer has the YC expression this test reads");
const [fallStart, tableTop, , halfG, , floorTop] = yc.slice(1).map(Number);
// the table top: drawbox=x=0:y=150:w=190:h=10
const tableEdge = num(/drawbox=x=0:y=\d+:w=(\d+):h=10:/);

const x = (t: number) => Math.min(x0 + vx * t, xMax);
const y = (t: number) => Math.min(t < fallStart ? tableTop - R : tableTop - R + halfG * (t - fallStart) ** 2, floorTop - R);
const frames = Array.from({ length: FPS * DUR }, (_, i) => i / FPS);

describe("the demo clip's facts (the keys of the demo items about it)", () => {
  it("is 4 s long and the ball rolls right the whole time", () => {
    expect(DUR).toBe(DEMO_CLIP.seconds);
    for (let i = 1; i < frames.length; i++) expect(x(frames[i])).toBeGreaterThan(x(frames[i - 1]));
    expect(DEMO_CLIP.direction).toBe("right");
  });

  it("the ball leaves the table's edge at 2.5 s, when it starts to fall", () => {
    expect((tableEdge - x0) / vx).toBe(DEMO_CLIP.leavesTableAt);
    expect(fallStart).toBe(DEMO_CLIP.leavesTableAt);
    const lastOnTable = frames.filter((t) => x(t) <= tableEdge).at(-1)!;
    expect(lastOnTable).toBe(2.5);
    expect(y(lastOnTable)).toBe(tableTop - R);
    expect(DEMO_CLIP.cutBeforeFall).toBeLessThan(DEMO_CLIP.leavesTableAt);
  });

  it("lands at 3.1 s and never bounces: its height only ever goes down the screen", () => {
    expect(fallStart + Math.sqrt((floorTop - tableTop) / halfG)).toBeCloseTo(DEMO_CLIP.landsAt, 12);
    const heights = frames.map(y);
    for (let i = 1; i < heights.length; i++) expect(heights[i]).toBeGreaterThanOrEqual(heights[i - 1]);
    expect(heights.at(-1)).toBe(floorTop - R);
    expect(DEMO_CLIP.bounces).toBe(0);
  });
});
