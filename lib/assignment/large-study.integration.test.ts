import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { candidateSearchesForTest, nextAssignment } from "@/lib/assignment";
import { participantAffine, primeAtLeast } from "@/lib/assignment/participant-order";
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
    const prime = primeAtLeast(10_000);
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
      const { a, b } = participantAffine(user.id, prime);
      const [best] = await db.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM (SELECT id, (row_number() OVER (ORDER BY md5(id) COLLATE "C", id COLLATE "C") - 1) AS r FROM "Item" WHERE "studyId" = ${study.id}) x
        ORDER BY (${a}::bigint * r + ${b}::bigint) % ${prime}::bigint LIMIT 1`;
      expect(itemId).toBe(best.id);
    }
  });
});
