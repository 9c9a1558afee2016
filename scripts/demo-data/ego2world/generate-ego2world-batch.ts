/**
 * The Ego2World demo batch: three kitchen episodes (episodes.ts) with area images drawn here.
 *
 *   npx tsx scripts/demo-data/ego2world/generate-ego2world-batch.ts <outDir> [--seed N]
 *
 * Writes <outDir>/items.jsonl (kind ego2world-play, one episode a line, image paths relative to
 * <outDir>), <outDir>/img/<episode>/<area>.png and two SYNTHETIC agent runs (not real models:
 * seeded perturbations of the reference) as <outDir>/runs/*.jsonl in the answer format of
 * `yardstick import-run` and `yardstick score`. Same seed, same bytes.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { parseAction } from "@/lib/tasks/ego2world-play/syntax";
import { mulberry32, type Rng } from "@/lib/stats/rng";
import { clearPreviousImages, mapLimit } from "@/scripts/demo-data/batch-files";
import { areaSvg } from "@/scripts/demo-data/ego2world/draw";
import { demoEpisodes, type DemoEpisode } from "@/scripts/demo-data/ego2world/episodes";

export const EGO2WORLD_DEMO_SOURCE = "demo-ego2world";
const MARKER = ".ego2world-demo";

export interface Ego2worldDemoItem {
  id: string;
  kind: "ego2world-play";
  public: {
    title: string;
    areas: Record<string, { image: string }>;
    startArea: string;
    tasks: Array<{ id: string; instruction: string }>;
    actions: Array<{ name: string; params: string[] }>;
  };
  key: {
    world: DemoEpisode["world"];
    rules: DemoEpisode["rules"];
    skills: DemoEpisode["skills"];
    tasks: Array<{ id: string; goal: string[]; keyActions: string[]; reference: string[] }>;
  };
  tags: Record<string, string | number>;
  practice: boolean;
  gold: boolean;
}

export interface SyntheticRun {
  name: string;
  file: string;
  jsonl: string;
}

export function episodeItem(episode: DemoEpisode): Ego2worldDemoItem {
  return {
    id: episode.id,
    kind: "ego2world-play",
    public: {
      title: episode.title,
      areas: Object.fromEntries(Object.keys(episode.areas).map((area) => [area, { image: `img/${episode.id}/${area}.png` }])),
      startArea: String(episode.world.agent.area),
      tasks: episode.tasks.map((task) => ({ id: task.id, instruction: task.instruction })),
      actions: episode.actions,
    },
    key: {
      world: episode.world,
      rules: episode.rules,
      skills: episode.skills,
      tasks: episode.tasks.map((task) => ({ id: task.id, goal: task.goal, keyActions: task.keyActions, reference: task.reference })),
    },
    tags: { ...episode.tags, source: EGO2WORLD_DEMO_SOURCE },
    practice: false,
    gold: false,
  };
}

/**
 * A synthetic agent: each reference action is, with probability `slip`, preceded by a wrong try
 * (the next action with its arguments swapped, or before its go_to); a `recovering` agent then
 * plays the reference action (a replan), a hasty one skips it with probability `give_up`.
 */
function syntheticAnswer(episode: DemoEpisode, rng: Rng, slip: number, giveUp: number): { tasks: Array<{ id: string; actions: string[] }> } {
  return {
    tasks: episode.tasks.map((task) => {
      const actions: string[] = [];
      for (const action of task.reference) {
        const parsed = parseAction(action);
        if (rng() < slip && parsed.ok) {
          if (parsed.value.args.length >= 2) actions.push(`${parsed.value.name}(${[...parsed.value.args].reverse().join(", ")})`);
          else if (parsed.value.name !== "go_to") actions.push(`${parsed.value.name === "pick_up" ? "put_down" : "pick_up"}(${parsed.value.args.join(", ")})`);
          if (rng() < giveUp) continue;
        }
        actions.push(action);
      }
      return { id: task.id, actions };
    }),
  };
}

export function syntheticRuns(episodes: readonly DemoEpisode[], seed: number): SyntheticRun[] {
  const agents = [
    { name: "synthetic careful planner (not a real model)", file: "synthetic-careful.jsonl", slip: 0.12, giveUp: 0 },
    { name: "synthetic hasty planner (not a real model)", file: "synthetic-hasty.jsonl", slip: 0.3, giveUp: 0.45 },
  ];
  return agents.map((agent, a) => {
    const rng = mulberry32(seed * 1000 + a);
    const lines = episodes.map((episode) => JSON.stringify({ id: episode.id, answer: syntheticAnswer(episode, rng, agent.slip, agent.giveUp) }));
    return { name: agent.name, file: agent.file, jsonl: lines.join("\n") + "\n" };
  });
}

export async function renderAreaPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ palette: true, colours: 128, compressionLevel: 9, effort: 1, dither: 0 }).toBuffer();
}

export async function generateEgo2worldDemoBatch(options: {
  outDir: string;
  seed?: number;
  episodes?: readonly DemoEpisode[];
}): Promise<{ items: Ego2worldDemoItem[]; runs: SyntheticRun[]; images: number }> {
  const { outDir } = options;
  const episodes = options.episodes ?? demoEpisodes;
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/ego2world/generate-ego2world-batch.ts\n");
  const images = episodes.flatMap((episode) => Object.keys(episode.areas).map((area) => ({ episode, area })));
  await mapLimit(images, 2, async ({ episode, area }) => {
    const file = path.join(outDir, "img", episode.id, `${area}.png`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, await renderAreaPng(areaSvg(episode, area, episode.world)));
  });
  const items = episodes.map(episodeItem);
  await writeFile(path.join(outDir, "items.jsonl"), items.map((item) => JSON.stringify(item)).join("\n") + "\n");
  const runs = syntheticRuns(episodes, options.seed ?? 1);
  await mkdir(path.join(outDir, "runs"), { recursive: true });
  for (const run of runs) await writeFile(path.join(outDir, "runs", run.file), run.jsonl);
  return { items, runs, images: images.length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const outDir = args.find((arg) => !arg.startsWith("--"));
  if (!outDir) {
    console.error("usage: generate-ego2world-batch.ts <outDir> [--seed N]");
    process.exit(2);
  }
  const seedAt = args.indexOf("--seed");
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : 1;
  const result = await generateEgo2worldDemoBatch({ outDir: path.resolve(outDir), seed });
  console.log(`wrote ${result.items.length} episodes, ${result.images} area images and ${result.runs.length} synthetic agent runs to ${outDir}`);
}
