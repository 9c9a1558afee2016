import { describe, expect, it } from "vitest";
import { computeCalibration } from "@/lib/dashboard/calibration";
import { CORRECTNESS_UNKNOWN } from "@/lib/dashboard/snapshot-utils";
import { calibrationOf } from "@/lib/dashboard/study-dashboard";
import type { StudySnapshot } from "@/lib/dashboard/types";

describe("calibration over answers with a correctness", () => {
  it("leaves out answers whose correctness is unknown and counts them (EgoSchema-style: 4 keyed answers, 2 withheld)", () => {
    // every answer at confidence 0.75; the 4 keyed ones right, the 2 withheld ones have no right answer
    const confidences = [0.75, 0.75, 0.75, 0.75, 0.75, 0.75];
    const correct = [1, 1, 1, 1, null, null];
    const result = computeCalibration(confidences, correct, 5)!;
    // counting the withheld as wrong would give ECE |4/6 - 0.75| = 0.083 and Brier 0.229
    expect(result.ece).toBeCloseTo(0.25, 12);
    expect(result.brier).toBeCloseTo(0.0625, 12);
    expect(result.n).toBe(4);
    expect(result.withoutCorrectness).toBe(2);
    expect(result).toMatchObject({ right: 4, wrong: 0 });
  });

  it("is null when no answer has a correctness", () => {
    expect(computeCalibration([0.5, 0.5], [null, null], 5)).toBeNull();
    expect(computeCalibration([], [], 5)).toBeNull();
  });
});

describe("calibration of the study's confidences", () => {
  /** one annotator's choice answers on 4-option items: [confidence normalised from the 1-5 scale, right?] */
  function snapshotOf(answers: Array<[number, boolean | null]>): StudySnapshot {
    const n = answers.length;
    const ids = answers.map((_, i) => `item-${i}`);
    return {
      studyId: "s",
      version: "1",
      loadedAt: 0,
      items: { keys: [], ids, externalIds: ids, kinds: ids.map(() => "choice"), tags: ids.map(() => ({})), index: new Map(ids.map((id, i) => [id, i])) },
      conditions: [],
      annotators: [{ id: "u", name: "U" }],
      responses: {
        count: n,
        item: Int32Array.from(answers.map((_, i) => i)),
        annotator: new Int32Array(n),
        agreement: new Uint8Array(n),
        condition: new Int32Array(n).fill(-1),
        correct: Uint8Array.from(answers.map(([, right]) => (right === null ? CORRECTNESS_UNKNOWN : right ? 1 : 0))),
        confidence: Float64Array.from(answers.map(([c]) => c)),
        wallMs: new Float64Array(n),
        activeMs: new Float64Array(n),
        createdAt: new Float64Array(n),
        score: answers.map(([, right]) => ({ correct: right, score: right === null ? null : right ? 1 : 0, options: 4 })),
        answer: answers.map(() => ({ choice: "A" })),
      },
    };
  }

  it("reads 1 (guessing) on the 1-5 scale as the item's chance, 1/4 on a 4-option item, linear to 1 at 5", () => {
    // 4 guesses, one right (a quarter, as guessing among 4 options), and 6 certain answers, all right
    const answers: Array<[number, boolean]> = [[0, true], [0, false], [0, false], [0, false], ...Array.from({ length: 6 }, (): [number, boolean] => [1, true])];
    const result = calibrationOf(snapshotOf(answers), null, true, "LIKERT_5")!;
    // guessing read as probability 0 would give ECE 0.4 x 0.25 = 0.100
    expect(result.ece).toBeCloseTo(0, 12);
    expect(result.bins[0]).toMatchObject({ count: 4, meanConfidence: 0.25, accuracy: 0.25 });
    expect(result.bins[4]).toMatchObject({ count: 6, meanConfidence: 1, accuracy: 1 });
    // "fairly sure" (3) on a 4-option item: 0.25 + 0.75 x 0.5
    const middle = calibrationOf(snapshotOf([[0.5, true]]), null, true, "LIKERT_5")!;
    expect(middle.bins[2].meanConfidence).toBeCloseTo(0.625, 12);
    expect(middle.brier).toBeCloseTo(0.375 ** 2, 12);
  });

  it("leaves out answers without a correctness and counts them", () => {
    const result = calibrationOf(
      snapshotOf([
        [1, true],
        [1, null],
        [0.75, null],
      ]),
      null,
      true,
      "LIKERT_5",
    )!;
    expect(result).toMatchObject({ n: 1, withoutCorrectness: 2, ece: 0 });
  });
});
