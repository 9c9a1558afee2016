/**
 * A small symbolic kitchen for ENACT-style demo items (../shared/benchmarks/enact.md).
 *
 * The world: fixtures (fridge, cabinet, microwave, stove, sink, table, countertop), movable
 * objects (apple, bread, cabbage, bowl, plate, pan, cup, knife) and the robot r1 with a left and a
 * right gripper. A state is a structured value; `stateFacts` turns it into the symbolic facts
 * ENACT's verifier compares, using its predicate classes: RightGrasping, LeftGrasping, OnTop,
 * Inside, Under, Contains, Covered, Open, ToggledOn, Cooked, Transition.
 *
 * Actions have preconditions (`applyAction` returns null when one fails) and effects; a seeded
 * random walk (`generateTrajectory`) chains them. Visibility: an object inside a closed fridge,
 * cabinet or microwave (directly or in a bowl / on a plate that is) cannot be seen, nor can any
 * fact about it; `visibleFacts` is what an image may show.
 *
 * Pure and deterministic: no I/O, randomness only through the `Rng` passed in.
 */
import { mulberry32, type Rng } from "@/lib/stats/rng";

// ---------------------------------------------------------------------------------------------
// Entities

export const HANDS = ["left", "right"] as const;
export type Hand = (typeof HANDS)[number];

export const OBJECTS = ["apple", "bread", "cabbage", "bowl", "plate", "pan", "cup", "knife"] as const;
export type ObjectId = (typeof OBJECTS)[number];

export const FIXTURES = ["fridge", "cabinet", "microwave", "counter", "stove", "sink", "table"] as const;
export type FixtureId = (typeof FIXTURES)[number];

/** Fixtures with a door: Open(x), and their contents are hidden while closed. */
export const CONTAINERS = ["fridge", "cabinet", "microwave"] as const;
export type ContainerId = (typeof CONTAINERS)[number];

/** Fixtures that can be ToggledOn. */
export const APPLIANCES = ["stove", "microwave", "sink"] as const;
export type ApplianceId = (typeof APPLIANCES)[number];

/** Objects that other (food) objects can be put on / in. */
export const RECEPTACLES = ["plate", "bowl", "pan"] as const;
export type ReceptacleId = (typeof RECEPTACLES)[number];

export const FOODS = ["apple", "bread", "cabbage"] as const;
export type FoodId = (typeof FOODS)[number];

/** Objects that can hold water: Contains(x,water). Other objects get Covered(x,water) in a running sink. */
export const VESSELS = ["bowl", "pan", "cup"] as const;

export type SupportId = FixtureId | ReceptacleId;
export type Relation = "OnTop" | "Inside";

/** What a sliced food becomes (ENACT's Transition class: "The apple now becomes the half apple."). */
export const SLICED_FORM: Record<FoodId, string> = {
  apple: "half_apple",
  bread: "half_bread",
  cabbage: "diced_cabbage",
};

export const COOKABLE: readonly ObjectId[] = ["bread", "cabbage"];

interface SupportSpec {
  rel: Relation;
  capacity: number;
  accepts: readonly ObjectId[];
}

const ALL_OBJECTS: readonly ObjectId[] = OBJECTS;
const NOT_KNIFE = OBJECTS.filter((o) => o !== "knife");

/** Where objects can go, how (on top / inside) and how many fit. */
export const SUPPORTS: Record<SupportId, SupportSpec> = {
  counter: { rel: "OnTop", capacity: 3, accepts: ALL_OBJECTS },
  table: { rel: "OnTop", capacity: 3, accepts: ALL_OBJECTS },
  stove: { rel: "OnTop", capacity: 1, accepts: ["pan"] },
  sink: { rel: "Inside", capacity: 2, accepts: ALL_OBJECTS },
  fridge: { rel: "Inside", capacity: 3, accepts: NOT_KNIFE },
  cabinet: { rel: "Inside", capacity: 3, accepts: ["bread", "bowl", "plate", "pan", "cup", "knife"] },
  microwave: { rel: "Inside", capacity: 1, accepts: ["apple", "bread", "cabbage", "bowl", "plate", "cup"] },
  plate: { rel: "OnTop", capacity: 1, accepts: FOODS },
  bowl: { rel: "Inside", capacity: 1, accepts: FOODS },
  pan: { rel: "Inside", capacity: 1, accepts: FOODS },
};
export const SUPPORT_IDS = Object.keys(SUPPORTS) as SupportId[];

export function isObject(entity: string): entity is ObjectId {
  return (OBJECTS as readonly string[]).includes(entity);
}
export function isContainer(entity: string): entity is ContainerId {
  return (CONTAINERS as readonly string[]).includes(entity);
}
export function isAppliance(entity: string): entity is ApplianceId {
  return (APPLIANCES as readonly string[]).includes(entity);
}
export function isReceptacle(entity: string): entity is ReceptacleId {
  return (RECEPTACLES as readonly string[]).includes(entity);
}
export function isFood(entity: string): entity is FoodId {
  return (FOODS as readonly string[]).includes(entity);
}
export function isVessel(entity: string): boolean {
  return (VESSELS as readonly string[]).includes(entity);
}

// ---------------------------------------------------------------------------------------------
// State

export type Location = { rel: Relation; target: SupportId } | { rel: "held"; hand: Hand };

export interface KitchenState {
  /** objects present in the scene, in OBJECTS order */
  objects: ObjectId[];
  /** exactly one location per present object */
  loc: Partial<Record<ObjectId, Location>>;
  /** what each gripper grasps: an object, a container's handle, or nothing */
  hands: Record<Hand, ObjectId | ContainerId | null>;
  open: ContainerId[];
  on: ApplianceId[];
  cooked: ObjectId[];
  sliced: ObjectId[];
  /** Covered(x,water) */
  wet: ObjectId[];
  /** Contains(x,water) */
  water: ObjectId[];
}

function sortBy<T extends string>(values: Iterable<T>, order: readonly T[]): T[] {
  return [...new Set(values)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

function cloneState(s: KitchenState): KitchenState {
  return {
    objects: [...s.objects],
    loc: Object.fromEntries(Object.entries(s.loc).map(([k, v]) => [k, { ...v }])),
    hands: { ...s.hands },
    open: [...s.open],
    on: [...s.on],
    cooked: [...s.cooked],
    sliced: [...s.sliced],
    wet: [...s.wet],
    water: [...s.water],
  };
}

function normalise(s: KitchenState): KitchenState {
  return {
    ...s,
    objects: sortBy(s.objects, OBJECTS),
    open: sortBy(s.open, CONTAINERS),
    on: sortBy(s.on, APPLIANCES),
    cooked: sortBy(s.cooked, OBJECTS),
    sliced: sortBy(s.sliced, OBJECTS),
    wet: sortBy(s.wet, OBJECTS),
    water: sortBy(s.water, OBJECTS),
  };
}

const GRASP_PREDICATE: Record<Hand, string> = { left: "LeftGrasping", right: "RightGrasping" };

/** The symbolic facts true in a state, sorted. */
export function stateFacts(s: KitchenState): string[] {
  const facts: string[] = [];
  for (const hand of HANDS) {
    const held = s.hands[hand];
    if (held) facts.push(`${GRASP_PREDICATE[hand]}(r1,${held})`);
  }
  for (const obj of s.objects) {
    const loc = s.loc[obj];
    if (!loc || loc.rel === "held") continue;
    facts.push(`${loc.rel}(${obj},${loc.target})`);
    // ENACT pairs "on top of" a movable object with its converse (e.g. "The tupperware becomes
    // under the half chicken."); here for objects resting on a plate
    if (loc.rel === "OnTop" && loc.target === "plate") facts.push(`Under(plate,${obj})`);
  }
  for (const c of s.open) facts.push(`Open(${c})`);
  for (const a of s.on) facts.push(`ToggledOn(${a})`);
  for (const o of s.cooked) facts.push(`Cooked(${o})`);
  for (const o of s.sliced) facts.push(`Transition(${o},${SLICED_FORM[o as FoodId]})`);
  for (const o of s.wet) facts.push(`Covered(${o},water)`);
  for (const o of s.water) facts.push(`Contains(${o},water)`);
  return facts.sort();
}

/** A fact split into predicate and arguments: "OnTop(apple,plate)" -> ["OnTop", ["apple", "plate"]]. */
export function parseFact(fact: string): { predicate: string; args: string[] } {
  const match = /^(\w+)\(([^()]*)\)$/.exec(fact);
  if (!match) throw new Error(`not a fact: ${fact}`);
  return { predicate: match[1], args: match[2].split(",") };
}

/** The diff of states s and t: {"+f": f in t \ s} U {"-f": f in s \ t}, sorted. */
export function diffFacts(s: readonly string[], t: readonly string[]): string[] {
  const before = new Set(s);
  const after = new Set(t);
  const changes: string[] = [];
  for (const f of after) if (!before.has(f)) changes.push(`+${f}`);
  for (const f of before) if (!after.has(f)) changes.push(`-${f}`);
  return changes.sort();
}

/** Objects on / in a support, in OBJECTS order. */
export function contentsOf(s: KitchenState, support: SupportId): ObjectId[] {
  return s.objects.filter((o) => {
    const loc = s.loc[o];
    return loc !== undefined && loc.rel !== "held" && loc.target === support;
  });
}

/** Who holds an object, following receptacles (an apple on a held plate is held with it). */
function holderOf(s: KitchenState, obj: ObjectId): Hand | null {
  const loc = s.loc[obj];
  if (!loc) return null;
  if (loc.rel === "held") return loc.hand;
  return isObject(loc.target) ? holderOf(s, loc.target) : null;
}

/** True when the object cannot be seen: inside a closed container, directly or via a receptacle. */
export function isHidden(s: KitchenState, obj: ObjectId): boolean {
  const loc = s.loc[obj];
  if (!loc || loc.rel === "held") return false;
  if (isContainer(loc.target)) return !s.open.includes(loc.target);
  if (isObject(loc.target)) return isHidden(s, loc.target);
  return false;
}

/** A fact is visible when none of its arguments is a hidden object. */
export function isFactVisible(s: KitchenState, fact: string): boolean {
  return !parseFact(fact).args.some((arg) => isObject(arg) && isHidden(s, arg));
}

/** The facts an image of this state shows. */
export function visibleFacts(s: KitchenState): string[] {
  return stateFacts(s).filter((f) => isFactVisible(s, f));
}

/** The facts an image of this state cannot show. */
export function hiddenFacts(s: KitchenState): string[] {
  return stateFacts(s).filter((f) => !isFactVisible(s, f));
}

/**
 * The visible part of a step's change set: "+f" is visible when f can be seen after the step,
 * "-f" when f could be seen before it.
 */
export function visibleChangesOfStep(before: KitchenState, after: KitchenState, changes: readonly string[]): string[] {
  return changes.filter((c) => isFactVisible(c.startsWith("+") ? after : before, c.slice(1)));
}

/**
 * Invariant violations of a state (empty when the state is well formed): every present object
 * has exactly one place, each gripper grasps at most one thing, receptacles are not nested,
 * capacities and accepted objects hold, a running microwave is closed.
 */
export function checkInvariants(s: KitchenState): string[] {
  const problems: string[] = [];
  const facts = stateFacts(s);
  for (const obj of s.objects) {
    const places = facts.filter((f) => {
      const { predicate, args } = parseFact(f);
      if (predicate === "RightGrasping" || predicate === "LeftGrasping") return args[1] === obj;
      return (predicate === "OnTop" || predicate === "Inside") && args[0] === obj;
    });
    if (places.length !== 1) problems.push(`${obj} has ${places.length} places: ${places.join(", ")}`);
    const loc = s.loc[obj];
    if (!loc) continue;
    if (loc.rel === "held") {
      if (s.hands[loc.hand] !== obj) problems.push(`${obj} says it is held by ${loc.hand} but that hand holds ${s.hands[loc.hand]}`);
      continue;
    }
    const spec = SUPPORTS[loc.target];
    if (spec.rel !== loc.rel) problems.push(`${obj} is ${loc.rel} ${loc.target}, which takes ${spec.rel}`);
    if (!spec.accepts.includes(obj)) problems.push(`${loc.target} does not accept ${obj}`);
    if (isObject(loc.target)) {
      if (!s.objects.includes(loc.target)) problems.push(`${obj} rests on absent ${loc.target}`);
      if (isReceptacle(obj)) problems.push(`receptacle ${obj} is nested in ${loc.target}`);
    }
  }
  for (const hand of HANDS) {
    const held = s.hands[hand];
    const grasps = facts.filter((f) => f.startsWith(`${GRASP_PREDICATE[hand]}(`));
    if (grasps.length > 1) problems.push(`${hand} gripper grasps ${grasps.length} things`);
    if (held && isObject(held)) {
      const loc = s.loc[held];
      if (!loc || loc.rel !== "held" || loc.hand !== hand) problems.push(`${hand} gripper holds ${held} but ${held} is elsewhere`);
    }
  }
  if (s.hands.left !== null && s.hands.left === s.hands.right) problems.push(`both grippers grasp ${s.hands.left}`);
  for (const support of SUPPORT_IDS) {
    const n = contentsOf(s, support).length;
    if (n > SUPPORTS[support].capacity) problems.push(`${support} holds ${n} > ${SUPPORTS[support].capacity}`);
  }
  if (s.on.includes("microwave") && s.open.includes("microwave")) problems.push("microwave is on while open");
  for (const o of s.sliced) if (!isFood(o)) problems.push(`${o} cannot be sliced`);
  for (const o of s.water) if (!isVessel(o)) problems.push(`${o} cannot contain water`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Actions

export type Action =
  | { type: "grasp"; hand: Hand; obj: ObjectId }
  | { type: "place"; hand: Hand; obj: ObjectId; target: SupportId }
  /** put inside an open container and push its door shut in one motion */
  | { type: "stow"; hand: Hand; obj: ObjectId; target: ContainerId }
  /** pull a closed container open and take an object out of it in one motion */
  | { type: "retrieve"; hand: Hand; obj: ObjectId; target: ContainerId }
  | { type: "graspHandle"; hand: Hand; fixture: ContainerId }
  | { type: "releaseHandle"; hand: Hand; fixture: ContainerId }
  | { type: "openWithHandle"; hand: Hand; fixture: ContainerId }
  | { type: "closeWithHandle"; hand: Hand; fixture: ContainerId }
  | { type: "open"; hand: Hand; fixture: ContainerId }
  | { type: "close"; hand: Hand; fixture: ContainerId }
  | { type: "toggleOn"; hand: Hand; fixture: ApplianceId }
  | { type: "toggleOff"; hand: Hand; fixture: ApplianceId }
  | { type: "slice"; hand: Hand; obj: FoodId }
  | { type: "pour"; hand: Hand; obj: ObjectId }
  /** time passes: food in a pan on a running stove cooks */
  | { type: "wait" };

export function actionLabel(a: Action): string {
  const parts: string[] = [a.type];
  if ("hand" in a) parts.push(a.hand);
  if ("obj" in a) parts.push(a.obj);
  if ("fixture" in a) parts.push(a.fixture);
  if ("target" in a) parts.push(a.target);
  return parts.join(" ");
}

function handleHolder(s: KitchenState, c: ContainerId): Hand | null {
  return HANDS.find((h) => s.hands[h] === c) ?? null;
}

function hasRoom(s: KitchenState, support: SupportId, obj: ObjectId): boolean {
  const spec = SUPPORTS[support];
  return spec.accepts.includes(obj) && contentsOf(s, support).length < spec.capacity;
}

/** Can `obj` be put on / in `target` right now (before the hand lets go)? */
function canPlace(s: KitchenState, obj: ObjectId, target: SupportId): boolean {
  if (target === obj || !hasRoom(s, target, obj)) return false;
  if (isContainer(target) && !s.open.includes(target)) return false;
  if (isObject(target)) {
    // a resting, visible receptacle; receptacles do not nest
    if (!s.objects.includes(target) || isReceptacle(obj) || holderOf(s, target) !== null || isHidden(s, target)) return false;
  }
  if (target === "microwave" && s.on.includes("microwave")) return false;
  return true;
}

/** Effects that follow from the new situation: a running sink wets what is in it; a running, closed microwave cooks. */
function settle(s: KitchenState): void {
  const inSink = (o: ObjectId): boolean => {
    const loc = s.loc[o];
    if (!loc || loc.rel === "held") return false;
    return loc.target === "sink" || (isObject(loc.target) && inSink(loc.target));
  };
  const inMicrowave = (o: ObjectId): boolean => {
    const loc = s.loc[o];
    if (!loc || loc.rel === "held") return false;
    return loc.target === "microwave" || (isObject(loc.target) && inMicrowave(loc.target));
  };
  for (const o of s.objects) {
    if (s.on.includes("sink") && inSink(o)) {
      if (isVessel(o)) s.water.push(o);
      else s.wet.push(o);
    }
    if (s.on.includes("microwave") && !s.open.includes("microwave") && inMicrowave(o) && COOKABLE.includes(o)) {
      s.cooked.push(o);
    }
  }
}

/** The state after the action, or null when a precondition fails. */
export function applyAction(state: KitchenState, action: Action): KitchenState | null {
  const s = cloneState(state);
  switch (action.type) {
    case "grasp": {
      const { hand, obj } = action;
      const loc = s.loc[obj];
      if (s.hands[hand] !== null || !loc || loc.rel === "held") return null;
      if (isHidden(s, obj) || holderOf(s, obj) !== null) return null;
      s.loc[obj] = { rel: "held", hand };
      s.hands[hand] = obj;
      break;
    }
    case "place": {
      const { hand, obj, target } = action;
      if (s.hands[hand] !== obj || !canPlace(s, obj, target)) return null;
      s.loc[obj] = { rel: SUPPORTS[target].rel, target };
      s.hands[hand] = null;
      break;
    }
    case "stow": {
      const { hand, obj, target } = action;
      if (s.hands[hand] !== obj || !canPlace(s, obj, target) || handleHolder(s, target) !== null) return null;
      s.loc[obj] = { rel: "Inside", target };
      s.hands[hand] = null;
      s.open = s.open.filter((c) => c !== target);
      break;
    }
    case "retrieve": {
      const { hand, obj, target } = action;
      const loc = s.loc[obj];
      if (s.hands[hand] !== null || s.open.includes(target) || s.on.includes(target as ApplianceId)) return null;
      if (handleHolder(s, target) !== null || !loc || loc.rel !== "Inside" || loc.target !== target) return null;
      s.open.push(target);
      s.loc[obj] = { rel: "held", hand };
      s.hands[hand] = obj;
      break;
    }
    case "graspHandle": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== null || handleHolder(s, fixture) !== null) return null;
      s.hands[hand] = fixture;
      break;
    }
    case "releaseHandle": {
      if (s.hands[action.hand] !== action.fixture) return null;
      s.hands[action.hand] = null;
      break;
    }
    case "openWithHandle": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== fixture || s.open.includes(fixture) || s.on.includes(fixture as ApplianceId)) return null;
      s.open.push(fixture);
      s.hands[hand] = null;
      break;
    }
    case "closeWithHandle": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== fixture || !s.open.includes(fixture)) return null;
      s.open = s.open.filter((c) => c !== fixture);
      s.hands[hand] = null;
      break;
    }
    case "open": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== null || s.open.includes(fixture) || handleHolder(s, fixture) !== null) return null;
      if (s.on.includes(fixture as ApplianceId)) return null;
      s.open.push(fixture);
      break;
    }
    case "close": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== null || !s.open.includes(fixture) || handleHolder(s, fixture) !== null) return null;
      s.open = s.open.filter((c) => c !== fixture);
      break;
    }
    case "toggleOn": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== null || s.on.includes(fixture)) return null;
      if (fixture === "microwave" && (s.open.includes("microwave") || contentsOf(s, "microwave").length === 0)) return null;
      s.on.push(fixture);
      break;
    }
    case "toggleOff": {
      const { hand, fixture } = action;
      if (s.hands[hand] !== null || !s.on.includes(fixture)) return null;
      s.on = s.on.filter((a) => a !== fixture);
      break;
    }
    case "slice": {
      const { hand, obj } = action;
      const loc = s.loc[obj];
      if (s.hands[hand] !== "knife" || !s.objects.includes(obj) || s.sliced.includes(obj)) return null;
      if (!loc || loc.rel !== "OnTop" || !["counter", "table", "plate"].includes(loc.target)) return null;
      if (holderOf(s, obj) !== null || isHidden(s, obj)) return null;
      s.sliced.push(obj);
      break;
    }
    case "pour": {
      const { hand, obj } = action;
      if (s.hands[hand] !== obj || !s.water.includes(obj)) return null;
      s.water = s.water.filter((o) => o !== obj);
      break;
    }
    case "wait": {
      const pan = s.loc.pan;
      if (!s.on.includes("stove") || !pan || pan.rel === "held" || pan.target !== "stove") return null;
      const food = contentsOf(s, "pan").filter((o) => COOKABLE.includes(o) && !s.cooked.includes(o));
      if (food.length === 0) return null;
      s.cooked.push(...food);
      break;
    }
  }
  settle(s);
  return normalise(s);
}

/** Every action whose preconditions hold, for the given hands, in a fixed order. */
export function validActions(s: KitchenState, hands: readonly Hand[] = HANDS): Array<{ action: Action; next: KitchenState }> {
  const candidates: Action[] = [];
  for (const hand of hands) {
    for (const obj of s.objects) {
      candidates.push({ type: "grasp", hand, obj });
      for (const target of SUPPORT_IDS) candidates.push({ type: "place", hand, obj, target });
      for (const target of CONTAINERS) {
        candidates.push({ type: "stow", hand, obj, target });
        candidates.push({ type: "retrieve", hand, obj, target });
      }
      candidates.push({ type: "pour", hand, obj });
      if (isFood(obj)) candidates.push({ type: "slice", hand, obj });
    }
    for (const fixture of CONTAINERS) {
      for (const type of ["graspHandle", "releaseHandle", "openWithHandle", "closeWithHandle", "open", "close"] as const) {
        candidates.push({ type, hand, fixture });
      }
    }
    for (const fixture of APPLIANCES) {
      candidates.push({ type: "toggleOn", hand, fixture });
      candidates.push({ type: "toggleOff", hand, fixture });
    }
  }
  candidates.push({ type: "wait" });
  const out: Array<{ action: Action; next: KitchenState }> = [];
  for (const action of candidates) {
    const next = applyAction(s, action);
    if (next) out.push({ action, next });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Activities and initial scenes

export type HandTag = "left" | "right" | "both" | "none";

export interface Activity {
  name: string;
  /** objects in the scene (the rest are absent) */
  objects: ObjectId[];
  /** where each object may start */
  start: Partial<Record<ObjectId, SupportId[]>>;
  /** entities whose actions the walk prefers */
  focus: string[];
  /** containers that may start open */
  mayStartOpen: ContainerId[];
  /** where the activity wants objects to end up (the walk favours moves there) */
  goals: Partial<Record<ObjectId, SupportId[]>>;
}

export const ACTIVITIES: Activity[] = [
  {
    name: "store_groceries",
    objects: ["apple", "bread", "cabbage", "cup", "bowl"],
    start: { apple: ["counter", "table"], bread: ["counter", "table"], cabbage: ["counter", "table"], cup: ["table", "cabinet"], bowl: ["cabinet", "counter"] },
    focus: ["fridge", "cabinet", "apple", "bread", "cabbage"],
    mayStartOpen: ["fridge"],
    goals: { apple: ["fridge"], cabbage: ["fridge"], bread: ["cabinet", "fridge"], cup: ["cabinet"], bowl: ["cabinet"] },
  },
  {
    name: "cook_cabbage",
    objects: ["cabbage", "pan", "knife", "plate", "cup"],
    start: {
      cabbage: ["fridge", "counter"],
      pan: ["cabinet", "counter", "stove"],
      knife: ["counter", "table"],
      plate: ["table", "cabinet"],
      cup: ["table", "sink"],
    },
    focus: ["stove", "pan", "cabbage", "knife"],
    mayStartOpen: ["fridge", "cabinet"],
    goals: { cabbage: ["pan", "counter"], pan: ["stove"], knife: ["counter"], plate: ["counter"] },
  },
  {
    name: "heat_bread",
    objects: ["bread", "plate", "bowl", "apple"],
    start: { bread: ["counter", "fridge", "table"], plate: ["cabinet", "counter", "table"], bowl: ["table", "cabinet"], apple: ["table", "fridge"] },
    focus: ["microwave", "bread", "plate"],
    mayStartOpen: ["microwave", "cabinet"],
    goals: { bread: ["plate", "microwave"], plate: ["microwave", "table"], bowl: ["table"] },
  },
  {
    name: "set_the_table",
    objects: ["plate", "bowl", "cup", "knife", "apple"],
    start: {
      plate: ["cabinet", "counter"],
      bowl: ["cabinet", "counter"],
      cup: ["cabinet", "sink"],
      knife: ["counter", "cabinet"],
      apple: ["fridge", "counter"],
    },
    focus: ["table", "plate", "bowl", "cup", "knife", "cabinet"],
    mayStartOpen: ["cabinet"],
    goals: { plate: ["table"], bowl: ["table"], cup: ["table"], knife: ["table"], apple: ["bowl", "plate"] },
  },
  {
    name: "wash_dishes",
    objects: ["bowl", "cup", "pan", "plate", "apple"],
    start: { bowl: ["table", "counter"], cup: ["table", "counter"], pan: ["stove", "counter"], plate: ["table", "sink"], apple: ["bowl", "plate", "table"] },
    focus: ["sink", "bowl", "cup", "pan", "plate"],
    mayStartOpen: ["cabinet"],
    goals: { bowl: ["sink"], cup: ["sink"], pan: ["sink"], plate: ["sink"], apple: ["table"] },
  },
  {
    name: "slice_fruit",
    objects: ["knife", "apple", "bread", "plate", "bowl"],
    start: {
      knife: ["counter", "cabinet"],
      apple: ["table", "fridge", "bowl"],
      bread: ["counter", "table"],
      plate: ["counter", "table"],
      bowl: ["table", "counter"],
    },
    focus: ["knife", "apple", "bread", "plate"],
    mayStartOpen: ["fridge"],
    goals: { apple: ["counter", "plate"], bread: ["counter", "plate"], knife: ["counter"], plate: ["counter"] },
  },
  {
    name: "clear_the_table",
    objects: ["plate", "cup", "bowl", "bread", "apple"],
    start: { plate: ["table"], cup: ["table"], bowl: ["table", "counter"], bread: ["plate", "table"], apple: ["bowl", "table"] },
    focus: ["sink", "fridge", "cabinet", "plate", "cup", "bowl"],
    mayStartOpen: ["fridge", "cabinet"],
    goals: { plate: ["sink"], cup: ["sink"], bowl: ["sink", "cabinet"], bread: ["cabinet"], apple: ["fridge"] },
  },
];

function pick<T>(rng: Rng, values: readonly T[]): T {
  return values[Math.min(values.length - 1, Math.floor(rng() * values.length))];
}

function weightedPick<T>(rng: Rng, entries: ReadonlyArray<{ value: T; weight: number }>): T {
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  let u = rng() * total;
  for (const e of entries) {
    u -= e.weight;
    if (u < 0) return e.value;
  }
  return entries[entries.length - 1].value;
}

/** Fisher-Yates shuffle with a seeded generator (returns a new array). */
export function shuffled<T>(rng: Rng, values: readonly T[]): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function emptyState(): KitchenState {
  return { objects: [], loc: {}, hands: { left: null, right: null }, open: [], on: [], cooked: [], sliced: [], wet: [], water: [] };
}

/** A random initial scene for an activity; receptacles are placed before what goes on them. */
export function initialScene(rng: Rng, activity: Activity): KitchenState {
  const s = emptyState();
  const order = [...activity.objects].sort((a, b) => Number(isReceptacle(b)) - Number(isReceptacle(a)));
  for (const obj of order) {
    const options = (activity.start[obj] ?? ["counter", "table"]).filter((t) => {
      if (isObject(t) && !s.objects.includes(t)) return false;
      return hasRoom(s, t, obj) && !(isObject(t) && isReceptacle(obj));
    });
    const fallback = (["counter", "table", "cabinet", "fridge", "sink"] as SupportId[]).filter((t) => hasRoom(s, t, obj));
    const target = options.length > 0 ? pick(rng, options) : pick(rng, fallback);
    s.objects.push(obj);
    s.loc[obj] = { rel: SUPPORTS[target].rel, target };
  }
  for (const c of activity.mayStartOpen) if (rng() < 0.3) s.open.push(c);
  if (s.loc.pan && s.loc.pan.rel !== "held" && s.loc.pan.target === "stove" && rng() < 0.3) s.on.push("stove");
  // a few objects start slightly used (washed / sliced) so that scenes differ
  for (const o of s.objects) if (isFood(o) && rng() < 0.1) s.sliced.push(o);
  const out = normalise(s);
  const problems = checkInvariants(out);
  if (problems.length > 0) throw new Error(`initial scene broken: ${problems.join("; ")}`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Trajectories

export interface TrajectoryStep {
  action: Action;
  /** full change set F_i: diff of the facts before and after */
  changes: string[];
  /** the visible part (see visibleChangesOfStep) */
  visible: string[];
}

export interface Trajectory {
  activity: string;
  states: KitchenState[];
  steps: TrajectoryStep[];
  /** which gripper predicates the changes use */
  hand: HandTag;
}

export interface TrajectoryOptions {
  /** number of actions L (observations = L + 1) */
  actions: number;
  activity?: string;
  /** the grippers the walk may use (and, when possible, the hand tag the trajectory ends with) */
  hand?: Exclude<HandTag, "none">;
  /** require two steps with the same visible change set (L >= 3) */
  requireRepeat?: boolean;
  /** extra acceptance test (e.g. the batch builder's checks) */
  accept?: (t: Trajectory) => boolean;
  maxAttempts?: number;
}

/** The gripper(s) a list of change sets uses: from its LeftGrasping / RightGrasping changes. */
export function handTag(stepChanges: ReadonlyArray<readonly string[]>): HandTag {
  const all = stepChanges.flat();
  const left = all.some((c) => c.includes("LeftGrasping("));
  const right = all.some((c) => c.includes("RightGrasping("));
  return left && right ? "both" : left ? "left" : right ? "right" : "none";
}

function changeKey(changes: readonly string[]): string {
  return changes.join("|");
}

/** True when two steps of the trajectory have the same visible change set. */
export function hasRepeatedVisibleChange(t: Trajectory): boolean {
  const keys = t.steps.map((s) => changeKey(s.visible));
  return new Set(keys).size < keys.length;
}

/**
 * Each fact that changes in the trajectory changes either always visibly or always hidden, so
 * that "diff minus the item's hidden facts" is exactly the visible change set of every step.
 */
export function changeVisibilityConsistent(t: Trajectory): boolean {
  const status = new Map<string, boolean>();
  for (const step of t.steps) {
    const visible = new Set(step.visible);
    for (const c of step.changes) {
      const fact = c.slice(1);
      const v = visible.has(c);
      if (status.has(fact) && status.get(fact) !== v) return false;
      status.set(fact, v);
    }
  }
  return true;
}

/**
 * The item-level hidden facts: facts some state of the trajectory holds without showing them,
 * minus facts whose changes are visible. Removing these from a step's diff gives the step's
 * visible change set (given changeVisibilityConsistent).
 */
export function trajectoryHiddenFacts(t: Trajectory): string[] {
  const hidden = new Set<string>();
  for (const s of t.states) for (const f of hiddenFacts(s)) hidden.add(f);
  for (const step of t.steps) for (const c of step.changes) if (step.visible.includes(c)) hidden.delete(c.slice(1));
  return [...hidden].sort();
}

/** How much an action serves the activity's goals: moving an object to (or towards) where it should go. */
function goalBonus(s: KitchenState, action: Action, activity: Activity): number {
  const atGoal = (o: ObjectId): boolean => {
    const loc = s.loc[o];
    return loc !== undefined && loc.rel !== "held" && (activity.goals[o] ?? []).includes(loc.target);
  };
  switch (action.type) {
    case "place":
    case "stow":
      return (activity.goals[action.obj] ?? []).includes(action.target) ? 4 : 1;
    case "grasp":
    case "retrieve":
      return activity.goals[action.obj] && !atGoal(action.obj) ? 2 : 0.7;
    case "open":
    case "openWithHandle":
      return Object.entries(activity.goals).some(([o, targets]) => targets?.includes(action.fixture) && !atGoal(o as ObjectId)) ? 2 : 1;
    default:
      return 1;
  }
}

function touches(action: Action, focus: readonly string[]): boolean {
  return Object.values(action).some((v) => typeof v === "string" && focus.includes(v));
}

/**
 * A seeded random walk of `actions` steps. Every step changes something visible; the walk
 * prefers the activity's focus entities and rarely undoes its previous step. Retries (with the
 * same generator, so still deterministic) until the options' requirements hold.
 */
export function generateTrajectory(rng: Rng, options: TrajectoryOptions): Trajectory {
  const { actions: L, hand = "right", requireRepeat = false, accept, maxAttempts = 400 } = options;
  if (!Number.isInteger(L) || L < 1) throw new Error("a trajectory needs at least one action");
  const activity = ACTIVITIES.find((a) => a.name === options.activity) ?? pick(rng, ACTIVITIES);
  const hands: Hand[] = hand === "both" ? ["left", "right"] : [hand];
  let best: Trajectory | null = null;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const t = walk(rng, activity, L, hands, requireRepeat);
    if (!t) continue;
    if (!changeVisibilityConsistent(t)) continue;
    if (requireRepeat && L >= 3 && !hasRepeatedVisibleChange(t)) continue;
    if (accept && !accept(t)) continue;
    best ??= t;
    // the hand tag should match the requested grippers; keep the first valid walk as fallback
    if (t.hand === hand || attempt > maxAttempts / 2) return t;
  }
  if (best) return best;
  throw new Error(`no ${L}-action trajectory for ${activity.name} (hand ${hand}) after ${maxAttempts} attempts`);
}

function walk(rng: Rng, activity: Activity, L: number, hands: Hand[], requireRepeat: boolean): Trajectory | null {
  const states = [initialScene(rng, activity)];
  const steps: TrajectoryStep[] = [];
  const seenVisible = new Set<string>();
  let repeated = false;
  for (let i = 0; i < L; i++) {
    const s = states[i];
    const facts = stateFacts(s);
    const previous = i > 0 ? stateFacts(states[i - 1]).join("\n") : null;
    const options: Array<{ value: { action: Action; next: KitchenState; changes: string[]; visible: string[] }; weight: number }> = [];
    for (const { action, next } of validActions(s, hands)) {
      const nextFacts = stateFacts(next);
      const changes = diffFacts(facts, nextFacts);
      const visible = visibleChangesOfStep(s, next, changes);
      if (visible.length === 0) continue; // no invisible no-op steps
      let weight = (touches(action, activity.focus) ? 4 : 1) * goalBonus(s, action, activity);
      if (action.type === "wait") weight = 6;
      if (action.type === "stow" || action.type === "retrieve") weight *= 0.6;
      if (action.type === "graspHandle" || action.type === "releaseHandle") weight *= 0.35;
      const undo = previous !== null && nextFacts.join("\n") === previous;
      // until the walk has repeated a visible change set (when asked to), favour doing so
      const wantRepeat = requireRepeat && !repeated;
      if (undo) weight *= wantRepeat ? 2 : 0.25;
      if (wantRepeat && seenVisible.has(changeKey(visible))) weight *= 4;
      options.push({ value: { action, next, changes, visible }, weight });
    }
    if (options.length === 0) return null;
    const chosen = weightedPick(rng, options);
    states.push(chosen.next);
    steps.push({ action: chosen.action, changes: chosen.changes, visible: chosen.visible });
    if (seenVisible.has(changeKey(chosen.visible))) repeated = true;
    seenVisible.add(changeKey(chosen.visible));
  }
  return { activity: activity.name, states, steps, hand: handTag(steps.map((s) => s.changes)) };
}

/** A 32-bit seed from any strings / numbers (FNV-1a), for independent per-item generators. */
export function deriveSeed(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join("|")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function rngFor(...parts: Array<string | number>): Rng {
  return mulberry32(deriveSeed(...parts));
}
