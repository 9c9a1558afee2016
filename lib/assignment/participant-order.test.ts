import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { halfBitsFor, orderKey, participantPermutation, rankOfKey, rankOrder, walkParticipantOrder } from "@/lib/assignment/participant-order";

describe("a participant's order of the items", () => {
  it("uses a key domain of at least 2^12 and at least the item count, in whole bits per half", () => {
    expect([0, 1, 10, 4096, 4097, 100_000, 2 ** 26].map(halfBitsFor)).toEqual([6, 6, 6, 6, 7, 9, 13]);
    expect(() => halfBitsFor(2 ** 26 + 1)).toThrow(RangeError);
  });

  it("is a permutation: the key of a rank leads back to the rank, and no two ranks share a key", () => {
    for (const n of [1, 4096, 100_000, 2 ** 26]) {
      const permutation = participantPermutation(`user-${n}`, n);
      const rankOfSeenKey = new Map<number, number>();
      for (let i = 0; i < 5000; i++) {
        const rank = Math.min(n - 1, Math.floor((i / 5000) * n));
        const key = orderKey(rank, permutation);
        expect(key).toBeGreaterThanOrEqual(0);
        expect(key).toBeLessThan(2 ** (2 * permutation.halfBits));
        expect(rankOfKey(key, permutation)).toBe(rank);
        expect(rankOfSeenKey.get(key) ?? rank).toBe(rank);
        rankOfSeenKey.set(key, rank);
      }
    }
  });

  it("visits every item once, in increasing key order, each key being F of its rank", () => {
    for (const n of [1, 2, 7, 50, 1000, 5000]) {
      const ids = Array.from({ length: n }, () => randomUUID());
      const byRank = rankOrder(ids);
      const rankOf = new Map([...byRank].map((index, rank) => [index, rank]));
      for (const user of ["u1", "u2", randomUUID()]) {
        const permutation = participantPermutation(user, n);
        const seen: Array<[number, number]> = [];
        walkParticipantOrder(byRank, permutation, (index, key) => {
          seen.push([index, key]);
        });
        expect(seen.map(([index]) => index).sort((x, y) => x - y)).toEqual([...ids.keys()]);
        for (let i = 1; i < seen.length; i++) expect(seen[i][1]).toBeGreaterThan(seen[i - 1][1]);
        for (const [index, key] of seen) expect(key).toBe(orderKey(rankOf.get(index)!, permutation));
      }
    }
  });

  it("gives different participants different orders, and stops when the visitor says so", () => {
    const ids = Array.from({ length: 200 }, (_, i) => `item-${i}`);
    const byRank = rankOrder(ids);
    const firstTen = (user: string) => {
      const out: number[] = [];
      walkParticipantOrder(byRank, participantPermutation(user, ids.length), (index) => out.push(index) < 10);
      return out;
    };
    expect(firstTen("alice")).toHaveLength(10);
    expect(firstTen("alice")).toEqual(firstTen("alice"));
    expect(firstTen("alice")).not.toEqual(firstTen("bob"));
  });

  it('ranks by md5 of the id, as SQL\'s ORDER BY md5(id) COLLATE "C"', () => {
    const ids = ["b", "a", "c", "item-1", "item-2"];
    const byRank = [...rankOrder(ids)].map((index) => ids[index]);
    const md5 = (text: string) => createHash("md5").update(text).digest("hex");
    expect(byRank).toEqual([...ids].sort((x, y) => (md5(x) < md5(y) ? -1 : md5(x) > md5(y) ? 1 : 0)));
  });
});

describe("participants' orders of a small study", () => {
  const orderOf = (user: string, ids: readonly string[], places = ids.length) => {
    const byRank = rankOrder(ids);
    const out: string[] = [];
    walkParticipantOrder(byRank, participantPermutation(user, ids.length), (index) => out.push(ids[index]) < places);
    return out.join(",");
  };

  it("gives 300 participants of a 10-item study 300 different orders (an affine map mod 11 allows only 110)", () => {
    const ids = Array.from({ length: 10 }, (_, i) => `item-${i}`);
    const orders = new Set(Array.from({ length: 300 }, (_, i) => orderOf(`user-${i}`, ids)));
    expect(orders.size).toBe(300);
  });

  it("reaches every order of a 3-item study about equally often, and puts every item first about equally often in a 10-item one", () => {
    const three = ["x", "y", "z"];
    const counts = new Map<string, number>();
    for (let i = 0; i < 6000; i++) {
      const order = orderOf(`user-${i}`, three);
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(120);

    const ten = Array.from({ length: 10 }, (_, i) => `item-${i}`);
    const firsts = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const first = orderOf(`user-${i}`, ten, 1);
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    expect(firsts.size).toBe(10);
    for (const count of firsts.values()) expect(Math.abs(count - 500)).toBeLessThan(90);
  });
});
