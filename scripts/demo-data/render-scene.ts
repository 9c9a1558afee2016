/**
 * Draws one observation of the kitchen world as a small, legible PNG (448x336).
 *
 * The picture is a function of the facts it is given and nothing else: `renderStateSvg` passes
 * only `visibleFacts(state)`, so an object inside a closed fridge / cabinet / microwave, and
 * every fact about it, is never drawn. Fixtures are labelled boxes (doors drawn open or shut, a
 * red burner and an "ON" light when on, running water in the sink); objects are coloured icons
 * with labels on or in what supports them; the two grippers are panels at the bottom (left
 * gripper on the left) showing what each one holds.
 *
 * Every drawn object / fixture / gripper is wrapped in a group with `data-entity="..."` so tests
 * can check what a picture shows. Text uses DejaVu Sans Condensed (present on this machine;
 * rasterised by sharp's librsvg).
 */
import sharp from "sharp";
import {
  FIXTURES,
  OBJECTS,
  SUPPORTS,
  isObject,
  parseFact,
  visibleFacts,
  type KitchenState,
  type ObjectId,
  type SupportId,
} from "@/scripts/demo-data/kitchen-world";
import { entityName } from "@/scripts/demo-data/action-text";

export const IMAGE_WIDTH = 448;
export const IMAGE_HEIGHT = 336;

const FONT = "DejaVu Sans Condensed";
const INK = "#1f2328";

// ---------------------------------------------------------------------------------------------
// Scene model parsed from facts

interface Scene {
  place: Map<string, { rel: string; target: string }>;
  hands: { left: string | null; right: string | null };
  open: Set<string>;
  on: Set<string>;
  cooked: Set<string>;
  sliced: Set<string>;
  wet: Set<string>;
  water: Set<string>;
}

function sceneOf(facts: readonly string[]): Scene {
  const scene: Scene = {
    place: new Map(),
    hands: { left: null, right: null },
    open: new Set(),
    on: new Set(),
    cooked: new Set(),
    sliced: new Set(),
    wet: new Set(),
    water: new Set(),
  };
  for (const fact of facts) {
    const { predicate, args } = parseFact(fact);
    switch (predicate) {
      case "RightGrasping":
        scene.hands.right = args[1];
        break;
      case "LeftGrasping":
        scene.hands.left = args[1];
        break;
      case "OnTop":
      case "Inside":
        scene.place.set(args[0], { rel: predicate, target: args[1] });
        break;
      case "Open":
        scene.open.add(args[0]);
        break;
      case "ToggledOn":
        scene.on.add(args[0]);
        break;
      case "Cooked":
        scene.cooked.add(args[0]);
        break;
      case "Transition":
        scene.sliced.add(args[0]);
        break;
      case "Covered":
        scene.wet.add(args[0]);
        break;
      case "Contains":
        scene.water.add(args[0]);
        break;
      default:
        break; // Under mirrors OnTop
    }
  }
  return scene;
}

// ---------------------------------------------------------------------------------------------
// SVG helpers

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function n(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Estimated text width for DejaVu Sans Condensed (calibrated upper bound: 0.57 em, bold 0.63 em). */
function textWidth(text: string, size: number, bold = false): number {
  return text.length * size * (bold ? 0.63 : 0.57);
}

interface TextOptions {
  size?: number;
  bold?: boolean;
  italic?: boolean;
  anchor?: "start" | "middle" | "end";
  fill?: string;
  halo?: boolean;
}

function text(x: number, y: number, content: string, o: TextOptions = {}): string {
  const { size = 9, bold = false, italic = false, anchor = "middle", fill = INK, halo = true } = o;
  const attrs = [`x="${n(x)}"`, `y="${n(y)}"`, `font-family="${FONT}"`, `font-size="${size}"`, `text-anchor="${anchor}"`, `fill="${fill}"`];
  if (bold) attrs.push(`font-weight="bold"`);
  if (italic) attrs.push(`font-style="italic"`);
  if (halo) attrs.push(`stroke="#ffffff"`, `stroke-width="2.6"`, `stroke-linejoin="round"`, `paint-order="stroke"`);
  return `<text ${attrs.join(" ")}>${esc(content)}</text>`;
}

function rect(x: number, y: number, w: number, h: number, fill: string, extra = ""): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${fill}" ${extra}/>`;
}

function group(entity: string, body: string): string {
  return `<g data-entity="${entity}">${body}</g>`;
}

// ---------------------------------------------------------------------------------------------
// Object icons (centred at cx, standing on baseline by)

const COLOURS = {
  apple: "#d62828",
  appleFlesh: "#f7e8b5",
  bread: "#e0a95f",
  breadCooked: "#8d5524",
  cabbage: "#7cb342",
  cabbageCooked: "#9c8a2e",
  bowl: "#f4f6f8",
  plate: "#ffffff",
  pan: "#37474f",
  cup: "#4f86c6",
  water: "#64b5f6",
  steel: "#b0bec5",
  wood: "#8d6e63",
};

function droplets(x: number, y: number): string {
  const drop = (dx: number, dy: number): string =>
    `<path d="M${n(x + dx)},${n(y + dy - 4)} q2.6,3.6 0,5.2 q-2.6,-1.6 0,-5.2z" fill="${COLOURS.water}" stroke="#1e88e5" stroke-width="0.6"/>`;
  return drop(0, 0) + drop(4.5, 3);
}

/** Height an icon takes above its baseline (without content). */
function iconHeight(obj: string, scene: Scene): number {
  switch (obj) {
    case "apple":
      return scene.sliced.has("apple") ? 9 : 17;
    case "bread":
      return 14;
    case "cabbage":
      return scene.sliced.has("cabbage") ? 11 : 20;
    case "bowl":
      return 13;
    case "plate":
      return 5;
    case "pan":
      return 10;
    case "cup":
      return 17;
    case "knife":
      return 6;
    default:
      return 14;
  }
}

function iconSvg(obj: string, cx: number, by: number, scene: Scene): string {
  const cooked = scene.cooked.has(obj);
  const sliced = scene.sliced.has(obj);
  const stroke = `stroke="${INK}" stroke-width="0.8"`;
  let body = "";
  switch (obj) {
    case "apple":
      if (sliced) {
        body =
          `<path d="M${n(cx - 9)},${n(by - 9)} A9,9 0 0 0 ${n(cx + 9)},${n(by - 9)} Z" fill="${COLOURS.appleFlesh}" stroke="${COLOURS.apple}" stroke-width="2"/>` +
          `<circle cx="${n(cx)}" cy="${n(by - 6)}" r="1.2" fill="#5d4037"/>`;
      } else {
        body =
          `<circle cx="${n(cx)}" cy="${n(by - 8)}" r="8" fill="${COLOURS.apple}" ${stroke}/>` +
          `<path d="M${n(cx)},${n(by - 15)} l1,-3" stroke="#5d4037" stroke-width="1.4"/>` +
          `<ellipse cx="${n(cx + 3.5)}" cy="${n(by - 17)}" rx="3" ry="1.5" fill="#43a047"/>`;
      }
      break;
    case "bread": {
      const fill = cooked ? COLOURS.breadCooked : COLOURS.bread;
      if (sliced) {
        body =
          `<rect x="${n(cx - 12)}" y="${n(by - 14)}" width="10" height="14" rx="3" fill="${fill}" ${stroke}/>` +
          `<rect x="${n(cx + 1)}" y="${n(by - 14)}" width="10" height="14" rx="3" fill="${fill}" ${stroke}/>` +
          `<rect x="${n(cx - 10)}" y="${n(by - 12)}" width="6" height="10" rx="1.5" fill="#f8e6c0"/>` +
          `<rect x="${n(cx + 3)}" y="${n(by - 12)}" width="6" height="10" rx="1.5" fill="#f8e6c0"/>`;
      } else {
        body =
          `<rect x="${n(cx - 14)}" y="${n(by - 14)}" width="28" height="14" rx="6" fill="${fill}" ${stroke}/>` +
          `<path d="M${n(cx - 7)},${n(by - 12)} l3,5 M${n(cx)},${n(by - 12)} l3,5 M${n(cx + 7)},${n(by - 12)} l3,5" stroke="#6d4c2e" stroke-width="1"/>`;
      }
      break;
    }
    case "cabbage": {
      const fill = cooked ? COLOURS.cabbageCooked : COLOURS.cabbage;
      if (sliced) {
        const cubes = [
          [-11, -5],
          [-4, -5],
          [3, -5],
          [-7.5, -11],
          [-0.5, -11],
          [6, -11],
        ];
        body = cubes.map(([dx, dy]) => `<rect x="${n(cx + dx)}" y="${n(by + dy)}" width="5.5" height="5" fill="${fill}" ${stroke}/>`).join("");
      } else {
        body =
          `<circle cx="${n(cx)}" cy="${n(by - 10)}" r="10" fill="${fill}" ${stroke}/>` +
          `<path d="M${n(cx)},${n(by - 19)} q-5,9 0,18 M${n(cx - 8)},${n(by - 14)} q6,4 8,12 M${n(cx + 8)},${n(by - 14)} q-6,4 -8,12" fill="none" stroke="#33691e" stroke-width="1"/>`;
      }
      break;
    }
    case "bowl":
      body =
        `<path d="M${n(cx - 17)},${n(by - 13)} A17,13 0 0 0 ${n(cx + 17)},${n(by - 13)} Z" fill="${COLOURS.bowl}" stroke="#3d5a80" stroke-width="1.4"/>` +
        (scene.water.has("bowl")
          ? `<path d="M${n(cx - 15)},${n(by - 10)} L${n(cx + 15)},${n(by - 10)} A15,9 0 0 1 ${n(cx - 15)},${n(by - 10)} Z" fill="${COLOURS.water}" opacity="0.9"/>`
          : "") +
        `<line x1="${n(cx - 17)}" y1="${n(by - 13)}" x2="${n(cx + 17)}" y2="${n(by - 13)}" stroke="#3d5a80" stroke-width="2"/>`;
      break;
    case "plate":
      body =
        `<ellipse cx="${n(cx)}" cy="${n(by - 2.5)}" rx="19" ry="3.2" fill="${COLOURS.plate}" stroke="#607d8b" stroke-width="1.2"/>` +
        `<ellipse cx="${n(cx)}" cy="${n(by - 3)}" rx="11" ry="1.6" fill="none" stroke="#b0bec5" stroke-width="0.8"/>`;
      break;
    case "pan":
      body =
        `<path d="M${n(cx - 16)},${n(by - 10)} L${n(cx + 16)},${n(by - 10)} L${n(cx + 14)},${n(by)} L${n(cx - 14)},${n(by)} Z" fill="${COLOURS.pan}" stroke="#111" stroke-width="0.8"/>` +
        (scene.water.has("pan") ? `<rect x="${n(cx - 15)}" y="${n(by - 10)}" width="30" height="3.5" fill="${COLOURS.water}"/>` : "") +
        `<rect x="${n(cx + 16)}" y="${n(by - 9)}" width="14" height="3.4" rx="1.5" fill="#212121"/>`;
      break;
    case "cup":
      body =
        `<path d="M${n(cx + 6)},${n(by - 13)} q7,0 6,5 q-1,4 -6,3.5" fill="none" stroke="${COLOURS.cup}" stroke-width="2.2"/>` +
        `<rect x="${n(cx - 7)}" y="${n(by - 17)}" width="14" height="17" rx="2" fill="${COLOURS.cup}" ${stroke}/>` +
        (scene.water.has("cup")
          ? `<rect x="${n(cx - 5.5)}" y="${n(by - 15.5)}" width="11" height="5" fill="#bbdefb" stroke="${COLOURS.water}" stroke-width="1"/>`
          : "");
      break;
    case "knife":
      body =
        `<path d="M${n(cx - 17)},${n(by - 3)} L${n(cx + 2)},${n(by - 6)} L${n(cx + 2)},${n(by)} Z" fill="${COLOURS.steel}" stroke="#546e7a" stroke-width="0.8"/>` +
        `<rect x="${n(cx + 2)}" y="${n(by - 5.5)}" width="14" height="5" rx="1.5" fill="${COLOURS.wood}" ${stroke}/>`;
      break;
    default:
      body = rect(cx - 10, by - 14, 20, 14, "#ccc", stroke);
  }
  if (scene.wet.has(obj)) body += droplets(cx + 11, by - iconHeight(obj, scene) + 2);
  return body;
}

/** Label lines for an object: its name, then a qualifier line (cooked / wet / water) when any. */
function labelLines(obj: string, scene: Scene): Array<{ text: string; italic: boolean }> {
  const lines = [{ text: entityName(obj, scene.sliced.has(obj) ? [obj] : []), italic: false }];
  const qualifiers: string[] = [];
  if (scene.cooked.has(obj)) qualifiers.push("cooked");
  if (scene.wet.has(obj)) qualifiers.push("wet");
  if (scene.water.has(obj)) qualifiers.push("water");
  if (qualifiers.length > 0) lines.push({ text: qualifiers.join(", "), italic: true });
  return lines;
}

const LINE = 9;

/** Lays out label lines to fit `width`: shrinks to 8px, then breaks at spaces. */
function fitLines(lines: Array<{ text: string; italic: boolean }>, width: number): Array<{ text: string; italic: boolean; size: number }> {
  const out: Array<{ text: string; italic: boolean; size: number }> = [];
  for (const line of lines) {
    const base = line.italic ? 8 : 9;
    if (textWidth(line.text, base) <= width) out.push({ ...line, size: base });
    else if (textWidth(line.text, 8) <= width) out.push({ ...line, size: 8 });
    else {
      // greedy wrap at spaces
      let current = "";
      for (const word of line.text.split(" ")) {
        const candidate = current ? `${current} ${word}` : word;
        if (current && textWidth(candidate, 8) > width) {
          out.push({ text: current, italic: line.italic, size: 8 });
          current = word;
        } else current = candidate;
      }
      if (current) out.push({ text: current, italic: line.italic, size: 8 });
    }
  }
  return out;
}

/**
 * An object (with what it holds, if it is a receptacle) standing on baseline `by`, labels above:
 * the content's label over the receptacle's, reading top-down like the stack itself.
 * Returns the SVG; `width` is the room its labels may use.
 */
function stackSvg(obj: string, cx: number, by: number, width: number, scene: Scene, contentsOf: (o: string) => string[]): string {
  const content = contentsOf(obj)[0];
  let shapes = "";
  let top = by - iconHeight(obj, scene);
  if (content) {
    // content sits in a bowl / pan (drawn first, the receptacle's front over it) or on a plate
    const sink = obj === "plate" ? 5 : obj === "bowl" ? 6 : 4;
    const contentBase = by - sink;
    const contentSvg = group(content, iconSvg(content, obj === "pan" ? cx - 1 : cx, contentBase, scene));
    shapes = obj === "plate" ? group(obj, iconSvg(obj, cx, by, scene)) + contentSvg : contentSvg + group(obj, iconSvg(obj, cx, by, scene));
    top = Math.min(top, contentBase - iconHeight(content, scene));
  } else {
    shapes = group(obj, iconSvg(obj, cx, by, scene));
  }
  const lines = [...(content ? fitLines(labelLines(content, scene), width) : []), ...fitLines(labelLines(obj, scene), width)];
  let y = top - 3 - (lines.length - 1) * LINE;
  let labels = "";
  for (const line of lines) {
    labels += text(cx, y, line.text, { size: line.size, italic: line.italic, fill: line.italic ? "#37474f" : INK });
    y += LINE;
  }
  return shapes + labels;
}

// ---------------------------------------------------------------------------------------------
// Layout

interface SlotLayout {
  /** slot centres x and baselines y */
  slots: Array<{ x: number; y: number }>;
  width: number;
}

/** Where things stand on / in each support fixture. */
const LAYOUT: Record<string, SlotLayout> = {
  fridge: {
    slots: [
      { x: 50, y: 88 },
      { x: 50, y: 153 },
      { x: 50, y: 216 },
    ],
    width: 66,
  },
  cabinet: {
    slots: [
      { x: 122, y: 98 },
      { x: 172, y: 98 },
      { x: 222, y: 98 },
    ],
    width: 48,
  },
  microwave: { slots: [{ x: 293, y: 96 }], width: 66 },
  counter: {
    slots: [
      { x: 122, y: 168 },
      { x: 172, y: 168 },
      { x: 222, y: 168 },
    ],
    width: 48,
  },
  stove: { slots: [{ x: 296, y: 165 }], width: 80 },
  sink: {
    slots: [
      { x: 379, y: 170 },
      { x: 423, y: 170 },
    ],
    width: 44,
  },
  table: {
    slots: [
      { x: 176, y: 300 },
      { x: 224, y: 300 },
      { x: 272, y: 300 },
    ],
    width: 46,
  },
};

/**
 * Slot of each object on a support: objects keep a home slot (their index in OBJECTS modulo the
 * capacity) when it is free, so they do not jump around between observations.
 */
function assignSlots(objects: string[], capacity: number): Map<string, number> {
  const taken = new Map<number, string>();
  const out = new Map<string, number>();
  const ordered = [...objects].sort((a, b) => OBJECTS.indexOf(a as ObjectId) - OBJECTS.indexOf(b as ObjectId));
  for (const obj of ordered) {
    let slot = OBJECTS.indexOf(obj as ObjectId) % capacity;
    while (taken.has(slot)) slot = (slot + 1) % capacity;
    taken.set(slot, obj);
    out.set(obj, slot);
  }
  return out;
}

function fixtureTitle(x: number, y: number, w: number, name: string, state: string | null, stateColour = "#2e7d32"): string {
  const nameWidth = textWidth(name, 10, true);
  const out = [rect(x, y, w, 15, "#37474f", `rx="2"`), text(x + 5, y + 11, name, { size: 10, bold: true, anchor: "start", fill: "#ffffff", halo: false })];
  if (state) {
    const stateX = Math.max(x + 5 + nameWidth + 4, x + w - 5 - textWidth(state, 8.5, true));
    out.push(text(stateX, y + 11, state, { size: 8.5, bold: true, anchor: "start", fill: stateColour === "#2e7d32" ? "#a5d6a7" : stateColour, halo: false }));
  }
  return out.join("");
}

function fridgeSvg(scene: Scene, contents: string): string {
  const open = scene.open.has("fridge");
  let body = rect(4, 8, 84, 214, "#dfe6ea", `stroke="${INK}" stroke-width="1.2" rx="3"`);
  if (open) {
    body += rect(15, 24, 69, 194, "#eef8ff", `stroke="#90a4ae"`);
    for (const y of [89, 154]) body += rect(15, y, 69, 2.5, "#b0bec5");
    body += contents;
    // the door, swung open on its left hinge (seen nearly edge-on)
    body += `<path d="M4,18 L14,27 L14,214 L4,224 Z" fill="#cfd8dc" stroke="${INK}" stroke-width="1"/>`;
    body += rect(6, 100, 3, 40, "#78909c", `rx="1.5"`);
  } else {
    body += rect(8, 24, 76, 194, "#e9eef1", `stroke="#90a4ae"`);
    body += rect(74, 60, 4, 60, "#78909c", `rx="2"`);
  }
  body += fixtureTitle(4, 8, 84, "fridge", open ? "open" : "closed", open ? "#2e7d32" : "#cfd8dc");
  return group("fridge", body);
}

function cabinetSvg(scene: Scene, contents: string): string {
  const open = scene.open.has("cabinet");
  let body = rect(94, 8, 156, 94, "#c8a27a", `stroke="${INK}" stroke-width="1.2" rx="3"`);
  if (open) {
    body += rect(99, 24, 146, 76, "#f6ead8", `stroke="#a1887f"`);
    body += contents;
    body += `<path d="M94,24 L89,20 L89,106 L94,102 Z" fill="#b08968" stroke="${INK}" stroke-width="1"/>`;
    body += `<path d="M250,24 L255,20 L255,106 L250,102 Z" fill="#b08968" stroke="${INK}" stroke-width="1"/>`;
  } else {
    body += rect(98, 24, 73, 76, "#d7b58e", `stroke="#8d6e63"`) + rect(173, 24, 73, 76, "#d7b58e", `stroke="#8d6e63"`);
    body += rect(163, 52, 3, 18, "#5d4037", `rx="1.5"`) + rect(178, 52, 3, 18, "#5d4037", `rx="1.5"`);
  }
  body += fixtureTitle(94, 8, 156, "cabinet", open ? "open" : "closed", open ? "#2e7d32" : "#cfd8dc");
  return group("cabinet", body);
}

function microwaveSvg(scene: Scene, contents: string): string {
  const open = scene.open.has("microwave");
  const on = scene.on.has("microwave");
  let body = rect(256, 8, 94, 94, "#cfd8dc", `stroke="${INK}" stroke-width="1.2" rx="3"`);
  if (open) {
    body += rect(261, 27, 64, 72, "#fafafa", `stroke="#90a4ae"`);
    body += contents;
    // the door, swung open on its right hinge
    body += `<path d="M350,27 L359,21 L359,106 L350,100 Z" fill="#546e7a" stroke="${INK}" stroke-width="1"/>`;
  } else {
    body += rect(261, 27, 64, 72, on ? "#ffe082" : "#263238", `stroke="#455a64" stroke-width="2"`);
    if (on) body += `<path d="M268,50 q10,-6 20,0 t20,0 M268,70 q10,-6 20,0 t20,0" fill="none" stroke="#ff8f00" stroke-width="1.5"/>`;
  }
  // control panel: power light and its state
  body += rect(328, 27, 19, 72, "#b0bec5", `stroke="#78909c"`);
  body += `<circle cx="337.5" cy="42" r="5" fill="${on ? "#e53935" : "#546e7a"}" stroke="${INK}" stroke-width="0.8"/>`;
  body += text(337.5, 60, on ? "ON" : "off", { size: 8, bold: true, fill: on ? "#c62828" : "#37474f", halo: false });
  body += fixtureTitle(256, 8, 94, "microwave", open ? "open" : "closed", open ? "#2e7d32" : "#cfd8dc");
  return group("microwave", body);
}

function counterSvg(contents: string): string {
  let body = rect(92, 168, 160, 6, "#a1887f", `stroke="${INK}" stroke-width="1"`);
  body += rect(94, 174, 156, 48, "#efe2cf", `stroke="${INK}" stroke-width="1"`);
  body += rect(100, 184, 70, 10, "#e3d2ba", `stroke="#bcaaa4"`) + rect(176, 184, 68, 10, "#e3d2ba", `stroke="#bcaaa4"`);
  body += text(172, 212, "countertop", { size: 10, bold: true, fill: "#4e342e", halo: false });
  return group("counter", body) + contents;
}

function stoveSvg(scene: Scene, contents: string): string {
  const on = scene.on.has("stove");
  let body = rect(254, 168, 98, 6, "#455a64", `stroke="${INK}" stroke-width="1"`);
  body += rect(256, 174, 94, 48, "#eceff1", `stroke="${INK}" stroke-width="1"`);
  body += `<ellipse cx="296" cy="168" rx="24" ry="4" fill="${on ? "#ff1744" : "#616161"}" stroke="${on ? "#b71c1c" : "#212121"}" stroke-width="1.5"/>`;
  if (on) body += `<path d="M280,162 q3,-5 0,-9 M296,161 q3,-5 0,-10 M312,162 q3,-5 0,-9" fill="none" stroke="#ff7043" stroke-width="1.4"/>`;
  for (const x of [272, 296, 320]) body += `<circle cx="${x}" cy="184" r="4" fill="#90a4ae" stroke="${INK}" stroke-width="0.8"/>`;
  body += text(288, 212, "stove", { size: 10, bold: true, fill: "#263238", halo: false });
  if (on) body += text(335, 212, "ON", { size: 9, bold: true, fill: "#c62828", halo: false });
  return group("stove", body) + contents;
}

function sinkSvg(scene: Scene, contents: string): string {
  const on = scene.on.has("sink");
  // faucet
  let body = `<path d="M401,168 L401,118 q0,-8 10,-8 l9,0" fill="none" stroke="#78909c" stroke-width="4.5" stroke-linecap="round"/>`;
  body += rect(384, 162, 9, 6, "#78909c");
  // basin (back wall), contents, then the front lip
  body += rect(360, 130, 82, 40, "#dbe9f1", `stroke="#90a4ae"`);
  if (on) body += rect(418, 112, 4, 56, COLOURS.water, `opacity="0.85"`);
  body += contents;
  body += rect(358, 168, 86, 6, "#90a4ae", `stroke="${INK}" stroke-width="1"`);
  body += rect(360, 174, 82, 48, "#eceff1", `stroke="${INK}" stroke-width="1"`);
  body += text(392, 212, "sink", { size: 10, bold: true, fill: "#263238", halo: false });
  if (on) body += text(425, 212, "ON", { size: 9, bold: true, fill: "#1565c0", halo: false });
  return group("sink", body);
}

function tableSvg(contents: string): string {
  let body = rect(146, 300, 156, 8, "#8d6e63", `stroke="${INK}" stroke-width="1"`);
  body += rect(154, 308, 6, 26, "#6d4c41") + rect(288, 308, 6, 26, "#6d4c41");
  body += text(224, 320, "table", { size: 10, bold: true, fill: "#4e342e" });
  return group("table", body) + contents;
}

function gripperSvg(hand: "left" | "right", held: string | null, scene: Scene, contentsOf: (o: string) => string[]): string {
  const x0 = hand === "left" ? 4 : 304;
  const w = 140;
  const cx = x0 + w / 2;
  let body = rect(x0, 238, w, 94, "#f5f5f5", `stroke="${INK}" stroke-width="1.2" rx="4" opacity="0.95"`);
  body += rect(x0, 238, w, 15, hand === "left" ? "#6a1b9a" : "#00695c", `rx="3"`);
  body += text(x0 + 6, 249, `${hand} gripper`, { size: 10, bold: true, anchor: "start", fill: "#ffffff", halo: false });
  // fingers and wrist
  const spread = held ? 26 : 34;
  body += rect(cx - 10, 320, 20, 10, "#424242", `rx="2"`);
  body += `<path d="M${cx - 8},322 L${cx - spread},312 L${cx - spread},298" fill="none" stroke="#424242" stroke-width="4" stroke-linecap="round"/>`;
  body += `<path d="M${cx + 8},322 L${cx + spread},312 L${cx + spread},298" fill="none" stroke="#424242" stroke-width="4" stroke-linecap="round"/>`;
  let inner = "";
  if (held === null) {
    inner = text(cx, 290, "empty", { size: 9, italic: true, fill: "#757575" });
  } else if (isObject(held)) {
    inner = stackSvg(held, cx, 312, w - 10, scene, contentsOf);
  } else {
    // a container's handle
    inner =
      group(`${held}-handle`, rect(cx - 3, 276, 6, 32, "#78909c", `rx="3" stroke="${INK}" stroke-width="0.8"`)) +
      text(cx, 270, `${entityName(held)} handle`, { size: 9 });
  }
  return group(`${hand}-gripper`, body + inner);
}

/**
 * The SVG of a scene that shows exactly the given facts. Pass `visibleFacts(state)` (or use
 * `renderStateSvg`): anything not in `facts` is not drawn.
 */
export function sceneSvg(facts: readonly string[]): string {
  const scene = sceneOf(facts);
  const contentsOf = (support: string): string[] =>
    [...scene.place.entries()]
      .filter(([, p]) => p.target === support)
      .map(([o]) => o)
      .sort((a, b) => OBJECTS.indexOf(a as ObjectId) - OBJECTS.indexOf(b as ObjectId));
  const contentSvg = (support: string): string => {
    const layout = LAYOUT[support];
    const objects = contentsOf(support);
    const slots = assignSlots(objects, Math.max(layout.slots.length, SUPPORTS[support as SupportId]?.capacity ?? 1));
    return objects
      .map((o) => {
        const slot = layout.slots[(slots.get(o) ?? 0) % layout.slots.length];
        return stackSvg(o, slot.x, slot.y, layout.width, scene, contentsOf);
      })
      .join("");
  };
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}">`,
    rect(0, 0, IMAGE_WIDTH, 226, "#f4efe6"),
    rect(0, 226, IMAGE_WIDTH, IMAGE_HEIGHT - 226, "#ddd3c2"),
    rect(0, 224, IMAGE_WIDTH, 3, "#bcaaa4"),
    fridgeSvg(scene, contentSvg("fridge")),
    cabinetSvg(scene, contentSvg("cabinet")),
    microwaveSvg(scene, contentSvg("microwave")),
    counterSvg(contentSvg("counter")),
    stoveSvg(scene, contentSvg("stove")),
    sinkSvg(scene, contentSvg("sink")),
    tableSvg(contentSvg("table")),
    gripperSvg("left", scene.hands.left, scene, contentsOf),
    gripperSvg("right", scene.hands.right, scene, contentsOf),
    `</svg>`,
  ];
  return parts.join("");
}

/** The SVG of what a camera sees in this state (hidden facts left out). */
export function renderStateSvg(state: KitchenState): string {
  return sceneSvg(visibleFacts(state));
}

/** SVG to a small palette PNG (deterministic bytes for the same SVG). */
export async function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ palette: true, colours: 32, quality: 80, compressionLevel: 9, effort: 1, dither: 0 }).toBuffer();
}

export async function renderStatePng(state: KitchenState): Promise<Buffer> {
  return svgToPng(renderStateSvg(state));
}

/** Entities drawn in an SVG made by sceneSvg (from the data-entity markers). */
export function drawnEntities(svg: string): Set<string> {
  return new Set([...svg.matchAll(/data-entity="([^"]+)"/g)].map((m) => m[1]));
}

/** Fixture ids, for tests: every picture draws all of them. */
export const DRAWN_FIXTURES: readonly string[] = FIXTURES;
