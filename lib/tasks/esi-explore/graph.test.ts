import { describe, expect, it } from "vitest";
import { actionKey, actionOfKey, parseActionKey, esiActionSchema } from "@/lib/tasks/esi-explore/actions";
import { CANNOT_DO_THAT, distancesFromInitial, esiGraphSchema, followActions, randomWalkStates, stepGraph, viewpointOf } from "@/lib/tasks/esi-explore/graph";

const raw = {
  initial: "s0",
  states: {
    s0: { image: "img/s0.png", objects: ["mug_1", "table_2"], viewpoint: "v0" },
    s1: { image: "img/s1.png", objects: ["table_2"], viewpoint: "v1" },
    s2: { image: "img/s2.png", objects: ["mug_1"], viewpoint: "v0" },
    s3: { image: "img/s3.png", objects: ["ball_1"], holding: ["mug_1"], viewpoint: "v0", contrastive: true },
  },
  edges: {
    s0: { move_forward: "s1", turn_left: "s2", "pick_up( mug_1 )": "s3" },
    s1: { move_backward: "s0" },
    s2: { turn_right: "s0" },
    s3: { "put_on(mug_1, table_2)": "s0" },
  },
};

describe("ESI actions", () => {
  it("names actions canonically and reads them back", () => {
    expect(actionKey({ name: "move_forward" })).toBe("move_forward");
    expect(actionKey({ name: "put_on", args: ["mug_1", "table_2"] })).toBe("put_on(mug_1,table_2)");
    expect(parseActionKey(" pick_up( mug_1 ) ")).toEqual({ name: "pick_up", args: ["mug_1"] });
    expect(parseActionKey("fly")).toMatch(/expected an action/);
    expect(parseActionKey("pick_up")).toMatch(/takes 1 object, got 0/);
    expect(parseActionKey("turn_left(mug_1)")).toMatch(/takes 0 objects, got 1/);
  });

  it("checks arity and object names in the action schema", () => {
    expect(esiActionSchema.safeParse({ name: "pour", args: ["water", "kettle_1", "cup_1"] }).success).toBe(true);
    expect(esiActionSchema.safeParse({ name: "pour", args: ["kettle_1", "cup_1"] }).success).toBe(false);
    expect(esiActionSchema.safeParse({ name: "pick_up", args: ["mug 1"] }).success).toBe(false);
    expect(esiActionSchema.parse({ name: "move_up" })).toEqual({ name: "move_up", args: [] });
  });

  it("maps WASD, R/F and the arrows to movement and looking", () => {
    expect(actionOfKey("w")).toBe("move_forward");
    expect(actionOfKey("W")).toBe("move_forward");
    expect(actionOfKey("a")).toBe("move_left");
    expect(actionOfKey("s")).toBe("move_backward");
    expect(actionOfKey("d")).toBe("move_right");
    expect(actionOfKey("r")).toBe("move_up");
    expect(actionOfKey("f")).toBe("move_down");
    expect(actionOfKey("ArrowLeft")).toBe("turn_left");
    expect(actionOfKey("ArrowUp")).toBe("turn_up");
    expect(actionOfKey("x")).toBeNull();
  });
});

describe("exploration graphs", () => {
  const graph = esiGraphSchema.parse(raw);

  it("rewrites edge names to their canonical text and fills defaults", () => {
    expect(Object.keys(graph.edges.s0)).toEqual(["move_forward", "turn_left", "pick_up(mug_1)"]);
    expect(graph.edges.s3).toEqual({ "put_on(mug_1,table_2)": "s0" });
    expect(graph.states.s1.contrastive).toBe(false);
  });

  it("reports broken graphs with the place of each problem", () => {
    const broken = esiGraphSchema.safeParse({
      initial: "nowhere",
      states: { s0: { image: "a.png" } },
      edges: { s0: { fly: "s0", move_forward: "s9", "move_forward ": "s0" }, s7: {} },
    });
    expect(broken.success).toBe(false);
    const issues = broken.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(issues).toContain('initial: the initial state "nowhere" is not among the states');
    expect(issues.some((issue) => issue.startsWith("edges.s0.fly: ") && issue.includes("expected an action"))).toBe(true);
    expect(issues).toContain('edges.s0.move_forward: leads to "s9", which is not among the states');
    expect(issues).toContain('edges.s0.move_forward : the same action as "move_forward"');
    expect(issues).toContain('edges.s7: edges from "s7", which is not among the states');
  });

  it("steps along edges, and answers 'cannot do that here' in place for anything else", () => {
    expect(stepGraph(graph, "s0", { name: "move_forward" })).toEqual({ node: "s1", valid: true });
    expect(stepGraph(graph, "s0", { name: "pick_up", args: ["mug_1"] })).toEqual({ node: "s3", valid: true });
    expect(stepGraph(graph, "s0", { name: "pick_up", args: ["table_2"] })).toEqual({ node: "s0", valid: false, message: CANNOT_DO_THAT });
    expect(stepGraph(graph, "s1", { name: "turn_left" })).toEqual({ node: "s1", valid: false, message: CANNOT_DO_THAT });
    // inherited object keys are not edges
    expect(stepGraph(graph, "s0", { name: "constructor" })).toMatchObject({ valid: false });
  });

  it("follows action lists, walks at random reproducibly, and measures distances", () => {
    expect(followActions(graph, ["turn_left", "turn_right", "pick_up(mug_1)"])).toEqual(["s0", "s2", "s0", "s3"]);
    expect(followActions(graph, ["move_backward"])).toBeNull();
    const walk = randomWalkStates(graph, 30, "assignment-1|passive-multi");
    expect(walk[0]).toBe("s0");
    expect(new Set(walk).size).toBe(walk.length);
    expect(randomWalkStates(graph, 30, "assignment-1|passive-multi")).toEqual(walk);
    expect([...distancesFromInitial(graph).entries()]).toEqual([
      ["s0", 0],
      ["s1", 1],
      ["s2", 1],
      ["s3", 1],
    ]);
    expect(viewpointOf(graph, "s2")).toBe("v0");
    expect(viewpointOf({ ...graph, states: { ...graph.states, s9: { image: "x.png", objects: [], contrastive: false } } }, "s9")).toBeNull();
  });
});
