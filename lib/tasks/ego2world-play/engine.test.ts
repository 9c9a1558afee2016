import { describe, expect, it } from "vitest";
import { compileRules, expandNames, goalHolds, runAction, type RuleSpec, type SkillSpec } from "@/lib/tasks/ego2world-play/engine";
import { formatAction, normaliseAction, parseAction, parseEffect, parsePredicate } from "@/lib/tasks/ego2world-play/syntax";
import type { World } from "@/lib/tasks/ego2world-play/world";

/** A small kitchen: a counter and a fridge, a cup, a knife, bread, a plate on the counter. */
function kitchen(): World {
  return {
    agent: { area: "counter", hand: null },
    objects: {
      cup_01: { label: "cup", area: "counter", in: null, on: null, amount: 0, state: { position: "free" } },
      knife_01: { label: "knife", area: "counter", in: null, on: null, amount: 0, state: {} },
      bread_01: { label: "bread", area: "counter", in: null, on: "plate_01", amount: 0, state: { cut: "whole" } },
      plate_01: { label: "plate", area: "counter", in: null, on: null, amount: 0, state: {} },
      milk_01: { label: "milk", area: "fridge", in: null, on: null, amount: 2, state: {} },
    },
  };
}

const AREAS = ["counter", "fridge", "sink"];

const pickUp: RuleSpec = { action: "pick_up", params: ["x"], pre: ["hand = null", "x.area = here"], eff: ["hand := x", "x.area := held", "x.on := null"] };
const putDown: RuleSpec = { action: "put_down", params: ["x"], pre: ["hand = x"], eff: ["hand := null", "x.area := here"] };
const goTo = (area: string): RuleSpec => ({ action: "go_to", params: ["a"], pre: [`a = ${area}`], eff: [`here := ${area}`] });
const slice: RuleSpec = {
  action: "slice",
  params: ["x", "t"],
  pre: ["hand = t", "t.label = knife", "x.area = here", "x.cut = whole"],
  eff: ["x.cut := sliced"],
};

function engineWith(rules: RuleSpec[], skills: SkillSpec[] = []) {
  return compileRules({ rules, skills, areas: AREAS });
}

describe("parsing", () => {
  it("reads actions with spaces ignored, with and without parentheses", () => {
    expect(parseAction(" pick_up ( cup_01 ) ")).toEqual({ ok: true, value: { name: "pick_up", args: ["cup_01"] } });
    expect(parseAction("slice(bread_01 , knife_01)")).toEqual({ ok: true, value: { name: "slice", args: ["bread_01", "knife_01"] } });
    expect(parseAction("wait")).toEqual({ ok: true, value: { name: "wait", args: [] } });
    expect(parseAction("wait()")).toEqual({ ok: true, value: { name: "wait", args: [] } });
    expect(normaliseAction("pick up (cup_01)")).toBe("pickup(cup_01)");
    expect(formatAction({ name: "wait", args: [] })).toBe("wait()");
  });

  it("refuses unreadable actions", () => {
    for (const text of ["", "pick_up(cup_01", "pick_up(a,,b)", "(x)", "pick_up(a.b)", "1go(x)"]) {
      expect(parseAction(text).ok, text).toBe(false);
    }
  });

  it("reads predicates and effects of every kind", () => {
    expect(parsePredicate("x.area != here")).toEqual({ ok: true, value: { left: { kind: "attr", of: "x", attr: "area" }, op: "!=", right: { kind: "here" } } });
    expect(parsePredicate("hand = null")).toEqual({ ok: true, value: { left: { kind: "hand" }, op: "=", right: { kind: "word", word: "null" } } });
    expect(parsePredicate("x.area := here").ok).toBe(false);
    expect(parseEffect("x.cut := sliced")).toEqual({
      ok: true,
      value: { kind: "assign", target: { kind: "attr", of: "x", attr: "cut" }, value: { kind: "word", word: "sliced" } },
    });
    expect(parseEffect("create bread_slice area=here cut = sliced")).toEqual({
      ok: true,
      value: {
        kind: "create",
        label: "bread_slice",
        attrs: [
          { attr: "area", value: { kind: "here" } },
          { attr: "cut", value: { kind: "word", word: "sliced" } },
        ],
      },
    });
    expect(parseEffect("destroy x")).toEqual({ ok: true, value: { kind: "destroy", of: "x" } });
    expect(parseEffect("sliced := x").ok).toBe(false); // a literal is no target
    expect(parseEffect("create").ok).toBe(false);
    expect(parseEffect("destroy x y").ok).toBe(false);
  });
});

describe("primitives", () => {
  it("runs the first rule whose preconditions all hold and applies its effects", () => {
    const engine = engineWith([pickUp]);
    const outcome = runAction(engine, kitchen(), "pick_up(bread_01)");
    expect(outcome.accepted).toBe(true);
    expect(outcome.feedback).toBe("");
    expect(outcome.world.agent.hand).toBe("bread_01");
    expect(outcome.world.objects.bread_01).toMatchObject({ area: "held", on: null });
    expect(outcome.primitives).toEqual([{ text: "pick_up(bread_01)", accepted: true }]);
  });

  it("never changes the world it is given", () => {
    const world = kitchen();
    const copy = structuredClone(world);
    runAction(engineWith([pickUp]), world, "pick_up(cup_01)");
    expect(world).toEqual(copy);
  });

  it("fails with the first violated precondition of the first rule, arguments substituted", () => {
    const engine = engineWith([slice, { ...slice, pre: ["x.area = fridge"] }]);
    const outcome = runAction(engine, kitchen(), "slice(bread_01, knife_01)");
    expect(outcome.accepted).toBe(false);
    expect(outcome.feedback).toBe("hand = knife_01");
    expect(outcome.world).toEqual(kitchen());
  });

  it("falls through to a later rule whose preconditions hold", () => {
    const engine = engineWith([
      { action: "wash", params: ["x"], pre: ["x.area = sink"], eff: ["x.clean := true"] },
      { action: "wash", params: ["x"], pre: ["x.area = counter"], eff: ["x.clean := wiped"] },
    ]);
    expect(runAction(engine, kitchen(), "wash(cup_01)").world.objects.cup_01.state.clean).toBe("wiped");
  });

  it("fails with unknown: <arg> for an argument that is neither an object nor an area", () => {
    const engine = engineWith([pickUp]);
    expect(runAction(engine, kitchen(), "pick_up(cup_09)").feedback).toBe("unknown: cup_09");
    // areas are valid arguments
    expect(runAction(engineWith([goTo("fridge")]), kitchen(), "go_to(fridge)").accepted).toBe(true);
  });

  it("fails with unknown action when no rule has the name and arity", () => {
    const engine = engineWith([pickUp]);
    expect(runAction(engine, kitchen(), "throw(cup_01)").feedback).toBe("unknown action");
    expect(runAction(engine, kitchen(), "pick_up(cup_01, knife_01)").feedback).toBe("unknown action");
    expect(runAction(engine, kitchen(), "pick_up").feedback).toBe("unknown action");
  });

  it("refuses unreadable text with a message that says how to write an action", () => {
    const outcome = runAction(engineWith([pickUp]), kitchen(), "pick_up(cup_01");
    expect(outcome.accepted).toBe(false);
    expect(outcome.feedback).toMatch(/cannot read action .*name\(arg, \.\.\.\)/);
  });

  it("reads missing state words as null and compares typed literals", () => {
    const engine = engineWith([{ action: "check", params: ["x"], pre: ["x.lid = null", "x.amount = 2", "x.amount != two"], eff: ["x.checked := true"] }]);
    const outcome = runAction(engine, kitchen(), "check(milk_01)");
    expect(outcome.accepted).toBe(true);
    expect(outcome.world.objects.milk_01.state.checked).toBe(true);
    expect(goalHolds("milk_01.checked = true", outcome.world)).toBe(true);
    expect(goalHolds("milk_01.checked = yes", outcome.world)).toBe(false);
    expect(goalHolds("milk_01.amount = 2", outcome.world)).toBe(true);
    expect(goalHolds("cup_01.position = free", outcome.world)).toBe(true);
  });
});

describe("effects", () => {
  it("reads every operand from the world before the rule fired (a swap)", () => {
    const engine = engineWith([{ action: "swap", params: ["x", "y"], pre: [], eff: ["x.area := y.area", "y.area := x.area", "here := x.area"] }]);
    const world = runAction(engine, kitchen(), "swap(cup_01, milk_01)").world;
    expect(world.objects.cup_01.area).toBe("fridge");
    expect(world.objects.milk_01.area).toBe("counter");
    expect(world.agent.area).toBe("counter"); // cup_01's area before the rule fired
  });

  it("assigns hand, here, fields and state words", () => {
    const engine = engineWith([
      { action: "fill", params: ["x"], pre: [], eff: ["x.amount := 3", "x.contents := water", "x.in := sink", "here := sink", "hand := x"] },
    ]);
    const world = runAction(engine, kitchen(), "fill(cup_01)").world;
    expect(world.objects.cup_01).toMatchObject({ amount: 3, in: "sink", state: { position: "free", contents: "water" } });
    expect(world.agent).toEqual({ area: "sink", hand: "cup_01" });
  });

  it("create makes LABEL_NN with the smallest number whose id never existed", () => {
    const engine = engineWith([
      { action: "cut", params: ["x"], pre: [], eff: ["create bread_slice area=here on=x cut=sliced amount=1", "create bread_slice area=here"] },
      { action: "eat", params: ["x"], pre: [], eff: ["destroy x"] },
      { action: "pour", params: [], pre: [], eff: ["create cup area=sink"] },
    ]);
    let world = runAction(engine, kitchen(), "cut(bread_01)").world;
    expect(world.objects.bread_slice_01).toEqual({ label: "bread_slice", area: "counter", in: null, on: "bread_01", amount: 1, state: { cut: "sliced" } });
    expect(world.objects.bread_slice_02).toEqual({ label: "bread_slice", area: "counter", in: null, on: null, amount: 0, state: {} });
    world = runAction(engine, world, "eat(bread_slice_01)").world;
    world = runAction(engine, world, "cut(bread_01)").world;
    // 01 existed (destroyed) and 02 exists: 03 and 04
    expect(
      Object.keys(world.objects)
        .filter((id) => id.startsWith("bread_slice"))
        .sort(),
    ).toEqual(["bread_slice_02", "bread_slice_03", "bread_slice_04"]);
    // cup_01 exists: the new cup is cup_02
    expect(runAction(engine, kitchen(), "pour").world.objects.cup_02).toMatchObject({ label: "cup", area: "sink" });
  });

  it("create numbers past a gap from the smallest free number", () => {
    const engine = engineWith([{ action: "pour", params: [], pre: [], eff: ["create cup area=sink"] }]);
    const world = kitchen();
    world.objects.cup_02 = world.objects.cup_01;
    delete world.objects.cup_01;
    expect(Object.keys(runAction(engine, world, "pour()").world.objects)).toContain("cup_01");
    world.gone = ["cup_01"];
    expect(Object.keys(runAction(engine, world, "pour()").world.objects)).toContain("cup_03");
  });

  it("destroy removes the object, clears in/on pointing at it and empties the hand", () => {
    const engine = engineWith([pickUp, { action: "eat", params: ["x"], pre: [], eff: ["destroy x", "destroy x"] }]);
    let world = runAction(engine, kitchen(), "pick_up(plate_01)").world;
    world.objects.cup_01.in = "plate_01";
    world = runAction(engine, world, "eat(plate_01)").world;
    expect(world.objects.plate_01).toBeUndefined();
    expect(world.gone).toEqual(["plate_01"]);
    expect(world.agent.hand).toBeNull();
    expect(world.objects.bread_01.on).toBeNull();
    expect(world.objects.cup_01.in).toBeNull();
  });

  it("assignments to an absent object do nothing", () => {
    const engine = engineWith([{ action: "eat", params: ["x"], pre: [], eff: ["destroy x", "x.cut := crumbs"] }]);
    const world = runAction(engine, kitchen(), "eat(bread_01)").world;
    expect(world.objects.bread_01).toBeUndefined();
  });
});

describe("absent objects", () => {
  it("makes every predicate that reads an absent object false, = and != alike", () => {
    const world = kitchen();
    delete world.objects.cup_01;
    expect(goalHolds("cup_01.area = counter", world)).toBe(false);
    expect(goalHolds("cup_01.area != counter", world)).toBe(false);
    expect(goalHolds("cup_01.contents = null", world)).toBe(false);
    expect(goalHolds("bread_slice_01.area = counter", world)).toBe(false); // not yet created
    expect(goalHolds("counter.area = null", world)).toBe(false); // an area is no object
    expect(goalHolds("knife_01.area = counter", world)).toBe(true);
  });

  it("refuses a rule whose precondition reads an absent object", () => {
    const engine = engineWith([{ action: "inspect", params: ["x"], pre: ["x.area != fridge"], eff: [] }]);
    // an area is a valid argument but not an object: x.area reads nothing
    expect(runAction(engine, kitchen(), "inspect(counter)")).toMatchObject({ accepted: false, feedback: "counter.area != fridge" });
  });

  it("a destroyed object is an unknown argument", () => {
    const engine = engineWith([{ action: "eat", params: ["x"], pre: [], eff: ["destroy x"] }]);
    const world = runAction(engine, kitchen(), "eat(bread_01)").world;
    expect(runAction(engine, world, "eat(bread_01)").feedback).toBe("unknown: bread_01");
  });
});

describe("parameter shadowing", () => {
  it("a parameter named like an object id reads its argument, not that object", () => {
    const engine = engineWith([{ action: "move", params: ["cup_01"], pre: ["cup_01.area = fridge"], eff: ["cup_01.area := sink"] }]);
    const outcome = runAction(engine, kitchen(), "move(milk_01)");
    expect(outcome.accepted).toBe(true);
    expect(outcome.world.objects.milk_01.area).toBe("sink");
    expect(outcome.world.objects.cup_01.area).toBe("counter");
    expect(runAction(engine, kitchen(), "move(knife_01)").feedback).toBe("knife_01.area = fridge");
  });

  it("a parameter named like a literal word is its argument", () => {
    const engine = engineWith([{ action: "tag", params: ["x", "knife"], pre: ["knife.label = knife"], eff: ["x.tool := knife"] }]);
    // knife.label reads the argument's label; the right-hand `knife` is the argument too
    expect(runAction(engine, kitchen(), "tag(cup_01, knife_01)").feedback).toBe("knife_01.label = knife_01");
    const identity = engineWith([{ action: "tag", params: ["x", "sliced"], pre: [], eff: ["x.cut := sliced"] }]);
    expect(runAction(identity, kitchen(), "tag(bread_01, cup_01)").world.objects.bread_01.state.cut).toBe("cup_01");
  });

  it("skill parameters are substituted only where a step's argument is the parameter", () => {
    const engine = engineWith([pickUp, goTo("counter"), goTo("fridge")], [{ name: "fetch", params: ["x", "a"], steps: ["go_to(a)", "pick_up(x)"] }]);
    const outcome = runAction(engine, kitchen(), "fetch(milk_01, fridge)");
    expect(outcome.accepted).toBe(true);
    expect(outcome.primitives).toEqual([
      { text: "go_to(fridge)", accepted: true },
      { text: "pick_up(milk_01)", accepted: true },
    ]);
  });
});

describe("skills", () => {
  const skills: SkillSpec[] = [
    { name: "fetch", params: ["x", "a"], steps: ["go_to(a)", "pick_up(x)"] },
    { name: "serve", params: ["x", "a"], steps: ["fetch(x, a)", "go_to(counter)", "put_down(x)"] },
  ];

  it("runs atomically: a failing step leaves the world as before, and says which step failed", () => {
    const engine = engineWith([pickUp, goTo("counter"), goTo("fridge")], skills);
    const outcome = runAction(engine, kitchen(), "fetch(cup_01, fridge)");
    expect(outcome.accepted).toBe(false);
    expect(outcome.world).toEqual(kitchen());
    expect(outcome.feedback).toBe("pick_up(cup_01): cup_01.area = here");
    expect(outcome.primitives).toEqual([
      { text: "go_to(fridge)", accepted: false },
      { text: "pick_up(cup_01)", accepted: false },
    ]);
  });

  it("nests: a skill step may be a skill", () => {
    const engine = engineWith([pickUp, putDown, goTo("counter"), goTo("fridge")], skills);
    const outcome = runAction(engine, kitchen(), "serve(milk_01, fridge)");
    expect(outcome.accepted).toBe(true);
    expect(outcome.world.objects.milk_01.area).toBe("counter");
    expect(outcome.primitives.map((primitive) => primitive.text)).toEqual(["go_to(fridge)", "pick_up(milk_01)", "go_to(counter)", "put_down(milk_01)"]);
    expect(expandNames(engine, "serve(milk_01, fridge)")).toEqual(["go_to", "pick_up", "go_to", "put_down"]);
    expect(expandNames(engine, "pick_up(cup_01)")).toEqual(["pick_up"]);
  });

  it("wins over a rule of the same name and arity; other arities go to the rules", () => {
    const engine = engineWith(
      [
        pickUp,
        goTo("fridge"),
        { action: "fetch", params: ["x", "a"], pre: [], eff: ["x.area := nowhere"] },
        { action: "fetch", params: ["x"], pre: [], eff: ["x.fetched := true"] },
      ],
      skills,
    );
    expect(runAction(engine, kitchen(), "fetch(milk_01, fridge)").world.agent.hand).toBe("milk_01");
    expect(runAction(engine, kitchen(), "fetch(milk_01)").world.objects.milk_01.state.fetched).toBe(true);
  });

  it("checks the skill's own arguments first", () => {
    const engine = engineWith([pickUp, goTo("fridge")], skills);
    expect(runAction(engine, kitchen(), "fetch(milk_09, fridge)")).toMatchObject({ accepted: false, feedback: "unknown: milk_09", primitives: [] });
  });
});
