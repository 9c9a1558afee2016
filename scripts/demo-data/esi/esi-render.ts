import {
  EYE_HEIGHT,
  HEADING_WORDS,
  NEAR,
  SCREEN,
  furnitureRect,
  objectRect,
  presentObjects,
  toCamera,
  type Furniture,
  type Pose,
  type Room,
  type ScreenRect,
  type SmallObject,
  type WallFeature,
} from "@/scripts/demo-data/esi/esi-world";

/**
 * A first-person drawing of a demo room from one pose (SVG; the generator rasterises it with
 * sharp): floor with a metre grid, walls in four colours with their windows and doors, furniture
 * as shaded boxes, small objects as labelled cut-outs, a "facing north" badge and, when the agent
 * holds something, an "in hand" panel. Pinhole camera, 90 degree field of view. Pure.
 */

const FONT = "DejaVu Sans, Arial, sans-serif";
type Vec3 = readonly [number, number, number];

interface CameraPoint {
  f: number;
  l: number;
  z: number;
}

function cameraPoint(room: Room, pose: Pose, [x, y, z]: Vec3): CameraPoint {
  return { ...toCamera(room, pose, x, y), z };
}

/** Sutherland-Hodgman against the near plane f >= NEAR. */
function clipNear(points: CameraPoint[]): CameraPoint[] {
  const out: CameraPoint[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i];
    const b = points[(i + 1) % points.length];
    const aIn = a.f >= NEAR;
    const bIn = b.f >= NEAR;
    if (aIn) out.push(a);
    if (aIn !== bIn) {
      const t = (NEAR - a.f) / (b.f - a.f);
      out.push({ f: NEAR, l: a.l + t * (b.l - a.l), z: a.z + t * (b.z - a.z) });
    }
  }
  return out;
}

function project(point: CameraPoint): [number, number] {
  return [SCREEN.width / 2 + (point.l * SCREEN.focal) / point.f, SCREEN.horizon - ((point.z - EYE_HEIGHT) * SCREEN.focal) / point.f];
}

const n1 = (value: number) => Math.round(value * 10) / 10;

function polygon(room: Room, pose: Pose, corners: Vec3[], attrs: string): string {
  const clipped = clipNear(corners.map((corner) => cameraPoint(room, pose, corner)));
  if (clipped.length < 3) return "";
  return `<polygon points="${clipped.map((p) => project(p).map(n1).join(",")).join(" ")}" ${attrs}/>`;
}

function line(room: Room, pose: Pose, a: Vec3, b: Vec3, attrs: string): string {
  const pa = cameraPoint(room, pose, a);
  const pb = cameraPoint(room, pose, b);
  if (pa.f < NEAR && pb.f < NEAR) return "";
  const clip = (p: CameraPoint, q: CameraPoint): CameraPoint => {
    if (p.f >= NEAR) return p;
    const t = (NEAR - p.f) / (q.f - p.f);
    return { f: NEAR, l: p.l + t * (q.l - p.l), z: p.z + t * (q.z - p.z) };
  };
  const [x1, y1] = project(clip(pa, pb));
  const [x2, y2] = project(clip(pb, pa));
  return `<line x1="${n1(x1)}" y1="${n1(y1)}" x2="${n1(x2)}" y2="${n1(y2)}" ${attrs}/>`;
}

function shade(hex: string, factor: number): string {
  const value = hex.replace("#", "");
  const channels = [0, 2, 4].map((i) => parseInt(value.slice(i, i + 2), 16));
  const mixed = channels.map((c) => Math.max(0, Math.min(255, Math.round(factor >= 1 ? c + (255 - c) * (factor - 1) : c * factor))));
  return `#${mixed.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function label(x: number, y: number, text: string, size = 12, weight = "600", color = "#0f172a"): string {
  return `<text x="${n1(x)}" y="${n1(y)}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" text-anchor="middle" fill="${color}" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">${escapeXml(text)}</text>`;
}

function wallCorners(room: Room, wall: WallFeature["wall"], from: number, to: number, bottom: number, top: number): Vec3[] {
  const { width: W, depth: D } = room;
  switch (wall) {
    case "N":
      return [
        [from, 0, bottom],
        [to, 0, bottom],
        [to, 0, top],
        [from, 0, top],
      ];
    case "S":
      return [
        [from, D, bottom],
        [to, D, bottom],
        [to, D, top],
        [from, D, top],
      ];
    case "E":
      return [
        [W, from, bottom],
        [W, to, bottom],
        [W, to, top],
        [W, from, top],
      ];
    case "W":
      return [
        [0, from, bottom],
        [0, to, bottom],
        [0, to, top],
        [0, from, top],
      ];
  }
}

function featureSvg(room: Room, pose: Pose, feature: WallFeature): string {
  // a hair in front of the wall, so it is not lost in the wall's own polygon
  const inset = 0.01;
  const corners = wallCorners(room, feature.wall, feature.from, feature.to, feature.bottom, feature.top).map(([x, y, z]): Vec3 => [
    feature.wall === "E" ? x - inset : feature.wall === "W" ? x + inset : x,
    feature.wall === "S" ? y - inset : feature.wall === "N" ? y + inset : y,
    z,
  ]);
  if (feature.kind === "window") {
    const glass = polygon(room, pose, corners, `fill="#bfe3f7" stroke="#f8fafc" stroke-width="3"`);
    const [a, b, c, d] = corners;
    const mid = (p: Vec3, q: Vec3): Vec3 => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2];
    return (
      glass +
      line(room, pose, mid(a, b), mid(d, c), `stroke="#f8fafc" stroke-width="2"`) +
      line(room, pose, mid(a, d), mid(b, c), `stroke="#f8fafc" stroke-width="2"`)
    );
  }
  if (feature.kind === "door") return polygon(room, pose, corners, `fill="${feature.color ?? "#8b5e3c"}" stroke="#5b3a22" stroke-width="2"`);
  return polygon(room, pose, corners, `fill="${feature.color ?? "#f59e0b"}" stroke="#78350f" stroke-width="2"`);
}

interface Drawable {
  depth: number;
  svg: string;
}

function boxFaces(
  room: Room,
  pose: Pose,
  box: { x: readonly [number, number]; y: readonly [number, number]; z: readonly [number, number] },
  color: string,
): string {
  const [px, py] = room.positions[pose.position];
  const [x0, x1] = box.x;
  const [y0, y1] = box.y;
  const [z0, z1] = box.z;
  const faces: string[] = [];
  const side = (corners: Vec3[], factor: number) =>
    faces.push(polygon(room, pose, corners, `fill="${shade(color, factor)}" stroke="${shade(color, 0.55)}" stroke-width="1.2" stroke-linejoin="round"`));
  if (px < x0)
    side(
      [
        [x0, y0, z0],
        [x0, y1, z0],
        [x0, y1, z1],
        [x0, y0, z1],
      ],
      0.8,
    );
  if (px > x1)
    side(
      [
        [x1, y0, z0],
        [x1, y1, z0],
        [x1, y1, z1],
        [x1, y0, z1],
      ],
      0.8,
    );
  if (py < y0)
    side(
      [
        [x0, y0, z0],
        [x1, y0, z0],
        [x1, y0, z1],
        [x0, y0, z1],
      ],
      0.92,
    );
  if (py > y1)
    side(
      [
        [x0, y1, z0],
        [x1, y1, z0],
        [x1, y1, z1],
        [x0, y1, z1],
      ],
      0.92,
    );
  if (EYE_HEIGHT > z1)
    side(
      [
        [x0, y0, z1],
        [x1, y0, z1],
        [x1, y1, z1],
        [x0, y1, z1],
      ],
      1.12,
    );
  return faces.join("");
}

function furnitureDrawables(room: Room, pose: Pose, box: Furniture): Drawable[] {
  const center = toCamera(room, pose, (box.x[0] + box.x[1]) / 2, (box.y[0] + box.y[1]) / 2);
  const out: Drawable[] = [];
  if (box.table) {
    const leg = 0.06;
    const top = box.z[1] - 0.06;
    for (const lx of [box.x[0], box.x[1] - leg]) {
      for (const ly of [box.y[0], box.y[1] - leg]) {
        const legCenter = toCamera(room, pose, lx + leg / 2, ly + leg / 2);
        out.push({ depth: legCenter.f, svg: boxFaces(room, pose, { x: [lx, lx + leg], y: [ly, ly + leg], z: [box.z[0], top] }, shade(box.color, 0.8)) });
      }
    }
    out.push({ depth: center.f - 0.001, svg: boxFaces(room, pose, { x: box.x, y: box.y, z: [top, box.z[1]] }, box.color) });
  } else {
    out.push({ depth: center.f, svg: boxFaces(room, pose, box, box.color) });
  }
  const rect = furnitureRect(room, pose, box);
  if (rect && rect.right > 0 && rect.left < SCREEN.width) {
    const x = Math.min(SCREEN.width - 40, Math.max(40, (Math.max(rect.left, 0) + Math.min(rect.right, SCREEN.width)) / 2));
    out.push({ depth: center.f - 0.002, svg: label(x, Math.max(14, rect.top - 5), box.label, 11, "500", "#334155") });
  }
  return out;
}

/** One small object drawn into its screen rectangle. */
export function objectShapeSvg(object: Pick<SmallObject, "shape" | "color">, rect: Pick<ScreenRect, "left" | "right" | "top" | "bottom">): string {
  const w = rect.right - rect.left;
  const h = rect.bottom - rect.top;
  const cx = (rect.left + rect.right) / 2;
  const { bottom, top, left } = rect;
  const c = object.color;
  const dark = shade(c, 0.6);
  const stroke = `stroke="${dark}" stroke-width="1.2" stroke-linejoin="round"`;
  switch (object.shape) {
    case "apple": {
      const r = Math.min(w, h) / 2;
      return `<circle cx="${n1(cx)}" cy="${n1(bottom - r)}" r="${n1(r)}" fill="${c}" ${stroke}/><line x1="${n1(cx)}" y1="${n1(bottom - 2 * r)}" x2="${n1(cx + r * 0.2)}" y2="${n1(bottom - 2.35 * r)}" stroke="#5b3a22" stroke-width="${n1(Math.max(1, r * 0.18))}"/><ellipse cx="${n1(cx + r * 0.45)}" cy="${n1(bottom - 2.2 * r)}" rx="${n1(r * 0.35)}" ry="${n1(r * 0.15)}" fill="#16a34a"/>`;
    }
    case "ball": {
      const r = Math.min(w, h) / 2;
      return `<circle cx="${n1(cx)}" cy="${n1(bottom - r)}" r="${n1(r)}" fill="${c}" ${stroke}/><path d="M ${n1(cx - r)} ${n1(bottom - r)} Q ${n1(cx)} ${n1(bottom - r * 0.4)} ${n1(cx + r)} ${n1(bottom - r)}" fill="none" stroke="#ffffff" stroke-width="${n1(Math.max(1, r * 0.2))}"/>`;
    }
    case "bowl":
      return `<path d="M ${n1(left)} ${n1(top + h * 0.15)} L ${n1(rect.right)} ${n1(top + h * 0.15)} Q ${n1(rect.right - w * 0.05)} ${n1(bottom)} ${n1(cx)} ${n1(bottom)} Q ${n1(left + w * 0.05)} ${n1(bottom)} ${n1(left)} ${n1(top + h * 0.15)} Z" fill="${c}" ${stroke}/><ellipse cx="${n1(cx)}" cy="${n1(top + h * 0.15)}" rx="${n1(w / 2)}" ry="${n1(h * 0.15)}" fill="${shade(c, 1.25)}" ${stroke}/>`;
    case "cup":
      return `<path d="M ${n1(left + w * 0.08)} ${n1(top)} L ${n1(rect.right - w * 0.22)} ${n1(top)} L ${n1(rect.right - w * 0.3)} ${n1(bottom)} L ${n1(left + w * 0.16)} ${n1(bottom)} Z" fill="${c}" ${stroke}/><path d="M ${n1(rect.right - w * 0.26)} ${n1(top + h * 0.25)} q ${n1(w * 0.3)} ${n1(h * 0.05)} ${n1(w * 0.02)} ${n1(h * 0.5)}" fill="none" stroke="${dark}" stroke-width="${n1(Math.max(1.5, w * 0.07))}"/>`;
    case "key": {
      const r = h * 0.45;
      return `<circle cx="${n1(left + r)}" cy="${n1(bottom - r)}" r="${n1(r)}" fill="none" stroke="${c}" stroke-width="${n1(Math.max(1.5, r * 0.5))}"/><rect x="${n1(left + 2 * r)}" y="${n1(bottom - r - h * 0.1)}" width="${n1(w - 2 * r)}" height="${n1(h * 0.2)}" fill="${c}"/><rect x="${n1(rect.right - w * 0.18)}" y="${n1(bottom - r)}" width="${n1(w * 0.08)}" height="${n1(h * 0.35)}" fill="${c}"/>`;
    }
    case "plant":
      return `<path d="M ${n1(cx - w * 0.28)} ${n1(bottom - h * 0.32)} L ${n1(cx + w * 0.28)} ${n1(bottom - h * 0.32)} L ${n1(cx + w * 0.2)} ${n1(bottom)} L ${n1(cx - w * 0.2)} ${n1(bottom)} Z" fill="#b45309" stroke="#78350f" stroke-width="1.2"/><ellipse cx="${n1(cx)}" cy="${n1(top + h * 0.38)}" rx="${n1(w / 2)}" ry="${n1(h * 0.36)}" fill="${c}" ${stroke}/><ellipse cx="${n1(cx - w * 0.18)}" cy="${n1(top + h * 0.3)}" rx="${n1(w * 0.16)}" ry="${n1(h * 0.2)}" fill="${shade(c, 1.2)}"/>`;
    case "lamp":
      return `<rect x="${n1(cx - w * 0.3)}" y="${n1(bottom - h * 0.05)}" width="${n1(w * 0.6)}" height="${n1(h * 0.05)}" fill="#334155"/><rect x="${n1(cx - w * 0.04)}" y="${n1(top + h * 0.3)}" width="${n1(w * 0.08)}" height="${n1(h * 0.67)}" fill="#475569"/><path d="M ${n1(cx - w * 0.25)} ${n1(top)} L ${n1(cx + w * 0.25)} ${n1(top)} L ${n1(cx + w * 0.5)} ${n1(top + h * 0.32)} L ${n1(cx - w * 0.5)} ${n1(top + h * 0.32)} Z" fill="${c}" ${stroke}/>`;
    case "vase":
      return `<path d="M ${n1(cx - w * 0.18)} ${n1(top)} L ${n1(cx + w * 0.18)} ${n1(top)} C ${n1(cx + w * 0.1)} ${n1(top + h * 0.3)} ${n1(cx + w * 0.6)} ${n1(top + h * 0.45)} ${n1(cx + w * 0.3)} ${n1(bottom)} L ${n1(cx - w * 0.3)} ${n1(bottom)} C ${n1(cx - w * 0.6)} ${n1(top + h * 0.45)} ${n1(cx - w * 0.1)} ${n1(top + h * 0.3)} ${n1(cx - w * 0.18)} ${n1(top)} Z" fill="${c}" ${stroke}/>`;
    case "book":
      return `<rect x="${n1(left)}" y="${n1(top)}" width="${n1(w)}" height="${n1(h)}" rx="1" fill="${c}" ${stroke}/><line x1="${n1(left + w * 0.12)}" y1="${n1(top)}" x2="${n1(left + w * 0.12)}" y2="${n1(bottom)}" stroke="${shade(c, 1.4)}" stroke-width="1.5"/>`;
    case "bottle":
      return `<rect x="${n1(cx - w * 0.5)}" y="${n1(top + h * 0.35)}" width="${n1(w)}" height="${n1(h * 0.65)}" rx="${n1(w * 0.2)}" fill="${c}" ${stroke}/><rect x="${n1(cx - w * 0.18)}" y="${n1(top)}" width="${n1(w * 0.36)}" height="${n1(h * 0.38)}" fill="${c}" ${stroke}/>`;
    case "box":
    default:
      return `<rect x="${n1(left)}" y="${n1(top)}" width="${n1(w)}" height="${n1(h)}" fill="${c}" ${stroke}/><line x1="${n1(left)}" y1="${n1(top + h * 0.22)}" x2="${n1(rect.right)}" y2="${n1(top + h * 0.22)}" stroke="${dark}" stroke-width="1.2"/>`;
  }
}

function objectDrawable(room: Room, pose: Pose, object: SmallObject, supportDepth: Map<string, number>): Drawable | null {
  const rect = objectRect(room, pose, object);
  if (!rect) return null;
  const w = rect.right - rect.left;
  const name = w >= 5 ? label((rect.left + rect.right) / 2, rect.bottom + 13, object.label, 12) : "";
  const support = object.on ? supportDepth.get(object.on) : undefined;
  // drawn after (in front of) what it stands on
  const depth = support === undefined ? rect.f : Math.min(rect.f, support - 0.01);
  return { depth, svg: `<g>${objectShapeSvg(object, rect)}${name}</g>` };
}

function hud(room: Room, pose: Pose): string {
  const facing = `facing ${HEADING_WORDS[pose.heading]}`;
  let svg = `<rect x="10" y="10" rx="11" ry="11" width="${facing.length * 7.6 + 22}" height="24" fill="#0f172a" fill-opacity="0.72"/><text x="21" y="27" font-family="${FONT}" font-size="13" font-weight="600" fill="#ffffff">${facing}</text>`;
  if (pose.holding) {
    const held = room.objects.find((object) => object.id === pose.holding);
    if (held) {
      const boxW = 150;
      const x = SCREEN.width - boxW - 12;
      const y = SCREEN.height - 74;
      const size = 44;
      const aspect = held.width / held.height;
      const iconW = aspect >= 1 ? size : size * aspect;
      const iconH = aspect >= 1 ? size / aspect : size;
      svg += `<rect x="${x}" y="${y}" width="${boxW}" height="62" rx="10" fill="#ffffff" fill-opacity="0.92" stroke="#334155" stroke-width="1.5"/>`;
      svg += `<text x="${x + 10}" y="${y + 18}" font-family="${FONT}" font-size="11" font-weight="600" fill="#475569">IN HAND</text>`;
      svg += `<text x="${x + 10}" y="${y + 40}" font-family="${FONT}" font-size="14" font-weight="700" fill="#0f172a">${escapeXml(held.label)}</text>`;
      svg += objectShapeSvg(held, { left: x + boxW - 12 - iconW, right: x + boxW - 12, top: y + 9 + (size - iconH) / 2, bottom: y + 9 + (size + iconH) / 2 });
    }
  }
  return svg;
}

/** The SVG of a room seen from a pose. */
export function renderViewSvg(room: Room, pose: Pose): string {
  const { width: W, depth: D, height: H } = room;
  const parts: string[] = [];
  parts.push(`<rect width="${SCREEN.width}" height="${SCREEN.height}" fill="#f1f5f9"/>`);
  parts.push(
    polygon(
      room,
      pose,
      [
        [0, 0, 0],
        [W, 0, 0],
        [W, D, 0],
        [0, D, 0],
      ],
      `fill="${room.floorColor}"`,
    ),
  );
  const walls: Array<[WallFeature["wall"], number]> = [
    ["N", W],
    ["S", W],
    ["E", D],
    ["W", D],
  ];
  for (const [wall, length] of walls) {
    parts.push(
      polygon(
        room,
        pose,
        wallCorners(room, wall, 0, length, 0, H),
        `fill="${room.wallColors[wall]}" stroke="#94a3b8" stroke-width="1.5" stroke-linejoin="round"`,
      ),
    );
    // a skirting board reads as the floor line
    parts.push(polygon(room, pose, wallCorners(room, wall, 0, length, 0, 0.1), `fill="${shade(room.wallColors[wall], 0.8)}"`));
  }
  const floorLine = `stroke="${shade(room.floorColor, 0.82)}" stroke-width="1"`;
  for (let x = 1; x < W; x++) parts.push(line(room, pose, [x, 0, 0], [x, D, 0], floorLine));
  for (let y = 1; y < D; y++) parts.push(line(room, pose, [0, y, 0], [W, y, 0], floorLine));
  for (const feature of room.features) parts.push(featureSvg(room, pose, feature));

  const drawables: Drawable[] = [];
  const supportDepth = new Map<string, number>();
  for (const box of room.furniture) {
    const items = furnitureDrawables(room, pose, box);
    supportDepth.set(box.id, Math.min(...items.map((d) => d.depth)));
    drawables.push(...items);
  }
  for (const object of presentObjects(room, pose)) {
    const drawable = objectDrawable(room, pose, object, supportDepth);
    if (drawable) drawables.push(drawable);
  }
  drawables.sort((a, b) => b.depth - a.depth);
  parts.push(...drawables.map((d) => d.svg));
  parts.push(hud(room, pose));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SCREEN.width}" height="${SCREEN.height}" viewBox="0 0 ${SCREEN.width} ${SCREEN.height}">${parts.join("")}</svg>`;
}
