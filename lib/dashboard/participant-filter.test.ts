import { describe, expect, it } from "vitest";
import { snapshotWithoutAnnotators } from "@/lib/dashboard/participant-filter";
import type { StudySnapshot } from "@/lib/dashboard/types";

function snapshot(): StudySnapshot {
  return {
    studyId: "s",
    version: "4:1:2:1",
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
    annotators: [
      { id: "ada", name: "Ada" },
      { id: "bo", name: "Bo" },
      { id: "cy", name: "Cy" },
    ],
    responses: {
      count: 4,
      item: Int32Array.from([0, 0, 1, 1]),
      annotator: Int32Array.from([0, 1, 1, 2]),
      agreement: Uint8Array.from([0, 0, 1, 0]),
      condition: Int32Array.from({ length: 4 }, () => -1),
      correct: Uint8Array.from([1, 0, 0, 1]),
      confidence: Float64Array.from([0.5, 0.25, 1, 0.75]),
      wallMs: Float64Array.from([10, 20, 30, 40]),
      activeMs: Float64Array.from([1, 2, 3, 4]),
      createdAt: Float64Array.from([100, 200, 300, 400]),
      score: ["s0", "s1", "s2", "s3"],
      answer: ["a0", "a1", "a2", "a3"],
    },
  };
}

describe("snapshotWithoutAnnotators", () => {
  it("drops every answer of the excluded people, removes them from the annotator list and renumbers the rest", () => {
    const filtered = snapshotWithoutAnnotators(snapshot(), new Set(["bo"]));
    expect(filtered.annotators).toEqual([
      { id: "ada", name: "Ada" },
      { id: "cy", name: "Cy" },
    ]);
    expect(filtered.responses.count).toBe(2);
    expect([...filtered.responses.annotator]).toEqual([0, 1]);
    expect([...filtered.responses.item]).toEqual([0, 1]);
    expect([...filtered.responses.correct]).toEqual([1, 1]);
    expect([...filtered.responses.wallMs]).toEqual([10, 40]);
    expect(filtered.responses.score).toEqual(["s0", "s3"]);
    expect(filtered.responses.answer).toEqual(["a0", "a3"]);
    expect(filtered.responses.activeMs).toBeInstanceOf(Float64Array);
    expect(filtered.version).not.toBe("4:1:2:1");
    // another set, another version (memoised figures are keyed apart)
    expect(snapshotWithoutAnnotators(snapshot(), new Set(["cy"])).version).not.toBe(filtered.version);
  });

  it("returns the snapshot itself when nobody in it is excluded", () => {
    const original = snapshot();
    expect(snapshotWithoutAnnotators(original, new Set())).toBe(original);
    expect(snapshotWithoutAnnotators(original, new Set(["someone-without-answers"]))).toBe(original);
  });
});
