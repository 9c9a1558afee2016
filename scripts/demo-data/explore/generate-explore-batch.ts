/**
 * The EXPLORE-Bench demo batch: three drawn kitchen scenes with their atomic actions and final-scene
 * annotations in the paper's format (Listing 12), one of them an abnormal case with a key state
 * inside its object (Listings 13-14).
 *
 *   npx tsx scripts/demo-data/explore/generate-explore-batch.ts <outDir>
 *
 * Writes <outDir>/items.jsonl (kind explore-scene), <outDir>/img/<id>.png (the initial scene,
 * drawn here) and a SYNTHETIC model run (not a real model: fixed free-text descriptions) as
 * <outDir>/runs/synthetic-explore-run.jsonl. Items: a Short one (14 actions), a Long one (240
 * actions: the same kitchen tidied plate by plate), and an abnormal one (17 actions, the faucet
 * left running). Deterministic: same bytes every run.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { clearPreviousImages } from "@/scripts/demo-data/batch-files";

export const EXPLORE_DEMO_SOURCE = "demo-explore";
const MARKER = ".explore-demo";

export interface Shape {
  label: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fill: string;
  round?: boolean;
  /** the label inside the shape's lower left corner (a wide surface that others stand on, whose label above would be under them) */
  labelInside?: boolean;
}

interface KeyObject {
  category: string;
  description: string;
  relation: string[];
  key_state?: string;
}

export interface ExploreDemoScene {
  id: string;
  title: string;
  /** what the initial image shows */
  shapes: Shape[];
  actions: string[];
  /** the final scene in the paper's format (key_state inside an object for abnormal cases) */
  final: KeyObject[];
  /** the synthetic model's free-text description */
  modelText: string;
}

const counter: Shape = { label: "counter", x: 20, y: 200, w: 408, h: 60, fill: "#c9b79c", labelInside: true };
const sink: Shape = { label: "sink", x: 250, y: 205, w: 110, h: 40, fill: "#b8c4cc", labelInside: true };
const faucet: Shape = { label: "faucet", x: 295, y: 170, w: 18, h: 38, fill: "#8a949b" };

function shortScene(): ExploreDemoScene {
  return {
    id: "explore-breakfast",
    title: "breakfast bowl",
    shapes: [
      counter,
      sink,
      faucet,
      { label: "bowl", x: 60, y: 175, w: 50, h: 26, fill: "#f4f4f0", round: true },
      { label: "cereal box", x: 130, y: 120, w: 40, h: 80, fill: "#e0a030" },
      { label: "fridge", x: 372, y: 40, w: 64, h: 160, fill: "#e8ecef" },
      { label: "spoon", x: 200, y: 190, w: 30, h: 6, fill: "#9aa3aa" },
    ],
    actions: [
      "C walks to the fridge",
      "C opens the fridge",
      "C takes the milk carton from the fridge",
      "C closes the fridge",
      "C puts the milk carton on the counter",
      "C picks up the cereal box",
      "C pours cereal into the bowl",
      "C puts the cereal box down on the counter",
      "C picks up the milk carton",
      "C pours milk into the bowl",
      "C puts the milk carton back on the counter",
      "C picks up the spoon",
      "C puts the spoon in the bowl",
      "C pushes the bowl next to the cereal box",
    ],
    final: [
      { category: "bowl", description: "white ceramic bowl filled with cereal and milk", relation: ["bowl on counter", "bowl next to cereal box"] },
      { category: "spoon", description: "silver metal spoon", relation: ["spoon in bowl"] },
      { category: "cereal box", description: "orange cardboard cereal box, open", relation: ["cereal box on counter"] },
      { category: "milk carton", description: "white and blue milk carton", relation: ["milk carton on counter", "milk carton next to bowl"] },
      { category: "fridge", description: "white fridge with its door closed", relation: [] },
      { category: "sink", description: "stainless steel sink, empty", relation: ["sink in counter"] },
    ],
    modelText:
      "A white bowl of cereal with milk stands on the counter next to an open cereal box. A spoon is in the bowl. A milk carton is on the counter. The fridge is closed and the sink is empty.",
  };
}

function longScene(): ExploreDemoScene {
  const plates = ["plate", "cup", "bowl", "glass", "mug", "pan"];
  const actions: string[] = ["C walks to the sink"];
  // a long tidy-up: each dish is washed, dried and put away, one after the other (240 actions)
  for (let round = 0; actions.length < 239; round++) {
    const dish = plates[round % plates.length];
    actions.push(
      `C picks up the ${dish} from the counter`,
      `C turns on the faucet`,
      `C rinses the ${dish} under the water`,
      `C scrubs the ${dish} with the sponge`,
      `C rinses the ${dish} again`,
      `C turns off the faucet`,
      `C shakes the water off the ${dish}`,
      `C dries the ${dish} with the towel`,
      `C opens the cabinet`,
      `C puts the ${dish} in the cabinet`,
      `C closes the cabinet`,
      `C wipes the counter with the towel`,
    );
  }
  actions.length = 239;
  actions.push("C hangs the towel on the oven handle");
  return {
    id: "explore-tidy-up",
    title: "a long tidy-up",
    shapes: [
      counter,
      sink,
      faucet,
      { label: "cabinet", x: 30, y: 30, w: 150, h: 80, fill: "#a57b52" },
      { label: "plates", x: 60, y: 170, w: 60, h: 28, fill: "#f4f4f0", round: true },
      { label: "cups", x: 140, y: 168, w: 40, h: 30, fill: "#d8e8f0" },
      { label: "sponge", x: 370, y: 188, w: 28, h: 14, fill: "#e6d84a" },
      { label: "towel", x: 200, y: 180, w: 36, h: 20, fill: "#c05050" },
      { label: "oven", x: 300, y: 270, w: 120, h: 60, fill: "#444b52" },
    ],
    actions,
    final: [
      { category: "counter", description: "clean light wooden counter, wiped dry", relation: [] },
      { category: "sink", description: "empty stainless steel sink", relation: ["sink in counter"] },
      { category: "faucet", description: "silver faucet, turned off", relation: ["faucet behind sink"] },
      { category: "cabinet", description: "closed brown wooden cabinet full of clean dishes", relation: ["cabinet above counter"] },
      { category: "sponge", description: "yellow sponge, wet", relation: ["sponge next to sink"] },
      { category: "towel", description: "red cloth towel, damp", relation: ["towel on oven"] },
      { category: "oven", description: "black oven with a towel hanging on its handle", relation: ["oven under counter"] },
    ],
    modelText:
      "The counter is clean and empty. The dishes are put away in the closed cabinet. A wet sponge lies next to the sink, and a red towel hangs on the oven handle. The faucet is off.",
  };
}

function abnormalScene(): ExploreDemoScene {
  return {
    id: "explore-running-tap",
    title: "the tap left running",
    shapes: [
      counter,
      sink,
      faucet,
      { label: "pot", x: 185, y: 170, w: 60, h: 30, fill: "#6d737a" },
      { label: "bottle", x: 110, y: 140, w: 20, h: 60, fill: "#6aa86a" },
      { label: "bottle", x: 150, y: 140, w: 20, h: 60, fill: "#e8eef0" },
      { label: "table", x: 40, y: 270, w: 180, h: 30, fill: "#a57b52" },
    ],
    actions: [
      "C walks to the counter",
      "C picks up the pot from the sink",
      "C puts the pot on the counter",
      "C turns on the faucet",
      "C picks up the green bottle",
      "C fills the green bottle with water",
      "C puts the green bottle on the table",
      "C picks up the clear bottle",
      "C fills the clear bottle with water",
      "C knocks the clear bottle over on the table",
      "C picks up the pot",
      "C puts the pot in the sink",
      "C walks to the table",
      "C picks up a cloth",
      "C drops the cloth on the table",
      "C walks away from the kitchen",
      "C leaves the room",
    ],
    final: [
      {
        category: "faucet",
        description: "silver metal faucet",
        relation: ["faucet behind sink"],
        key_state: "The water is flowing from the spout of the faucet.",
      },
      { category: "sink", description: "stainless steel sink filling with water", relation: ["sink in counter"] },
      { category: "pot", description: "grey metal pot full of water", relation: ["pot in sink"] },
      { category: "bottle", description: "green glass bottle filled with water, standing upright", relation: ["bottle on table", "bottle next to bottle"] },
      {
        category: "bottle",
        description: "clear plastic bottle without label",
        relation: ["bottle on table", "bottle next to bottle"],
        key_state: "The bottle without label lies horizontally on the table.",
      },
      { category: "table", description: "wooden table with a wet cloth", relation: [] },
    ],
    modelText: "A pot stands in the sink under the silver faucet. A green bottle and a clear bottle stand on the wooden table. A cloth lies on the table.",
  };
}

export const exploreDemoScenes = (): ExploreDemoScene[] => [shortScene(), longScene(), abnormalScene()];

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Where a shape's label is drawn (its baseline point and text-anchor). */
export function labelPlacement(shape: Shape): { x: number; y: number; anchor: "start" | "middle" } {
  return shape.labelInside ? { x: shape.x + 8, y: shape.y + shape.h - 8, anchor: "start" } : { x: shape.x + shape.w / 2, y: shape.y - 4, anchor: "middle" };
}

/** The initial scene as an SVG (448x336): a wall, a floor and the labelled shapes. */
export function sceneSvg(scene: ExploreDemoScene): string {
  const shapes = scene.shapes
    .map((shape) => {
      const body = shape.round
        ? `<ellipse cx="${shape.x + shape.w / 2}" cy="${shape.y + shape.h / 2}" rx="${shape.w / 2}" ry="${shape.h / 2}" fill="${shape.fill}" stroke="#1f2328" stroke-width="1.5"/>`
        : `<rect x="${shape.x}" y="${shape.y}" width="${shape.w}" height="${shape.h}" rx="3" fill="${shape.fill}" stroke="#1f2328" stroke-width="1.5"/>`;
      const { x, y, anchor } = labelPlacement(shape);
      return `<g data-entity="${escapeXml(shape.label)}">${body}<text x="${x}" y="${y}" font-family="DejaVu Sans Condensed" font-size="11" text-anchor="${anchor}" fill="#1f2328">${escapeXml(shape.label)}</text></g>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="448" height="336" viewBox="0 0 448 336"><rect width="448" height="200" fill="#f1ece2"/><rect y="200" width="448" height="136" fill="#d9d2c5"/>${shapes}<text x="8" y="328" font-family="DejaVu Sans Condensed" font-size="10" fill="#6b7280">${escapeXml(scene.title)} (initial scene)</text></svg>`;
}

export interface ExploreDemoItem {
  id: string;
  kind: "explore-scene";
  public: { initialImage: string; actions: string[]; vocabulary: string[] };
  key: { objects: Array<{ category: string; description: string; relation: string[] }>; keyStates?: Array<{ state: string; object: number }> };
  tags: Record<string, string | number | boolean>;
  practice: boolean;
  gold: boolean;
}

/** One item line: the key as the layout importer reads the paper's format (key states kept with their object). */
export function demoItem(scene: ExploreDemoScene): ExploreDemoItem {
  const keyStates = scene.final.flatMap((object, i) => (object.key_state ? [{ state: object.key_state, object: i }] : []));
  const n = scene.actions.length;
  return {
    id: scene.id,
    kind: "explore-scene",
    public: { initialImage: `img/${scene.id}.png`, actions: scene.actions, vocabulary: [...new Set(scene.final.map((object) => object.category))].sort() },
    key: {
      objects: scene.final.map(({ category, description, relation }) => ({ category, description, relation })),
      ...(keyStates.length > 0 ? { keyStates } : {}),
    },
    tags: {
      subset: n >= 200 ? "Long" : n >= 100 ? "Medium" : n >= 11 ? "Short" : "Other",
      actions: n,
      source: EXPLORE_DEMO_SOURCE,
      ...(keyStates.length > 0 ? { abnormal: true } : {}),
    },
    practice: false,
    gold: false,
  };
}

export async function generateExploreDemoBatch({
  outDir,
}: {
  outDir: string;
}): Promise<{ items: ExploreDemoItem[]; run: { name: string; file: string; jsonl: string } }> {
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/explore/generate-explore-batch.ts\n");
  await mkdir(path.join(outDir, "img"), { recursive: true });
  await mkdir(path.join(outDir, "runs"), { recursive: true });
  const scenes = exploreDemoScenes();
  for (const scene of scenes) {
    const png = await sharp(Buffer.from(sceneSvg(scene)))
      .png({ compressionLevel: 9 })
      .toBuffer();
    await writeFile(path.join(outDir, "img", `${scene.id}.png`), png);
  }
  const items = scenes.map(demoItem);
  await writeFile(path.join(outDir, "items.jsonl"), items.map((item) => JSON.stringify(item)).join("\n") + "\n");
  const jsonl = scenes.map((scene) => JSON.stringify({ id: scene.id, answer: scene.modelText })).join("\n") + "\n";
  const run = { name: "synthetic fixed descriptions (not a real model)", file: "synthetic-explore-run.jsonl", jsonl };
  await writeFile(path.join(outDir, "runs", run.file), jsonl);
  return { items, run };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error("usage: npx tsx scripts/demo-data/explore/generate-explore-batch.ts <outDir>");
    process.exit(2);
  }
  const { items } = await generateExploreDemoBatch({ outDir });
  console.log(`wrote ${items.length} explore-scene items to ${outDir}`);
}
