import { describe, expect, it } from "vitest";
import { runOnMigratedPglite } from "@/tests/pglite";

/**
 * `npm run demo` runs on the embedded PGlite, which answers a statement whole: the dashboard's
 * snapshot reads keyset pages there (copySupported is false), with the same columns.
 */
runOnMigratedPglite();

describe("the dashboard snapshot on the embedded database (PGlite behind pglite-socket)", () => {
  it("is read in keyset pages", async () => {
    const { db } = await import("@/lib/db");
    const { readPool } = await import("@/lib/db/read");
    const { copySupported } = await import("@/lib/db/copy");
    const { answer, createBatch, createOrderItem } = await import("@/lib/dashboard/testing/seed");
    const { createStudy, createUser } = await import("@/tests/db-helpers");
    const { loadSnapshot } = await import("@/lib/dashboard/snapshot");
    expect(await copySupported(readPool())).toBe(false);
    const study = await createStudy({ overlap: 2 });
    const batch = await createBatch(study.id);
    const items = [
      await createOrderItem(study.id, batch.id, { externalId: "tab\there", order: [0, 1, 2], tags: { steps: 3, hand: "le\\ft" } }),
      await createOrderItem(study.id, batch.id, { externalId: "x1", order: [0, 1], tags: { steps: 2 } }),
      await createOrderItem(study.id, batch.id, { externalId: "p", order: [0, 1], practice: true }),
    ];
    const [ann, bob] = [await createUser("ANNOTATOR", { name: "Ann" }), await createUser("ANNOTATOR", { name: "Bob" })];
    await answer(items[0], bob.id, [1, 0, 2], { confidence: 0.1 + 0.2, at: new Date("2026-01-01T10:00:00.123Z") });
    await answer(items[0], ann.id, [0, 1, 2], { purpose: "AGREEMENT", confidence: 1 });
    await answer(items[1], ann.id, [1, 0], { purpose: "PRACTICE" });
    await answer(items[2], ann.id, [1, 0]);
    const snapshot = await loadSnapshot(study.id);
    expect(snapshot.items.externalIds.sort()).toEqual(["tab\there", "x1"]);
    expect(snapshot.annotators.map((a) => a.name)).toEqual(["Ann", "Bob"]);
    expect(snapshot.responses.count).toBe(2);
    const first = snapshot.items.index.get(items[0].id)!;
    expect([...snapshot.responses.item]).toEqual([first, first]);
    const byName = (name: string) => snapshot.annotators.findIndex((a) => a.name === name);
    const ofBob = [...snapshot.responses.annotator].indexOf(byName("Bob"));
    const ofAnn = [...snapshot.responses.annotator].indexOf(byName("Ann"));
    expect(snapshot.responses.confidence[ofBob]).toBe(0.1 + 0.2);
    expect(snapshot.responses.createdAt[ofBob]).toBe(Date.parse("2026-01-01T10:00:00.123Z"));
    expect(snapshot.responses.agreement[ofAnn]).toBe(1);
    expect(snapshot.responses.answer[ofBob]).toEqual({ order: [1, 0, 2] });
    expect(Object.isFrozen(snapshot.responses.answer[ofBob])).toBe(true);
    expect(snapshot.items.tags[first]).toEqual({ steps: 3, hand: "le\\ft" });
    const [version] = await db.$queryRaw<Array<{ version: string }>>`SELECT version()`;
    expect(version.version).toMatch(/PGlite/);
  }, 300_000);
});
