/**
 * Deterministic GridWM-Judge demo batch from the MiniGrid-compatible world (world.ts, cases.ts),
 * drawn in MiniGrid's style (render.ts).
 *
 *   npx tsx scripts/demo-data/gridwm/generate-gridwm-batch.ts <outDir> [--seed N] [--groups N]
 *
 * Writes <outDir>/items.jsonl (kinds gridwm-next-obs, gridwm-scene-json, gridwm-judge; image paths
 * relative to <outDir>) and <outDir>/img/**. Same seed and options, same bytes. Environments
 * DoorKey, LavaGap and Memory, 7x7 worlds (walls included); Task B also on larger DoorKey worlds.
 *
 * - Task A (`gridwm-next-obs`): o_t and action a_t from a full trajectory; candidates = the true
 *   o_{t+1} and three negatives: next observations after the same action in the same environment,
 *   in other trajectories, that look different from the true one and from each other; shuffled,
 *   the key is the true one's letter. Frames 224 x 224 (tile 32). Tags env, group, step, action,
 *   transition, source.
 * - Task B (`gridwm-scene-json`): one egocentric frame; the key is the canonical scene in the
 *   spec's encoding (dir 0 north, 1 east, 2 south, 3 west; positions are world cells, [0, 0] top
 *   left), the front cell ("empty" with state 0 when nothing is there) and every object the agent
 *   sees (not walls or floor; MiniGrid's state: door 0 open / 1 closed / 2 locked, else 0). Tags
 *   env, group, frame, source.
 * - Task C (`gridwm-judge`): per base case, storyboards of 8 key frames (4 x 2, tile 16) for
 *   variant full / nocue / cf x temporal orig / rev x visual clean / noisy (Gaussian sigma 8) /
 *   style, each with the neutral preamble; the clean ones also with the positive and negative
 *   preambles (the framing probe). Key Success / Fail. Tags env, group, variant, temporal, visual,
 *   framing, source.
 * - The first Task A and Task B items of DoorKey are practice items.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { mulberry32, type Rng } from "@/lib/stats/rng";
import { LETTERS, transitionOf, type GridwmAction } from "@/lib/tasks/shared/gridwm/common";
import type { SceneKeyJson } from "@/lib/tasks/gridwm-scene-json";
import { deriveSeed, shuffled } from "@/scripts/demo-data/kitchen-world";
import { buildBaseCases, type BaseCase, type Variant } from "@/scripts/demo-data/gridwm/cases";
import { addGaussianNoise, applyStyle, fullGridFrameSvg, rawToPng, storyboardSvg, svgToPng, svgToRaw, viewFrameSvg } from "@/scripts/demo-data/gridwm/render";
import { clearPreviousImages, mapLimit } from "@/scripts/demo-data/batch-files";
import {
  DIR_TO_VEC,
  VIEW_AGENT,
  VIEW_SIZE,
  egocentricView,
  getCell,
  makeDoorKey,
  objectState,
  planShortest,
  rollout,
  viewSignature,
  viewToWorld,
  type EnvName,
  type View,
  type World,
} from "@/scripts/demo-data/gridwm/world";

export const GRIDWM_DEMO_SOURCE = "demo-gridwm";
export const GRIDWM_DEMO_ENVS: readonly EnvName[] = ["doorkey", "lavagap", "memory"];
export const TEMPORALS = ["orig", "rev"] as const;
export const VISUALS = ["clean", "noisy", "style"] as const;
export const FRAMINGS = ["neutral", "positive", "negative"] as const;
export const VARIANTS: readonly Variant[] = ["full", "nocue", "cf"];

/** The framing probe: the same judgement asked with a neutral, a positive and a negative preamble. */
export const PREAMBLES: Record<(typeof FRAMINGS)[number], string> = {
  neutral: "You will see 8 key frames from an agent's attempt at the mission below. Judge from the frames alone whether it succeeded.",
  positive:
    "This agent completes almost every mission it is given. You will see 8 key frames from its attempt at the mission below. Judge from the frames alone whether it succeeded.",
  negative:
    "This agent fails most of the missions it is given. You will see 8 key frames from its attempt at the mission below. Judge from the frames alone whether it succeeded.",
};

export interface GridwmDemoOptions {
  /** base cases per environment (storyboard triplets); default 2 */
  groupsPerEnv?: number;
  /** extra full trajectories per environment, a pool for Task A negatives and Task B frames; default 6 */
  poolPerEnv?: number;
  /** Task A items per environment; default 4 */
  taskAPerEnv?: number;
  /** Task B items per environment; default 4 */
  taskBPerEnv?: number;
  /** sizes of extra DoorKey worlds, one Task B item each (MiniGrid's DoorKey-8x8, -16x16); default [8, 16] */
  taskBLargeGrids?: readonly number[];
  /** pixels per cell of Task A / B frames (MiniGrid's default 32); default 32 */
  frameTile?: number;
  /** pixels per cell of storyboard frames; default 16 */
  storyboardTile?: number;
}

export interface GridwmDemoItem {
  id: string;
  kind: "gridwm-next-obs" | "gridwm-scene-json" | "gridwm-judge";
  public: Record<string, unknown>;
  key: Record<string, unknown>;
  tags: Record<string, string | number>;
  practice: boolean;
  gold: boolean;
}

/** An image to write: a clean SVG, or a storyboard SVG with its visual variant. */
export type ImagePlan = { path: string; svg: string; visual?: "clean" | "noisy" | "style"; seed?: number };

export interface BuiltGridwmBatch {
  items: GridwmDemoItem[];
  images: ImagePlan[];
  cases: BaseCase[];
}

// ---------------------------------------------------------------------------------------------
// Task B gold

/** MiniGrid's agent_dir (0 east) to the spec's encoding (0 north): east 1, south 2, west 3, north 0. */
export function specDir(minigridDir: number): number {
  return (minigridDir + 1) % 4;
}

/**
 * The canonical scene of a world in the spec's encoding, with the objects the agent's view shows
 * (not the agent's own cell, which shows what it carries), sorted by type then x then y.
 */
export function sceneGold(world: World, view: View = egocentricView(world)): SceneKeyJson {
  const [dx, dy] = DIR_TO_VEC[world.agentDir];
  const front: [number, number] = [world.agentPos[0] + dx, world.agentPos[1] + dy];
  const frontCell = getCell(world, front[0], front[1]);
  const objects: SceneKeyJson["objects"] = [];
  for (let y = 0; y < VIEW_SIZE; y++) {
    for (let x = 0; x < VIEW_SIZE; x++) {
      if (x === VIEW_AGENT[0] && y === VIEW_AGENT[1]) continue;
      const cell = view.cells[y * VIEW_SIZE + x];
      if (!view.visible[y * VIEW_SIZE + x] || cell === null || cell.type === "wall" || cell.type === "floor") continue;
      objects.push({ type: cell.type, pos: viewToWorld(world, x, y), color: cell.color, state: objectState(cell) });
    }
  }
  objects.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.pos[0] - b.pos[0] || a.pos[1] - b.pos[1]));
  return {
    agent: {
      pos: [...world.agentPos],
      dir: specDir(world.agentDir),
      carrying: world.carrying ? { type: world.carrying.type, color: world.carrying.color } : null,
    },
    front_cell: { pos: front, type: frontCell?.type ?? "empty", state: frontCell ? objectState(frontCell) : 0 },
    objects,
  };
}

// ---------------------------------------------------------------------------------------------
// Building

interface Transition {
  group: string;
  step: number;
  action: GridwmAction;
  before: View;
  after: View;
  signature: string;
}

function transitionsOf(baseCase: BaseCase): Transition[] {
  const { views, rollout } = baseCase.trajectories.full;
  return rollout.actions.map((action, step) => ({
    group: baseCase.group,
    step,
    action,
    before: views[step],
    after: views[step + 1],
    signature: viewSignature(views[step + 1]),
  }));
}

/** Candidate transitions in round-robin order of transition type (turn, move, pickup, interact), each type shuffled. */
function transitionCandidates(rng: Rng, transitions: Transition[]): Transition[] {
  const byType = new Map<string, Transition[]>();
  for (const transition of transitions) {
    const type = transitionOf(transition.action);
    byType.set(type, [...(byType.get(type) ?? []), transition]);
  }
  const lists = ["pickup", "interact", "move", "turn"].filter((type) => byType.has(type)).map((type) => shuffled(rng, byType.get(type)!));
  const out: Transition[] = [];
  for (let round = 0; lists.some((list) => round < list.length); round++) for (const list of lists) if (round < list.length) out.push(list[round]);
  return out;
}

/** Three negatives for `target`: same action, other trajectories, distinct looks; null when there are not enough. */
function negativesFor(rng: Rng, target: Transition, pool: Transition[]): Transition[] | null {
  const seen = new Set([target.signature]);
  const chosen: Transition[] = [];
  for (const candidate of shuffled(
    rng,
    pool.filter((t) => t.action === target.action && t.group !== target.group),
  )) {
    if (seen.has(candidate.signature)) continue;
    seen.add(candidate.signature);
    chosen.push(candidate);
    if (chosen.length === 3) return chosen;
  }
  return null;
}

/** Builds every item and plans every image (nothing rendered, nothing written). Deterministic for a seed. */
export function buildGridwmDemoBatch(seed: number, options: GridwmDemoOptions = {}): BuiltGridwmBatch {
  const groupsPerEnv = options.groupsPerEnv ?? 2;
  const poolPerEnv = options.poolPerEnv ?? 6;
  const taskAPerEnv = options.taskAPerEnv ?? 4;
  const taskBPerEnv = options.taskBPerEnv ?? 4;
  const frameTile = options.frameTile ?? 32;
  const storyboardTile = options.storyboardTile ?? 16;
  const itemsA: GridwmDemoItem[] = [];
  const itemsB: GridwmDemoItem[] = [];
  const itemsC: GridwmDemoItem[] = [];
  const images: ImagePlan[] = [];
  const allCases: BaseCase[] = [];
  const frame = (view: View) => viewFrameSvg(view, frameTile);

  for (const env of GRIDWM_DEMO_ENVS) {
    const cases = buildBaseCases(seed, env, groupsPerEnv);
    const pool = buildBaseCases(seed, env, poolPerEnv, "p");
    allCases.push(...cases);
    const practiceHere = env === GRIDWM_DEMO_ENVS[0] ? 1 : 0;

    // Task A: items from the base cases' and the pool's full trajectories
    const rngA = mulberry32(deriveSeed(seed, "gridwm-a", env));
    const transitions = [...cases, ...pool].flatMap(transitionsOf);
    const usedSteps = new Set<string>();
    let madeA = 0;
    for (const target of transitionCandidates(rngA, transitions)) {
      if (madeA >= taskAPerEnv + practiceHere) break;
      if (usedSteps.has(`${target.group}:${target.step}`)) continue;
      const negatives = negativesFor(rngA, target, transitions);
      if (negatives === null) continue;
      usedSteps.add(`${target.group}:${target.step}`);
      const practice = madeA < practiceHere;
      const id = `gw-a-${target.group}-t${target.step}${practice ? "-practice" : ""}`;
      const order = shuffled(rngA, [0, 1, 2, 3]);
      const views = [target.after, ...negatives.map((negative) => negative.after)];
      const candidates = order.map((index, slot) => {
        const imagePath = `img/a/${id}/${LETTERS[slot]}.png`;
        images.push({ path: imagePath, svg: frame(views[index]) });
        return imagePath;
      });
      const observation = `img/a/${id}/obs.png`;
      images.push({ path: observation, svg: frame(target.before) });
      itemsA.push({
        id,
        kind: "gridwm-next-obs",
        public: { observation, action: target.action, candidates, mission: cases[0].mission },
        key: { answer: LETTERS[order.indexOf(0)] },
        tags: { env, group: target.group, step: target.step, action: target.action, transition: transitionOf(target.action), source: GRIDWM_DEMO_SOURCE },
        practice,
        gold: false,
      });
      madeA++;
    }

    // Task B: frames of the base cases' and the pool's full trajectories
    const rngB = mulberry32(deriveSeed(seed, "gridwm-b", env));
    const frames = shuffled(
      rngB,
      [...cases, ...pool].flatMap((baseCase) => baseCase.trajectories.full.rollout.worlds.map((world, t) => ({ baseCase, world, t }))),
    );
    for (const [index, { baseCase, world, t }] of frames.slice(0, taskBPerEnv + practiceHere).entries()) {
      const practice = index < practiceHere;
      const id = `gw-b-${baseCase.group}-f${t}${practice ? "-practice" : ""}`;
      itemsB.push(taskBItem(id, world, baseCase.trajectories.full.views[t], { env, group: baseCase.group, frame: t }, practice));
    }

    // Task C: storyboards of every base case
    for (const baseCase of cases) {
      for (const variant of VARIANTS) {
        const trajectory = baseCase.trajectories[variant];
        for (const temporal of TEMPORALS) {
          const indices = temporal === "rev" ? [...baseCase.keyFrames[variant]].reverse() : baseCase.keyFrames[variant];
          const svg = storyboardSvg(
            indices.map((t) => ({ view: trajectory.views[t], options: { masked: trajectory.masks[t] } })),
            storyboardTile,
          );
          for (const visual of VISUALS) {
            const storyboard = `img/c/${baseCase.group}/${variant}_${temporal}_${visual}.png`;
            images.push({ path: storyboard, svg, visual, seed: deriveSeed(seed, env, baseCase.group, variant, temporal, visual) });
            for (const framing of visual === "clean" ? FRAMINGS : (["neutral"] as const)) {
              itemsC.push({
                id: `gw-c-${baseCase.group}-${variant}-${temporal}-${visual}-${framing}`,
                kind: "gridwm-judge",
                public: { storyboard, mission: baseCase.mission, actions: [...baseCase.actions], preamble: PREAMBLES[framing] },
                key: { answer: trajectory.success ? "Success" : "Fail" },
                tags: { env, group: baseCase.group, variant, temporal, visual, framing, source: GRIDWM_DEMO_SOURCE },
                practice: false,
                gold: false,
              });
            }
          }
        }
      }
    }
  }
  // Task B on larger grids: a DoorKey world of each size, a frame of its shortest successful run
  for (const size of options.taskBLargeGrids ?? [8, 16]) {
    const rngL = mulberry32(deriveSeed(seed, "gridwm-b-large", size));
    for (let attempt = 0; attempt < 10; attempt++) {
      const start = makeDoorKey(deriveSeed(seed, "gridwm-b-large-world", size, attempt), size);
      const plan = planShortest(start);
      if (plan === null) continue;
      const run = rollout(start, plan);
      const t = Math.floor(rngL() * (run.worlds.length - 1));
      const world = run.worlds[t];
      itemsB.push(
        taskBItem(`gw-b-doorkey${size}-${attempt}-f${t}`, world, egocentricView(world), { env: "doorkey", group: `doorkey-${size}x${size}`, frame: t }, false),
      );
      break;
    }
  }
  return { items: [...itemsA, ...itemsB, ...itemsC], images, cases: allCases };

  function taskBItem(id: string, world: World, view: View, tags: { env: string; group: string; frame: number }, practice: boolean): GridwmDemoItem {
    const image = `img/b/${id}.png`;
    images.push({ path: image, svg: fullGridFrameSvg(world, view, frameTile) });
    return {
      id,
      kind: "gridwm-scene-json",
      public: { image, mission: world.mission, gridSize: [world.width, world.height], frame: "full-grid" },
      key: { answer_json: sceneGold(world, view) },
      tags: { ...tags, grid: `${world.width}x${world.height}`, source: GRIDWM_DEMO_SOURCE },
      practice,
      gold: false,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

const MARKER = ".demo-gridwm-batch";

async function renderImage(plan: ImagePlan): Promise<Buffer> {
  if (plan.visual === undefined) return svgToPng(plan.svg);
  const raw = await svgToRaw(plan.svg);
  if (plan.visual === "clean") return rawToPng(raw, true);
  if (plan.visual === "noisy") return rawToPng(addGaussianNoise(raw, plan.seed ?? 0, 8));
  return rawToPng(applyStyle(raw, plan.seed ?? 0));
}

export interface GenerateGridwmDemoBatchOptions extends GridwmDemoOptions {
  outDir: string;
  seed?: number;
}

export interface GenerateGridwmDemoBatchResult {
  outDir: string;
  items: GridwmDemoItem[];
  images: number;
  bytes: number;
  ms: number;
}

/**
 * Generates the batch into outDir (items.jsonl and img/**). Deterministic: the same seed and
 * options write the same bytes. A previous batch's img/ folder in outDir is replaced.
 */
export async function generateGridwmDemoBatch(options: GenerateGridwmDemoBatchOptions): Promise<GenerateGridwmDemoBatchResult> {
  const started = performance.now();
  const { outDir, seed = 1, ...rest } = options;
  const built = buildGridwmDemoBatch(seed, rest);
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/gridwm/generate-gridwm-batch.ts\n");
  for (const dir of new Set(built.images.map((image) => path.dirname(image.path)))) await mkdir(path.join(outDir, dir), { recursive: true });
  const sizes = await mapLimit(built.images, 8, async (plan) => {
    const png = await renderImage(plan);
    await writeFile(path.join(outDir, plan.path), png);
    return png.length;
  });
  const jsonl = built.items.map((item) => JSON.stringify(item)).join("\n") + "\n";
  await writeFile(path.join(outDir, "items.jsonl"), jsonl);
  const bytes = Buffer.byteLength(jsonl) + sizes.reduce((sum, size) => sum + size, 0);
  return { outDir, items: built.items, images: built.images.length, bytes, ms: Math.round(performance.now() - started) };
}

// ---------------------------------------------------------------------------------------------
// CLI

function usage(): never {
  console.error("usage: npx tsx scripts/demo-data/gridwm/generate-gridwm-batch.ts <outDir> [--seed N] [--groups N]");
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  let outDir: string | null = null;
  let seed = 1;
  let groupsPerEnv = 2;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--seed" || arg === "--groups") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < (arg === "--groups" ? 1 : 0)) usage();
      if (arg === "--seed") seed = value;
      else groupsPerEnv = value;
    } else if (arg.startsWith("-") || outDir !== null) usage();
    else outDir = arg;
  }
  if (outDir === null) usage();
  const result = await generateGridwmDemoBatch({ outDir, seed, groupsPerEnv });
  const count = (kind: string) => result.items.filter((item) => item.kind === kind).length;
  console.log(
    `wrote ${result.items.length} items (Task A ${count("gridwm-next-obs")}, Task B ${count("gridwm-scene-json")}, ` +
      `Task C ${count("gridwm-judge")}) and ${result.images} images to ${outDir} in ${result.ms} ms (${(result.bytes / 1024).toFixed(0)} KiB)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
