import { describe, expect, it } from "vitest";
import { brierScore, calibrationBins, confidenceByCorrectness, expectedCalibrationError } from "@/lib/stats/calibration";

const conf = [0.9, 0.8, 0.3];
const right = [true, false, false];

describe("calibrationBins", () => {
  it("hand example with 2 bins", () => {
    const bins = calibrationBins(conf, right, 2);
    expect(bins[0]).toMatchObject({ lower: 0, upper: 0.5, count: 1, meanConfidence: 0.3, accuracy: 0 });
    expect(bins[1].count).toBe(2);
    expect(bins[1].meanConfidence).toBeCloseTo(0.85, 12);
    expect(bins[1].accuracy).toBe(0.5);
  });

  it("uses right-closed bins ((b-1)/B, b/B] as in Guo et al. 2017, with 0 in the first", () => {
    const bins = calibrationBins([0, 0.1, 0.3, 0.30001, 1], [1, 1, 1, 1, 1], 10);
    expect(bins.map((b) => b.count)).toEqual([2, 0, 1, 1, 0, 0, 0, 0, 0, 1]);
    expect(bins[1].meanConfidence).toBeNull();
    expect(bins[1].accuracy).toBeNull();
  });

  it("rejects bad input", () => {
    expect(() => calibrationBins([1.2], [true])).toThrow("calibrationBins requires confidences in [0, 1] (value 0 is 1.2)");
    expect(() => calibrationBins([0.5], [true, false])).toThrow(/as many correctness values/);
    expect(() => calibrationBins([], [])).toThrow("calibrationBins requires at least 1 data point");
    expect(() => calibrationBins([0.5], [2])).toThrow(/true\/false or 1\/0/);
    expect(() => calibrationBins([0.5], [1], 0)).toThrow("calibrationBins requires at least 1 bin");
  });
});

describe("expectedCalibrationError", () => {
  it("hand example: 1/3 * |0 - 0.3| + 2/3 * |0.5 - 0.85| = 0.1 + 0.2333 = 1/3", () => {
    expect(expectedCalibrationError(conf, right, 2)).toBeCloseTo(1 / 3, 12);
  });

  it("is 0 when accuracy equals confidence in every bin", () => {
    // bin (0.7, 0.8]: four answers at 0.75, three right -> accuracy 0.75
    expect(expectedCalibrationError([0.75, 0.75, 0.75, 0.75], [1, 1, 1, 0], 10)).toBeCloseTo(0, 12);
  });
});

describe("brierScore", () => {
  it("hand example: (0.1^2 + 0.8^2 + 0.3^2) / 3 = 0.74 / 3", () => {
    expect(brierScore(conf, right)).toBeCloseTo(0.74 / 3, 12);
    expect(brierScore([0.5, 0.5], [1, 0])).toBe(0.25);
  });
});

describe("confidenceByCorrectness", () => {
  it("hand example: right 0.9, wrong (0.8 + 0.3) / 2 = 0.55", () => {
    const r = confidenceByCorrectness(conf, right);
    expect(r.correct).toEqual({ count: 1, meanConfidence: 0.9 });
    expect(r.incorrect.count).toBe(2);
    expect(r.incorrect.meanConfidence).toBeCloseTo(0.55, 12);
    expect(confidenceByCorrectness([0.4], [false]).correct.meanConfidence).toBeNull();
  });
});

describe("calibration with each answer's bin given", () => {
  it("bins by the given index (a scale point) whatever the confidence, and ECE weighs those bins", () => {
    // scale point 0 read as 0.25 and 0.5 on items of 4 and 2 options; point 1 as 1
    const bins = calibrationBins([0.25, 0.5, 1], [true, false, true], 2, [0, 0, 1]);
    expect(bins[0]).toMatchObject({ count: 2, meanConfidence: 0.375, accuracy: 0.5, lower: 0, upper: 0.5 });
    expect(bins[1]).toMatchObject({ count: 1, meanConfidence: 1, accuracy: 1 });
    expect(expectedCalibrationError([0.25, 0.5, 1], [true, false, true], 2, [0, 0, 1])).toBeCloseTo((2 / 3) * 0.125, 12);
    expect(() => calibrationBins([0.5], [true], 2, [2])).toThrow(/bin indices 0..1/);
    expect(() => calibrationBins([0.5], [true], 2, [0, 1])).toThrow(/as many bin indices/);
  });
});
