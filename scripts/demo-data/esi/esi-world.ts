/**
 * Small indoor scenes for the ESI-Bench demo (docs/esi.md, "Demo data"): a rectangular room with
 * furniture (axis-aligned boxes) and small objects (drawn as upright cut-outs), seen from a grid
 * of camera positions in four headings. Picking a small object up changes the world (whatever was
 * under it shows); putting it back restores it. Pure geometry: the exploration graph is built
 * from it (esi-scenes.ts) and each state is drawn in first person (esi-render.ts).
 *
 * Map coordinates: x grows to the east, y to the south; z is height in metres.
 */

export type Heading = "N" | "E" | "S" | "W";
export const HEADINGS: readonly Heading[] = ["N", "E", "S", "W"];
export const HEADING_WORDS: Record<Heading, string> = { N: "north", E: "east", S: "south", W: "west" };
export const HEADING_VECTORS: Record<Heading, readonly [number, number]> = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

export function turnRight(heading: Heading): Heading {
  return HEADINGS[(HEADINGS.indexOf(heading) + 1) % 4];
}
export function turnLeft(heading: Heading): Heading {
  return HEADINGS[(HEADINGS.indexOf(heading) + 3) % 4];
}
/** The map vector to the camera's right. */
export function rightOf(heading: Heading): readonly [number, number] {
  const [hx, hy] = HEADING_VECTORS[heading];
  return [-hy, hx];
}

export type WallSide = "N" | "E" | "S" | "W";

/** A window or door on a wall, from `from` to `to` metres along it (west to east, north to south). */
export interface WallFeature {
  wall: WallSide;
  kind: "window" | "door" | "picture";
  from: number;
  to: number;
  bottom: number;
  top: number;
  color?: string;
}

/** Furniture: an axis-aligned box that blocks movement and hides what is behind it. */
export interface Furniture {
  id: string;
  label: string;
  x: [number, number];
  y: [number, number];
  z: [number, number];
  color: string;
  /** drawn as a table (a top on four legs) rather than a solid box */
  table?: boolean;
}

export type ItemShape = "apple" | "bowl" | "cup" | "key" | "plant" | "lamp" | "vase" | "book" | "box" | "ball" | "bottle";

/** A small object, drawn as an upright cut-out facing the camera. */
export interface SmallObject {
  id: string;
  label: string;
  shape: ItemShape;
  x: number;
  y: number;
  /** height of its base (the top of what it stands on) */
  z: number;
  width: number;
  height: number;
  color: string;
  /** can be picked up (its world without it is reachable) */
  liftable?: boolean;
  /** hidden while this object is in place (a key under a cup, an apple under a bowl) */
  under?: string;
  /** the furniture it stands on (put_on target) */
  on?: string;
}

export interface Room {
  id: string;
  title: string;
  width: number;
  depth: number;
  height: number;
  wallColors: Record<WallSide, string>;
  floorColor: string;
  features: WallFeature[];
  furniture: Furniture[];
  objects: SmallObject[];
  /** camera positions (x, y) */
  positions: Array<readonly [number, number]>;
}

export const EYE_HEIGHT = 1.45;
export const NEAR = 0.12;

/** A camera pose on the grid and what the world looks like: which object, if any, is held. */
export interface Pose {
  position: number;
  heading: Heading;
  holding: string | null;
}

export function poseId(pose: Pose): string {
  return `${pose.holding ? `h-${pose.holding}` : "w0"}-p${pose.position}-${pose.heading}`;
}

/** Camera-space coordinates of a map point: forward distance and lateral offset (right positive). */
export function toCamera(room: Room, pose: Pose, x: number, y: number): { f: number; l: number } {
  const [px, py] = room.positions[pose.position];
  const [hx, hy] = HEADING_VECTORS[pose.heading];
  const [rx, ry] = rightOf(pose.heading);
  const dx = x - px;
  const dy = y - py;
  return { f: dx * hx + dy * hy, l: dx * rx + dy * ry };
}

/** Objects present in the world of a pose: not held, and not hidden under an object that is in place. */
export function presentObjects(room: Room, pose: Pose): SmallObject[] {
  return room.objects.filter((object) => object.id !== pose.holding && (object.under === undefined || object.under === pose.holding));
}

/** 2D segment a-b crosses the rectangle (expanded by `margin`)? Liang-Barsky clipping. */
export function segmentHitsBox(a: readonly [number, number], b: readonly [number, number], box: Pick<Furniture, "x" | "y">, margin = 0.15): boolean {
  const [x0, y0] = a;
  const dx = b[0] - x0;
  const dy = b[1] - y0;
  let t0 = 0;
  let t1 = 1;
  const clip = (p: number, q: number) => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
    return true;
  };
  return (
    clip(-dx, x0 - (box.x[0] - margin)) &&
    clip(dx, box.x[1] + margin - x0) &&
    clip(-dy, y0 - (box.y[0] - margin)) &&
    clip(dy, box.y[1] + margin - y0) &&
    t0 <= t1
  );
}

/** The grid position reached by moving along a map vector, or null (no position there, or furniture in the way). */
export function moveTo(room: Room, from: number, vector: readonly [number, number]): number | null {
  const [px, py] = room.positions[from];
  let best: number | null = null;
  let bestDistance = Infinity;
  room.positions.forEach(([x, y], index) => {
    if (index === from) return;
    const dx = x - px;
    const dy = y - py;
    const along = dx * vector[0] + dy * vector[1];
    const across = Math.abs(dx * vector[1] - dy * vector[0]);
    // the nearest position straight ahead in that direction
    if (along <= 0.1 || across > 0.1 || along >= bestDistance) return;
    best = index;
    bestDistance = along;
  });
  if (best === null) return null;
  const target = room.positions[best];
  return room.furniture.some((box) => segmentHitsBox([px, py], target, box)) ? null : best;
}

/** Screen geometry shared by the renderer and the visibility test. */
export const SCREEN = { width: 640, height: 400, focal: 320, horizon: 176 } as const;

export interface ScreenRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  f: number;
}

/** Where a small object appears on screen, or null when it is behind the camera or outside the view. */
export function objectRect(room: Room, pose: Pose, object: Pick<SmallObject, "x" | "y" | "z" | "width" | "height">): ScreenRect | null {
  const { f, l } = toCamera(room, pose, object.x, object.y);
  if (f < 0.3) return null;
  const scale = SCREEN.focal / f;
  const cx = SCREEN.width / 2 + l * scale;
  const half = (object.width / 2) * scale;
  if (cx + half < 0 || cx - half > SCREEN.width) return null;
  const bottom = SCREEN.horizon - (object.z - EYE_HEIGHT) * scale;
  const top = SCREEN.horizon - (object.z + object.height - EYE_HEIGHT) * scale;
  if (bottom < 0 || top > SCREEN.height) return null;
  return { left: cx - half, right: cx + half, top, bottom, f };
}

/** The screen rectangle of a furniture box's bounding projection (for occlusion), or null. */
export function furnitureRect(room: Room, pose: Pose, box: Furniture): ScreenRect | null {
  const corners: Array<{ f: number; l: number; z: number }> = [];
  for (const x of box.x) for (const y of box.y) for (const z of box.z) corners.push({ ...toCamera(room, pose, x, y), z });
  const front = corners.filter((c) => c.f > NEAR);
  if (front.length < corners.length) return null; // partly behind the camera: do not let it hide things
  const xs = front.map((c) => SCREEN.width / 2 + (c.l * SCREEN.focal) / c.f);
  const ys = front.map((c) => SCREEN.horizon - ((c.z - EYE_HEIGHT) * SCREEN.focal) / c.f);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys), f: Math.min(...front.map((c) => c.f)) };
}

function coveredShare(target: ScreenRect, cover: ScreenRect): number {
  const w = Math.max(0, Math.min(target.right, cover.right) - Math.max(target.left, cover.left));
  const h = Math.max(0, Math.min(target.bottom, cover.bottom) - Math.max(target.top, cover.top));
  const area = (target.right - target.left) * (target.bottom - target.top);
  return area <= 0 ? 1 : (w * h) / area;
}

/**
 * The objects visible from a pose: present, in the view (mostly on screen), and not hidden behind
 * nearer furniture that does not hold them (at least 60% of them covered). Furniture is listed
 * when a good part of it is on screen.
 */
export function visibleObjects(room: Room, pose: Pose): string[] {
  const furnitureRects = room.furniture.map((box) => ({ box, rect: furnitureRect(room, pose, box) }));
  const visible: string[] = [];
  for (const { box, rect } of furnitureRects) {
    if (!rect) continue;
    const onScreen = Math.max(0, Math.min(rect.right, SCREEN.width) - Math.max(rect.left, 0)) / Math.max(1, rect.right - rect.left);
    if (onScreen >= 0.35) visible.push(box.id);
  }
  for (const object of presentObjects(room, pose)) {
    const rect = objectRect(room, pose, object);
    if (!rect) continue;
    const onScreen = Math.max(0, Math.min(rect.right, SCREEN.width) - Math.max(rect.left, 0)) / Math.max(1, rect.right - rect.left);
    if (onScreen < 0.6) continue;
    const hidden = furnitureRects.some(
      ({ box, rect: cover }) => cover !== null && box.id !== object.on && cover.f < rect.f && coveredShare(rect, cover) >= 0.6,
    );
    if (!hidden) visible.push(object.id);
  }
  return visible;
}

/** Whether a map point (at height z) is in view and not behind nearer furniture. */
export function pointInView(room: Room, pose: Pose, x: number, y: number, z: number): boolean {
  const rect = objectRect(room, pose, { x, y, z, width: 0.1, height: 0.1 });
  if (!rect || rect.left < 0 || rect.right > SCREEN.width) return false;
  return !room.furniture.some((box) => {
    const cover = furnitureRect(room, pose, box);
    const holds = x >= box.x[0] && x <= box.x[1] && y >= box.y[0] && y <= box.y[1];
    return cover !== null && !holds && cover.f < rect.f && coveredShare(rect, cover) >= 0.6;
  });
}
