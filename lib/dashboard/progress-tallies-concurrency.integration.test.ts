import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getStudyProgress, recomputeStudyProgress } from "@/lib/dashboard/progress";
import { submitResponse } from "@/lib/responses/responses";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The progress tallies under concurrent writes: submissions at once, by many annotators
 * to the same items and by one annotator to many items, neither deadlock nor lose a count; and two
 * transactions answering one item in two conditions (each alone leaves the item incomplete, the two
 * together complete it) count the completed item once the second commits.
 */

async function expectTalliesRight(studyId: string) {
  for (const overlap of [1, 2, 3, 4]) expect(await getStudyProgress(studyId, overlap)).toEqual(await recomputeStudyProgress(studyId, overlap));
}

describe("progress tallies under concurrent writes", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("parallel submissions (same items, same annotators) all succeed and leave every figure equal to the recomputation", async () => {
    const study = await createStudy({ overlap: 3 });
    await db.study.update({ where: { id: study.id }, data: { conditions: ["single", "multi"] } });
    const items = await createEnactItems(study.id, { count: 6 });
    const users = [];
    for (let u = 0; u < 8; u++) {
      const user = await createUser("ANNOTATOR");
      await addMember(study.id, user.id);
      users.push(user);
    }
    const work = [];
    for (const [u, user] of users.entries()) {
      for (const [i, item] of items.entries()) {
        const assignment = await db.assignment.create({
          data: {
            studyId: study.id,
            itemId: item.id,
            userId: user.id,
            position: i,
            purpose: "MAIN",
            status: (u + i) % 3 === 0 ? "ASSIGNED" : "STARTED",
            condition: (u + i) % 2 === 0 ? "single" : "multi",
          },
        });
        work.push({ userId: user.id, assignmentId: assignment.id });
      }
    }
    // every submission at once (the pool runs as many as it has connections), and a retry of some
    const submissions = work.flatMap((w, k) => {
      const input = {
        assignmentId: w.assignmentId,
        clientId: randomUUID(),
        answer: { order: k % 2 === 0 ? [1, 2, 0] : [0, 1, 2] },
        confidence: 3,
        wallMs: 1,
        activeMs: 1,
        submitSeq: 0,
      };
      return k % 5 === 0 ? [submitResponse(w.userId, input), submitResponse(w.userId, input)] : [submitResponse(w.userId, input)];
    });
    const results = await Promise.allSettled(submissions);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(await db.response.count()).toBe(work.length);
    await expectTalliesRight(study.id);
    const progress = await getStudyProgress(study.id, 3);
    expect(progress).toMatchObject({ items: 6, conditions: 2, done: 48, itemsComplete: 6 });
    expect(progress.perAnnotator.map((a) => a.mainDone)).toEqual(users.map(() => 6));
  }, 120_000);

  it("two transactions answering one item in its two conditions: the item is complete once both have committed", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { conditions: ["single", "multi"] } });
    const [item] = await createEnactItems(study.id, { count: 1 });
    const [a, b] = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    const ids: string[] = [];
    for (const [user, condition] of [
      [a, "single"],
      [b, "multi"],
    ] as const) {
      const assignment = await db.assignment.create({
        data: { studyId: study.id, itemId: item!.id, userId: user.id, position: 0, purpose: "MAIN", status: "STARTED", condition },
      });
      ids.push(assignment.id);
    }
    const clients = [new pg.Client({ connectionString: process.env.DATABASE_URL }), new pg.Client({ connectionString: process.env.DATABASE_URL })];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      const answer = (client: pg.Client, assignmentId: string) =>
        client.query(
          `INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct) VALUES ($1, $2, $3, '{}', 3, 0.5, 1, 1, '{}', true)`,
          [randomUUID(), assignmentId, randomUUID()],
        );
      await clients[0]!.query("BEGIN");
      await clients[1]!.query("BEGIN");
      await answer(clients[0]!, ids[0]!);
      // the second waits for the first's lock on the item, then reads the first's answer
      const second = answer(clients[1]!, ids[1]!);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await clients[0]!.query("COMMIT");
      await second;
      await clients[1]!.query("COMMIT");
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    expect((await getStudyProgress(study.id, 1)).itemsComplete).toBe(1);
    await expectTalliesRight(study.id);
  });
});
