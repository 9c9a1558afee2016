/**
 * The free-text demo batch: OpenEQA-style questions about drawn rooms, answered in a text box.
 *
 *   npx tsx scripts/demo-data/free-text/generate-free-text-batch.ts <outDir>
 *
 * Writes <outDir>/items.jsonl (kind free-text), <outDir>/img/*.png (a living room and a bedroom
 * drawn here, and a kitchen "walk" of 8 frames played at 2 fps), <outDir>/video/demo-ball.webm (the
 * demo clip, cut before the ball falls) and a SYNTHETIC model run (not a
 * real model: fixed answers) as <outDir>/runs/synthetic-free-text-run.jsonl. Deterministic.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { clearPreviousImages } from "@/scripts/demo-data/batch-files";
import { copyDemoClip, DEMO_CLIP } from "@/scripts/demo-data/media/demo-clip";

const MARKER = ".free-text-demo";
const W = 480;
const H = 320;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  fill: string;
  label?: string;
  round?: boolean;
}

function svg(background: string, boxes: readonly Box[], dx = 0): Buffer {
  const shapes = boxes
    .map((box) => {
      const x = box.x - dx;
      const shape = box.round
        ? `<ellipse cx="${x + box.w / 2}" cy="${box.y + box.h / 2}" rx="${box.w / 2}" ry="${box.h / 2}" fill="${box.fill}" stroke="#334155" stroke-width="2"/>`
        : `<rect x="${x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="4" fill="${box.fill}" stroke="#334155" stroke-width="2"/>`;
      const label = box.label
        ? `<text x="${x + box.w / 2}" y="${box.y - 6}" font-family="sans-serif" font-size="13" text-anchor="middle" fill="#0f172a">${box.label}</text>`
        : "";
      return shape + label;
    })
    .join("");
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="${background}"/><rect y="${H * 0.72}" width="${W}" height="${H * 0.28}" fill="#a8a29e"/>${shapes}</svg>`,
  );
}

const LIVING: Box[] = [
  { x: 120, y: 170, w: 220, h: 70, fill: "#dc2626", label: "sofa" },
  { x: 205, y: 60, w: 50, h: 50, fill: "#f8fafc", label: "clock", round: true },
  { x: 380, y: 90, w: 70, h: 90, fill: "#bae6fd", label: "window" },
  { x: 30, y: 200, w: 60, h: 50, fill: "#78350f", label: "side table" },
];
const BEDROOM: Box[] = [
  { x: 60, y: 180, w: 240, h: 60, fill: "#6d28d9", label: "bed" },
  { x: 330, y: 70, w: 90, h: 110, fill: "#e0f2fe", label: "window (open)" },
  { x: 345, y: 85, w: 30, h: 80, fill: "#94a3b8" },
  { x: 80, y: 60, w: 80, h: 60, fill: "#f59e0b", label: "painting" },
];
// a wide kitchen the camera walks along (the frames are windows onto it)
const KITCHEN: Box[] = [
  { x: 20, y: 150, w: 420, h: 80, fill: "#e7e5e4", label: "counter" },
  { x: 60, y: 120, w: 50, h: 30, fill: "#2563eb", label: "kettle" },
  { x: 150, y: 150, w: 90, h: 30, fill: "#94a3b8", label: "sink" },
  { x: 520, y: 60, w: 120, h: 190, fill: "#f1f5f9", label: "fridge" },
  { x: 700, y: 170, w: 150, h: 60, fill: "#92400e", label: "table" },
  { x: 690, y: 150, w: 30, h: 80, fill: "#a16207", label: "chair" },
  { x: 830, y: 150, w: 30, h: 80, fill: "#a16207", label: "chair" },
];
const FRAMES = 8;
const FPS = 2;

export interface FreeTextDemoItem {
  id: string;
  kind: "free-text";
  public: { question: string; media: { images?: string[]; frames?: string[]; fps?: number; video?: string; cutAt?: number } };
  key: { answer: string; extraAnswers?: string[] };
  tags: Record<string, string>;
  practice?: boolean;
}

export async function generateFreeTextDemoBatch(options: {
  outDir: string;
}): Promise<{ items: FreeTextDemoItem[]; run: { name: string; file: string; jsonl: string } }> {
  const { outDir } = options;
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/free-text/generate-free-text-batch.ts\n");
  await mkdir(path.join(outDir, "img", "kitchen"), { recursive: true });
  const png = (buffer: Buffer, file: string) =>
    sharp(buffer)
      .png({ compressionLevel: 9 })
      .toFile(path.join(outDir, "img", file));
  await png(svg("#fef3c7", LIVING), "living.png");
  await png(svg("#ede9fe", BEDROOM), "bedroom.png");
  const frames: string[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const file = `kitchen/${String(i).padStart(5, "0")}-rgb.png`;
    await png(svg("#ecfccb", KITCHEN, (i * (900 - W)) / (FRAMES - 1)), file);
    frames.push(`img/${file}`);
  }
  const living = { images: ["img/living.png"] };
  const bedroom = { images: ["img/bedroom.png"] };
  const kitchen = { frames, fps: FPS };
  // the generic kinds' demo clip (scripts/demo-data/media/make-demo-video.sh): a ball rolls off a table; cut before it falls
  const ball = { video: await copyDemoClip(outDir), cutAt: DEMO_CLIP.cutBeforeFall };
  const items: FreeTextDemoItem[] = [
    {
      id: "ft-practice",
      kind: "free-text",
      public: { question: "What is on the wall above the sofa?", media: living },
      key: { answer: "A clock", extraAnswers: ["a round white clock"] },
      tags: { category: "object recognition" },
      practice: true,
    },
    {
      id: "ft-001",
      kind: "free-text",
      public: { question: "What color is the sofa?", media: living },
      key: { answer: "Red" },
      tags: { category: "attribute recognition" },
    },
    {
      id: "ft-002",
      kind: "free-text",
      public: { question: "What is next to the sofa on the left?", media: living },
      key: { answer: "A side table", extraAnswers: ["a small brown table", "a wooden table"] },
      tags: { category: "spatial understanding" },
    },
    {
      id: "ft-003",
      kind: "free-text",
      public: { question: "Is the bedroom window open?", media: bedroom },
      key: { answer: "Yes" },
      tags: { category: "object state recognition" },
    },
    {
      id: "ft-004",
      kind: "free-text",
      public: { question: "Where is the kettle?", media: kitchen },
      key: { answer: "On the counter next to the sink", extraAnswers: ["next to the sink", "on the kitchen counter"] },
      tags: { category: "object localization" },
    },
    {
      id: "ft-005",
      kind: "free-text",
      public: { question: "What can I use to boil water?", media: kitchen },
      key: { answer: "The blue kettle" },
      tags: { category: "functional reasoning" },
    },
    {
      id: "ft-006",
      kind: "free-text",
      public: { question: "How many chairs are at the table?", media: kitchen },
      key: { answer: "Two" },
      tags: { category: "spatial understanding" },
    },
    {
      id: "ft-007",
      kind: "free-text",
      public: { question: "The video stops early. What happens to the ball next?", media: ball },
      key: { answer: "It rolls off the table and falls to the floor", extraAnswers: ["it falls off the edge onto the floor"] },
      tags: { category: "world knowledge" },
    },
  ];
  await writeFile(path.join(outDir, "items.jsonl"), items.map((item) => JSON.stringify(item)).join("\n") + "\n");
  // a SYNTHETIC model run: fixed answers, some right, some not (text after the last period is cut when scored, as OpenEQA does)
  const answers: Record<string, string> = {
    "ft-001": "The sofa is red.",
    "ft-002": "A lamp.",
    "ft-003": "No, it is closed.",
    "ft-004": "It is on the counter, next to the sink.",
    "ft-005": "The kettle. It is blue",
    "ft-006": "Four chairs.",
  };
  const jsonl =
    Object.entries(answers)
      .map(([id, answer]) => JSON.stringify({ id, answer }))
      .join("\n") + "\n";
  await mkdir(path.join(outDir, "runs"), { recursive: true });
  await writeFile(path.join(outDir, "runs", "synthetic-free-text-run.jsonl"), jsonl);
  return { items, run: { name: "synthetic model (not a real model)", file: "synthetic-free-text-run.jsonl", jsonl } };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const outDir = process.argv[2];
  if (!outDir) throw new Error("usage: generate-free-text-batch.ts <outDir>");
  void generateFreeTextDemoBatch({ outDir }).then(({ items }) => console.log(`wrote ${items.length} items to ${outDir}`));
}
