/**
 * The demo of the generic `choice` and `numeric` kinds: a small flat seen from above,
 * drawn with sharp from SVG, and VSI-Bench-style questions about it (tagged with VSI-Bench's
 * question types, so the dashboard shows its overall score): which object is nearest, left or
 * right, which picture shows the sofa (image options), how many balls, how long the table, how
 * large the room, how far door to window (an "abs" item); one question whose answer is withheld
 * (no key); one practice item. Every answer key is computed from the drawn geometry. Three more
 * items ask about the real demo clip (scripts/demo-data/media/demo-ball.webm, copied into the
 * batch as media.video, each with a cutAt): which way the ball rolls, when it leaves the table, how
 * often it bounces; their keys are what the clip shows (scripts/demo-data/media/demo-clip.ts).
 *
 *   npx tsx scripts/demo-data/choice/generate-choice-batch.ts <outDir>
 *
 * Writes <outDir>/items.jsonl, <outDir>/img/*.png, <outDir>/video/demo-ball.webm and a SYNTHETIC
 * model run (not a real model: fixed raw outputs as a model would write them) in
 * <outDir>/runs/synthetic-generic-run.jsonl.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { clearPreviousImages } from "../batch-files";
import { copyDemoClip, DEMO_CLIP } from "../media/demo-clip";

const MARKER = ".generic-demo-batch";
/** pixels per meter of the plan */
const PX = 60;

interface Thing {
  name: string;
  x: number; // meters, room coordinates: x right, y down (the door at the bottom)
  y: number;
  w: number;
  h: number;
  color: string;
}

export const ROOM = { width: 8, depth: 6 } as const;
export const THINGS: Thing[] = [
  { name: "table", x: 2, y: 1.5, w: 1.8, h: 0.9, color: "#a16207" },
  { name: "red chair", x: 2.5, y: 2.8, w: 0.6, h: 0.6, color: "#dc2626" },
  { name: "lamp", x: 6.8, y: 0.6, w: 0.5, h: 0.5, color: "#facc15" },
  { name: "sofa", x: 5.2, y: 3.6, w: 2.2, h: 0.9, color: "#2563eb" },
  { name: "plant", x: 0.6, y: 4.8, w: 0.6, h: 0.6, color: "#16a34a" },
];
const BALLS = [
  [3.6, 4.6],
  [4.1, 5.1],
  [1.4, 0.6],
  [7.2, 5.2],
  [4.6, 0.9],
  [6.3, 2.4],
  [0.9, 2.9],
] as const;
const DOOR = { x: 4, y: ROOM.depth };
const WINDOW = { x: 4, y: 0 };

const center = (t: Thing) => ({ x: t.x + t.w / 2, y: t.y + t.h / 2 });
const distance = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
const thing = (name: string) => THINGS.find((t) => t.name === name)!;

function planSvg(options: { balls: boolean; grid: boolean; labels: boolean }): string {
  const W = ROOM.width * PX + 40;
  const H = ROOM.depth * PX + 40;
  const o = 20;
  const parts: string[] = [`<rect x="${o}" y="${o}" width="${ROOM.width * PX}" height="${ROOM.depth * PX}" fill="#f8fafc" stroke="#334155" stroke-width="4"/>`];
  if (options.grid) {
    for (let x = 1; x < ROOM.width; x++)
      parts.push(`<line x1="${o + x * PX}" y1="${o}" x2="${o + x * PX}" y2="${o + ROOM.depth * PX}" stroke="#cbd5e1" stroke-dasharray="4 4"/>`);
    for (let y = 1; y < ROOM.depth; y++)
      parts.push(`<line x1="${o}" y1="${o + y * PX}" x2="${o + ROOM.width * PX}" y2="${o + y * PX}" stroke="#cbd5e1" stroke-dasharray="4 4"/>`);
  }
  parts.push(`<rect x="${o + (DOOR.x - 0.5) * PX}" y="${o + ROOM.depth * PX - 4}" width="${PX}" height="8" fill="#92400e"/>`);
  parts.push(`<text x="${o + DOOR.x * PX}" y="${H - 2}" font-family="sans-serif" font-size="13" text-anchor="middle" fill="#92400e">door</text>`);
  parts.push(`<rect x="${o + (WINDOW.x - 0.75) * PX}" y="${o - 4}" width="${1.5 * PX}" height="8" fill="#38bdf8"/>`);
  parts.push(`<text x="${o + WINDOW.x * PX}" y="14" font-family="sans-serif" font-size="13" text-anchor="middle" fill="#0369a1">window</text>`);
  for (const t of THINGS) {
    parts.push(`<rect x="${o + t.x * PX}" y="${o + t.y * PX}" width="${t.w * PX}" height="${t.h * PX}" rx="6" fill="${t.color}" stroke="#0f172a"/>`);
    if (options.labels)
      parts.push(
        `<text x="${o + center(t).x * PX}" y="${o + (t.y + t.h) * PX + 14}" font-family="sans-serif" font-size="13" text-anchor="middle" fill="#0f172a">${t.name}</text>`,
      );
  }
  if (options.balls) for (const [x, y] of BALLS) parts.push(`<circle cx="${o + x * PX}" cy="${o + y * PX}" r="9" fill="#f97316" stroke="#7c2d12"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${parts.join("")}</svg>`;
}

function tableSvg(): string {
  const t = thing("table");
  const scale = 200; // px per meter
  const W = t.w * scale + 80;
  const ticks = Array.from({ length: Math.floor(t.w * 10) + 3 }, (_, i) => {
    const x = 40 + i * (scale / 10);
    const long = i % 5 === 0;
    return `<line x1="${x}" y1="180" x2="${x}" y2="${long ? 160 : 170}" stroke="#0f172a"/>${i % 10 === 0 ? `<text x="${x}" y="198" font-family="sans-serif" font-size="12" text-anchor="middle">${i * 10} cm</text>` : ""}`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="210"><rect width="100%" height="100%" fill="#f8fafc"/><rect x="40" y="60" width="${t.w * scale}" height="70" rx="6" fill="${t.color}" stroke="#0f172a"/><text x="${40 + (t.w * scale) / 2}" y="100" font-family="sans-serif" font-size="16" text-anchor="middle" fill="#fff">table (from the side)</text><line x1="40" y1="180" x2="${W - 20}" y2="180" stroke="#0f172a" stroke-width="2"/>${ticks.join("")}</svg>`;
}

function objectSvg(t: Thing): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="100%" height="100%" fill="#ffffff"/><rect x="${80 - t.w * 30}" y="${60 - t.h * 30}" width="${t.w * 60}" height="${t.h * 60}" rx="8" fill="${t.color}" stroke="#0f172a" stroke-width="2"/></svg>`;
}

export interface GenericDemoItem {
  id: string;
  kind: "choice" | "numeric";
  public: Record<string, unknown>;
  key: Record<string, unknown>;
  tags: Record<string, string | number | boolean>;
  practice?: boolean;
}

/** The items, with their keys from the geometry above and from what the demo clip shows. */
export function genericDemoItems(): GenericDemoItem[] {
  const plan = { images: ["img/plan.png"] };
  const clip = DEMO_CLIP.file;
  const chair = center(thing("red chair"));
  const near = ["table", "lamp", "sofa", "plant"].map((name) => ({ name, d: distance(center(thing(name)), chair) })).sort((a, b) => a.d - b.d)[0].name;
  const lamp = center(thing("lamp"));
  // facing the window from the door (up the page), the lamp is right when its x is beyond the door's
  const side = lamp.x > DOOR.x ? "right" : "left";
  const area = ROOM.width * ROOM.depth;
  const doorWindow = distance(DOOR, WINDOW);
  const tableCm = Math.round(thing("table").w * 100);
  return [
    {
      id: "practice-colour",
      kind: "choice",
      public: {
        question: "Practice: what colour is the sofa in the plan?",
        options: [
          { id: "blue", text: "blue" },
          { id: "red", text: "red" },
          { id: "green", text: "green" },
        ],
        media: plan,
      },
      key: { answer: "blue" },
      tags: { question_type: "practice" },
      practice: true,
    },
    {
      id: "nearest-to-chair",
      kind: "choice",
      public: {
        question: "Which of these objects is closest to the red chair (centre to centre)?",
        options: ["table", "lamp", "sofa", "plant"].map((name) => ({ id: name, text: name })),
        media: plan,
      },
      key: { answer: near, note: "computed from the drawn plan" },
      tags: { question_type: "object_rel_distance" },
    },
    {
      id: "lamp-side",
      kind: "choice",
      public: {
        question: "Standing in the door and facing the window, is the lamp to your left or to your right?",
        options: [
          { id: "left", text: "left" },
          { id: "right", text: "right" },
        ],
        media: plan,
        shuffle: false,
      },
      key: { answer: side },
      tags: { question_type: "object_rel_direction_easy" },
    },
    {
      id: "which-is-sofa",
      kind: "choice",
      public: {
        question: "Which picture shows the sofa as it is drawn in the plan?",
        options: ["sofa", "table", "plant", "lamp"].map((name) => ({
          id: `pic-${name.replace(/\s/g, "-")}`,
          image: `img/object-${name.replace(/\s/g, "-")}.png`,
        })),
        media: plan,
      },
      key: { answer: "pic-sofa" },
      tags: { question_type: "obj_appearance_order" },
    },
    {
      id: "withheld-plant",
      kind: "choice",
      public: {
        question: "Would the plant get more light if it stood by the window?",
        options: [
          { id: "0", text: "yes" },
          { id: "1", text: "no" },
          { id: "2", text: "cannot tell from the plan" },
        ],
        media: plan,
      },
      key: {},
      tags: { question_type: "withheld", keyed: false },
    },
    {
      id: "count-balls",
      kind: "numeric",
      public: { question: "How many orange balls are on the floor?", media: { images: ["img/plan-balls.png"] } },
      key: { answer: BALLS.length, metric: "mra" },
      tags: { question_type: "object_counting" },
    },
    {
      id: "table-length",
      kind: "numeric",
      public: { question: "How long is the table, in centimeters?", unit: "centimeters", media: { images: ["img/table-side.png"] } },
      key: { answer: tableCm, metric: "mra", note: "the drawn table is 1.8 m long" },
      tags: { question_type: "object_size_estimation" },
    },
    {
      id: "room-area",
      kind: "numeric",
      public: {
        question: "The dashed grid is 1 m square. What is the floor area of the room, in square meters?",
        unit: "square meters",
        media: { images: ["img/plan-grid.png"] },
      },
      key: { answer: area, metric: "mra" },
      tags: { question_type: "room_size_estimation" },
    },
    {
      id: "door-to-window",
      kind: "numeric",
      public: {
        question: "The dashed grid is 1 m square. How far is the door from the window, in meters (within half a meter counts)?",
        unit: "meters",
        media: { images: ["img/plan-grid.png"] },
      },
      key: { answer: doorWindow, metric: "abs", tolerance: 0.5 },
      tags: { question_type: "object_abs_distance" },
    },
    // the real demo clip (a video file, not frames): a ball rolls right along a table, falls off at 2.5 s, lands at 3.1 s, rolls on
    {
      id: "ball-direction",
      kind: "choice",
      public: {
        question: "Play the video. Which way does the ball roll along the table?",
        options: [
          { id: "left", text: "to the left" },
          { id: "right", text: "to the right" },
          { id: "towards", text: "towards the camera" },
          { id: "still", text: "it does not move" },
        ],
        media: { video: clip, cutAt: DEMO_CLIP.cutBeforeFall },
      },
      key: { answer: DEMO_CLIP.direction, note: "the clip: the ball's x grows at 64 px/s" },
      tags: { question_type: "video_direction" },
    },
    {
      id: "ball-leaves-table",
      kind: "numeric",
      public: {
        question: "Play the video. At what time on the player's clock does the ball leave the table (within a quarter of a second counts)?",
        unit: "seconds",
        media: { video: clip, cutAt: 3.5 },
      },
      key: { answer: DEMO_CLIP.leavesTableAt, metric: "abs", tolerance: 0.25, note: "the clip: the ball passes the table's edge at 2.5 s" },
      tags: { question_type: "video_timing" },
    },
    {
      id: "ball-bounces",
      kind: "numeric",
      public: { question: "Play the video. How many times does the ball bounce after it falls?", media: { video: clip } },
      key: { answer: DEMO_CLIP.bounces, metric: "exact", note: "the clip: the ball lands at 3.1 s and rolls on without bouncing" },
      tags: { question_type: "video_counting" },
    },
  ];
}

/** A SYNTHETIC model's raw outputs (not a real model), some strict, some to recover, one unreadable. */
export function syntheticGenericRun(): string {
  const lines = [
    { id: "nearest-to-chair", answer: "A. table" },
    { id: "lamp-side", answer: "A" },
    { id: "which-is-sofa", answer: "C" },
    { id: "withheld-plant", answer: "A" },
    { id: "count-balls", answer: "6" },
    { id: "table-length", answer: "150 cm" },
    { id: "room-area", answer: "about forty" },
    { id: "door-to-window", answer: "6.2" },
    { id: "ball-direction", answer: "B" },
    { id: "ball-leaves-table", answer: "3 seconds" },
    { id: "ball-bounces", answer: "1" },
  ];
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

export async function generateGenericDemoBatch({
  outDir,
}: {
  outDir: string;
}): Promise<{ items: GenericDemoItem[]; run: { name: string; file: string; jsonl: string } }> {
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/choice/generate-choice-batch.ts\n");
  const img = path.join(outDir, "img");
  await mkdir(img, { recursive: true });
  const png = (svg: string, file: string) => sharp(Buffer.from(svg)).png().toFile(path.join(img, file));
  await png(planSvg({ balls: false, grid: false, labels: true }), "plan.png");
  await png(planSvg({ balls: true, grid: false, labels: false }), "plan-balls.png");
  await png(planSvg({ balls: false, grid: true, labels: true }), "plan-grid.png");
  await png(tableSvg(), "table-side.png");
  for (const name of ["sofa", "table", "plant", "lamp"]) await png(objectSvg(thing(name)), `object-${name}.png`);
  await copyDemoClip(outDir);
  const items = genericDemoItems();
  await writeFile(path.join(outDir, "items.jsonl"), items.map((item) => JSON.stringify(item)).join("\n") + "\n");
  const jsonl = syntheticGenericRun();
  await mkdir(path.join(outDir, "runs"), { recursive: true });
  await writeFile(path.join(outDir, "runs", "synthetic-generic-run.jsonl"), jsonl);
  return { items, run: { name: "SYNTHETIC generic model (not a real model)", file: "synthetic-generic-run.jsonl", jsonl } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2];
  if (!outDir) throw new Error("usage: npx tsx scripts/demo-data/choice/generate-choice-batch.ts <outDir>");
  await generateGenericDemoBatch({ outDir: path.resolve(outDir) });
}
