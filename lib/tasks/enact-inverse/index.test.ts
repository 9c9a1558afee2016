import { describe, expect, it } from "vitest";
import { formatIssues } from "@/lib/tasks/format-issues";
import {
  enactInverseItemSchema,
  enactInverseKeySchema,
  enactInverseModule,
  scoreEnactInverse,
  type EnactInverseKey,
  type EnactInversePublic,
} from "@/lib/tasks/enact-inverse";
import { parseEnactModelAnswer } from "@/lib/tasks/shared/enact/common";
import type { TaskItem } from "@/lib/tasks/types";

/**
 * Grasp, release, grasp again. Shuffled actions: a0 "grasps" {+Grasp(cup)}, a1 "releases"
 * {-Grasp(cup)}, a2 "grasps" {+Grasp(cup)}; the reference uses a0, a1, a2 in that order, and the
 * full reference change sets F_i also hold changes the action texts leave out.
 */
const cupPublic: EnactInversePublic = {
  observations: ["img/s0.png", "img/s1.png", "img/s2.png", "img/s3.png"],
  candidates: ["The robot r1 grasps the cup.", "The robot r1 releases the cup.", "The robot r1 grasps the cup."],
};
const cupKey: EnactInverseKey = {
  order: [0, 1, 2],
  changes: [["+Grasp(cup)"], ["-Grasp(cup)"], ["+Grasp(cup)"]],
  stepChanges: [
    ["+Grasp(cup)", "-OnTop(cup,table)"],
    ["-Grasp(cup)", "+OnTop(cup,shelf)"],
    ["+Grasp(cup)", "-OnTop(cup,shelf)"],
  ],
};

function item(pub: EnactInversePublic, key: EnactInverseKey): TaskItem<EnactInversePublic, EnactInverseKey> {
  return { id: "i1", kind: "enact-inverse", public: pub, key, tags: { hand: "secret_tag_value" } };
}

describe("enact-inverse verifier", () => {
  it("accepts the reference order as exact", () => {
    expect(scoreEnactInverse({ order: [0, 1, 2] }, cupKey)).toEqual({
      accepted: true,
      exact: true,
      correctPairs: 3,
      L: 3,
      semanticAvailable: true,
    });
  });

  it("accepts swapping two actions that describe the same change (semantic, not exact)", () => {
    expect(scoreEnactInverse({ order: [2, 1, 0] }, cupKey)).toEqual({
      accepted: true,
      exact: false,
      correctPairs: 3,
      L: 3,
      semanticAvailable: true,
    });
  });

  it("counts each step whose action's change set is a subset of the step's full change set", () => {
    // [1, 0, 2]: step 0 gets {-Grasp} (not in F0), step 1 gets {+Grasp} (not in F1), step 2 passes
    expect(scoreEnactInverse({ order: [1, 0, 2] }, cupKey)).toMatchObject({ accepted: false, exact: false, correctPairs: 1 });
  });

  it("rejects an action whose change contradicts the step's change", () => {
    // Open then grasp: the action "the fridge changes to be open" placed where the fridge closes
    const key: EnactInverseKey = {
      order: [1, 0],
      changes: [["-Open(fridge)"], ["+Open(fridge)"]],
      stepChanges: [["+Open(fridge)", "-RightGrasping(r1,fridge)"], ["-Open(fridge)"]],
    };
    expect(scoreEnactInverse({ order: [1, 0] }, key)).toMatchObject({ accepted: true, correctPairs: 2 });
    expect(scoreEnactInverse({ order: [0, 1] }, key)).toMatchObject({ accepted: false, correctPairs: 0 });
  });

  it("falls back to exact index matching per step without change sets", () => {
    const key: EnactInverseKey = { order: [0, 1, 2] };
    expect(scoreEnactInverse({ order: [2, 1, 0] }, key)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 1,
      L: 3,
      semanticAvailable: false,
    });
  });

  it("aligns answers of another length (index-only example worked by hand)", () => {
    // Reference [0, 1, 2, 3] against [0, 2, 3]: pairs (ref i, pred k) with equal indices are
    // (0,0), (2,1), (3,2), all monotone: dp = 3, PA = 3 / max(4, 3) -> correctPairs 3 of L 4.
    const key: EnactInverseKey = { order: [0, 1, 2, 3] };
    expect(scoreEnactInverse({ order: [0, 2, 3] }, key)).toMatchObject({ accepted: false, correctPairs: 3, L: 4 });
    // [3, 2, 1, 0, 4]: any monotone alignment keeps one pair: dp = 1, PA = 1 / 5 -> 0.8 of L 4
    expect(scoreEnactInverse({ order: [3, 2, 1, 0, 4] }, key).correctPairs).toBeCloseTo(0.8, 12);
  });

  it("aligns semantically: an action may match a later step it also explains", () => {
    // [2, 1] against cupKey: pred 0 = {+Grasp} fits F0 and F2, pred 1 = {-Grasp} fits F1:
    // alignment (0,0), (1,1) = 2 pairs of max(3, 2) -> correctPairs 2
    expect(scoreEnactInverse({ order: [2, 1] }, cupKey)).toMatchObject({ accepted: false, correctPairs: 2, L: 3 });
  });
});

/**
 * Model outputs the released verifier (mll-lab-nu/ENACT enact/core/evaluators.py, verify_inverse)
 * reads in ways an annotator's permutation never needs, worked by hand from its code: a label l is
 * action l - 1; labels outside 1..L give no action and are dropped (`0 <= action_idx < len`), the
 * rest closing up, while equal_length is still judged on the labels given; semantic acceptance asks
 * as many actions as steps, each within its step's F_i, not a permutation; answers of another
 * length align with the pair rule C_i within C~_j or C~_j within F_i (C_i the reference action's
 * change set).
 */
describe("enact-inverse as the released verify_inverse reads model outputs", () => {
  it("accepts a non-permutation whose every action fits its step: '1 2 1' on cupKey (a0 and a2 both grasp)", () => {
    const answer = parseEnactModelAnswer("1 2 1", 3)!;
    expect(answer).toEqual({ order: [0, 1, 0] });
    expect(scoreEnactInverse(answer, cupKey)).toEqual({ accepted: true, exact: false, correctPairs: 3, L: 3, semanticAvailable: true });
  });

  it("drops a label 0 and closes up the rest: '0 1 2' checks a0 at step 0 and a1 at step 1 (2 of 3, not accepted)", () => {
    const answer = parseEnactModelAnswer("0 1 2", 3)!;
    expect(answer).toEqual({ order: [-1, 0, 1] });
    expect(scoreEnactInverse(answer, cupKey)).toEqual({ accepted: false, exact: false, correctPairs: 2, L: 3, semanticAvailable: true });
    // a label past L likewise: '1 9 2' checks a0 at step 0 and a1 at step 1
    expect(scoreEnactInverse(parseEnactModelAnswer("1 9 2", 3)!, cupKey)).toMatchObject({ accepted: false, correctPairs: 2 });
  });

  it("aligns the labels left after dropping, over their own count: '0 1 2 3' is a0 a1 a2 against 3 steps, dp 3 / max(3, 3)", () => {
    expect(scoreEnactInverse(parseEnactModelAnswer("0 1 2 3", 3)!, cupKey)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 3,
      L: 3,
      semanticAvailable: true,
    });
  });

  it("aligns with the release's second rule: the reference action's changes within the predicted action's", () => {
    // a1 = {+A, +B} holds a0 = {+A} but is not within F0 = {+A, +D}; [1, 1, 1] (three labels for two steps):
    // C~_j within F_i only at i = 1 (dp 1); with C_0 within C~_0 too, (0,0), (1,1) (dp 2): 2 / max(2, 3) of L 2
    const key: EnactInverseKey = {
      order: [0, 1],
      changes: [["+A"], ["+A", "+B"]],
      stepChanges: [
        ["+A", "+D"],
        ["+A", "+B"],
      ],
    };
    expect(scoreEnactInverse({ order: [1, 1, 1] }, key).correctPairs).toBeCloseTo((2 * 2) / 3, 12);
  });
});

describe("enact-inverse schemas", () => {
  it("accepts a consistent item", () => {
    expect(enactInverseItemSchema.safeParse({ public: cupPublic, key: cupKey }).success).toBe(true);
  });

  it.each([
    ["L + 2 observations", { public: { ...cupPublic, observations: [...cupPublic.observations, "img/s4.png"] }, key: cupKey }, "public.observations"],
    ["an order of another length", { public: cupPublic, key: { order: [0, 1] } }, "key.order"],
    ["changes without stepChanges", { public: cupPublic, key: { order: [0, 1, 2], changes: cupKey.changes } }, "key.stepChanges"],
    ["a change without a sign", { public: cupPublic, key: { ...cupKey, changes: [["Grasp(cup)"], ["-Grasp(cup)"], ["+Grasp(cup)"]] } }, "key.changes.0.0"],
    [
      "a change set holding +f and -f",
      { public: cupPublic, key: { ...cupKey, stepChanges: [["+Grasp(cup)", "-Grasp(cup)"], ["-Grasp(cup)"], ["+Grasp(cup)"]] } },
      "key.stepChanges.0",
    ],
    ["too few change sets", { public: cupPublic, key: { ...cupKey, changes: [["+Grasp(cup)"]] } }, "key.changes"],
  ])("refuses %s, naming the field path", (_, value, path) => {
    const result = enactInverseItemSchema.safeParse(value);
    expect(result.success).toBe(false);
    if (!result.success) expect(formatIssues(result.error)).toMatch(new RegExp(`^${path.replace(/\./g, "\\.")}: `, "m"));
  });

  it("keySchema alone refuses a key with only one of changes / stepChanges", () => {
    expect(enactInverseKeySchema.safeParse({ order: [0], stepChanges: [["+A"]] }).success).toBe(false);
  });
});

describe("enact-inverse views", () => {
  const full = item(cupPublic, cupKey);

  it("publicView holds exactly the observations and the candidates", () => {
    expect(enactInverseModule.publicView(full)).toEqual(cupPublic);
    const text = JSON.stringify(enactInverseModule.publicView(full));
    for (const secret of ["order", "changes", "stepChanges", "+Grasp", "OnTop", "secret_tag_value"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("reviewView gives each transition its action and change sets", () => {
    const view = enactInverseModule.reviewView(full) as {
      semanticAvailable: boolean;
      transitions: Array<Record<string, unknown>>;
    };
    expect(view.semanticAvailable).toBe(true);
    expect(view.transitions[1]).toEqual({
      step: 1,
      before: "img/s1.png",
      after: "img/s2.png",
      candidateIndex: 1,
      action: "The robot r1 releases the cup.",
      actionChanges: ["-Grasp(cup)"],
      stepChanges: ["-Grasp(cup)", "+OnTop(cup,shelf)"],
    });
  });

  it("mapImages replaces every observation and nothing else", () => {
    const mapped = enactInverseModule.mapImages({ public: cupPublic, key: cupKey }, (ref) => ref.toUpperCase());
    expect(mapped.public.observations).toEqual(["IMG/S0.PNG", "IMG/S1.PNG", "IMG/S2.PNG", "IMG/S3.PNG"]);
    expect(mapped.public.candidates).toEqual(cupPublic.candidates);
  });
});
