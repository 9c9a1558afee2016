import type { World } from "@/lib/tasks/ego2world-play/world";
import type { DemoEpisode } from "@/scripts/demo-data/ego2world/episodes";

/**
 * The reference image of one area at the episode start, as SVG (960 x 600): the area's furniture
 * and every object whose area it is, drawn as a simple icon with its id on a tag. Objects resting
 * on another object are drawn on top of it. Only the start state is drawn, as in the paper (a
 * frame from the video at episode start); changes reach the person as the text summary.
 */

export const AREA_IMAGE_WIDTH = 960;
export const AREA_IMAGE_HEIGHT = 600;

const FONT = "DejaVu Sans";
const INK = "#1f2328";

type Furniture = DemoEpisode["areas"][string]["furniture"];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** The surface objects stand on (y of its top) and the backdrop drawn behind them. */
function backdrop(furniture: Furniture): { svg: string; surface: number } {
  const wall = `<rect width="960" height="600" fill="#f3efe6"/>`;
  switch (furniture) {
    case "counter":
    case "coffee": {
      const tiles =
        Array.from({ length: 16 }, (_, i) => `<line x1="${i * 60}" y1="0" x2="${i * 60}" y2="330" stroke="#e2dccd" stroke-width="2"/>`).join("") +
        Array.from({ length: 6 }, (_, i) => `<line x1="0" y1="${i * 60}" x2="960" y2="${i * 60}" stroke="#e2dccd" stroke-width="2"/>`).join("");
      return {
        surface: 400,
        svg: `${wall}<rect width="960" height="330" fill="#f7f4ec"/>${tiles}<rect x="0" y="330" width="960" height="80" fill="#c8a06a"/><rect x="0" y="400" width="960" height="14" fill="#a87c46"/><rect x="0" y="414" width="960" height="186" fill="#7b5a36"/>${[0, 1, 2, 3].map((i) => `<rect x="${30 + i * 235}" y="436" width="200" height="140" rx="6" fill="#8c6840" stroke="#5e4326" stroke-width="3"/><rect x="${112 + i * 235}" y="452" width="36" height="8" rx="4" fill="#d9c6a5"/>`).join("")}`,
      };
    }
    case "cabinet":
      return {
        surface: 270,
        svg: `${wall}<rect x="60" y="30" width="840" height="540" rx="10" fill="#b98d5c" stroke="#6d4c2b" stroke-width="6"/><rect x="84" y="54" width="792" height="492" fill="#e9dcc4"/><rect x="84" y="270" width="792" height="14" fill="#a87c46"/><rect x="84" y="520" width="792" height="26" fill="#a87c46"/>`,
      };
    case "fridge":
      return {
        surface: 300,
        svg: `${wall}<rect x="120" y="20" width="720" height="560" rx="24" fill="#dfe6ea" stroke="#8a98a3" stroke-width="6"/><rect x="150" y="50" width="660" height="500" rx="10" fill="#f4fbff"/><rect x="150" y="300" width="660" height="10" fill="#b9c9d3"/><rect x="150" y="470" width="660" height="80" fill="#d7e6ee"/><circle cx="180" cy="80" r="10" fill="#ffe9a8"/>`,
      };
    case "sink":
      return {
        surface: 400,
        svg: `${wall}<rect width="960" height="330" fill="#eef4f6"/><rect x="0" y="330" width="960" height="80" fill="#9aa7ad"/><rect x="260" y="342" width="440" height="56" rx="18" fill="#6f7d84"/><rect x="0" y="410" width="960" height="190" fill="#56656c"/>`,
      };
    case "stove":
      return {
        surface: 400,
        svg: `${wall}<rect width="960" height="330" fill="#efe9e2"/><rect x="0" y="330" width="960" height="80" fill="#3b3f44"/><rect x="0" y="410" width="960" height="190" fill="#5b6067"/><rect x="300" y="440" width="360" height="120" rx="8" fill="#2f3338" stroke="#8b9096" stroke-width="3"/>${[0, 1, 2, 3].map((i) => `<circle cx="${340 + i * 90}" cy="470" r="14" fill="#c9ccd0"/>`).join("")}`,
      };
    case "table":
      return {
        surface: 420,
        svg: `${wall}<rect width="960" height="360" fill="#e8e1f0"/><rect x="70" y="330" width="820" height="100" rx="14" fill="#d2b48c" stroke="#8a6a42" stroke-width="5"/><rect x="120" y="430" width="30" height="170" fill="#8a6a42"/><rect x="810" y="430" width="30" height="170" fill="#8a6a42"/>`,
      };
    case "drawer":
      return {
        surface: 420,
        svg: `${wall}<rect x="80" y="60" width="800" height="140" rx="8" fill="#8c6840"/><rect x="80" y="200" width="800" height="360" rx="10" fill="#b98d5c" stroke="#6d4c2b" stroke-width="6"/><rect x="110" y="230" width="740" height="300" fill="#efe4cf"/>${[0, 1, 2].map((i) => `<line x1="${110 + (i + 1) * 185}" y1="230" x2="${110 + (i + 1) * 185}" y2="530" stroke="#c8b594" stroke-width="4"/>`).join("")}`,
      };
  }
}

const ICON_SCALE = 1.35;

/** An object's icon centred at (x, bottom y), drawn 1.35 times its base size; returns its SVG and the height it takes (for what sits on it). */
function icon(label: string, x: number, y: number): { svg: string; height: number } {
  const base = baseIcon(label, x, y);
  return { svg: `<g transform="translate(${x} ${y}) scale(${ICON_SCALE}) translate(${-x} ${-y})">${base.svg}</g>`, height: base.height * ICON_SCALE };
}

function baseIcon(label: string, x: number, y: number): { svg: string; height: number } {
  switch (label) {
    case "cup":
      return {
        height: 90,
        svg: `<path d="M${x - 40} ${y - 90} h80 l-8 90 h-64 z" fill="#ffffff" stroke="${INK}" stroke-width="4"/><path d="M${x + 38} ${y - 70} q32 4 24 32 q-6 16 -28 12" fill="none" stroke="${INK}" stroke-width="5"/>`,
      };
    case "coffee_pod":
      return {
        height: 46,
        svg: `<path d="M${x - 30} ${y - 46} h60 l-10 46 h-40 z" fill="#7a4a2a" stroke="${INK}" stroke-width="3"/><rect x="${x - 34}" y="${y - 52}" width="68" height="10" rx="4" fill="#c9a35a" stroke="${INK}" stroke-width="3"/>`,
      };
    case "coffee_machine":
      return {
        height: 230,
        svg: `<rect x="${x - 95}" y="${y - 230}" width="190" height="230" rx="14" fill="#30343a" stroke="${INK}" stroke-width="4"/><rect x="${x - 80}" y="${y - 222}" width="160" height="40" rx="8" fill="#50565e"/><rect x="${x - 25}" y="${y - 170}" width="50" height="30" fill="#1c1f23"/><rect x="${x - 70}" y="${y - 20}" width="140" height="14" fill="#50565e"/><circle cx="${x + 60}" cy="${y - 120}" r="8" fill="#7ddc7d"/>`,
      };
    case "milk":
      return {
        height: 150,
        svg: `<path d="M${x - 40} ${y} v-110 l20 -40 h40 l20 40 v110 z" fill="#ffffff" stroke="${INK}" stroke-width="4"/><rect x="${x - 40}" y="${y - 90}" width="80" height="46" fill="#4f8fd6"/><text x="${x}" y="${y - 60}" font-family="${FONT}" font-size="20" font-weight="bold" fill="#fff" text-anchor="middle">MILK</text>`,
      };
    case "spoon":
    case "fork":
      return {
        height: 24,
        svg: `<rect x="${x - 70}" y="${y - 14}" width="100" height="10" rx="5" fill="#b8bec4" stroke="${INK}" stroke-width="2"/>${label === "spoon" ? `<ellipse cx="${x + 46}" cy="${y - 9}" rx="26" ry="14" fill="#b8bec4" stroke="${INK}" stroke-width="2"/>` : `<path d="M${x + 30} ${y - 20} h40 M${x + 30} ${y - 9} h44 M${x + 30} ${y + 2} h40" stroke="${INK}" stroke-width="4"/>`}`,
      };
    case "knife":
      return {
        height: 24,
        svg: `<rect x="${x - 80}" y="${y - 18}" width="60" height="16" rx="6" fill="#3b2a1e"/><path d="M${x - 20} ${y - 20} h90 q20 10 0 18 h-90 z" fill="#d5dade" stroke="${INK}" stroke-width="2"/>`,
      };
    case "bread":
      return {
        height: 80,
        svg: `<path d="M${x - 90} ${y} v-50 q0 -30 40 -30 h100 q40 0 40 30 v50 z" fill="#d9a25b" stroke="#7a4d1c" stroke-width="4"/>${[0, 1, 2].map((i) => `<path d="M${x - 50 + i * 45} ${y - 70} q12 20 0 40" fill="none" stroke="#7a4d1c" stroke-width="3"/>`).join("")}`,
      };
    case "cutting_board":
      return { height: 22, svg: `<rect x="${x - 140}" y="${y - 22}" width="280" height="22" rx="8" fill="#c58f4e" stroke="#7a4d1c" stroke-width="3"/>` };
    case "cheese":
      return {
        height: 70,
        svg: `<path d="M${x - 70} ${y} v-50 l140 -20 v70 z" fill="#f6cf4a" stroke="#9a7a12" stroke-width="4"/><circle cx="${x - 20}" cy="${y - 25}" r="8" fill="#e0b430"/><circle cx="${x + 30}" cy="${y - 40}" r="6" fill="#e0b430"/>`,
      };
    case "plate":
      return {
        height: 20,
        svg: `<ellipse cx="${x}" cy="${y - 10}" rx="120" ry="18" fill="#ffffff" stroke="${INK}" stroke-width="4"/><ellipse cx="${x}" cy="${y - 12}" rx="80" ry="10" fill="none" stroke="#c9ced3" stroke-width="3"/>`,
      };
    case "pot":
      return {
        height: 110,
        svg: `<rect x="${x - 90}" y="${y - 100}" width="180" height="100" rx="14" fill="#9aa3ab" stroke="${INK}" stroke-width="4"/><rect x="${x - 130}" y="${y - 90}" width="40" height="14" rx="6" fill="#3b3f44"/><rect x="${x + 90}" y="${y - 90}" width="40" height="14" rx="6" fill="#3b3f44"/><rect x="${x - 96}" y="${y - 110}" width="192" height="14" rx="6" fill="#7d868e"/>`,
      };
    case "lid":
      return {
        height: 40,
        svg: `<path d="M${x - 96} ${y} q96 -60 192 0 z" fill="#7d868e" stroke="${INK}" stroke-width="4"/><rect x="${x - 16}" y="${y - 40}" width="32" height="12" rx="6" fill="#3b3f44"/>`,
      };
    case "pasta":
      return {
        height: 130,
        svg: `<rect x="${x - 50}" y="${y - 130}" width="100" height="130" rx="8" fill="#2e6bbf" stroke="${INK}" stroke-width="4"/><rect x="${x - 34}" y="${y - 100}" width="68" height="50" rx="6" fill="#fff6d8"/>${[0, 1, 2, 3].map((i) => `<line x1="${x - 26 + i * 17}" y1="${y - 96}" x2="${x - 20 + i * 17}" y2="${y - 56}" stroke="#e2b64a" stroke-width="5"/>`).join("")}`,
      };
    case "tap":
      return {
        height: 150,
        svg: `<rect x="${x - 14}" y="${y - 150}" width="28" height="120" rx="8" fill="#c9ced3" stroke="${INK}" stroke-width="3"/><path d="M${x - 14} ${y - 150} h90 v34 h-24 v-12 h-66 z" fill="#c9ced3" stroke="${INK}" stroke-width="3"/><rect x="${x - 40}" y="${y - 60}" width="80" height="18" rx="8" fill="#3d7bd9" stroke="${INK}" stroke-width="3"/>`,
      };
    case "burner":
      return {
        height: 14,
        svg: `<ellipse cx="${x}" cy="${y - 7}" rx="120" ry="16" fill="#1b1d20" stroke="#8b9096" stroke-width="4"/><ellipse cx="${x}" cy="${y - 7}" rx="70" ry="9" fill="none" stroke="#8b9096" stroke-width="3"/>`,
      };
    default:
      return { height: 70, svg: `<rect x="${x - 50}" y="${y - 70}" width="100" height="70" rx="10" fill="#cfd8e3" stroke="${INK}" stroke-width="4"/>` };
  }
}

function tag(id: string, x: number, y: number): string {
  const width = 16 + id.length * 11;
  return `<g><rect x="${x - width / 2}" y="${y}" width="${width}" height="28" rx="6" fill="#ffffff" fill-opacity="0.92" stroke="${INK}" stroke-width="2"/><text x="${x}" y="${y + 20}" font-family="${FONT}" font-size="18" font-weight="bold" fill="${INK}" text-anchor="middle">${escapeXml(id)}</text></g>`;
}

/** The SVG of `area` in `world` (its start state). */
export function areaSvg(episode: DemoEpisode, area: string, world: World): string {
  const { svg: back, surface } = backdrop(episode.areas[area].furniture);
  const here = Object.entries(world.objects)
    .filter(([, object]) => object.area === area)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const ids = new Set(here.map(([id]) => id));
  // objects on something else here are drawn on top of it
  const bases = here.filter(([, object]) => !(typeof object.on === "string" && ids.has(object.on)));
  const parts: string[] = [];
  const tags: string[] = [];
  const slotWidth = 720 / Math.max(1, bases.length);
  bases.forEach(([id, object], i) => {
    const x = 120 + slotWidth * (i + 0.5);
    const base = icon(String(object.label), x, surface);
    parts.push(base.svg);
    tags.push(tag(id, x, surface + 12));
    let top = surface - base.height;
    for (const [upperId, upper] of here.filter(([, other]) => other.on === id)) {
      const drawn = icon(String(upper.label), x, top);
      parts.push(drawn.svg);
      tags.push(tag(upperId, x, top - drawn.height - 36));
      top -= drawn.height;
    }
  });
  const caption = `<g><rect x="20" y="20" width="${40 + episode.areas[area].caption.length * 16}" height="44" rx="10" fill="${INK}" fill-opacity="0.85"/><text x="40" y="51" font-family="${FONT}" font-size="26" font-weight="bold" fill="#ffffff">${escapeXml(episode.areas[area].caption)}</text></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${AREA_IMAGE_WIDTH}" height="${AREA_IMAGE_HEIGHT}" viewBox="0 0 ${AREA_IMAGE_WIDTH} ${AREA_IMAGE_HEIGHT}">${back}${parts.join("")}${tags.join("")}${caption}</svg>`;
}
