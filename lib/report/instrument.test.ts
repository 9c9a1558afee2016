import { describe, expect, it } from "vitest";
import { goldDue } from "@/lib/assignment/next";
import { itemsPerPersonAtMost } from "@/lib/report/instrument";

/** The queue the assignment rules make for one person who answers everything (rule 6: gold only while ordinary work is left). */
function simulate(userId: string, ordinary: number, gold: number, goldRate: number, quota: number | null) {
  let ordinaryDone = 0;
  let goldDone = 0;
  while (ordinaryDone < ordinary && (quota === null || ordinaryDone + goldDone < quota)) {
    if (goldDone < gold && goldDue(userId, ordinaryDone + goldDone, goldDone, goldRate)) goldDone++;
    else ordinaryDone++;
  }
  return { total: ordinaryDone + goldDone, gold: goldDone };
}

describe("itemsPerPersonAtMost", () => {
  it("counts the gold items mixed in besides every ordinary item: 3 ordinary and 1 gold at a third or more is 4", () => {
    expect(itemsPerPersonAtMost({ ordinary: 3, gold: 1, goldRate: 0.34, quota: null })).toEqual({ total: 4, gold: 1 });
    expect(itemsPerPersonAtMost({ ordinary: 3, gold: 0, goldRate: 0.34, quota: null })).toEqual({ total: 3, gold: 0 });
    expect(itemsPerPersonAtMost({ ordinary: 8, gold: 2, goldRate: 0.2, quota: 8 })).toEqual({ total: 8, gold: 2 });
    expect(itemsPerPersonAtMost({ ordinary: 0, gold: 2, goldRate: 0.5, quota: null })).toEqual({ total: 0, gold: 0 });
    expect(itemsPerPersonAtMost({ ordinary: 5, gold: 3, goldRate: 1, quota: null })).toEqual({ total: 8, gold: 3 });
  });

  it("is the most the assignment rules give anyone, over many people", () => {
    for (const [ordinary, gold, goldRate] of [
      [3, 1, 0.34],
      [3, 1, 0.25],
      [10, 5, 0.2],
      [6, 6, 0.5],
      [4, 2, 0.1],
    ] as const) {
      const people = Array.from({ length: 400 }, (_, i) => simulate(`user-${i}`, ordinary, gold, goldRate, null));
      const most = { total: Math.max(...people.map((p) => p.total)), gold: Math.max(...people.map((p) => p.gold)) };
      expect(most, `${ordinary} ordinary, ${gold} gold at ${goldRate}`).toEqual(itemsPerPersonAtMost({ ordinary, gold, goldRate, quota: null }));
    }
  });
});
