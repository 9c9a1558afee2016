import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { candidateSearchesForTest, nextAssignment } from "@/lib/assignment";
import { prepareItemOrder } from "@/lib/assignment/candidate-pool";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * A study larger than one slice of hashes (issue 22, "Scale of one study"): the participant's md5
 * order made ahead of the next-item transaction, in slices between which the event loop runs, is
 * the order the transaction (and the full search in SQL) would have made.
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

  it("prepares each participant's order ahead of the transaction, and it is the md5 order of the full search", async () => {
    const study = await bigStudy(10_000);
    const first = await createUser("ANNOTATOR");
    await addMember(study.id, first.id);
    // the first request loads the item list into this process
    expect((await nextAssignment(study.id, first.id)).status).toBe("assigned");
    for (let n = 0; n < 3; n++) {
      const user = await createUser("ANNOTATOR");
      await addMember(study.id, user.id);
      let prepared = false;
      const preparing = prepareItemOrder(study.id, user.id).then(() => (prepared = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(prepared).toBe(false); // other work (this callback) ran between its slices
      await preparing;
      const { fast, full } = await candidateSearchesForTest(study.id, user.id);
      expect(fast).not.toBeNull();
      const key = (c: { condition: string | null; balance: string; rank: number; itemId: string }) => `${c.condition}|${c.balance}|${c.rank}|${c.itemId}`;
      expect(fast!.map(key).sort()).toEqual(full.map(key).sort());
      const next = await nextAssignment(study.id, user.id);
      if (next.status !== "assigned") throw new Error(JSON.stringify(next));
      const { itemId } = await db.assignment.findUniqueOrThrow({ where: { id: next.assignmentId }, select: { itemId: true } });
      // the item given is the first of the participant's md5 order (nobody holds two places of it yet)
      const [best] = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM "Item" WHERE "studyId" = ${study.id} ORDER BY md5(${user.id} || ':' || id), id LIMIT 1`;
      expect(itemId).toBe(best.id);
    }
  });
});
