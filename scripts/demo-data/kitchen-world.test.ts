import { describe, expect, it } from "vitest";
import { describeChange, describeChanges } from "@/scripts/demo-data/action-text";
import {
  ACTIVITIES,
  applyAction,
  changeVisibilityConsistent,
  checkInvariants,
  diffFacts,
  emptyState,
  generateTrajectory,
  hiddenFacts,
  initialScene,
  rngFor,
  stateFacts,
  trajectoryHiddenFacts,
  validActions,
  visibleChangesOfStep,
  visibleFacts,
  type KitchenState,
} from "@/scripts/demo-data/kitchen-world";

function kitchen(): KitchenState {
  const s = emptyState();
  s.objects = ["apple", "bread", "bowl", "plate", "cup", "knife"];
  s.loc = {
    apple: { rel: "OnTop", target: "counter" },
    bread: { rel: "OnTop", target: "plate" },
    plate: { rel: "OnTop", target: "table" },
    bowl: { rel: "Inside", target: "fridge" },
    cup: { rel: "Inside", target: "cabinet" },
    knife: { rel: "OnTop", target: "counter" },
  };
  return s;
}

describe("kitchen world", () => {
  it("random walks keep every invariant: one place per object, one thing per gripper", () => {
    for (let k = 0; k < 60; k++) {
      const rng = rngFor("invariants", k);
      const t = generateTrajectory(rng, {
        actions: 2 + (k % 8),
        activity: ACTIVITIES[k % ACTIVITIES.length].name,
        hand: (["left", "right", "both"] as const)[k % 3],
      });
      for (const s of t.states) {
        expect(checkInvariants(s)).toEqual([]);
        const facts = stateFacts(s);
        expect(facts.filter((f) => f.startsWith("RightGrasping(")).length).toBeLessThanOrEqual(1);
        expect(facts.filter((f) => f.startsWith("LeftGrasping(")).length).toBeLessThanOrEqual(1);
      }
      t.steps.forEach((step, i) => {
        // each step is the diff of its states, changes something visible, and its action applies
        expect(step.changes).toEqual(diffFacts(stateFacts(t.states[i]), stateFacts(t.states[i + 1])));
        expect(step.visible.length).toBeGreaterThan(0);
        expect(applyAction(t.states[i], step.action)).toEqual(t.states[i + 1]);
      });
    }
  });

  it("every valid action of many states keeps the invariants", () => {
    for (let k = 0; k < 20; k++) {
      const s = initialScene(rngFor("scenes", k), ACTIVITIES[k % ACTIVITIES.length]);
      for (const { next } of validActions(s)) expect(checkInvariants(next)).toEqual([]);
    }
  });

  it("enforces preconditions", () => {
    const s = kitchen();
    // grasping needs a free gripper
    const holding = applyAction(s, { type: "grasp", hand: "right", obj: "apple" })!;
    expect(holding).not.toBeNull();
    expect(applyAction(holding, { type: "grasp", hand: "right", obj: "knife" })).toBeNull();
    expect(applyAction(holding, { type: "grasp", hand: "left", obj: "knife" })).not.toBeNull();
    // an object already held cannot be grasped by the other hand
    expect(applyAction(holding, { type: "grasp", hand: "left", obj: "apple" })).toBeNull();
    // nothing inside a closed fridge can be grasped or placed
    expect(applyAction(s, { type: "grasp", hand: "left", obj: "bowl" })).toBeNull();
    expect(applyAction(holding, { type: "place", hand: "right", obj: "apple", target: "fridge" })).toBeNull();
    // opening needs a free hand
    const both = applyAction(holding, { type: "grasp", hand: "left", obj: "knife" })!;
    expect(applyAction(both, { type: "open", hand: "left", fixture: "fridge" })).toBeNull();
    expect(applyAction(holding, { type: "open", hand: "left", fixture: "fridge" })).not.toBeNull();
    // the plate holds one thing; only food goes on it
    expect(applyAction(holding, { type: "place", hand: "right", obj: "apple", target: "plate" })).toBeNull();
    const knife = applyAction(s, { type: "grasp", hand: "left", obj: "knife" })!;
    expect(applyAction(knife, { type: "place", hand: "left", obj: "knife", target: "bowl" })).toBeNull();
    // the microwave runs only closed and with something in it
    expect(applyAction(s, { type: "toggleOn", hand: "left", fixture: "microwave" })).toBeNull();
    // slicing needs the knife
    expect(applyAction(s, { type: "slice", hand: "left", obj: "apple" })).toBeNull();
    expect(stateFacts(applyAction(knife, { type: "slice", hand: "left", obj: "apple" })!)).toContain("Transition(apple,half_apple)");
  });

  it("open with a gripper on the handle: ENACT's grasp-then-open pattern", () => {
    const grasped = applyAction(kitchen(), { type: "graspHandle", hand: "right", fixture: "fridge" })!;
    expect(diffFacts(stateFacts(kitchen()), stateFacts(grasped))).toEqual(["+RightGrasping(r1,fridge)"]);
    const opened = applyAction(grasped, { type: "openWithHandle", hand: "right", fixture: "fridge" })!;
    expect(diffFacts(stateFacts(grasped), stateFacts(opened))).toEqual(["+Open(fridge)", "-RightGrasping(r1,fridge)"]);
    expect(describeChanges(["+Open(fridge)", "-RightGrasping(r1,fridge)"])).toMatch(
      /^The fridge (becomes|now becomes|changes to be|transitions to be) open\. The robot r1 (is no longer|stopped being) using the right gripper to grasp the fridge\.$/,
    );
  });

  it("hides what is inside a closed container, and the change of stowing it", () => {
    const s = kitchen();
    expect(hiddenFacts(s)).toEqual(["Inside(bowl,fridge)", "Inside(cup,cabinet)"]);
    expect(visibleFacts(s)).not.toContain("Inside(bowl,fridge)");
    const open = applyAction(s, { type: "open", hand: "left", fixture: "fridge" })!;
    expect(visibleFacts(open)).toContain("Inside(bowl,fridge)");
    const held = applyAction(open, { type: "grasp", hand: "right", obj: "apple" })!;
    const stowed = applyAction(held, { type: "stow", hand: "right", obj: "apple", target: "fridge" })!;
    const changes = diffFacts(stateFacts(held), stateFacts(stowed));
    expect(changes).toEqual(["+Inside(apple,fridge)", "-Open(fridge)", "-RightGrasping(r1,apple)"]);
    expect(visibleChangesOfStep(held, stowed, changes)).toEqual(["-Open(fridge)", "-RightGrasping(r1,apple)"]);
  });

  it("cooks in a closed, running microwave without showing it", () => {
    let s = kitchen();
    s = applyAction(s, { type: "open", hand: "left", fixture: "microwave" })!;
    s = applyAction(s, { type: "grasp", hand: "right", obj: "plate" })!; // with the bread on it
    s = applyAction(s, { type: "place", hand: "right", obj: "plate", target: "microwave" })!;
    s = applyAction(s, { type: "close", hand: "left", fixture: "microwave" })!;
    const on = applyAction(s, { type: "toggleOn", hand: "left", fixture: "microwave" })!;
    const changes = diffFacts(stateFacts(s), stateFacts(on));
    expect(changes).toEqual(["+Cooked(bread)", "+ToggledOn(microwave)"]);
    expect(visibleChangesOfStep(s, on, changes)).toEqual(["+ToggledOn(microwave)"]);
  });

  it("writes ENACT-style sentences", () => {
    expect(describeChange("-RightGrasping(r1,apple)")).toMatch(/^The robot r1 (is no longer|stopped being) using the right gripper to grasp the apple\.$/);
    expect(describeChange("+OnTop(apple,plate)")).toMatch(
      /^The apple (becomes|now becomes|changes to be|transitions to be) on top of and touching the plate\.$/,
    );
    expect(describeChange("+Transition(apple,half_apple)")).toBe("The apple now becomes the half apple.");
    expect(describeChange("+ToggledOn(stove)")).toMatch(/turned on\.$/);
    expect(describeChange("+Covered(apple,water)")).toMatch(/covered by the water\.$/);
    expect(describeChange("+Contains(cup,water)")).toMatch(/containing the water\.$/);
    expect(describeChange("-OnTop(apple,counter)", ["apple"])).toMatch(/^The half apple .* the countertop\.$/);
    // the same change set always reads the same
    expect(describeChanges(["-LeftGrasping(r1,cup)", "+Inside(cup,sink)"])).toBe(describeChanges(["+Inside(cup,sink)", "-LeftGrasping(r1,cup)"]));
  });

  it("can ask for repeated visible change sets and keeps change visibility consistent", () => {
    for (let k = 0; k < 10; k++) {
      const t = generateTrajectory(rngFor("repeat", k), { actions: 3 + (k % 6), requireRepeat: true });
      const keys = t.steps.map((s) => s.visible.join("|"));
      expect(new Set(keys).size).toBeLessThan(keys.length);
      expect(changeVisibilityConsistent(t)).toBe(true);
      // "diff minus hidden" is each step's visible change set
      const hidden = new Set(trajectoryHiddenFacts(t));
      for (const step of t.steps) expect(step.changes.filter((c) => !hidden.has(c.slice(1)))).toEqual(step.visible);
    }
  });

  it("is deterministic for a seed", () => {
    const a = generateTrajectory(rngFor("det", 7), { actions: 9, hand: "both" });
    const b = generateTrajectory(rngFor("det", 7), { actions: 9, hand: "both" });
    expect(a).toEqual(b);
  });
});
