import { describe, expect, it } from "vitest";
import { positionOfKey, shownOrder } from "@/lib/tasks/choice/order";

describe("the order options are shown in", () => {
  const ids = ["a", "b", "c", "d", "e"];
  it("is the item's own when it may not be shuffled", () => {
    expect(shownOrder(ids, false, "asg-1")).toEqual(ids);
  });
  it("is a permutation fixed by the assignment, differing between assignments", () => {
    const first = shownOrder(ids, true, "asg-1");
    expect([...first].sort()).toEqual(ids);
    expect(shownOrder(ids, true, "asg-1")).toEqual(first);
    const orders = new Set(Array.from({ length: 40 }, (_, i) => shownOrder(ids, true, `asg-${i}`).join("")));
    expect(orders.size).toBeGreaterThan(20);
  });
  it("is uniform enough: each option first about 1/n of the time", () => {
    const firsts = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const first = shownOrder(ids, true, `assignment-${i}`)[0];
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    for (const id of ids) expect(Math.abs((firsts.get(id) ?? 0) / 5000 - 0.2)).toBeLessThan(0.03);
  });
});

describe("keys", () => {
  it("1-9 and A-I name display positions within the options", () => {
    expect(positionOfKey("1", 3)).toBe(0);
    expect(positionOfKey("3", 3)).toBe(2);
    expect(positionOfKey("4", 3)).toBeNull();
    expect(positionOfKey("b", 3)).toBe(1);
    expect(positionOfKey("I", 9)).toBe(8);
    expect(positionOfKey("j", 9)).toBeNull();
    expect(positionOfKey("0", 9)).toBeNull();
  });
});
