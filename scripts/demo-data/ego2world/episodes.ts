import type { RuleSpec, SkillSpec } from "@/lib/tasks/ego2world-play/engine";
import type { World } from "@/lib/tasks/ego2world-play/world";

/**
 * Three hand-written Ego2World kitchens for the demo (docs/ego2world.md, "Demo data"): making coffee,
 * slicing bread and cheese for a plate, filling a pot and cooking pasta. Their rules cover the
 * kinds of the paper's Table 6: state change (open, brew, turn_on), create (slice, add pasta),
 * destroy (the coffee pod, the loaf, the pasta), hand (one object at a time, free hand for taps);
 * each has 3-4 tasks chained without resetting the world, with goals, key actions and a
 * reference the importer replays.
 */

export interface DemoEpisode {
  id: string;
  title: string;
  /** area -> what the picture shows (furniture drawn by draw.ts) */
  areas: Record<string, { caption: string; furniture: "counter" | "cabinet" | "fridge" | "sink" | "stove" | "table" | "drawer" | "coffee" }>;
  world: World;
  rules: RuleSpec[];
  skills: SkillSpec[];
  tasks: Array<{ id: string; instruction: string; goal: string[]; keyActions: string[]; reference: string[] }>;
  /** the palette shown to people: primitives first, then skills */
  actions: Array<{ name: string; params: string[] }>;
  tags: Record<string, string | number>;
}

type ObjectInit = {
  label: string;
  area: string;
  in?: string | null;
  on?: string | null;
  amount?: number;
  state?: Record<string, string | number | boolean | null>;
};

function objects(spec: Record<string, ObjectInit>): World["objects"] {
  return Object.fromEntries(
    Object.entries(spec).map(([id, o]) => [
      id,
      { label: o.label, area: o.area, in: o.in ?? null, on: o.on ?? null, amount: o.amount ?? 0, state: o.state ?? {} },
    ]),
  );
}

/** go_to(a): one rule per area (the language has no "is an area" test), so go_to(cup_01) is refused. */
function goToRules(areas: readonly string[]): RuleSpec[] {
  return areas.map((area) => ({ action: "go_to", params: ["a"], pre: [`a = ${area}`], eff: [`here := ${area}`] }));
}

/** Hand rules: one object at a time; only portable things; put down where you are. */
const handRules: RuleSpec[] = [
  {
    action: "pick_up",
    params: ["x"],
    pre: ["hand = null", "x.area = here", "x.portable = true"],
    eff: ["hand := x", "x.area := held", "x.in := null", "x.on := null"],
  },
  { action: "put_down", params: ["x"], pre: ["hand = x"], eff: ["hand := null", "x.area := here"] },
  { action: "place_on", params: ["x", "s"], pre: ["hand = x", "s.area = here"], eff: ["hand := null", "x.area := here", "x.on := s"] },
];

const commonSkills: SkillSpec[] = [
  { name: "fetch", params: ["x", "a"], steps: ["go_to(a)", "pick_up(x)"] },
  { name: "bring", params: ["x", "a"], steps: ["go_to(a)", "put_down(x)"] },
];

const handPalette = [
  { name: "pick_up", params: ["x"] },
  { name: "put_down", params: ["x"] },
  { name: "place_on", params: ["x", "s"] },
];
const skillPalette = [
  { name: "fetch", params: ["x", "a"] },
  { name: "bring", params: ["x", "a"] },
];

const portable = { portable: true };

export const coffeeEpisode: DemoEpisode = {
  id: "ego-coffee",
  title: "Coffee corner",
  areas: {
    counter: { caption: "Counter", furniture: "counter" },
    cabinet: { caption: "Cabinet", furniture: "cabinet" },
    coffee_station: { caption: "Coffee station", furniture: "coffee" },
    fridge: { caption: "Fridge", furniture: "fridge" },
  },
  world: {
    agent: { area: "counter", hand: null },
    objects: objects({
      cup_01: { label: "cup", area: "cabinet", state: { ...portable, contents: null } },
      pod_01: { label: "coffee_pod", area: "cabinet", state: portable },
      machine_01: { label: "coffee_machine", area: "coffee_station", state: { lid: "closed", pod: "empty" } },
      milk_01: { label: "milk", area: "fridge", amount: 2, state: portable },
      spoon_01: { label: "spoon", area: "counter", state: portable },
    }),
  },
  rules: [
    ...goToRules(["counter", "cabinet", "coffee_station", "fridge"]),
    ...handRules,
    { action: "open", params: ["m"], pre: ["m.area = here", "m.lid = closed"], eff: ["m.lid := open"] },
    { action: "close", params: ["m"], pre: ["m.area = here", "m.lid = open"], eff: ["m.lid := closed"] },
    // destroy: the pod goes into the machine and is no longer an object of its own
    {
      action: "insert",
      params: ["p", "m"],
      pre: ["hand = p", "p.label = coffee_pod", "m.area = here", "m.lid = open", "m.pod = empty"],
      eff: ["hand := null", "destroy p", "m.pod := loaded"],
    },
    {
      action: "place_under",
      params: ["c", "m"],
      pre: ["hand = c", "m.area = here", "m.label = coffee_machine"],
      eff: ["hand := null", "c.area := here", "c.on := m"],
    },
    // state change with preconditions on two objects
    {
      action: "brew",
      params: ["m", "c"],
      pre: ["m.area = here", "m.pod = loaded", "m.lid = closed", "c.on = m", "c.contents = null"],
      eff: ["c.contents := coffee", "m.pod := used"],
    },
    // amounts: each pour takes one unit; the first rule that holds runs
    {
      action: "pour",
      params: ["s", "c"],
      pre: ["hand = s", "s.label = milk", "c.area = here", "c.contents = coffee", "s.amount = 2"],
      eff: ["s.amount := 1", "c.milk := true"],
    },
    {
      action: "pour",
      params: ["s", "c"],
      pre: ["hand = s", "s.label = milk", "c.area = here", "c.contents = coffee", "s.amount = 1"],
      eff: ["s.amount := 0", "c.milk := true"],
    },
    { action: "stir", params: ["c", "t"], pre: ["hand = t", "t.label = spoon", "c.area = here", "c.contents = coffee"], eff: ["c.stirred := true"] },
  ],
  skills: commonSkills,
  tasks: [
    {
      id: "t1",
      instruction: "Bring a clean cup from the cabinet to the coffee station and leave it there.",
      goal: ["cup_01.area = coffee_station"],
      keyActions: ["pick_up(cup_01)", "put_down(cup_01)"],
      reference: ["go_to(cabinet)", "pick_up(cup_01)", "go_to(coffee_station)", "put_down(cup_01)"],
    },
    {
      id: "t2",
      instruction: "Make a cup of coffee with a pod from the cabinet.",
      goal: ["cup_01.contents = coffee"],
      keyActions: ["insert(pod_01,machine_01)", "brew(machine_01,cup_01)"],
      reference: [
        "fetch(pod_01, cabinet)",
        "go_to(coffee_station)",
        "open(machine_01)",
        "insert(pod_01, machine_01)",
        "close(machine_01)",
        "pick_up(cup_01)",
        "place_under(cup_01, machine_01)",
        "brew(machine_01, cup_01)",
      ],
    },
    {
      id: "t3",
      instruction: "Add milk to the coffee, stir it, and put the milk back in the fridge.",
      goal: ["cup_01.milk = true", "cup_01.stirred = true", "milk_01.area = fridge"],
      keyActions: ["pour(milk_01,cup_01)", "stir(cup_01,spoon_01)"],
      reference: [
        "fetch(milk_01, fridge)",
        "go_to(coffee_station)",
        "pour(milk_01, cup_01)",
        "bring(milk_01, fridge)",
        "fetch(spoon_01, counter)",
        "go_to(coffee_station)",
        "stir(cup_01, spoon_01)",
      ],
    },
    {
      id: "t4",
      instruction: "Serve the coffee on the counter.",
      goal: ["cup_01.area = counter", "cup_01.contents = coffee"],
      keyActions: ["put_down(cup_01)"],
      reference: ["put_down(spoon_01)", "pick_up(cup_01)", "bring(cup_01, counter)"],
    },
  ],
  actions: [
    ...handPalette,
    { name: "open", params: ["m"] },
    { name: "close", params: ["m"] },
    { name: "insert", params: ["p", "m"] },
    { name: "place_under", params: ["c", "m"] },
    { name: "brew", params: ["m", "c"] },
    { name: "pour", params: ["s", "c"] },
    { name: "stir", params: ["c", "t"] },
    ...skillPalette,
  ],
  tags: { kitchen: "coffee", tasks: 4 },
};

export const slicingEpisode: DemoEpisode = {
  id: "ego-slicing",
  title: "Bread and cheese plate",
  areas: {
    counter: { caption: "Counter", furniture: "counter" },
    drawer: { caption: "Drawer", furniture: "drawer" },
    fridge: { caption: "Fridge", furniture: "fridge" },
    table: { caption: "Table", furniture: "table" },
  },
  world: {
    agent: { area: "table", hand: null },
    objects: objects({
      bread_01: { label: "bread", area: "counter", on: "board_01", state: { ...portable, cut: "whole" } },
      board_01: { label: "cutting_board", area: "counter", state: {} },
      knife_01: { label: "knife", area: "drawer", state: portable },
      fork_01: { label: "fork", area: "drawer", state: portable },
      cheese_01: { label: "cheese", area: "fridge", state: { ...portable, cut: "whole" } },
      plate_01: { label: "plate", area: "table", state: {} },
    }),
  },
  rules: [
    ...goToRules(["counter", "drawer", "fridge", "table"]),
    ...handRules,
    // create and destroy: the loaf becomes two slices; cheese gives one slice and stays
    {
      action: "slice",
      params: ["x", "t"],
      pre: ["hand = t", "t.label = knife", "x.area = here", "x.label = bread", "x.on = board_01"],
      eff: ["create bread_slice area=here on=board_01 portable=true", "create bread_slice area=here on=board_01 portable=true", "destroy x"],
    },
    {
      action: "slice",
      params: ["x", "t"],
      pre: ["hand = t", "t.label = knife", "x.area = here", "x.label = cheese", "x.on = board_01"],
      eff: ["create cheese_slice area=here on=board_01 portable=true", "x.cut := cut"],
    },
  ],
  skills: commonSkills,
  tasks: [
    {
      id: "t1",
      instruction: "Get a knife and take it to the counter.",
      goal: ["hand = knife_01", "here = counter"],
      keyActions: ["pick_up(knife_01)"],
      reference: ["fetch(knife_01, drawer)", "go_to(counter)"],
    },
    {
      id: "t2",
      instruction: "Slice the bread on the cutting board.",
      goal: ["bread_slice_01.area = counter", "bread_slice_02.area = counter"],
      keyActions: ["slice(bread_01,knife_01)"],
      reference: ["slice(bread_01, knife_01)"],
    },
    {
      id: "t3",
      instruction: "Cut a slice of cheese from the block in the fridge (cut it on the cutting board).",
      goal: ["cheese_slice_01.area = counter"],
      keyActions: ["place_on(cheese_01,board_01)", "slice(cheese_01,knife_01)"],
      reference: [
        "put_down(knife_01)",
        "fetch(cheese_01, fridge)",
        "go_to(counter)",
        "place_on(cheese_01, board_01)",
        "pick_up(knife_01)",
        "slice(cheese_01, knife_01)",
      ],
    },
    {
      id: "t4",
      instruction: "Put both bread slices and the cheese slice on the plate on the table.",
      goal: ["bread_slice_01.on = plate_01", "bread_slice_02.on = plate_01", "cheese_slice_01.on = plate_01"],
      keyActions: ["place_on(bread_slice_01,plate_01)", "place_on(bread_slice_02,plate_01)", "place_on(cheese_slice_01,plate_01)"],
      reference: [
        "put_down(knife_01)",
        "pick_up(bread_slice_01)",
        "go_to(table)",
        "place_on(bread_slice_01, plate_01)",
        "fetch(bread_slice_02, counter)",
        "go_to(table)",
        "place_on(bread_slice_02, plate_01)",
        "fetch(cheese_slice_01, counter)",
        "go_to(table)",
        "place_on(cheese_slice_01, plate_01)",
      ],
    },
  ],
  actions: [...handPalette, { name: "slice", params: ["x", "t"] }, ...skillPalette],
  tags: { kitchen: "slicing", tasks: 4 },
};

export const potEpisode: DemoEpisode = {
  id: "ego-pot",
  title: "Pasta pot",
  areas: {
    cabinet: { caption: "Cabinet", furniture: "cabinet" },
    sink: { caption: "Sink", furniture: "sink" },
    stove: { caption: "Stove", furniture: "stove" },
  },
  world: {
    agent: { area: "cabinet", hand: null },
    objects: objects({
      pot_01: { label: "pot", area: "cabinet", amount: 0, state: { ...portable, contents: null } },
      pasta_01: { label: "pasta", area: "cabinet", state: portable },
      tap_01: { label: "tap", area: "sink", state: { flow: "off" } },
      burner_01: { label: "burner", area: "stove", state: { heat: "off" } },
      lid_01: { label: "lid", area: "cabinet", state: portable },
    }),
  },
  rules: [
    ...goToRules(["cabinet", "sink", "stove"]),
    ...handRules,
    // hand: taps and knobs need a free hand
    { action: "turn_on", params: ["t"], pre: ["hand = null", "t.area = here", "t.flow = off"], eff: ["t.flow := on"] },
    { action: "turn_on", params: ["t"], pre: ["hand = null", "t.area = here", "t.heat = off"], eff: ["t.heat := on"] },
    { action: "turn_off", params: ["t"], pre: ["hand = null", "t.area = here", "t.flow = on"], eff: ["t.flow := off"] },
    { action: "turn_off", params: ["t"], pre: ["hand = null", "t.area = here", "t.heat = on"], eff: ["t.heat := off"] },
    // amounts: a pot fills in two goes
    { action: "fill", params: ["p", "t"], pre: ["hand = p", "t.area = here", "t.flow = on", "p.amount = 0"], eff: ["p.amount := 1", "p.contents := water"] },
    { action: "fill", params: ["p", "t"], pre: ["hand = p", "t.area = here", "t.flow = on", "p.amount = 1"], eff: ["p.amount := 2"] },
    {
      action: "boil",
      params: ["p"],
      pre: ["p.on = burner_01", "burner_01.heat = on", "p.contents = water", "p.amount = 2"],
      eff: ["p.contents := boiling_water"],
    },
    // destroy and create: the dry pasta goes into the pot as cooking pasta
    {
      action: "add",
      params: ["x", "p"],
      pre: ["hand = x", "x.label = pasta", "p.area = here", "p.contents = boiling_water"],
      eff: ["hand := null", "destroy x", "create cooking_pasta area=here in=p"],
    },
  ],
  skills: commonSkills,
  tasks: [
    {
      id: "t1",
      instruction: "Fill the pot from the cabinet to the top with water (it takes more than one go), then turn the tap off.",
      goal: ["pot_01.amount = 2", "pot_01.contents = water", "tap_01.flow = off"],
      keyActions: ["turn_on(tap_01)", "fill(pot_01,tap_01)", "fill(pot_01,tap_01)", "turn_off(tap_01)"],
      reference: [
        "go_to(sink)",
        "turn_on(tap_01)",
        "fetch(pot_01, cabinet)",
        "go_to(sink)",
        "fill(pot_01, tap_01)",
        "fill(pot_01, tap_01)",
        "put_down(pot_01)",
        "turn_off(tap_01)",
      ],
    },
    {
      id: "t2",
      instruction: "Put the pot on the stove and bring the water to a boil.",
      goal: ["pot_01.on = burner_01", "pot_01.contents = boiling_water"],
      keyActions: ["place_on(pot_01,burner_01)", "turn_on(burner_01)", "boil(pot_01)"],
      reference: ["pick_up(pot_01)", "go_to(stove)", "place_on(pot_01, burner_01)", "turn_on(burner_01)", "boil(pot_01)"],
    },
    {
      id: "t3",
      instruction: "Cook the pasta in the boiling water.",
      goal: ["cooking_pasta_01.in = pot_01"],
      keyActions: ["add(pasta_01,pot_01)"],
      reference: ["fetch(pasta_01, cabinet)", "go_to(stove)", "add(pasta_01, pot_01)"],
    },
  ],
  actions: [
    ...handPalette,
    { name: "turn_on", params: ["t"] },
    { name: "turn_off", params: ["t"] },
    { name: "fill", params: ["p", "t"] },
    { name: "boil", params: ["p"] },
    { name: "add", params: ["x", "p"] },
    ...skillPalette,
  ],
  tags: { kitchen: "pot", tasks: 3 },
};

export const demoEpisodes: readonly DemoEpisode[] = [coffeeEpisode, slicingEpisode, potEpisode];
