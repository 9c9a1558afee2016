import { createHash } from "node:crypto";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runScoreCommand } from "@/lib/cli/score";
import { readBatchSource } from "@/lib/import/source";
import { validateBatch } from "@/lib/import/validate";
import { getTaskModule } from "@/lib/tasks";
import { buildBaseCase, keyFrameIndices, linspace } from "@/scripts/demo-data/gridwm/cases";
import { buildGridwmDemoBatch, generateGridwmDemoBatch, sceneGold, specDir, type GridwmDemoItem } from "@/scripts/demo-data/gridwm/generate-gridwm-batch";
import { addGaussianNoise, applyStyle, svgToRaw, viewFrameSvg } from "@/scripts/demo-data/gridwm/render";
import { door, egocentricView, emptyWorld, key, setCell, wallRect, type World } from "@/scripts/demo-data/gridwm/world";

const SEED = 5;
const SMALL = { groupsPerEnv: 1, poolPerEnv: 4, taskAPerEnv: 2, taskBPerEnv: 2 };

let dirA: string;
let dirB: string;
let written: GridwmDemoItem[];

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out.sort();
}

beforeAll(async () => {
  dirA = await mkdtemp(path.join(os.tmpdir(), "gridwm-demo-a-"));
  dirB = await mkdtemp(path.join(os.tmpdir(), "gridwm-demo-b-"));
  written = (await generateGridwmDemoBatch({ outDir: dirA, seed: SEED, ...SMALL })).items;
  await generateGridwmDemoBatch({ outDir: dirB, seed: SEED, ...SMALL });
}, 60_000);

afterAll(async () => {
  await rm(dirA, { recursive: true, force: true });
  await rm(dirB, { recursive: true, force: true });
});

describe("generateGridwmDemoBatch", () => {
  it("writes the same bytes for the same seed", async () => {
    const files = await listFiles(dirA);
    expect(files).toEqual(await listFiles(dirB));
    expect(files).toContain("items.jsonl");
    for (const file of files) {
      const [a, b] = await Promise.all([readFile(path.join(dirA, file)), readFile(path.join(dirB, file))]);
      expect(createHash("sha256").update(a).digest("hex"), file).toBe(createHash("sha256").update(b).digest("hex"));
    }
  });

  it("builds other items from another seed", () => {
    const other = buildGridwmDemoBatch(SEED + 1, SMALL).items;
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(buildGridwmDemoBatch(SEED, SMALL).items));
  });

  it("imports cleanly: every item passes its kind's schemas and every image is a PNG in the batch", async () => {
    const result = await validateBatch(await readBatchSource({ folder: dirA }));
    expect(result.issues).toEqual([]);
    expect(result.items).toHaveLength(written.length);
    const kinds = new Set(written.map((item) => item.kind));
    expect([...kinds].sort()).toEqual(["gridwm-judge", "gridwm-next-obs", "gridwm-scene-json"]);
  });

  it("makes Task A items of each environment with the true next observation among four distinct candidates", () => {
    const built = buildGridwmDemoBatch(SEED, SMALL);
    const svgByPath = new Map(built.images.map((image) => [image.path, image.svg]));
    const taskA = built.items.filter((item) => item.kind === "gridwm-next-obs");
    // two per environment plus one DoorKey practice item
    expect(taskA).toHaveLength(7);
    expect(taskA.filter((item) => item.practice)).toHaveLength(1);
    for (const item of taskA) {
      const pub = item.public as { observation: string; action: string; candidates: string[] };
      const env = item.tags.env as string;
      const group = built.cases.find((c) => c.group === item.tags.group);
      const svgs = pub.candidates.map((candidate) => svgByPath.get(candidate));
      expect(new Set(svgs).size).toBe(4);
      expect(item.tags.transition).toBeDefined();
      if (group) {
        // base-case items: the keyed candidate is the frame after the step
        const step = item.tags.step as number;
        const after = group.trajectories.full.views[step + 1];
        const letterIndex = ["A", "B", "C", "D"].indexOf(item.key.answer as string);
        expect(svgs[letterIndex]).toBe(viewFrameSvg(after, 32));
        expect(group.actions[step]).toBe(pub.action);
      }
      expect(["doorkey", "lavagap", "memory"]).toContain(env);
    }
  });

  it("writes Task B keys in the spec's encoding: the front cell lies one step along dir (0 north)", () => {
    const taskB = written.filter((item) => item.kind === "gridwm-scene-json");
    expect(taskB.length).toBe(9);
    const step = [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ];
    for (const item of taskB) {
      const gold = (item.key as { answer_json: { agent: { pos: number[]; dir: number }; front_cell: { pos: number[] } } }).answer_json;
      const [dx, dy] = step[gold.agent.dir];
      expect(gold.front_cell.pos).toEqual([gold.agent.pos[0] + dx, gold.agent.pos[1] + dy]);
      expect((item.public.gridSize as number[])[0]).toBeGreaterThanOrEqual(7);
      expect(getTaskModule("gridwm-scene-json").score(gold, item.key, item as never)).toEqual({
        exact: true,
        componentScore: 1,
        correct: true,
        readable: { right: 7, of: 7 },
        ceiling: { exact: true, componentScore: 1 },
      });
      // a perfect annotator can submit the gold through the form's schema
      expect(getTaskModule("gridwm-scene-json").answerSchemaFor!(item as never).safeParse(gold).success).toBe(true);
    }
  });

  it("Task B frames show the whole grid with its axes, so that the key's coordinates can be read off the picture (practice item included)", () => {
    const built = buildGridwmDemoBatch(SEED, SMALL);
    const svgOf = new Map(built.images.map((plan) => [plan.path, plan.svg]));
    const taskB = built.items.filter((item) => item.kind === "gridwm-scene-json");
    expect(taskB.some((item) => item.practice)).toBe(true);
    const toMinigrid = (specDirValue: number) => (specDirValue + 3) % 4;
    for (const item of taskB) {
      const svg = svgOf.get(item.public.image as string)!;
      const [width, height] = item.public.gridSize as [number, number];
      const gold = (item.key as { answer_json: { agent: { pos: [number, number]; dir: number }; objects: Array<{ pos: [number, number] }> } }).answer_json;
      // the frame is the world's grid, labelled 0..width-1 across and 0..height-1 down
      expect(svg).toContain(`data-grid="${width}x${height}"`);
      expect(svg).toContain(`>${width - 1}</text>`);
      expect(svg).toContain(`>${height - 1}</text>`);
      // the agent is drawn in the key's cell, facing the key's direction
      expect(svg).toContain(`data-cell="${gold.agent.pos[0]},${gold.agent.pos[1]}" data-agent="${toMinigrid(gold.agent.dir)}"`);
      expect(svg.match(/data-agent=/g)).toHaveLength(1);
      // every listed object lies in a cell the frame lights (what the agent sees)
      for (const object of gold.objects) expect(svg).toMatch(new RegExp(`data-cell="${object.pos[0]},${object.pos[1]}"[^>]*>(?:(?!</g>).)*fill-opacity="0.3"`));
      expect(item.public.frame).toBe("full-grid");
    }
    // grids other than 7 x 7, as MiniGrid's (5 to 16 and more): positions of 7 and beyond
    const sizes = new Set(taskB.map((item) => (item.public.gridSize as number[]).join("x")));
    expect([...sizes].sort()).toEqual(["16x16", "7x7", "8x8"]);
    const beyond = taskB.filter((item) => (item.key as { answer_json: { agent: { pos: number[] } } }).answer_json.agent.pos.some((v) => v >= 7));
    expect(beyond.length).toBeGreaterThan(0);
  });

  it("writes the visible objects with MiniGrid's states, and the carried object apart", () => {
    const world: World = emptyWorld("doorkey", 7, 7, "m");
    wallRect(world, 0, 0, 7, 7);
    world.agentPos = [2, 5];
    world.agentDir = 3; // north
    world.carrying = key("yellow");
    setCell(world, 2, 3, door("yellow", "locked"));
    setCell(world, 3, 4, key("blue"));
    expect(specDir(3)).toBe(0);
    expect(sceneGold(world, egocentricView(world))).toEqual({
      agent: { pos: [2, 5], dir: 0, carrying: { type: "key", color: "yellow" } },
      front_cell: { pos: [2, 4], type: "empty", state: 0 },
      objects: [
        { type: "door", pos: [2, 3], color: "yellow", state: 2 },
        { type: "key", pos: [3, 4], color: "blue", state: 0 },
      ],
    });
  });

  it("makes complete Task C probe families: 3 variants x 2 temporal x 3 visual, framings on clean", () => {
    const taskC = written.filter((item) => item.kind === "gridwm-judge");
    // per base case: 18 neutral-framing items + 12 positive / negative on clean
    expect(taskC).toHaveLength(3 * 30);
    const tags = taskC.map((item) => item.tags);
    for (const variant of ["full", "nocue", "cf"]) {
      expect(tags.filter((t) => t.variant === variant)).toHaveLength(30);
    }
    for (const item of taskC) {
      expect(item.key.answer).toBe(item.tags.variant === "cf" ? "Fail" : "Success");
      expect((item.public as { preamble: string }).preamble.length).toBeGreaterThan(20);
      expect((item.public as { actions: string[] }).actions.length).toBeGreaterThan(0);
    }
    // an oracle judge: right everywhere and perfectly consistent
    const items = written.map((item) => JSON.stringify(item)).join("\n");
    const answers = taskC.map((item) => JSON.stringify({ id: item.id, annotator: "oracle", answer: { verdict: item.key.answer } })).join("\n");
    expect(JSON.parse(runScoreCommand(items, answers)).aggregate).toEqual({ Acc_C: 1, JAcc_neu: 1, JCR_temp: 1, JCR_vis: 1, JCR_frame: 1 });
  });

  it("draws 8-frame storyboards (4 x 2), Task A frames of 224 x 224 and Task B frames of the whole grid with axes and a carrying band", async () => {
    const storyboard = written.find((item) => item.kind === "gridwm-judge")!.public.storyboard as string;
    expect(await sharp(path.join(dirA, storyboard)).metadata()).toMatchObject({ width: 448, height: 224, format: "png" });
    const taskA = written.find((item) => item.kind === "gridwm-next-obs")!.public.observation as string;
    expect(await sharp(path.join(dirA, taskA)).metadata()).toMatchObject({ width: 224, height: 224 });
    const frame = written.find((item) => item.kind === "gridwm-scene-json" && (item.public.gridSize as number[])[0] === 7)!.public.image as string;
    // (0.9 + 7) x 32 wide, (0.9 + 7 + 1.1) x 32 high
    expect(await sharp(path.join(dirA, frame)).metadata()).toMatchObject({ width: 253, height: 288 });
  });

  it("keeps to a few hundred images at most", async () => {
    const images = (await listFiles(dirA)).filter((file) => file.endsWith(".png"));
    expect(images.length).toBeGreaterThan(50);
    expect(images.length).toBeLessThan(300);
  });
});

describe("base cases and storyboards", () => {
  it("pairs a successful full trajectory with a nocue copy (masked early frames) and a failing counterfactual", () => {
    for (const env of ["doorkey", "lavagap", "memory"] as const) {
      let built = null;
      for (let seed = 0; built === null; seed++) built = buildBaseCase(env, "g", seed);
      const { full, nocue, cf } = built.trajectories;
      expect(full.success).toBe(true);
      expect(nocue.success).toBe(true);
      expect(cf.success).toBe(false);
      expect(nocue.rollout.actions).toEqual(full.rollout.actions);
      expect(nocue.masks.some((mask) => mask.size > 0)).toBe(true);
      expect(nocue.masks.filter((mask) => mask.size > 0).length).toBeLessThanOrEqual(5);
      expect(cf.rollout.actions).toEqual(built.actions.slice(0, cf.rollout.actions.length));
      for (const variant of ["full", "nocue", "cf"] as const) {
        const frames = built.keyFrames[variant];
        expect(frames).toHaveLength(8);
        expect([...frames].sort((a, b) => a - b)).toEqual(frames);
        expect(frames[7]).toBe(built.trajectories[variant].views.length - 1);
      }
      expect(keyFrameIndices(env, full)).toEqual(built.keyFrames.full);
    }
  });

  it("linspace matches numpy.linspace", () => {
    expect(linspace(0, 6, 4)).toEqual([0, 2, 4, 6]);
    expect(linspace(2, 9, 6).map(Math.trunc)).toEqual([2, 3, 4, 6, 7, 9]);
    expect(linspace(3, 3, 1)).toEqual([3]);
  });
});

describe("visual variants", () => {
  const grey = async () =>
    svgToRaw(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="rgb(120,120,120)"/></svg>`);

  it("noisy adds Gaussian noise of sigma about 8, seeded", async () => {
    const image = await grey();
    const noisy = addGaussianNoise(image, 3, 8);
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < noisy.data.length; i++) {
      const d = noisy.data[i] - 120;
      sum += d;
      squares += d * d;
    }
    const n = noisy.data.length;
    expect(Math.abs(sum / n)).toBeLessThan(0.8); // floor() shifts the mean by about -0.5
    expect(Math.sqrt(squares / n)).toBeGreaterThan(7.5);
    expect(Math.sqrt(squares / n)).toBeLessThan(8.6);
    expect(addGaussianNoise(image, 3, 8).data.equals(noisy.data)).toBe(true);
    expect(addGaussianNoise(image, 4, 8).data.equals(noisy.data)).toBe(false);
  });

  it("style changes colours mildly and deterministically", async () => {
    const image = await svgToRaw(
      `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="8" height="16" fill="rgb(200,40,40)"/><rect x="8" width="8" height="16" fill="rgb(30,30,30)"/></svg>`,
    );
    const styled = applyStyle(image, 9);
    expect(styled.data.equals(image.data)).toBe(false);
    expect(applyStyle(image, 9).data.equals(styled.data)).toBe(true);
    let maxDiff = 0;
    for (let i = 0; i < image.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(styled.data[i] - image.data[i]));
    expect(maxDiff).toBeLessThan(60);
  });
});

describe("item schemas of the demo", () => {
  it("are exactly what the kinds accept", () => {
    const built = buildGridwmDemoBatch(SEED, SMALL);
    for (const item of built.items) {
      const taskModule = getTaskModule(item.kind);
      const schema = taskModule.itemSchema ?? z.object({ public: taskModule.publicSchema, key: taskModule.keySchema });
      const result = schema.safeParse({ public: item.public, key: item.key });
      expect(result.success, `${item.id}: ${result.success ? "" : result.error.message}`).toBe(true);
    }
  });
});
