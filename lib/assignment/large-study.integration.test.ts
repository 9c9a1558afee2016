import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { candidateSearchesForTest, nextAssignment } from "@/lib/assignment";
import { orderKey, orderKeySql, participantPermutation, rankOrder } from "@/lib/assignment/participant-order";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * A large study: each participant's order (participant-order.ts)
 * costs no hash per item, and the fast search and the full search in SQL rank the same candidates.
 */
async function bigStudy(items: number) {
  const study = await createStudy({ overlap: 2 });
  const batchId = randomUUID();
  await db.$executeRaw`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES (${batchId}, ${study.id}, 'big.jsonl', ${batchId}, ${items})`;
  const ids = Array.from({ length: items }, () => randomUUID());
  const externalIds = ids.map((_, i) => `big-${String(i).padStart(6, "0")}`);
  await db.$executeRaw`
    INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, "contentHash")
    SELECT t.id, ${study.id}, ${batchId}, t.ext, 'enact-forward',
      '{"initialImage": "a.png", "actions": ["a", "b", "c"], "candidates": ["1", "2", "3"]}'::jsonb, '{"order": [1, 2, 0]}'::jsonb, '{}'::jsonb, t.ext
    FROM unnest(${ids}::text[], ${externalIds}::text[]) AS t(id, ext)`;
  return study;
}

describe("a participant's order key in SQL", () => {
  it("equals the key computed in JavaScript, for the smallest and the largest key domains", async () => {
    for (const [user, itemCount] of [
      ["u-small", 10],
      ["u-mid", 100_000],
      ["u-large", 2 ** 26],
    ] as const) {
      const permutation = participantPermutation(user, itemCount);
      const step = Math.max(1, Math.floor(itemCount / 3000));
      const rows = await db.$queryRawUnsafe<Array<{ rank: bigint; key: bigint }>>(
        `SELECT rank, ${orderKeySql("rank", permutation)} AS key FROM generate_series(0::bigint, ${itemCount - 1}::bigint, ${step}::bigint) AS rank`,
      );
      expect(rows.length).toBeGreaterThan(2);
      for (const row of rows) expect(Number(row.key)).toBe(orderKey(Number(row.rank), permutation));
    }
  });
});

describe("a study of 10,000 items", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("the fast and the full search agree, and each participant gets the first item of their order", async () => {
    const study = await bigStudy(10_000);
    const first = await createUser("ANNOTATOR");
    await addMember(study.id, first.id);
    // the first request loads the item list into this process
    expect((await nextAssignment(study.id, first.id)).status).toBe("assigned");
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { id: true } });
    const ids = items.map((item) => item.id);
    const rankOf = new Map([...rankOrder(ids)].map((index, rank) => [ids[index], rank]));
    for (let n = 0; n < 3; n++) {
      const user = await createUser("ANNOTATOR");
      await addMember(study.id, user.id);
      const { fast, full } = await candidateSearchesForTest(study.id, user.id);
      expect(fast).not.toBeNull();
      const key = (c: { condition: string | null; balance: string; rank: number; itemId: string; hash: string }) =>
        `${c.condition}|${c.balance}|${c.rank}|${c.itemId}|${c.hash}`;
      expect(fast!.map(key).sort()).toEqual(full.map(key).sort());
      const next = await nextAssignment(study.id, user.id);
      if (next.status !== "assigned") throw new Error(JSON.stringify(next));
      const { itemId } = await db.assignment.findUniqueOrThrow({ where: { id: next.assignmentId }, select: { itemId: true } });
      // the item given is the first of the participant's order (nobody holds two places of any item yet)
      const permutation = participantPermutation(user.id, ids.length);
      const best = ids.reduce((x, y) => (orderKey(rankOf.get(y)!, permutation) < orderKey(rankOf.get(x)!, permutation) ? y : x));
      expect(itemId).toBe(best);
    }
  });
});
