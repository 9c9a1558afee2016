import { describe, expect, it } from "vitest";
import { runOnMigratedPglite } from "@/tests/pglite";

/**
 * `npm run demo` runs on the embedded PGlite: the progress tallies' migration (plpgsql triggers
 * with transition tables, advisory locks) applies there, and the triggers keep the figures equal
 * to the full recomputation through answers, a conditions change, an item made gold and a deletion.
 */
runOnMigratedPglite();

describe("progress tallies on the embedded database (PGlite behind pglite-socket)", () => {
  it("are kept by the triggers there too", async () => {
    const { db } = await import("@/lib/db");
    const { answer, createBatch, createOrderItem } = await import("@/lib/dashboard/testing/seed");
    const { createStudy, createUser } = await import("@/tests/db-helpers");
    const { getStudyProgress, recomputeStudyProgress } = await import("@/lib/dashboard/progress");
    const [version] = await db.$queryRaw<Array<{ version: string }>>`SELECT version()`;
    expect(version.version).toMatch(/PGlite/);
    const study = await createStudy({ overlap: 2 });
    const batch = await createBatch(study.id);
    const items = [];
    for (let n = 0; n < 3; n++) items.push(await createOrderItem(study.id, batch.id, { externalId: `x${n}`, order: [0, 1, 2] }));
    const users = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    const answers = [];
    for (const item of items) for (const user of users) answers.push(await answer(item, user.id, [1, 0, 2]));
    const same = async () => {
      for (const overlap of [1, 2]) expect(await getStudyProgress(study.id, overlap)).toEqual(await recomputeStudyProgress(study.id, overlap));
    };
    await same();
    expect(await getStudyProgress(study.id, 2)).toMatchObject({ items: 3, done: 6, itemsComplete: 3 });
    await db.study.update({ where: { id: study.id }, data: { conditions: ["a", "b"] } });
    await same();
    await db.study.update({ where: { id: study.id }, data: { conditions: [] } });
    await db.item.update({ where: { id: items[0]!.id }, data: { gold: true } });
    await db.assignment.delete({ where: { id: answers[2]!.assignmentId } });
    await same();
    expect(await getStudyProgress(study.id, 2)).toMatchObject({ items: 2, gold: 1, done: 3, itemsComplete: 1 });
  }, 300_000);
});
