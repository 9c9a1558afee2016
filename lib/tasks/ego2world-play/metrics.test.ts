import { describe, expect, it } from "vitest";
import { miniEpisode } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode";
import {
  aggregateEpisodeScores,
  engineOf,
  multisetF1,
  multisetOverlap,
  playTasks,
  replanCount,
  scoreEpisode,
  taskCompletionRate,
  worldStateRecovery,
} from "@/lib/tasks/ego2world-play/metrics";

const reference = { tasks: miniEpisode().tasks.map((task) => ({ id: task.id, actions: task.reference })) };

describe("multiset helpers", () => {
  it("counts the multiset overlap and its F1", () => {
    expect(multisetOverlap(["a", "a", "b"], ["a", "b", "b", "c"])).toBe(2);
    // P = 2/3, R = 2/4: F1 = 2 * (2/3) * (1/2) / (2/3 + 1/2) = 4/7
    expect(multisetF1(["a", "a", "b"], ["a", "b", "b", "c"])).toBeCloseTo(4 / 7, 12);
    expect(multisetF1([], [])).toBe(1);
    expect(multisetF1(["a"], [])).toBe(0);
    expect(multisetF1([], ["a"])).toBe(0);
    expect(multisetF1(["x"], ["y"])).toBe(0);
  });

  it("TCR matches key actions by normalised text as a multiset; null without key actions", () => {
    expect(taskCompletionRate(["fill(p,t)", "fill(p, t)"], ["fill( p , t )"])).toBe(0.5);
    expect(taskCompletionRate(["fill(p,t)", "fill(p,t)"], ["fill(p,t)", "fill(p,t)", "fill(p,t)"])).toBe(1);
    expect(taskCompletionRate([], ["fill(p,t)"])).toBeNull();
  });

  it("counts a replan when a failed action is followed by a different one", () => {
    expect(replanCount(["a(x)", "b(x)", "c(x)", "c( x )", "d(x)"], [false, true, false, false, true])).toBe(2);
    expect(replanCount(["a(x)"], [false])).toBe(0);
    expect(replanCount([], [])).toBe(0);
  });
});

describe("scoreEpisode on hand-made plays", () => {
  it("gives the reference full marks", () => {
    const score = scoreEpisode(miniEpisode(), reference);
    expect(score).toEqual({
      TSR: 1,
      TCR: 1,
      F1: 1,
      WSR: 1,
      validity: 1,
      tasks: [
        { id: "t1", success: true, TCR: 1, F1: 1, WSR: 1, accepted: [true, true, true] },
        { id: "t2", success: true, TCR: 1, F1: 1, WSR: 1, accepted: [true] },
      ],
    });
  });

  it("runs tasks without resetting the world: a person left in the drawer cannot slice the bread", () => {
    const score = scoreEpisode(miniEpisode(), {
      tasks: [
        { id: "t1", actions: ["pick_up(knife_01)", "go_to(drawer)", "pick_up( knife_01 )"] },
        { id: "t2", actions: ["slice(bread_01, knife_01)"] },
      ],
    });
    // t1: goal holds; the key action is an accepted primitive; names {pick_up x2, go_to} vs {go_to x2, pick_up}:
    // overlap 2, P = R = 2/3; the reference changed knife_01.area only (drawer -> held), the person's too
    expect(score.tasks[0]).toEqual({ id: "t1", success: true, TCR: 1, F1: 2 / 3, WSR: 1, accepted: [false, true, true] });
    // t2: the slice is refused (bread_01.area = here fails in the drawer); the reference changed 9 slots
    // (bread_01: area, in, on, amount, state.cut -> <absent>; bread_slice_01: area, in, on, amount from <absent>)
    // and the person's world matches none of them
    expect(score.tasks[1]).toEqual({ id: "t2", success: false, TCR: 0, F1: 1, WSR: 0, accepted: [false] });
    expect(score).toMatchObject({ TSR: 0.5, TCR: 0.5, F1: (2 / 3 + 1) / 2, WSR: 0.5, validity: 2 / 4 });
  });

  it("expands skills for TCR and F1 but counts a skill once for validity; a task with no entry has no actions", () => {
    const score = scoreEpisode(miniEpisode(), { tasks: [{ id: "t1", actions: ["fetch(knife_01, drawer)"] }] });
    // names {go_to, pick_up} vs {go_to, pick_up, go_to}: P = 1, R = 2/3, F1 = 0.8
    expect(score.tasks[0]).toEqual({ id: "t1", success: true, TCR: 1, F1: 0.8, WSR: 1, accepted: [true] });
    expect(score.tasks[1]).toEqual({ id: "t2", success: false, TCR: 0, F1: 0, WSR: 0, accepted: [] });
    expect(score.validity).toBe(1);
  });

  it("gives a failed skill no accepted primitives (TCR) but its names (F1)", () => {
    // fetch(knife_01, counter): go_to(counter) runs, pick_up(knife_01) fails: the skill is refused whole
    const score = scoreEpisode(miniEpisode(), { tasks: [{ id: "t1", actions: ["fetch(knife_01, counter)"] }] });
    expect(score.tasks[0]).toEqual({ id: "t1", success: false, TCR: 0, F1: 0.8, WSR: 0, accepted: [false] });
  });

  it("ignores answer entries for unknown tasks and scores a partial world state", () => {
    const spec = miniEpisode();
    spec.tasks[1].goal.push("knife_01.area = counter");
    spec.tasks[1].reference.push("put_down(knife_01)");
    const score = scoreEpisode(spec, {
      tasks: [
        { id: "zz", actions: ["go_to(drawer)"] },
        { id: "t1", actions: ["go_to(drawer)", "pick_up(knife_01)", "go_to(counter)"] },
        { id: "t2", actions: ["put_down(knife_01)"] },
      ],
    });
    // t2's reference changes bread_01 (5 slots), bread_slice_01 (4) and knife_01.area (held -> counter):
    // the person matches knife_01.area only
    expect(score.tasks[1]).toMatchObject({ success: false, WSR: 1 / 10, TCR: 0 });
  });

  it("gives WSR and TCR null for a task whose reference changes no slot and has no key actions", () => {
    const spec = miniEpisode();
    spec.tasks = [{ id: "walk", goal: ["here = drawer"], keyActions: [], reference: ["go_to(drawer)"] }];
    const score = scoreEpisode(spec, { tasks: [{ id: "walk", actions: ["go_to(drawer)"] }] });
    expect(score).toEqual({
      TSR: 1,
      TCR: null,
      F1: 1,
      WSR: null,
      validity: 1,
      tasks: [{ id: "walk", success: true, TCR: null, F1: 1, WSR: null, accepted: [true] }],
    });
    expect(scoreEpisode(spec, { tasks: [] }).validity).toBeNull();
  });

  it("pools the aggregate over task units, validity over all actions", () => {
    const perfect = scoreEpisode(miniEpisode(), reference);
    const partial = scoreEpisode(miniEpisode(), {
      tasks: [
        { id: "t1", actions: ["pick_up(knife_01)", "go_to(drawer)", "pick_up(knife_01)"] },
        { id: "t2", actions: ["slice(bread_01, knife_01)"] },
      ],
    });
    const aggregate = aggregateEpisodeScores([perfect, partial]);
    expect(aggregate.TSR).toBe(0.75);
    expect(aggregate.TCR).toBe(0.75);
    expect(aggregate.F1).toBeCloseTo((1 + 1 + 2 / 3 + 1) / 4, 12);
    expect(aggregate.WSR).toBe(0.75);
    expect(aggregate.validity).toBe(6 / 8);
    expect(aggregateEpisodeScores([])).toEqual({ TSR: null, TCR: null, F1: null, WSR: null, validity: null });
  });
});

describe("worldStateRecovery", () => {
  it("reads absent objects as <absent> and missing state words as null", () => {
    const spec = miniEpisode();
    const engine = engineOf(spec);
    const [ref] = playTasks(engine, spec.world, [{ id: "x", actions: ["slice(bread_01, knife_01)"] }]);
    expect(ref.accepted).toEqual([false]);
    const before = spec.world;
    const after = structuredClone(before);
    after.objects.cup_01.state.contents = "coffee"; // null (missing) -> coffee: one slot
    delete after.objects.bread_01; // 5 slots -> <absent>
    expect(worldStateRecovery(before, after, after)).toBe(1);
    expect(worldStateRecovery(before, after, before)).toBe(0);
    const half = structuredClone(before);
    half.objects.cup_01.state.contents = "coffee";
    expect(worldStateRecovery(before, after, half)).toBe(1 / 6);
  });
});
