import { describe, expect, it } from "vitest";
import {
  aggregateEnact,
  alignedPairs,
  contradicts,
  enactAgreementEncodings,
  isPermutation,
  kendallDelta,
  parseEnactModelAnswer,
  scoreByIndex,
  stateDiff,
  visibleChanges,
  type EnactScore,
} from "@/lib/tasks/shared/enact/common";

describe("state diffs and change sets", () => {
  it("diff(s, t) = {+f : f in t \\ s} U {-f : f in s \\ t}", () => {
    const diff = stateDiff(["Open(fridge)", "RightGrasping(r1,fridge)"], ["Open(fridge)", "Inside(milk,fridge)"]);
    expect([...diff].sort()).toEqual(["+Inside(milk,fridge)", "-RightGrasping(r1,fridge)"]);
    expect(stateDiff(["A"], ["A"]).size).toBe(0);
  });

  it("visibleChanges drops changes of hidden facts", () => {
    expect([...visibleChanges(["+A", "-B", "+C"], new Set(["B"]))]).toEqual(["+A", "+C"]);
  });

  it("contradicts: a predicted +f against a reference -f, or the reverse", () => {
    expect(contradicts(["+Open(fridge)"], new Set(["-Open(fridge)", "+Grasp(milk)"]))).toBe(true);
    expect(contradicts(["-Grasp(milk)"], new Set(["+Grasp(milk)"]))).toBe(true);
    expect(contradicts(["+Open(fridge)", "+Extra(x)"], new Set(["+Open(fridge)"]))).toBe(false);
  });

  it("isPermutation", () => {
    expect(isPermutation([2, 0, 1])).toBe(true);
    expect(isPermutation([])).toBe(true);
    expect(isPermutation([0, 0])).toBe(false);
    expect(isPermutation([1, 2])).toBe(false);
    expect(isPermutation([0.5, 1])).toBe(false);
  });
});

describe("alignedPairs (the authors' dp[m][n])", () => {
  it("is the longest monotone chain of satisfied pairs", () => {
    // reference [a, b, c, d], prediction [a, c, x, d] with equality as the check: a, c, d = 3
    const reference = ["a", "b", "c", "d"];
    const predicted = ["a", "c", "x", "d"];
    expect(alignedPairs(4, 4, (i, k) => reference[i] === predicted[k])).toBe(3);
    // crossing pairs cannot both count: reference [a, b] vs prediction [b, a] -> 1
    expect(alignedPairs(2, 2, (i, k) => ["a", "b"][i] === ["b", "a"][k])).toBe(1);
    expect(alignedPairs(3, 0, () => true)).toBe(0);
  });
});

describe("aggregateEnact", () => {
  it("TA = mean accepted; PA = sum of correct pairs / sum of L (the paper's pooling); PA_item = the mean of the items' ratios (the released report)", () => {
    const score = (accepted: boolean, correctPairs: number, L: number): EnactScore => ({
      accepted,
      exact: accepted,
      correctPairs,
      L,
      semanticAvailable: false,
    });
    const scores = [score(true, 3, 3), score(false, 1, 4), score(false, 2.25, 3), score(true, 2, 2)];
    // TA = 2 / 4 = 0.5; PA = (3 + 1 + 2.25 + 2) / (3 + 4 + 3 + 2) = 8.25 / 12 = 0.6875
    // PA_item, the mean of per-item ratios (report_overall_score's np.mean): (1 + 0.25 + 0.75 + 1) / 4 = 0.75
    expect(aggregateEnact(scores)).toEqual({ TA: 0.5, PA: 0.6875, PA_item: 0.75 });
    expect(aggregateEnact([])).toEqual({ TA: null, PA: null, PA_item: null });
  });
});

describe("parseEnactModelAnswer", () => {
  it.each([
    ["the last [d, d, ...] list in a text, 1-based", "First I thought [1, 2, 3].\nFinal answer: [2, 3, 1]", [1, 2, 0]],
    ["a bare list", "[3, 1, 2]", [2, 0, 1]],
    ["a list in backticks with a trailing comma", "`[3,1,2,]`", [2, 0, 1]],
    ["a text that is only numbers", "3, 1, 2", [2, 0, 1]],
    ["a list containing 0 (already 0-based, as ENACT's evaluator assumes)", "[0, 2, 1]", [0, 2, 1]],
    ["a list starting above 1 (shifted down, as ENACT's evaluator does)", "[2, 4, 3]", [0, 2, 1]],
    ["a list of another length, kept for the alignment", "[1, 2, 3, 4]", [0, 1, 2, 3]],
    ["a list with repeats, kept", "[1, 1, 2]", [0, 0, 1]],
    ["an array of 1-based labels", [2, 1], [1, 0]],
    ["numbers inside prose, every one as a 1-based label as it is (the released fallback)", "Image 3 comes after image 1", [2, 0]],
    ["the fallback's numbers not shifted: a 0 stays below the first label", "0 then 2 then 1", [-1, 1, 0]],
    ["Yardstick's own 0-based object, taken as is", { order: [2, 0, 1] }, [2, 0, 1]],
  ])("reads %s", (_, raw, order) => {
    expect(parseEnactModelAnswer(raw)).toEqual({ order });
  });

  it.each([
    ["prose without a list or a number", "I cannot tell the order."],
    ["negative indices", { order: [-1, 0] }],
    ["non-integers", { order: [0.5] }],
    ["null", null],
  ])("refuses %s", (_, raw) => {
    expect(parseEnactModelAnswer(raw)).toBeNull();
  });
});

describe("parseEnactModelAnswer with the reference length, as the released _parse_answer_string", () => {
  it("keeps the last n labels of a longer [..] list, then normalises: [99, 3, 4, 1, 2, 5] for 5 steps is [3, 4, 1, 2, 5]", () => {
    expect(parseEnactModelAnswer("Final: [99, 3, 4, 1, 2, 5]", 5)).toEqual({ order: [2, 3, 0, 1, 4] });
    expect(scoreByIndex([2, 3, 0, 1, 4], parseEnactModelAnswer("[99, 3, 4, 1, 2, 5]", 5)!.order)).toMatchObject({ accepted: true, exact: true });
    // without the reference length (no item), the whole list
    expect(parseEnactModelAnswer("[99, 3, 4, 1, 2, 5]")!.order).toHaveLength(6);
    // a shorter list is kept as it is, for the alignment
    expect(parseEnactModelAnswer("[2, 1]", 3)).toEqual({ order: [1, 0] });
  });

  it("takes a list the release cannot evaluate as Python ([1 2 3]) by its fallback, the numbers as they are", () => {
    expect(parseEnactModelAnswer("[3 1 2]", 3)).toEqual({ order: [2, 0, 1] });
  });

  it("on a 3-step item (2 actions) reads '[0,1,2]' and '[2,1,0]' as the release does: the last 2 labels, then 0-based (+1): [1, 2] and [2, 1]; bracketless '0,1,2' is 3 labels as they are", () => {
    // _parse_answer_string("[0,1,2]", 2): cut to the last 2 first, [1, 2]; its min is 1: labels [1, 2]
    expect(parseEnactModelAnswer("[0,1,2]", 2)).toEqual({ order: [0, 1] });
    // "[2,1,0]": cut to [1, 0], min 0 -> [2, 1]
    expect(parseEnactModelAnswer("[2,1,0]", 2)).toEqual({ order: [1, 0] });
    // no list: re.findall(r'\d+') as they are, neither cut nor shifted: labels [0, 1, 2] (label 0 is the initial observation forward, no action inverse)
    expect(parseEnactModelAnswer("0,1,2", 2)).toEqual({ order: [-1, 0, 1] });
    expect(parseEnactModelAnswer("2,1,0", 2)).toEqual({ order: [1, 0, -1] });
  });

  it("reads '[00, 1]' as Python does (00 is the literal 0): 0-based, then shifted, [1, 2]", () => {
    expect(parseEnactModelAnswer("[00, 1]", 2)).toEqual({ order: [0, 1] });
    // '[007, 1]' is no Python literal: the fallback's numbers as they are
    expect(parseEnactModelAnswer("[007, 1]", 2)).toEqual({ order: [6, 0] });
  });

  it("keeps an empty JSON list, which the release returns as it is and scores (0), rather than refusing it", () => {
    expect(parseEnactModelAnswer([], 3)).toEqual({ order: [] });
    // an empty string, though, the release skips (None): refused here, named in the docs
    expect(parseEnactModelAnswer("", 3)).toBeNull();
  });
});

describe("agreement encodings", () => {
  const byId = Object.fromEntries(enactAgreementEncodings.map((encoding) => [encoding.id, encoding]));

  it("offers slot-nominal, slot-ordinal and item-kendall", () => {
    expect(Object.keys(byId)).toEqual(["slot-nominal", "slot-ordinal", "item-kendall"]);
    expect(byId["slot-nominal"].level).toBe("nominal");
    expect(byId["slot-ordinal"].level).toBe("ordinal");
    expect(byId["item-kendall"].level).toBe("custom");
  });

  it("slot-nominal: each slot a unit, valued by the chosen candidate", () => {
    expect(byId["slot-nominal"].units({ order: [2, 0, 1] })).toEqual([
      { unit: "slot-0", value: 2 },
      { unit: "slot-1", value: 0 },
      { unit: "slot-2", value: 1 },
    ]);
  });

  it("slot-ordinal: each candidate a unit, valued by the slot it was placed in", () => {
    expect(byId["slot-ordinal"].units({ order: [2, 0, 1] })).toEqual([
      { unit: "candidate-0", value: 1 },
      { unit: "candidate-1", value: 2 },
      { unit: "candidate-2", value: 0 },
    ]);
  });

  it("item-kendall: one unit per item, delta^2 = the normalised Kendall tau distance (already a squared distance)", () => {
    const encoding = byId["item-kendall"];
    expect(encoding.units({ order: [2, 0, 1] })).toEqual([{ unit: "", value: "2,0,1" }]);
    const distance = encoding.distance!;
    expect(distance).toBe(kendallDelta);
    expect(distance("0,1,2", "0,1,2")).toBe(0);
    expect(distance("0,1,2", "2,1,0")).toBe(1);
    // one adjacent swap among 3 candidates: 1 of 3 pairs discordant -> 1/3
    expect(distance("0,1,2", "1,0,2")).toBeCloseTo(1 / 3, 12);
    // ranks of [1, 2, 0] are (2, 0, 1): pairs (0,1) and (0,2) discordant with the identity -> 2/3
    expect(distance("1,2,0", "0,1,2")).toBeCloseTo(2 / 3, 12);
    expect(distance("1,2,0", "0,1,2")).toBe(distance("0,1,2", "1,2,0"));
    // 4 candidates, one adjacent swap: 1 of 6 pairs
    expect(distance("0,2,1,3", "0,1,2,3")).toBeCloseTo(1 / 6, 12);
    // not permutations of the same length (model answers): maximal
    expect(distance("0,1", "0,1,2")).toBe(1);
    expect(distance("0,0,1", "0,1,2")).toBe(1);
  });
});
