import { describe, expect, it } from "vitest";
import { formatIssues } from "@/lib/tasks/format-issues";
import { enactForwardItemSchema, enactForwardModule, scoreEnactForward, type EnactForwardKey, type EnactForwardPublic } from "@/lib/tasks/enact-forward";
import { parseEnactModelAnswer } from "@/lib/tasks/shared/enact/common";
import type { TaskItem } from "@/lib/tasks/types";

function item(pub: EnactForwardPublic, key: EnactForwardKey): TaskItem<EnactForwardPublic, EnactForwardKey> {
  return { id: "f1", kind: "enact-forward", public: pub, key, tags: { steps: pub.actions.length + 1, activity: "secret_tag_value" } };
}

/**
 * Grasp, release, grasp: the frames after steps 0 and 2 look alike (the robot holds the cup) and
 * differ only in a hidden fact (where the cup stands). Reference states in order:
 *   r0 = {Grasp(cup), At(cup,p1)}, r1 = {At(cup,p1)}, r2 = {Grasp(cup), At(cup,p2)}
 * Visible reference changes: C0 = {+Grasp(cup)}, C1 = {-Grasp(cup)}, C2 = {+Grasp(cup)}.
 * Candidates are shuffled as [r2, r0, r1], so key.order = [1, 2, 0].
 */
const graspPublic: EnactForwardPublic = {
  initialImage: "img/s0.png",
  actions: ["The robot r1 grasps the cup.", "The robot r1 releases the cup.", "The robot r1 grasps the cup."],
  candidates: ["img/c0.png", "img/c1.png", "img/c2.png"],
};
const graspKey: EnactForwardKey = {
  order: [1, 2, 0],
  states: {
    initial: [],
    candidates: [["Grasp(cup)", "At(cup,p2)"], ["Grasp(cup)", "At(cup,p1)"], ["At(cup,p1)"]],
  },
  hidden: ["At(cup,p1)", "At(cup,p2)"],
};

describe("enact-forward verifier", () => {
  it("accepts the reference order as exact", () => {
    expect(scoreEnactForward({ order: [1, 2, 0] }, graspKey)).toEqual({
      accepted: true,
      exact: true,
      correctPairs: 3,
      L: 3,
      semanticAvailable: true,
    });
  });

  it("accepts another order whose steps reproduce every visible change (two look-alike frames swapped)", () => {
    // predicted states r2, r1, r0: diffs {+Grasp,+At(p2)}, {-Grasp,-At(p2),+At(p1)}, {+Grasp}
    expect(scoreEnactForward({ order: [0, 2, 1] }, graspKey)).toEqual({
      accepted: true,
      exact: false,
      correctPairs: 3,
      L: 3,
      semanticAvailable: true,
    });
  });

  it("ignores hidden facts: without the hidden list the same swap fails two steps", () => {
    // now C0 = {+Grasp,+At(p1)} (predicted {+Grasp,+At(p2)}: fails), C1 = {-Grasp} (passes),
    // C2 = {+Grasp,+At(p2),-At(p1)} (predicted {+Grasp}: fails)
    const visibleEverything = { ...graspKey, hidden: undefined };
    expect(scoreEnactForward({ order: [0, 2, 1] }, visibleEverything)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 1,
      L: 3,
      semanticAvailable: true,
    });
  });

  it("ignores hidden facts even where the prediction reverses them (the person cannot see them)", () => {
    // Reference r0 = {G, D}, r1 = {}, r2 = {G}, r3 = {D}, D hidden; visible changes +G, -G, +G, -G.
    // The answer r2, r3, r0, r1 reproduces them all; at step 1 it predicts "+D" where the
    // reference has "-D", a hidden fact, so it does not count.
    const key: EnactForwardKey = {
      // candidates [r3, r1, r0, r2]
      order: [2, 1, 3, 0],
      states: { initial: [], candidates: [["D"], [], ["G", "D"], ["G"]] },
      hidden: ["D"],
    };
    expect(scoreEnactForward({ order: [3, 0, 2, 1] }, key)).toMatchObject({ accepted: true, exact: false, correctPairs: 4 });
    // with D visible, step 0 already misses "+D"
    expect(scoreEnactForward({ order: [3, 0, 2, 1] }, { ...key, hidden: [] }).accepted).toBe(false);
  });

  it("rejects a step whose predicted change contradicts the reference change", () => {
    // initial {Open(fridge)}; r0 = {} (C0 = {-Open(fridge)}); r1 = {Grasp(milk)} (C1 = {+Grasp(milk)}).
    // Answer [1, 0]: step 0 predicts {-Open(fridge), +Grasp(milk)}, a superset of C0: passes;
    // step 1 predicts {-Grasp(milk)} where the reference has "+Grasp(milk)": rejected.
    const key: EnactForwardKey = {
      order: [0, 1],
      states: { initial: ["Open(fridge)"], candidates: [[], ["Grasp(milk)"]] },
    };
    expect(scoreEnactForward({ order: [1, 0] }, key)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 1,
      L: 2,
      semanticAvailable: true,
    });
  });

  it("falls back to exact index matching per step without states", () => {
    const key: EnactForwardKey = { order: [2, 0, 1, 3] };
    expect(scoreEnactForward({ order: [2, 1, 0, 3] }, key)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 2,
      L: 4,
      semanticAvailable: false,
    });
    expect(scoreEnactForward({ order: [2, 0, 1, 3] }, key)).toMatchObject({ accepted: true, exact: true, correctPairs: 4 });
  });

  it("scores answers of another length by monotone alignment and never accepts them", () => {
    // Reference r0 = {A}, r1 = {A,B}, r2 = {A,B,C}; candidates [r2, r0, r1]; C = {+A}, {+B}, {+C}.
    const key: EnactForwardKey = {
      order: [1, 2, 0],
      states: { initial: [], candidates: [["A", "B", "C"], ["A"], ["A", "B"]] },
    };
    // Shorter [1, 0] (r1 skipped): predicted steps P0 = {+A}, P1 = {+B,+C}.
    // Satisfied pairs (ref i, pred k): (0,0), (1,1), (2,1). DP table dp[i][k] (rows i = 0..3):
    //        k=0 k=1 k=2
    //   i=0   0   0   0
    //   i=1   0   1   1
    //   i=2   0   1   2
    //   i=3   0   1   2     -> dp[3][2] = 2, PA = 2 / max(3, 2): correctPairs 2 of L 3
    expect(scoreEnactForward({ order: [1, 0] }, key)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 2,
      L: 3,
      semanticAvailable: true,
    });
    // Longer [1, 2, 2, 0]: P0 = {+A}, P1 = {+B}, P2 = {}, P3 = {+C}; best alignment (0,0), (1,1),
    // (2,3) = 3 pairs; PA = 3 / max(3, 4) = 0.75, so correctPairs = 0.75 * L = 2.25
    expect(scoreEnactForward({ order: [1, 2, 2, 0] }, key)).toMatchObject({ accepted: false, correctPairs: 2.25, L: 3 });
  });

  it("counts the passing steps of a non-permutation of the right length", () => {
    // [1, 2, 2]: P0 = {+A}, P1 = {+B}, P2 = {}: steps 0 and 1 pass, step 2 ({+C}) does not
    const key: EnactForwardKey = {
      order: [1, 2, 0],
      states: { initial: [], candidates: [["A", "B", "C"], ["A"], ["A", "B"]] },
    };
    expect(scoreEnactForward({ order: [1, 2, 2] }, key)).toMatchObject({ accepted: false, exact: false, correctPairs: 2 });
  });
});

/**
 * Model outputs the released verifier (mll-lab-nu/ENACT enact/core/evaluators.py, verify_forward)
 * reads in ways an annotator's permutation never needs, worked by hand from its code: labels are
 * 1-based indices into its reconstructed storyboard, whose entry 0 is the current (initial)
 * observation; an index past its end raises IndexError inside the try around the per-step checks
 * (semantic_match False, pairwise 0, in either length branch); semantic acceptance asks equal
 * length and every C_i within the predicted diff, not a permutation.
 */
describe("enact-forward as the released verify_forward reads model outputs", () => {
  // Open, then close: the state after the second action is the initial one. Candidates [open, closed].
  const returnKey: EnactForwardKey = { order: [0, 1], states: { initial: ["Closed(box)"], candidates: [["Open(box)"], ["Closed(box)"]] } };

  it("reads label 0 as the initial observation: '1 0' (the fallback's labels) is accepted where the second state equals the first", () => {
    const answer = parseEnactModelAnswer("1 0", 2)!;
    expect(answer).toEqual({ order: [0, -1] });
    // storyboard [initial, open, closed]; labels [1, 0] give initial -> open -> initial: {+Open,-Closed}, {-Open,+Closed}
    expect(scoreEnactForward(answer, returnKey)).toEqual({ accepted: true, exact: false, correctPairs: 2, L: 2, semanticAvailable: true });
  });

  it("accepts a non-permutation whose every step reproduces the visible change (the release checks no permutation)", () => {
    // graspKey's look-alike frames: labels [2, 3, 2] put r0, r1, r0: diffs {+Grasp,+At(p1)}, {-Grasp}, {+Grasp}
    const answer = parseEnactModelAnswer("2, 3, 2", 3)!;
    expect(answer).toEqual({ order: [1, 2, 1] });
    expect(scoreEnactForward(answer, graspKey)).toEqual({ accepted: true, exact: false, correctPairs: 3, L: 3, semanticAvailable: true });
  });

  it("scores 0 for a label past the storyboard, whatever the other steps (IndexError inside the release's try)", () => {
    const key: EnactForwardKey = { order: [1, 2, 0], states: { initial: [], candidates: [["A", "B", "C"], ["A"], ["A", "B"]] } };
    // '2 3 9': labels 2 and 3 alone would pass steps 0 and 1
    expect(scoreEnactForward(parseEnactModelAnswer("2 3 9", 3)!, key)).toEqual({
      accepted: false,
      exact: false,
      correctPairs: 0,
      L: 3,
      semanticAvailable: true,
    });
    // another length: the alignment's try as well
    expect(scoreEnactForward(parseEnactModelAnswer("2 3 1 9", 3)!, key)).toMatchObject({ accepted: false, correctPairs: 0 });
    expect(scoreEnactForward({ order: [1, 9, 0] }, key)).toMatchObject({ accepted: false, correctPairs: 0 });
  });
});

describe("enact-forward schemas", () => {
  it("accepts a consistent item", () => {
    expect(enactForwardItemSchema.safeParse({ public: graspPublic, key: graspKey }).success).toBe(true);
  });

  it.each([
    ["a candidate too many", { public: { ...graspPublic, candidates: [...graspPublic.candidates, "img/c3.png"] }, key: graspKey }, "public.candidates"],
    ["an order that is not a permutation", { public: graspPublic, key: { ...graspKey, order: [1, 1, 0] } }, "key.order"],
    ["an order of another length", { public: graspPublic, key: { ...graspKey, order: [1, 0] } }, "key.order"],
    [
      "states for too few candidates",
      { public: graspPublic, key: { ...graspKey, states: { initial: [], candidates: [["A"], ["B"]] } } },
      "key.states.candidates",
    ],
    ["a misspelt key field", { public: graspPublic, key: { ...graspKey, hiden: ["x"] } }, "key"],
  ])("refuses %s, naming the field path", (_, value, path) => {
    const result = enactForwardItemSchema.safeParse(value);
    expect(result.success).toBe(false);
    if (!result.success) expect(formatIssues(result.error)).toMatch(new RegExp(`^${path.replace(/\./g, "\\.")}[:.]`, "m"));
  });

  it("answerSchema takes permutations; answerSchemaFor also checks the item's length", () => {
    const taskModule = enactForwardModule;
    expect(taskModule.answerSchema.safeParse({ order: [2, 0, 1] }).success).toBe(true);
    expect(taskModule.answerSchema.safeParse({ order: [2, 2, 1] }).success).toBe(false);
    expect(taskModule.answerSchema.safeParse({ order: [] }).success).toBe(false);
    const strict = taskModule.answerSchemaFor!(item(graspPublic, graspKey));
    expect(strict.safeParse({ order: [2, 0, 1] }).success).toBe(true);
    const short = strict.safeParse({ order: [1, 0] });
    expect(short.success).toBe(false);
    if (!short.success) expect(formatIssues(short.error)).toContain("order: order must place all 3 candidates");
  });
});

describe("enact-forward views", () => {
  const full = item(graspPublic, graspKey);

  it("publicView holds exactly the initial image, the actions and the candidates", () => {
    expect(enactForwardModule.publicView(full)).toEqual(graspPublic);
    const text = JSON.stringify(enactForwardModule.publicView(full));
    for (const secret of ["order", "states", "hidden", "Grasp(cup)", "At(cup,p1)", "secret_tag_value", "[1,2,0]"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("reviewView lays out the key: each action with its image, facts and visible change", () => {
    const view = enactForwardModule.reviewView(full) as {
      semanticAvailable: boolean;
      steps: Array<{ action: string; image: string; candidateIndex: number; facts: string[]; visibleChange: string[] }>;
    };
    expect(view.semanticAvailable).toBe(true);
    expect(view.steps.map((step) => step.image)).toEqual(["img/c1.png", "img/c2.png", "img/c0.png"]);
    expect(view.steps[1]).toMatchObject({
      action: "The robot r1 releases the cup.",
      candidateIndex: 2,
      facts: ["At(cup,p1)"],
      visibleChange: ["-Grasp(cup)"],
    });
    const exactOnly = enactForwardModule.reviewView(item(graspPublic, { order: [1, 2, 0] })) as {
      semanticAvailable: boolean;
      steps: Array<{ facts: unknown; visibleChange: unknown }>;
    };
    expect(exactOnly.semanticAvailable).toBe(false);
    expect(exactOnly.steps[0]).toMatchObject({ facts: null, visibleChange: null });
  });

  it("mapImages replaces the initial image and every candidate", () => {
    const mapped = enactForwardModule.mapImages({ public: graspPublic, key: graspKey }, (ref) => `/assets/${ref}`);
    expect(mapped.public).toEqual({
      initialImage: "/assets/img/s0.png",
      actions: graspPublic.actions,
      candidates: ["/assets/img/c0.png", "/assets/img/c1.png", "/assets/img/c2.png"],
    });
    expect(mapped.key).toEqual(graspKey);
  });
});

describe("model outputs with their item", () => {
  it("keeps the last n labels of a longer list, n the item's steps, as ENACT's _parse_answer_string", () => {
    const item = {
      id: "f",
      kind: "enact-forward",
      public: { initialImage: "0.png", actions: ["a", "b", "c", "d", "e"], candidates: ["1", "2", "3", "4", "5"] },
      key: { order: [2, 3, 0, 1, 4] },
      tags: {},
    };
    const answer = enactForwardModule.parseModelAnswer("[99, 3, 4, 1, 2, 5]", item)!;
    expect(answer).toEqual({ order: [2, 3, 0, 1, 4] });
    expect(enactForwardModule.score(answer, item.key, item)).toMatchObject({ accepted: true, exact: true });
  });
});
