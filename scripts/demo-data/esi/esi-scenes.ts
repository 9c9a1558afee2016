import { actionKey } from "@/lib/tasks/esi-explore/actions";
import { distancesFromInitial, randomWalkStates, type EsiGraph } from "@/lib/tasks/esi-explore/graph";
import { renderViewSvg } from "@/scripts/demo-data/esi/esi-render";
import {
  HEADINGS,
  HEADING_VECTORS,
  moveTo,
  pointInView,
  poseId,
  rightOf,
  toCamera,
  turnLeft,
  turnRight,
  visibleObjects,
  type Heading,
  type Pose,
  type Room,
} from "@/scripts/demo-data/esi/esi-world";

/**
 * The ESI-Bench demo: five small rooms (esi-world.ts) and six questions of the paper's kinds
 * (count, left/right with two sub-questions, yes/no twice, which is on top, and a practice
 * yes/no), each an `esi-explore` item with its exploration graph: every pose of a 2 x 3 (or 1 x 2)
 * grid of camera positions in four headings, for each world (nothing held, or one liftable object
 * held); turns, moves (not through furniture), pick_up of a nearby liftable object (what was
 * under it shows) and put_on to put it back. States that answer the question are marked
 * contrastive; the reference trajectory (passive-gt) is the shortest path to the nearest of them,
 * the multi-view gallery a seeded random walk. Answers are computed from the scene geometry.
 * Pure: the generator (scripts/demo-data/esi) renders the SVGs and writes the batch.
 */

const WALLS_WARM = { N: "#dbeafe", E: "#fef3c7", S: "#fce7f3", W: "#dcfce7" } as const;
const GRID_2x3 = (ys: readonly [number, number], xs: readonly number[] = [1.25, 2.5, 3.75]) => ys.flatMap((y) => xs.map((x) => [x, y] as const));

export const KITCHEN: Room = {
  id: "kitchen",
  title: "Kitchen",
  width: 5,
  depth: 5,
  height: 2.6,
  wallColors: WALLS_WARM,
  floorColor: "#e7d3b5",
  features: [
    { wall: "N", kind: "window", from: 3.2, to: 4.5, bottom: 1.0, top: 2.0 },
    { wall: "S", kind: "door", from: 0.6, to: 1.5, bottom: 0, top: 2.1 },
    { wall: "E", kind: "picture", from: 2.0, to: 2.8, bottom: 1.3, top: 1.9, color: "#fb923c" },
  ],
  furniture: [
    { id: "counter_1", label: "counter", x: [0.2, 2.6], y: [0.05, 0.65], z: [0, 0.9], color: "#94a3b8" },
    { id: "table_1", label: "table", x: [1.9, 3.1], y: [2.3, 2.8], z: [0, 0.75], color: "#a16207", table: true },
    { id: "stool_1", label: "stool", x: [4.1, 4.6], y: [4.3, 4.8], z: [0, 0.6], color: "#64748b" },
  ],
  objects: [
    { id: "apple_1", label: "apple", shape: "apple", x: 2.12, y: 2.55, z: 0.75, width: 0.1, height: 0.1, color: "#dc2626", on: "table_1" },
    { id: "apple_2", label: "apple", shape: "apple", x: 2.85, y: 2.5, z: 0.75, width: 0.1, height: 0.1, color: "#dc2626", on: "table_1" },
    { id: "apple_3", label: "apple", shape: "apple", x: 1.0, y: 0.35, z: 0.9, width: 0.1, height: 0.1, color: "#dc2626", on: "counter_1" },
    { id: "apple_4", label: "apple", shape: "apple", x: 2.5, y: 2.55, z: 0.75, width: 0.1, height: 0.1, color: "#dc2626", on: "table_1", under: "bowl_1" },
    { id: "apple_5", label: "apple", shape: "apple", x: 4.35, y: 4.55, z: 0.6, width: 0.1, height: 0.1, color: "#dc2626", on: "stool_1" },
    { id: "bowl_1", label: "bowl", shape: "bowl", x: 2.5, y: 2.55, z: 0.75, width: 0.28, height: 0.12, color: "#2563eb", on: "table_1", liftable: true },
    { id: "bottle_1", label: "bottle", shape: "bottle", x: 1.8, y: 0.35, z: 0.9, width: 0.09, height: 0.28, color: "#15803d", on: "counter_1" },
  ],
  positions: GRID_2x3([1.3, 3.9]),
};

export const LIVING_ROOM: Room = {
  id: "living-room",
  title: "Living room",
  width: 5,
  depth: 5,
  height: 2.6,
  wallColors: { N: "#e0f2fe", E: "#ede9fe", S: "#fef9c3", W: "#ffedd5" },
  floorColor: "#d6c4a8",
  features: [
    { wall: "N", kind: "window", from: 1.6, to: 3.4, bottom: 0.9, top: 2.1 },
    { wall: "S", kind: "door", from: 3.8, to: 4.6, bottom: 0, top: 2.1 },
    { wall: "W", kind: "picture", from: 2.2, to: 3.2, bottom: 1.2, top: 1.9, color: "#38bdf8" },
  ],
  furniture: [
    { id: "armchair_1", label: "armchair", x: [2.2, 2.8], y: [0.5, 1.1], z: [0, 0.95], color: "#7c3aed" },
    { id: "coffee_table_1", label: "coffee table", x: [2.0, 3.0], y: [2.4, 2.9], z: [0, 0.45], color: "#a16207", table: true },
    { id: "sofa_1", label: "sofa", x: [1.0, 4.0], y: [4.3, 4.9], z: [0, 0.8], color: "#0ea5e9" },
  ],
  objects: [
    { id: "plant_1", label: "plant", shape: "plant", x: 1.2, y: 0.7, z: 0, width: 0.45, height: 0.9, color: "#16a34a" },
    { id: "lamp_1", label: "lamp", shape: "lamp", x: 3.8, y: 0.7, z: 0, width: 0.38, height: 1.5, color: "#facc15" },
    { id: "book_1", label: "book", shape: "book", x: 2.3, y: 2.65, z: 0.45, width: 0.18, height: 0.05, color: "#b91c1c", on: "coffee_table_1" },
    { id: "vase_1", label: "vase", shape: "vase", x: 2.75, y: 2.65, z: 0.45, width: 0.12, height: 0.26, color: "#0d9488", on: "coffee_table_1" },
  ],
  positions: GRID_2x3([1.9, 3.7]),
};

export const BEDROOM: Room = {
  id: "bedroom",
  title: "Bedroom",
  width: 5,
  depth: 5,
  height: 2.6,
  wallColors: { N: "#ecfccb", E: "#e0e7ff", S: "#fae8ff", W: "#f1f5f9" },
  floorColor: "#cbb293",
  features: [
    { wall: "N", kind: "window", from: 3.9, to: 4.7, bottom: 1.0, top: 2.0 },
    { wall: "S", kind: "door", from: 3.0, to: 3.9, bottom: 0, top: 2.1 },
  ],
  furniture: [
    { id: "desk_1", label: "desk", x: [1.4, 3.6], y: [0.1, 0.75], z: [0, 0.75], color: "#92400e", table: true },
    { id: "bed_1", label: "bed", x: [0.2, 2.2], y: [3.2, 4.9], z: [0, 0.55], color: "#f472b6" },
    { id: "wardrobe_1", label: "wardrobe", x: [4.3, 4.9], y: [2.0, 3.6], z: [0, 2.0], color: "#78716c" },
  ],
  objects: [
    { id: "cup_blue", label: "blue cup", shape: "cup", x: 2.0, y: 0.4, z: 0.75, width: 0.13, height: 0.15, color: "#2563eb", on: "desk_1", liftable: true },
    { id: "cup_red", label: "red cup", shape: "cup", x: 3.0, y: 0.4, z: 0.75, width: 0.13, height: 0.15, color: "#dc2626", on: "desk_1", liftable: true },
    { id: "key_1", label: "key", shape: "key", x: 2.0, y: 0.4, z: 0.75, width: 0.16, height: 0.06, color: "#ca8a04", on: "desk_1", under: "cup_blue" },
    { id: "book_2", label: "book", shape: "book", x: 1.6, y: 0.4, z: 0.75, width: 0.2, height: 0.05, color: "#1d4ed8", on: "desk_1" },
  ],
  positions: GRID_2x3([1.4, 2.6]),
};

export const STUDY_ROOM: Room = {
  id: "study",
  title: "Study",
  width: 5,
  depth: 5,
  height: 2.6,
  wallColors: { N: "#fee2e2", E: "#e0f2fe", S: "#f0fdf4", W: "#fef3c7" },
  floorColor: "#d4c3aa",
  features: [
    { wall: "N", kind: "picture", from: 0.5, to: 1.3, bottom: 1.2, top: 1.8, color: "#a78bfa" },
    { wall: "E", kind: "window", from: 1.0, to: 2.2, bottom: 1.0, top: 2.0 },
    { wall: "S", kind: "door", from: 0.4, to: 1.2, bottom: 0, top: 2.1 },
  ],
  furniture: [
    { id: "cabinet_1", label: "cabinet", x: [2.1, 2.9], y: [0.2, 0.7], z: [0, 0.7], color: "#57534e" },
    { id: "screen_1", label: "folding screen", x: [1.6, 3.4], y: [2.0, 2.15], z: [0, 1.9], color: "#cbd5e1" },
    { id: "desk_2", label: "desk", x: [3.9, 4.8], y: [3.6, 4.8], z: [0, 0.75], color: "#a16207", table: true },
  ],
  objects: [
    { id: "box_green", label: "green box", shape: "box", x: 2.5, y: 0.45, z: 0.7, width: 0.36, height: 0.26, color: "#16a34a", on: "cabinet_1" },
    { id: "box_red", label: "red box", shape: "box", x: 2.5, y: 0.45, z: 0.96, width: 0.3, height: 0.24, color: "#dc2626", on: "cabinet_1" },
    { id: "lamp_2", label: "lamp", shape: "lamp", x: 4.4, y: 4.1, z: 0.75, width: 0.25, height: 0.5, color: "#fde047", on: "desk_2" },
  ],
  positions: GRID_2x3([1.3, 3.4]),
};

export const HALL: Room = {
  id: "hall",
  title: "Hall",
  width: 7,
  depth: 4,
  height: 2.6,
  wallColors: { N: "#f5f5f4", E: "#dbeafe", S: "#f5f5f4", W: "#fce7f3" },
  floorColor: "#cfc1ad",
  features: [
    { wall: "E", kind: "door", from: 1.5, to: 2.5, bottom: 0, top: 2.1 },
    { wall: "N", kind: "picture", from: 3.6, to: 4.4, bottom: 1.2, top: 1.8, color: "#34d399" },
    { wall: "S", kind: "window", from: 4.5, to: 5.7, bottom: 1.0, top: 2.0 },
  ],
  furniture: [{ id: "bench_1", label: "bench", x: [4.6, 6.0], y: [0.2, 0.6], z: [0, 0.45], color: "#a16207" }],
  objects: [
    { id: "plant_2", label: "plant", shape: "plant", x: 0.45, y: 2.0, z: 0, width: 0.5, height: 1.0, color: "#15803d" },
    { id: "ball_1", label: "ball", shape: "ball", x: 5.3, y: 0.4, z: 0.45, width: 0.16, height: 0.16, color: "#f97316", on: "bench_1" },
  ],
  positions: [
    [3.1, 2.0],
    [5.0, 2.0],
  ],
};

export const ESI_DEMO_ROOMS: readonly Room[] = [KITCHEN, LIVING_ROOM, BEDROOM, STUDY_ROOM, HALL];

/** The furthest an object can be and still be picked up or put back, in metres (forward). */
const REACH = 2.3;

export interface RoomGraph {
  room: Room;
  /** state id -> pose */
  poses: Map<string, Pose>;
  graph: EsiGraph;
}

function imagePath(room: Room, pose: Pose): string {
  return `img/${room.id}/${poseId(pose)}.png`;
}

/** Every pose reachable from `start` with its edges (breadth first), as an exploration graph without contrastive marks. */
export function buildRoomGraph(room: Room, start: Pose): RoomGraph {
  const poses = new Map<string, Pose>();
  const edges: Record<string, Record<string, string>> = {};
  const queue: Pose[] = [start];
  poses.set(poseId(start), start);
  for (let head = 0; head < queue.length; head++) {
    const pose = queue[head];
    const id = poseId(pose);
    const out: Record<string, string> = {};
    const link = (action: { name: string; args?: string[] }, next: Pose) => {
      const nextId = poseId(next);
      out[actionKey(action)] = nextId;
      if (!poses.has(nextId)) {
        poses.set(nextId, next);
        queue.push(next);
      }
    };
    link({ name: "turn_left" }, { ...pose, heading: turnLeft(pose.heading) });
    link({ name: "turn_right" }, { ...pose, heading: turnRight(pose.heading) });
    const [hx, hy] = HEADING_VECTORS[pose.heading];
    const [rx, ry] = rightOf(pose.heading);
    const moves: Array<[string, readonly [number, number]]> = [
      ["move_forward", [hx, hy]],
      ["move_backward", [-hx, -hy]],
      ["move_left", [-rx, -ry]],
      ["move_right", [rx, ry]],
    ];
    for (const [name, vector] of moves) {
      const to = moveTo(room, pose.position, vector);
      if (to !== null) link({ name }, { ...pose, position: to });
    }
    const visible = new Set(visibleObjects(room, pose));
    if (pose.holding === null) {
      for (const object of room.objects) {
        if (!object.liftable || !visible.has(object.id) || toCamera(room, pose, object.x, object.y).f > REACH) continue;
        link({ name: "pick_up", args: [object.id] }, { ...pose, holding: object.id });
      }
    } else {
      const held = room.objects.find((object) => object.id === pose.holding)!;
      const spot = toCamera(room, pose, held.x, held.y);
      if (held.on && visible.has(held.on) && spot.f > 0.3 && spot.f <= REACH && pointInView(room, pose, held.x, held.y, held.z)) {
        link({ name: "put_on", args: [held.id, held.on] }, { ...pose, holding: null });
      }
    }
    edges[id] = out;
  }
  const states: EsiGraph["states"] = {};
  for (const [id, pose] of poses) {
    states[id] = {
      image: imagePath(room, pose),
      objects: visibleObjects(room, pose),
      ...(pose.holding ? { holding: [pose.holding] } : {}),
      viewpoint: `p${pose.position}`,
      contrastive: false,
    };
  }
  return { room, poses, graph: { initial: poseId(start), states, edges } };
}

// ---------------------------------------------------------------------------------------------
// Questions

export interface DemoQuestion {
  id: string;
  room: Room;
  start: Pose;
  question: string;
  options: string[] | Record<string, string[]>;
  parts?: Record<string, string>;
  answer: string | Record<string, string>;
  /** a state that settles the question */
  contrastive: (pose: Pose, visible: ReadonlySet<string>) => boolean;
  contrastiveNote: string;
  category: string;
  subcategory: string;
  practice?: boolean;
}

function sideOf(heading: Heading, reference: { x: number; y: number }, object: { x: number; y: number }): "left" | "right" {
  const [rx, ry] = rightOf(heading);
  return (object.x - reference.x) * rx + (object.y - reference.y) * ry > 0 ? "right" : "left";
}

/** The map position of an object or of a furniture box's centre. */
function centreOf(room: Room, id: string): { x: number; y: number } {
  const object = room.objects.find((candidate) => candidate.id === id);
  if (object) return { x: object.x, y: object.y };
  const box = room.furniture.find((candidate) => candidate.id === id);
  if (box) return { x: (box.x[0] + box.x[1]) / 2, y: (box.y[0] + box.y[1]) / 2 };
  throw new Error(`no object ${id} in ${room.id}`);
}

export function demoQuestions(): DemoQuestion[] {
  const apples = KITCHEN.objects.filter((object) => object.label === "apple").length;
  const armchair = centreOf(LIVING_ROOM, "armchair_1");
  return [
    {
      id: "esi-demo-hall-plant",
      room: HALL,
      start: { position: 0, heading: "E", holding: null },
      question: "Is there a plant in this hall?",
      options: ["Yes", "No"],
      answer: HALL.objects.some((object) => object.label === "plant") ? "Yes" : "No",
      contrastive: (_pose, visible) => visible.has("plant_2"),
      contrastiveNote: "the plant is in view",
      category: "Perceptual Grounding",
      subcategory: "Object Presence",
      practice: true,
    },
    {
      id: "esi-demo-kitchen-apples",
      room: KITCHEN,
      start: { position: 4, heading: "N", holding: null },
      question: "How many apples are there in this kitchen?",
      options: ["3", "4", "5", "6"],
      answer: String(apples),
      contrastive: (_pose, visible) => visible.has("apple_4") || visible.has("apple_5"),
      contrastiveNote: "an apple that the first view does not show (under the bowl, or on the stool behind you)",
      category: "Enumerative Perception",
      subcategory: "Occluded Counting",
    },
    {
      id: "esi-demo-living-left-right",
      room: LIVING_ROOM,
      start: { position: 1, heading: "S", holding: null },
      question: "Facing the window, is the plant to the left or to the right of the armchair (A)? And the lamp (C)?",
      options: { A: ["left", "right"], C: ["left", "right"] },
      parts: { A: "the plant", C: "the lamp" },
      answer: { A: sideOf("N", armchair, centreOf(LIVING_ROOM, "plant_1")), C: sideOf("N", armchair, centreOf(LIVING_ROOM, "lamp_1")) },
      contrastive: (pose, visible) => pose.heading === "N" && visible.has("armchair_1") && visible.has("plant_1") && visible.has("lamp_1"),
      contrastiveNote: "facing the window with the armchair, the plant and the lamp in view",
      category: "Spatial Relations",
      subcategory: "Viewpoint Left/Right",
    },
    {
      id: "esi-demo-bedroom-key-blue",
      room: BEDROOM,
      start: { position: 4, heading: "N", holding: null },
      question: "Is there a key under the blue cup on the desk?",
      options: ["Yes", "No"],
      answer: BEDROOM.objects.some((object) => object.under === "cup_blue" && object.label === "key") ? "Yes" : "No",
      contrastive: (pose) => pose.holding === "cup_blue" && pointInView(BEDROOM, pose, 2.0, 0.4, 0.75),
      contrastiveNote: "the blue cup lifted, its place on the desk in view",
      category: "Perceptual Grounding",
      subcategory: "Hidden Object Search",
    },
    {
      id: "esi-demo-bedroom-key-red",
      room: BEDROOM,
      start: { position: 4, heading: "N", holding: null },
      question: "Is there a key under the red cup on the desk?",
      options: ["Yes", "No"],
      answer: BEDROOM.objects.some((object) => object.under === "cup_red" && object.label === "key") ? "Yes" : "No",
      contrastive: (pose) => pose.holding === "cup_red" && pointInView(BEDROOM, pose, 3.0, 0.4, 0.75),
      contrastiveNote: "the red cup lifted, its place on the desk in view",
      category: "Perceptual Grounding",
      subcategory: "Hidden Object Search",
    },
    {
      id: "esi-demo-study-on-top",
      room: STUDY_ROOM,
      start: { position: 4, heading: "N", holding: null },
      question: "Which box is on top of the stack on the cabinet?",
      options: ["red box", "green box"],
      answer: [...STUDY_ROOM.objects].filter((object) => object.on === "cabinet_1").sort((a, b) => b.z - a.z)[0].label,
      contrastive: (_pose, visible) => visible.has("box_red") && visible.has("box_green"),
      contrastiveNote: "the whole stack in view",
      category: "Physical Structure",
      subcategory: "Stacking Order",
    },
  ];
}

export interface DemoImage {
  path: string;
  svg: string;
}

export interface EsiDemoItem {
  id: string;
  kind: "esi-explore";
  public: { question: string; options: string[] | Record<string, string[]>; parts?: Record<string, string>; initialImage: string; maxSteps: number };
  key: {
    answer: string | Record<string, string>;
    graph: EsiGraph;
    views: { multi: string[]; gt: string[] };
    start: { scene: string; room: string; pose: { position: readonly [number, number]; heading: Heading } };
  };
  tags: Record<string, string>;
  practice: boolean;
  gold: boolean;
}

/** The shortest path (state ids, start excluded) from the initial state to the nearest contrastive one. */
export function referencePath(graph: EsiGraph): string[] {
  const previous = new Map<string, string | null>([[graph.initial, null]]);
  const queue = [graph.initial];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    if (graph.states[node].contrastive) {
      const path: string[] = [];
      for (let at: string | null = node; at !== null && at !== graph.initial; at = previous.get(at) ?? null) path.unshift(at);
      return path;
    }
    for (const key of Object.keys(graph.edges[node] ?? {}).sort()) {
      const next = graph.edges[node][key];
      if (previous.has(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  throw new Error("no contrastive state is reachable");
}

export interface BuiltEsiDemo {
  items: EsiDemoItem[];
  images: DemoImage[];
}

/** Every demo item with its graph, and every image to draw (one per pose of each room, shared by its items). */
export function buildEsiDemo(options: { maxSteps?: number } = {}): BuiltEsiDemo {
  const maxSteps = options.maxSteps ?? 30;
  const images = new Map<string, DemoImage>();
  const items = demoQuestions().map((question): EsiDemoItem => {
    const { graph, poses } = buildRoomGraph(question.room, question.start);
    for (const [id, pose] of poses) {
      const visible = new Set(graph.states[id].objects);
      if (question.contrastive(pose, visible)) graph.states[id] = { ...graph.states[id], contrastive: true, note: question.contrastiveNote };
      const path = graph.states[id].image;
      if (!images.has(path)) images.set(path, { path, svg: renderViewSvg(question.room, pose) });
    }
    if (graph.states[graph.initial].contrastive) throw new Error(`${question.id}: the first view already settles the question`);
    const gt = referencePath(graph).map((id) => graph.states[id].image);
    const multi = randomWalkStates(graph, maxSteps, `${question.id}|multi`)
      .slice(1)
      .map((id) => graph.states[id].image);
    const distances = distancesFromInitial(graph);
    if (distances.size !== Object.keys(graph.states).length) throw new Error(`${question.id}: unreachable states`);
    return {
      id: question.id,
      kind: "esi-explore",
      public: {
        question: question.question,
        options: question.options,
        ...(question.parts ? { parts: question.parts } : {}),
        initialImage: graph.states[graph.initial].image,
        maxSteps,
      },
      key: {
        answer: question.answer,
        graph,
        views: { multi, gt },
        start: {
          scene: `demo-${question.room.id}`,
          room: question.room.id,
          pose: { position: question.room.positions[question.start.position], heading: question.start.heading },
        },
      },
      tags: { category: question.category, subcategory: question.subcategory, scene: `demo-${question.room.id}`, room: question.room.id, source: "esi-demo" },
      practice: question.practice ?? false,
      gold: false,
    };
  });
  return { items, images: [...images.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) };
}

export { HEADINGS };
