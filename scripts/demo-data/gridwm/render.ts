/**
 * Frames in MiniGrid's visual style (`minigrid/core/grid.py` render_tile, `world_object.py`
 * render, `utils/rendering.py`): black tiles with grey (100, 100, 100) grid lines on their top and
 * left edges, grey walls, coloured keys, balls, boxes and doors drawn at MiniGrid's proportions,
 * a green goal, orange lava with black waves, the agent as a red triangle, and the cells the agent
 * sees lightened 30% towards white (`highlight_img`). Drawn as SVG, rasterised with sharp.
 *
 * Also the storyboard's image variants of build_exam.py's `_apply_visual_variant`: `noisy` adds
 * Gaussian pixel noise of sigma 8, `style` applies PIL's ImageEnhance Color, Contrast, Brightness
 * and Sharpness with mild random factors; both seeded.
 */
import sharp from "sharp";
import { mulberry32 } from "@/lib/stats/rng";
import type { GridwmColor } from "@/lib/tasks/shared/gridwm/common";
import { VIEW_AGENT, VIEW_SIZE, getCell, inBounds, viewToWorld, type Cell, type View, type World } from "@/scripts/demo-data/gridwm/world";

/** MiniGrid's COLORS. */
export const MINIGRID_COLORS: Record<GridwmColor, [number, number, number]> = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  purple: [112, 39, 195],
  yellow: [255, 255, 0],
  grey: [100, 100, 100],
};

const rgb = ([r, g, b]: readonly number[]) => `rgb(${r},${g},${b})`;
const colorOf = (color: GridwmColor) => rgb(MINIGRID_COLORS[color]);
const scaled = (color: GridwmColor, factor: number) => rgb(MINIGRID_COLORS[color].map((v) => Math.floor(v * factor)));

/** point_in_rect(xmin, xmax, ymin, ymax) in tile units. */
function rect(xmin: number, xmax: number, ymin: number, ymax: number, fill: string): string {
  return `<rect x="${xmin}" y="${ymin}" width="${+(xmax - xmin).toFixed(4)}" height="${+(ymax - ymin).toFixed(4)}" fill="${fill}"/>`;
}

function circle(cx: number, cy: number, r: number, fill: string): string {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`;
}

/** One object in a unit tile, as its MiniGrid render(). */
export function objectSvg(cell: Cell): string {
  if (cell === null) return "";
  switch (cell.type) {
    case "wall":
      return rect(0, 1, 0, 1, colorOf(cell.color));
    case "floor":
      return rect(0.031, 1, 0.031, 1, scaled(cell.color, 0.5));
    case "goal":
      return rect(0, 1, 0, 1, colorOf(cell.color));
    case "lava": {
      const waves: string[] = [];
      for (let i = 0; i < 3; i++) {
        const ylo = 0.3 + 0.2 * i;
        const yhi = 0.4 + 0.2 * i;
        waves.push(`<polyline points="0.1,${ylo} 0.3,${yhi} 0.5,${ylo} 0.7,${yhi} 0.9,${ylo}" fill="none" stroke="black" stroke-width="0.06"/>`);
      }
      return rect(0, 1, 0, 1, "rgb(255,128,0)") + waves.join("");
    }
    case "key":
      return (
        rect(0.5, 0.63, 0.31, 0.88, colorOf(cell.color)) +
        rect(0.38, 0.5, 0.59, 0.66, colorOf(cell.color)) +
        rect(0.38, 0.5, 0.81, 0.88, colorOf(cell.color)) +
        circle(0.56, 0.28, 0.19, colorOf(cell.color)) +
        circle(0.56, 0.28, 0.064, "black")
      );
    case "ball":
      return circle(0.5, 0.5, 0.31, colorOf(cell.color));
    case "box":
      return rect(0.12, 0.88, 0.12, 0.88, colorOf(cell.color)) + rect(0.18, 0.82, 0.18, 0.82, "black") + rect(0.16, 0.84, 0.47, 0.53, colorOf(cell.color));
    case "door":
      if (cell.isOpen) return rect(0.88, 1, 0, 1, colorOf(cell.color)) + rect(0.92, 0.96, 0.04, 0.96, "black");
      if (cell.isLocked)
        return (
          rect(0, 1, 0, 1, colorOf(cell.color)) + rect(0.06, 0.94, 0.06, 0.94, scaled(cell.color, 0.45)) + rect(0.52, 0.75, 0.5, 0.56, colorOf(cell.color))
        );
      return (
        rect(0, 1, 0, 1, colorOf(cell.color)) +
        rect(0.04, 0.96, 0.04, 0.96, "black") +
        rect(0.08, 0.92, 0.08, 0.92, colorOf(cell.color)) +
        rect(0.12, 0.88, 0.12, 0.88, "black") +
        circle(0.75, 0.5, 0.08, colorOf(cell.color))
      );
  }
}

/** The agent facing up (MiniGrid's triangle (0.12, 0.19), (0.87, 0.50), (0.12, 0.81), turned to direction 3). */
const AGENT_UP = `<polygon points="0.19,0.88 0.5,0.13 0.81,0.88" fill="rgb(255,0,0)"/>`;

export interface FrameOptions {
  /** view cells ("x,y") blacked out entirely, as the release's NoCue masking (pixels set to 0) */
  masked?: ReadonlySet<string>;
}

/** The SVG elements of one view frame, in tile units (VIEW_SIZE x VIEW_SIZE). */
export function viewFrameElements(view: View, options: FrameOptions = {}): string {
  const parts: string[] = [`<rect width="${VIEW_SIZE}" height="${VIEW_SIZE}" fill="black"/>`];
  for (let y = 0; y < VIEW_SIZE; y++) {
    for (let x = 0; x < VIEW_SIZE; x++) {
      if (options.masked?.has(`${x},${y}`)) continue;
      const index = y * VIEW_SIZE + x;
      const isAgent = x === VIEW_AGENT[0] && y === VIEW_AGENT[1];
      const tile = [
        rect(0, 0.031, 0, 1, "rgb(100,100,100)"),
        rect(0, 1, 0, 0.031, "rgb(100,100,100)"),
        objectSvg(view.cells[index]),
        isAgent ? AGENT_UP : "",
        view.visible[index] ? `<rect width="1" height="1" fill="white" fill-opacity="0.3"/>` : "",
      ].join("");
      parts.push(`<g data-cell="${x},${y}" transform="translate(${x} ${y})">${tile}</g>`);
    }
  }
  return parts.join("");
}

/** One frame as an SVG document, `tile` pixels a cell (MiniGrid's default 32: 224 x 224). */
export function viewFrameSvg(view: View, tile = 32, options: FrameOptions = {}): string {
  const size = VIEW_SIZE * tile;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${VIEW_SIZE} ${VIEW_SIZE}" shape-rendering="crispEdges">${viewFrameElements(view, options)}</svg>`;
}

/** Frames in a grid of `columns` (build_exam.py: 4 columns, rows as needed), black between. */
export function storyboardSvg(frames: Array<{ view: View; options?: FrameOptions }>, tile = 16, columns = 4): string {
  const rows = Math.ceil(frames.length / columns);
  const width = columns * VIEW_SIZE * tile;
  const height = rows * VIEW_SIZE * tile;
  const groups = frames.map(
    ({ view, options }, i) =>
      `<g transform="translate(${(i % columns) * VIEW_SIZE} ${Math.floor(i / columns) * VIEW_SIZE})">${viewFrameElements(view, options)}</g>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${columns * VIEW_SIZE} ${rows * VIEW_SIZE}" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="black"/>${groups.join("")}</svg>`;
}

/** MiniGrid's agent triangle facing east (agent_dir 0); turned 90 degrees clockwise per agent_dir. */
const AGENT_EAST = `<polygon points="0.12,0.19 0.87,0.5 0.12,0.81" fill="rgb(255,0,0)"/>`;
/** Margin (tiles) left of and above the grid, for the axis labels. */
export const AXIS_MARGIN = 0.9;
/** Band (tiles) below the grid that says what the agent carries. */
export const CARRY_BAND = 1.1;

/** The world cells the agent's view shows (`"x,y"`), from the view's visibility mask. */
export function visibleWorldCells(world: World, view: View): Set<string> {
  const out = new Set<string>();
  for (let y = 0; y < VIEW_SIZE; y++) {
    for (let x = 0; x < VIEW_SIZE; x++) {
      if (!view.visible[y * VIEW_SIZE + x]) continue;
      const [wx, wy] = viewToWorld(world, x, y);
      if (inBounds(world, wx, wy)) out.add(`${wx},${wy}`);
    }
  }
  return out;
}

const label = (x: number, y: number, text: string, anchor: "middle" | "end" | "start" = "middle") =>
  `<text x="${+x.toFixed(4)}" y="${+y.toFixed(4)}" font-family="DejaVu Sans, sans-serif" font-size="0.42" fill="rgb(40,40,40)" text-anchor="${anchor}" dominant-baseline="central">${text}</text>`;

/**
 * Task B's frame: the whole world top-down, as MiniGrid's full render (`env.get_frame(highlight=True)`:
 * every cell drawn, the cells the agent sees lightened; here the others also darkened, so that
 * lit goals, lava and walls stand out from unlit ones), with its axes labelled (x along the top,
 * y down the left, [0, 0] top left: the coordinates the key uses), the agent drawn in its cell
 * facing its direction, and what it carries written below (MiniGrid's full render does not show
 * it). `tile` pixels a cell.
 */
export function fullGridFrameSvg(world: World, view: View, tile = 32): string {
  const lit = visibleWorldCells(world, view);
  const parts: string[] = [];
  const w = world.width;
  const h = world.height;
  const totalW = AXIS_MARGIN + w;
  const totalH = AXIS_MARGIN + h + CARRY_BAND;
  parts.push(`<rect width="${totalW}" height="${totalH}" fill="white"/>`);
  for (let x = 0; x < w; x++) parts.push(label(AXIS_MARGIN + x + 0.5, AXIS_MARGIN / 2, String(x)));
  for (let y = 0; y < h; y++) parts.push(label(AXIS_MARGIN / 2, AXIS_MARGIN + y + 0.5, String(y)));
  parts.push(`<g transform="translate(${AXIS_MARGIN} ${AXIS_MARGIN})"><rect width="${w}" height="${h}" fill="black"/>`);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const isAgent = x === world.agentPos[0] && y === world.agentPos[1];
      const tileSvg = [
        rect(0, 0.031, 0, 1, "rgb(100,100,100)"),
        rect(0, 1, 0, 0.031, "rgb(100,100,100)"),
        objectSvg(getCell(world, x, y)),
        isAgent ? `<g transform="rotate(${world.agentDir * 90} 0.5 0.5)">${AGENT_EAST}</g>` : "",
        lit.has(`${x},${y}`) ? `<rect width="1" height="1" fill="white" fill-opacity="0.3"/>` : `<rect width="1" height="1" fill="black" fill-opacity="0.35"/>`,
      ].join("");
      parts.push(`<g data-cell="${x},${y}"${isAgent ? ` data-agent="${world.agentDir}"` : ""} transform="translate(${x} ${y})">${tileSvg}</g>`);
    }
  }
  parts.push(`</g>`);
  const bandY = AXIS_MARGIN + h;
  const carried = world.carrying;
  if (carried) {
    parts.push(`<g transform="translate(${AXIS_MARGIN} ${bandY + 0.05})"><rect width="1" height="1" fill="black"/>${objectSvg(carried)}</g>`);
    parts.push(label(AXIS_MARGIN + 1.2, bandY + 0.55, `carrying: ${carried.color} ${carried.type}`, "start"));
  } else {
    parts.push(label(AXIS_MARGIN, bandY + 0.55, "carrying: nothing", "start"));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(totalW * tile)}" height="${Math.round(totalH * tile)}" viewBox="0 0 ${totalW} ${totalH}" shape-rendering="crispEdges" data-grid="${w}x${h}">${parts.join("")}</svg>`;
}

/** A clean frame: few colours, so a small palette PNG. */
export async function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ palette: true, colours: 64, compressionLevel: 9, effort: 1, dither: 0 }).toBuffer();
}

export interface RawImage {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, row-major */
  data: Buffer;
}

export async function svgToRaw(svg: string): Promise<RawImage> {
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

export async function rawToPng(image: RawImage, palette = false): Promise<Buffer> {
  const base = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  return palette
    ? base.png({ palette: true, colours: 64, compressionLevel: 9, effort: 1, dither: 0 }).toBuffer()
    : base.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
}

/** A standard normal draw (Box-Muller) from a uniform source. */
function gaussian(rng: () => number): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** `noisy`: every channel of every pixel plus N(0, sigma^2) noise, clipped to 0..255 and truncated (numpy's astype(uint8)). */
export function addGaussianNoise(image: RawImage, seed: number, sigma = 8): RawImage {
  const rng = mulberry32(seed);
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(Math.min(255, Math.max(0, image.data[i] + sigma * gaussian(rng))));
  return { ...image, data };
}

const clamp = (value: number) => Math.min(255, Math.max(0, Math.round(value)));

/** PIL's ImageEnhance: blend(degenerate, image, factor) = degenerate + factor * (image - degenerate). */
function enhance(image: RawImage, degenerate: Float64Array | number, factor: number): RawImage {
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < data.length; i++) {
    const base = typeof degenerate === "number" ? degenerate : degenerate[i];
    data[i] = clamp(base + factor * (image.data[i] - base));
  }
  return { ...image, data };
}

/** ITU-R 601-2 luma, as PIL's convert("L"). */
function luma(image: RawImage): Float64Array {
  const out = new Float64Array(image.width * image.height);
  for (let p = 0; p < out.length; p++) out[p] = 0.299 * image.data[3 * p] + 0.587 * image.data[3 * p + 1] + 0.114 * image.data[3 * p + 2];
  return out;
}

/** PIL's ImageFilter.SMOOTH kernel (1 1 1 / 1 5 1 / 1 1 1) / 13; border pixels kept, as ImageEnhance.Sharpness. */
function smooth(image: RawImage): Float64Array {
  const { width, height, data } = image;
  const out = new Float64Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        const i = 3 * (y * width + x) + c;
        if (x === 0 || y === 0 || x === width - 1 || y === height - 1) {
          out[i] = data[i];
          continue;
        }
        let sum = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += data[3 * ((y + dy) * width + x + dx) + c] * (dx === 0 && dy === 0 ? 5 : 1);
        out[i] = sum / 13;
      }
    }
  }
  return out;
}

/** `style`: Color 1.05-1.15, Contrast 1.05-1.15, Brightness 0.98-1.06, Sharpness 1.00-1.15, each factor drawn from the seed. */
export function applyStyle(image: RawImage, seed: number): RawImage {
  const rng = mulberry32(seed);
  const color = 1.05 + 0.1 * rng();
  const contrast = 1.05 + 0.1 * rng();
  const brightness = 0.98 + 0.08 * rng();
  const sharpness = 1 + 0.15 * rng();
  const grey = luma(image);
  const greyRgb = new Float64Array(image.data.length);
  for (let p = 0; p < grey.length; p++) greyRgb[3 * p] = greyRgb[3 * p + 1] = greyRgb[3 * p + 2] = grey[p];
  let out = enhance(image, greyRgb, color);
  const meanGrey = Math.floor(luma(out).reduce((sum, v) => sum + v, 0) / (out.width * out.height) + 0.5);
  out = enhance(out, meanGrey, contrast);
  out = enhance(out, 0, brightness);
  out = enhance(out, smooth(out), sharpness);
  return out;
}
