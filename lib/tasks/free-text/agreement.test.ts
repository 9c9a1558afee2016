import { describe, expect, it } from "vitest";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { mulberry32, randomInt } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { alphaFigure, JUDGE, type Grade } from "@/lib/tasks/free-text/agreement";

/** 40 graded answers: the judge gives each its grade 1..5; graders 1 and 2 agree with it, 3 and 4 are two grades off on every other answer */
function units(graders = [1, 2, 3, 4]): Grade[][] {
  const rng = mulberry32(4);
  return Array.from({ length: 40 }, (_, i) => {
    const truth = 1 + randomInt(rng, 5);
    const off = (grader: number) => (grader === 3 && i % 2 === 0) || (grader === 4 && i % 2 === 1);
    return [{ grade: truth, grader: JUDGE }, ...graders.map((grader) => ({ grade: off(grader) ? ((truth + 1) % 5) + 1 : truth, grader }))];
  });
}

describe("free-text alpha", () => {
  it("items only reproduces the unit bootstrap of before, draw for draw", () => {
    const data = units();
    const got = alphaFigure(data, "k", "items")!;
    const before = krippendorffAlphaBootstrap(
      data.map((unit) => unit.map((g) => g.grade)),
      "interval",
      mulberry32(seedFromString("k")),
      { resamples: 1000, confidence: 0.95 },
    );
    expect(got.alpha).toBeCloseTo(before.estimate.alpha!, 12);
    expect(got.ci![0]).toBeCloseTo(before.ci![0], 10);
    expect(got.ci![1]).toBeCloseTo(before.ci![1], 10);
  });

  it("over people and answers: wider when the graders differ, the judge never drawn", () => {
    const data = units();
    const both = alphaFigure(data, "k", "people+items")!;
    const itemsOnly = alphaFigure(data, "k", "items")!;
    expect(both.alpha).toBeCloseTo(itemsOnly.alpha!, 12);
    expect(both.people).toBe(4);
    expect(both.ci![1] - both.ci![0]).toBeGreaterThan(1.5 * (itemsOnly.ci![1] - itemsOnly.ci![0]));
    expect(both.method).toMatch(/pigeonhole.*judge never drawn/);
  });

  it("the judge and one grader: no spread over people, said in words", () => {
    expect(alphaFigure(units([3]), "k", "people+items")).toMatchObject({ ci: null, ciReason: "one person", people: 1 });
    expect(alphaFigure(units([3]), "k", "items")!.ci).not.toBeNull();
  });
});
