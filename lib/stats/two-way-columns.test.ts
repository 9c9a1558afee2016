import { describe, expect, it } from "vitest";
import { twoWayRangeInterval } from "@/lib/stats/two-way-cluster-variance";
import { mulberry32 } from "@/lib/stats/rng";
import { twoWayMeanInterval, twoWayProportionInterval, type CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";

/** The column form (answers as integer-indexed columns) gives what the keyed form gives on the same answers, field by field. */
describe("twoWayRangeInterval", () => {
  const cases: Array<{ name: string; answers: CrossedAnswer[] }> = [];
  const random = mulberry32(11);
  for (const [items, people, pRight] of [
    [12, 5, 0.6],
    [3, 9, 0.3],
    [20, 2, 0.9],
    [1, 4, 0.5],
    [6, 1, 0.5],
    [5, 5, 1],
  ] as const) {
    const answers: CrossedAnswer[] = [];
    for (let i = 0; i < items; i++)
      for (let p = 0; p < people; p++)
        if (random() < 0.85) answers.push({ item: i, person: p, num: random() < pRight ? 1 : 0, den: 1 + Math.floor(random() * 4) });
    // a repeated (item, person) cell, as a model's several samples
    if (answers.length > 0) answers.push({ ...answers[0] });
    cases.push({ name: `${items} items x ${people} people`, answers });
  }

  for (const { name, answers } of cases) {
    it(`matches on ${name}`, () => {
      const columns = (withDen: boolean) => ({
        item: Int32Array.from(answers, (a) => Number(a.item)),
        person: Int32Array.from(answers, (a) => Number(a.person)),
        items: Math.max(...answers.map((a) => Number(a.item))) + 1,
        people: Math.max(...answers.map((a) => Number(a.person))) + 1,
        num: Float64Array.from(answers, (a) => a.num),
        den: withDen ? Float64Array.from(answers, (a) => a.den ?? 1) : null,
      });
      for (const over of ["people+items", "items"] as const) {
        const share = twoWayRangeInterval(columns(false), 0, answers.length, over, true);
        const wantShare = twoWayProportionInterval(
          answers.map((a) => ({ ...a, den: 1 })),
          over,
        );
        expect(share.ci === null ? null : share.ci.map((x) => Number(x.toFixed(12)))).toEqual(
          wantShare.ci === null ? null : wantShare.ci.map((x) => Number(x.toFixed(12))),
        );
        expect({ ...share, ci: undefined }).toEqual({
          ...wantShare,
          ci: undefined,
          ...(share.effectiveN === undefined ? {} : { effectiveN: expect.closeTo(wantShare.effectiveN!, 9) }),
          ...(share.variance === null ? {} : { variance: expect.closeTo(wantShare.variance!, 12) }),
        });
        const ratio = twoWayRangeInterval(columns(true), 0, answers.length, over, false);
        const wantRatio = twoWayMeanInterval(answers, over);
        expect(ratio.reason).toBe(wantRatio.reason);
        expect(ratio.estimate).toBeCloseTo(wantRatio.estimate, 12);
        if (wantRatio.ci) {
          expect(ratio.ci![0]).toBeCloseTo(wantRatio.ci[0], 12);
          expect(ratio.ci![1]).toBeCloseTo(wantRatio.ci[1], 12);
        } else expect(ratio.ci).toBeNull();
      }
    });
  }
});
