import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { orderKey, participantAffine, primeAtLeast, rankOrder, walkParticipantOrder } from "@/lib/assignment/participant-order";

describe("a participant's order of the items", () => {
  it("primeAtLeast gives the smallest prime at or above n", () => {
    expect([0, 1, 2, 3, 4, 10, 11, 12, 100, 1000].map(primeAtLeast)).toEqual([2, 2, 2, 3, 5, 11, 11, 13, 101, 1009]);
  });

  it("visits every item once, in increasing key order, each key being (a r + b) mod P of its rank", () => {
    for (const n of [1, 2, 7, 50, 1000]) {
      const ids = Array.from({ length: n }, () => randomUUID());
      const byRank = rankOrder(ids);
      const rankOf = new Map([...byRank].map((index, rank) => [index, rank]));
      const prime = primeAtLeast(n);
      for (const user of ["u1", "u2", randomUUID()]) {
        const affine = participantAffine(user, prime);
        const seen: Array<[number, number]> = [];
        walkParticipantOrder(byRank, affine, prime, (index, key) => {
          seen.push([index, key]);
        });
        expect(seen.map(([index]) => index).sort((x, y) => x - y)).toEqual([...ids.keys()]);
        for (let i = 1; i < seen.length; i++) expect(seen[i][1]).toBeGreaterThan(seen[i - 1][1]);
        for (const [index, key] of seen) expect(key).toBe(orderKey(rankOf.get(index)!, affine, prime));
      }
    }
  });

  it("gives different participants different orders, and stops when the visitor says so", () => {
    const ids = Array.from({ length: 200 }, (_, i) => `item-${i}`);
    const byRank = rankOrder(ids);
    const prime = primeAtLeast(ids.length);
    const firstTen = (user: string) => {
      const out: number[] = [];
      walkParticipantOrder(byRank, participantAffine(user, prime), prime, (index) => out.push(index) < 10);
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
