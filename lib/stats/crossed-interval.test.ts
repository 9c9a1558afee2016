import { describe, expect, it } from "vitest";
import {
  PEOPLE_DIFFER_BEFORE,
  PEOPLE_DIFFER_ITEMS_ONLY,
  PEOPLE_DIFFER_TWO_WAY,
  peopleDifferAnswers,
  peopleDifferRight,
  peopleDifferScore,
} from "@/lib/stats/__fixtures__/people-differ";
import { clusteredWilsonInterval, wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { crossedMean, crossedProportion } from "@/lib/stats/crossed-interval";
import { mulberry32 } from "@/lib/stats/rng";
import { tCritical } from "@/lib/stats/student-t";
import { twoWayMeanInterval, twoWayProportionInterval, type CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";

const share = peopleDifferAnswers().map((a) => ({ ...a, num: peopleDifferRight(a.person) ? 1 : 0 }));

describe("crossedProportion", () => {
  it("hand-worked: people differ wholly, items not at all (lib/stats/__fixtures__/people-differ.ts)", () => {
    const both = crossedProportion(share, "people+items");
    expect(both).toMatchObject({ estimate: 0.5, items: 10, people: 4, df: 3 });
    expect(both.effectiveN).toBeCloseTo(3, 12);
    expect(both.ci![0]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[0], 5);
    expect(both.ci![1]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[1], 5);
    const items = crossedProportion(share, "items");
    expect(items.ci![0]).toBeCloseTo(PEOPLE_DIFFER_ITEMS_ONLY[0], 5);
    expect(items.ci![1]).toBeCloseTo(PEOPLE_DIFFER_ITEMS_ONLY[1], 5);
    // the design-effect Wilson over items of before gives [0.352, 0.648]
    const before = clusteredWilsonInterval(Array.from({ length: 10 }, () => ({ successes: 2, trials: 4 })));
    expect(before.ci![0]).toBeCloseTo(PEOPLE_DIFFER_BEFORE[0], 5);
    expect(both.ci![1] - both.ci![0]).toBeGreaterThan(2.5 * (before.ci![1] - before.ci![0]));
  });

  it("equals twoWayProportionInterval for 0/1 answers, and items only the design-effect Wilson up to G/(G-1) and t", () => {
    const rng = mulberry32(3);
    const answers: CrossedAnswer[] = [];
    for (let i = 0; i < 15; i++) for (let p = 0; p < 6; p++) if (rng() < 0.8) answers.push({ item: i, person: p, num: rng() < 0.3 + 0.04 * i ? 1 : 0 });
    for (const over of ["people+items", "items"] as const) expect(crossedProportion(answers, over).ci).toEqual(twoWayProportionInterval(answers, over).ci);
    const clusters = Array.from({ length: 15 }, (_, i) => ({
      successes: answers.filter((a) => a.item === i && a.num === 1).length,
      trials: answers.filter((a) => a.item === i).length,
    }));
    const old = clusteredWilsonInterval(clusters);
    const G = 15;
    const want = wilsonBounds(old.estimate, (old.effectiveN! * (G - 1)) / G, tCritical(G - 1));
    const got = crossedProportion(answers, "items").ci!;
    expect(got[0]).toBeCloseTo(want[0], 10);
    expect(got[1]).toBeCloseTo(want[1], 10);
  });

  it("shares of several trials: the effective n is capped at the trials, not the answers", () => {
    const answers: CrossedAnswer[] = [];
    for (let i = 0; i < 8; i++) for (let p = 0; p < 5; p++) answers.push({ item: i, person: p, num: (i + p) % 4, den: 4 });
    const got = crossedProportion(answers, "people+items");
    expect(got.effectiveN!).toBeLessThanOrEqual(160);
    expect(got.estimate).toBeCloseTo(answers.reduce((s, a) => s + a.num, 0) / 160, 12);
  });

  it("words, not an interval: one item, one person, no answers", () => {
    expect(
      crossedProportion(
        [
          { item: 1, person: "a", num: 1 },
          { item: 1, person: "b", num: 0 },
        ],
        "people+items",
      ),
    ).toMatchObject({ ci: null, reason: "one item" });
    expect(
      crossedProportion(
        [
          { item: 1, person: "a", num: 1 },
          { item: 2, person: "a", num: 0 },
        ],
        "people+items",
      ),
    ).toMatchObject({ ci: null, reason: "one person" });
    expect(
      crossedProportion(
        [
          { item: 1, person: "a", num: 1 },
          { item: 2, person: "a", num: 0 },
        ],
        "items",
      ).ci,
    ).not.toBeNull();
    expect(crossedProportion([], "people+items")).toMatchObject({ estimate: null, ci: null, reason: "no answers" });
  });
});

describe("crossedMean", () => {
  const mean = peopleDifferAnswers().map((a) => ({ ...a, num: peopleDifferScore(a.person) }));
  it("hand-worked: 0.5 +- t(3) / sqrt(60), cut to the answers' range; items only no spread", () => {
    const both = crossedMean(mean, "people+items");
    expect(both.ci).toEqual([0.2, 0.8]);
    const uncut = twoWayMeanInterval(mean, "people+items").ci!;
    expect(uncut[0]).toBeCloseTo(0.5 - 3.182446305 / Math.sqrt(60), 8);
    expect(crossedMean(mean, "items")).toMatchObject({ ci: null, reason: "no spread" });
  });
  it("equals twoWayMeanInterval inside the answers' range", () => {
    const rng = mulberry32(5);
    const answers: CrossedAnswer[] = [];
    for (let i = 0; i < 12; i++) for (let p = 0; p < 7; p++) answers.push({ item: i, person: p, num: rng() * 10 });
    for (const over of ["people+items", "items"] as const) expect(crossedMean(answers, over).ci).toEqual(twoWayMeanInterval(answers, over).ci);
  });
});
