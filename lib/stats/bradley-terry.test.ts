import { describe, expect, it } from "vitest";
import { bradleyTerry, bradleyTerryIdentifiable, type PairwiseComparison } from "@/lib/stats/bradley-terry";

const times = (n: number, c: PairwiseComparison): PairwiseComparison[] => Array.from({ length: n }, () => c);

describe("bradleyTerry", () => {
  it("two players: the strength ratio is the win ratio (3 of 4 -> 0.75 / 0.25)", () => {
    const r = bradleyTerry(2, [...times(3, { i: 0, j: 1, outcome: 1 }), { i: 0, j: 1, outcome: 0 }]);
    expect(r.converged).toBe(true);
    expect(r.strengths![0]).toBeCloseTo(0.75, 10);
    expect(r.strengths![1]).toBeCloseTo(0.25, 10);
  });

  it("counts a tie half to each side: 2 wins and 2 ties are 3 of 4", () => {
    const r = bradleyTerry(2, [...times(2, { i: 0, j: 1, outcome: 1 }), ...times(2, { i: 1, j: 0, outcome: 0.5 })]);
    expect(r.wins).toEqual([3, 1]);
    expect(r.strengths![0]).toBeCloseTo(0.75, 10);
  });

  it("three players whose wins per pair equal the model's expectation for gamma = (4, 2, 1) / 7 give exactly that", () => {
    // A-B: 3 games, A expected 4/6 of them = 2; A-C: 5 games, A expected 4/5 = 4; B-C: 3 games, B expected 2/3 = 2
    const data = [
      ...times(2, { i: 0, j: 1, outcome: 1 }),
      { i: 0, j: 1, outcome: 0 } as PairwiseComparison,
      ...times(4, { i: 0, j: 2, outcome: 1 }),
      { i: 2, j: 0, outcome: 1 } as PairwiseComparison,
      ...times(2, { i: 1, j: 2, outcome: 1 }),
      { i: 1, j: 2, outcome: 0 } as PairwiseComparison,
    ];
    const r = bradleyTerry(3, data);
    expect(r.converged).toBe(true);
    expect(r.strengths![0]).toBeCloseTo(4 / 7, 9);
    expect(r.strengths![1]).toBeCloseTo(2 / 7, 9);
    expect(r.strengths![2]).toBeCloseTo(1 / 7, 9);
    expect(r.wins).toEqual([6, 3, 2]);
    // weights count as repeated comparisons
    const weighted = bradleyTerry(3, [
      { i: 0, j: 1, outcome: 1, weight: 2 },
      { i: 0, j: 1, outcome: 0 },
      { i: 0, j: 2, outcome: 1, weight: 4 },
      { i: 2, j: 0, outcome: 1 },
      { i: 1, j: 2, outcome: 1, weight: 2 },
      { i: 1, j: 2, outcome: 0 },
    ]);
    expect(weighted.strengths![0]).toBeCloseTo(4 / 7, 9);
  });

  it("a cycle gives equal strengths", () => {
    const r = bradleyTerry(3, [
      { i: 0, j: 1, outcome: 1 },
      { i: 1, j: 2, outcome: 1 },
      { i: 2, j: 0, outcome: 1 },
    ]);
    for (const s of r.strengths!) expect(s).toBeCloseTo(1 / 3, 10);
  });

  it("has no strengths when a player never loses (the MLE does not exist)", () => {
    const data: PairwiseComparison[] = [
      { i: 0, j: 1, outcome: 1 },
      { i: 0, j: 2, outcome: 1 },
      { i: 1, j: 2, outcome: 1 },
      { i: 2, j: 1, outcome: 1 },
    ];
    expect(bradleyTerryIdentifiable(3, data)).toBe(false);
    const r = bradleyTerry(3, data);
    expect(r.strengths).toBeNull();
    expect(r.reason).toMatch(/Assumption 1/);
    // one tie against the unbeaten player is half a loss: identifiable again
    expect(bradleyTerryIdentifiable(3, [...data, { i: 1, j: 0, outcome: 0.5 }])).toBe(true);
  });
});
