import { describe, expect, it } from "vitest";
import { snapshotWithoutItems } from "@/lib/dashboard/review-filter";
import type { StudySnapshot } from "@/lib/dashboard/types";

function snapshot(): StudySnapshot {
  return {
    studyId: "s",
    version: "3:1:2:1",
    loadedAt: 0,
    items: {
      keys: [undefined, undefined],
      ids: ["i0", "i1"],
      externalIds: ["a", "b"],
      kinds: ["enact-forward", "enact-forward"],
      tags: [{}, {}],
      index: new Map([
        ["i0", 0],
        ["i1", 1],
      ]),
    },
    conditions: [],
    annotators: [{ id: "u", name: "U" }],
    responses: {
      count: 3,
      item: Int32Array.from([0, 1, 0]),
      annotator: Int32Array.from([0, 0, 0]),
      agreement: Uint8Array.from([0, 0, 1]),
      condition: Int32Array.from({ length: 3 }, () => -1),
      correct: Uint8Array.from([1, 0, 1]),
      confidence: Float64Array.from([0.5, 0.25, 1]),
      wallMs: Float64Array.from([10, 20, 30]),
      activeMs: Float64Array.from([1, 2, 3]),
      createdAt: Float64Array.from([100, 200, 300]),
      score: ["s0", "s1", "s2"],
      answer: ["a0", "a1", "a2"],
    },
  };
}

describe("snapshotWithoutItems", () => {
  it("drops every answer to an excluded item and keeps the others in order, column by column", () => {
    const filtered = snapshotWithoutItems(snapshot(), new Set(["i1"]));
    expect(filtered.responses.count).toBe(2);
    expect([...filtered.responses.item]).toEqual([0, 0]);
    expect([...filtered.responses.wallMs]).toEqual([10, 30]);
    expect([...filtered.responses.agreement]).toEqual([0, 1]);
    expect(filtered.responses.score).toEqual(["s0", "s2"]);
    expect(filtered.responses.answer).toEqual(["a0", "a2"]);
    expect(filtered.responses.confidence).toBeInstanceOf(Float64Array);
    expect(filtered.version).not.toBe("3:1:2:1");
  });

  it("returns the snapshot itself when nothing is excluded", () => {
    const original = snapshot();
    expect(snapshotWithoutItems(original, new Set())).toBe(original);
    expect(snapshotWithoutItems(original, new Set(["not-there"]))).toBe(original);
  });
});
