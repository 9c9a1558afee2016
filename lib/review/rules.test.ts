import { describe, expect, it } from "vitest";
import { axisResult, effectiveOutcome, isContested, itemOutcome, type AxisVotes, type KeepRule, type TieRule } from "@/lib/review/rules";

const v = (pass: number, fail: number): AxisVotes => ({ pass, fail });

function outcome(axes: AxisVotes[], options: { keepRule?: KeepRule; tieRule?: TieRule; reviews?: number; reviewersPerItem?: number } = {}) {
  return itemOutcome({
    axes,
    reviews: options.reviews ?? Math.max(...axes.map((a) => a.pass + a.fail)),
    reviewersPerItem: options.reviewersPerItem ?? 3,
    keepRule: options.keepRule ?? "MAJORITY_ALL_AXES",
    tieRule: options.tieRule ?? "CONTESTED",
  });
}

describe("axisResult", () => {
  it("majority: more passes pass, more fails fail, equal counts tie", () => {
    expect(axisResult(v(3, 0), "MAJORITY_ALL_AXES")).toBe("pass");
    expect(axisResult(v(2, 1), "MAJORITY_ALL_AXES")).toBe("pass");
    expect(axisResult(v(1, 2), "MAJORITY_ALL_AXES")).toBe("fail");
    expect(axisResult(v(0, 3), "MAJORITY_ALL_AXES")).toBe("fail");
    expect(axisResult(v(2, 2), "MAJORITY_ALL_AXES")).toBe("tie");
    expect(axisResult(v(1, 1), "MAJORITY_ALL_AXES")).toBe("tie");
  });

  it("unanimous: one fail fails the axis, and there are no ties", () => {
    expect(axisResult(v(3, 0), "UNANIMOUS_ALL_AXES")).toBe("pass");
    expect(axisResult(v(2, 1), "UNANIMOUS_ALL_AXES")).toBe("fail");
    expect(axisResult(v(2, 2), "UNANIMOUS_ALL_AXES")).toBe("fail");
  });

  it("refuses an axis without votes", () => {
    expect(() => axisResult(v(0, 0), "MAJORITY_ALL_AXES")).toThrow("axisResult requires at least 1 vote");
  });
});

describe("itemOutcome: the majority rule (ESI-Bench: majority per axis, kept only if all three pass)", () => {
  it("keeps an item that the majority passes on every axis, even with dissent", () => {
    expect(outcome([v(3, 0), v(2, 1), v(2, 1)])).toEqual({ outcome: "KEPT", axes: ["pass", "pass", "pass"], split: true });
    expect(outcome([v(3, 0), v(3, 0), v(3, 0)])).toEqual({ outcome: "KEPT", axes: ["pass", "pass", "pass"], split: false });
  });

  it("excludes an item that the majority fails on one axis, whatever the other axes say", () => {
    expect(outcome([v(3, 0), v(1, 2), v(3, 0)])).toEqual({ outcome: "EXCLUDED", axes: ["pass", "fail", "pass"], split: true });
    expect(outcome([v(0, 3), v(3, 0), v(3, 0)])).toEqual({ outcome: "EXCLUDED", axes: ["fail", "pass", "pass"], split: false });
  });

  it("a failing axis beats a tie on another axis, under every tie rule", () => {
    for (const tieRule of ["CONTESTED", "PASS", "FAIL"] as const) {
      expect(outcome([v(2, 2), v(1, 3)], { reviewersPerItem: 4, tieRule }).outcome).toBe("EXCLUDED");
    }
  });

  it("stays pending until the study's number of reviews is in", () => {
    expect(outcome([v(0, 2), v(0, 2), v(0, 2)], { reviews: 2 })).toEqual({ outcome: "PENDING", axes: [null, null, null], split: false });
    expect(outcome([v(1, 1), v(2, 0)], { reviews: 2 }).outcome).toBe("PENDING");
    // an axis nobody answered keeps the item pending even with enough reviews
    expect(outcome([v(3, 0), v(0, 0)], { reviews: 3 }).outcome).toBe("PENDING");
  });
});

describe("itemOutcome: the tie rule (even numbers of reviewers)", () => {
  const tied = [v(2, 2), v(4, 0), v(3, 1)];

  it("CONTESTED (the default) leaves a tied item to a researcher", () => {
    expect(outcome(tied, { reviewersPerItem: 4 })).toEqual({ outcome: "CONTESTED", axes: ["tie", "pass", "pass"], split: true });
  });

  it("FAIL excludes a tied item, PASS keeps it", () => {
    expect(outcome(tied, { reviewersPerItem: 4, tieRule: "FAIL" }).outcome).toBe("EXCLUDED");
    expect(outcome(tied, { reviewersPerItem: 4, tieRule: "PASS" }).outcome).toBe("KEPT");
  });

  it("two reviewers who disagree are a tie", () => {
    expect(outcome([v(1, 1)], { reviewersPerItem: 2 }).outcome).toBe("CONTESTED");
  });
});

describe("itemOutcome: the unanimous rule", () => {
  it("excludes an item as soon as one reviewer fails one axis", () => {
    expect(outcome([v(3, 0), v(2, 1)], { keepRule: "UNANIMOUS_ALL_AXES" })).toEqual({ outcome: "EXCLUDED", axes: ["pass", "fail"], split: true });
    expect(outcome([v(3, 0), v(3, 0)], { keepRule: "UNANIMOUS_ALL_AXES" }).outcome).toBe("KEPT");
  });
});

describe("decisions and the contested queue", () => {
  it("a researcher's decision overrides the rules", () => {
    expect(effectiveOutcome("CONTESTED", "KEEP")).toBe("KEPT");
    expect(effectiveOutcome("KEPT", "EXCLUDE")).toBe("EXCLUDED");
    expect(effectiveOutcome("EXCLUDED", null)).toBe("EXCLUDED");
    expect(effectiveOutcome("PENDING", undefined)).toBe("PENDING");
  });

  it("queues split and contested items until someone decides", () => {
    expect(isContested({ ruleOutcome: "EXCLUDED", split: true, decided: false })).toBe(true);
    expect(isContested({ ruleOutcome: "CONTESTED", split: true, decided: false })).toBe(true);
    expect(isContested({ ruleOutcome: "KEPT", split: false, decided: false })).toBe(false);
    expect(isContested({ ruleOutcome: "EXCLUDED", split: true, decided: true })).toBe(false);
    expect(isContested({ ruleOutcome: "PENDING", split: true, decided: false })).toBe(false);
  });

  it("refuses nonsense input", () => {
    expect(() => outcome([])).toThrow("itemOutcome requires at least 1 axis");
    expect(() => outcome([v(1, 0)], { reviewersPerItem: 0 })).toThrow("reviewersPerItem");
  });
});
