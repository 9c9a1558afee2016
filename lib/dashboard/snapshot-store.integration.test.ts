import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { clearDashboardCaches, getSnapshot, loadSnapshot, snapshotStoresSettled, snapshotVersion, storeLoadedSnapshot } from "@/lib/dashboard/snapshot";
import { answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * A large study's snapshot is stored in compact form for its data version (lib/dashboard/snapshot-store.ts)
 * after it is read from the answers, and a process that holds nothing reads that instead; it is
 * never read at another version, and names are read as they are now.
 */

const MIN = process.env.YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS;

beforeEach(async () => {
  await resetDatabase();
  clearDashboardCaches();
  process.env.YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS = "0";
});

afterEach(async () => {
  await snapshotStoresSettled();
  if (MIN === undefined) delete process.env.YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS;
  else process.env.YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS = MIN;
});

afterAll(async () => {
  await disconnectDb();
});

async function smallStudy() {
  const study = await createStudy({ overlap: 3 });
  const batch = await createBatch(study.id);
  const users = [await createUser("ANNOTATOR", { name: "Cy" }), await createUser("ANNOTATOR", { name: "Ann" }), await createUser("ANNOTATOR", { name: "Bob" })];
  const items = [];
  for (let n = 0; n < 4; n++)
    items.push(await createOrderItem(study.id, batch.id, { externalId: `x${n}`, order: [2, 0, 1], tags: { steps: 3, hand: n % 2 ? "left" : "right" } }));
  for (const [n, item] of items.entries())
    for (const [u, user] of users.entries()) if ((n + u) % 4 !== 3) await answer(item, user.id, u === 0 ? [2, 0, 1] : [0, 1, 2], { wallMs: 1000 * n + u });
  return { study, users, items };
}

const storedRow = (studyId: string) => db.dashboardSnapshot.findUnique({ where: { studyId }, select: { version: true, parts: true } });

describe("the stored dashboard snapshot", () => {
  it("is stored after the answers are read, and read by a process that holds nothing", async () => {
    const { study } = await smallStudy();
    const version = await snapshotVersion(study.id);
    const read = await getSnapshot(study.id);
    await snapshotStoresSettled();
    expect(await storedRow(study.id)).toEqual({ version, parts: 1 });
    const stored = await loadSnapshot(study.id, version, "stored");
    const {
      loadedAt: _a,
      items: { index, ...items },
      ...rest
    } = stored;
    const {
      loadedAt: _b,
      items: { index: readIndex, ...readItems },
      ...readRest
    } = read;
    expect(rest).toEqual(readRest);
    expect(items).toEqual(readItems);
    expect([...index]).toEqual([...readIndex]);

    // what a cold process reads is the stored row: one stored with a changed figure shows it
    const changed = { ...read, responses: { ...read.responses, wallMs: read.responses.wallMs.map((ms) => ms + 1) } };
    expect(await storeLoadedSnapshot(changed)).toBe(true);
    clearDashboardCaches();
    const cold = await getSnapshot(study.id);
    expect([...cold.responses.wallMs]).toEqual([...read.responses.wallMs].map((ms) => ms + 1));
  });

  it("is not read once the data moved on: the answers are read anew and stored for the new version", async () => {
    const { study, users, items } = await smallStudy();
    await getSnapshot(study.id);
    await snapshotStoresSettled();
    const before = await snapshotVersion(study.id);
    expect((await storedRow(study.id))?.version).toBe(before);
    const third = await createUser("ANNOTATOR", { name: "Dee" });
    await answer(items[0], third.id, [1, 0, 2], { wallMs: 77 });
    const after = await snapshotVersion(study.id);
    expect(after).not.toBe(before);
    clearDashboardCaches();
    const fresh = await getSnapshot(study.id);
    expect(fresh.responses.count).toBe(10);
    expect([...fresh.responses.wallMs]).toContain(77);
    await expect(loadSnapshot(study.id, before, "copy")).resolves.toBeTruthy();
    await snapshotStoresSettled();
    expect((await storedRow(study.id))?.version).toBe(after);
    await expect(loadSnapshot(study.id, before, "stored")).rejects.toThrow(/no snapshot/);
    expect(users).toHaveLength(3);
  });

  it("shows annotators by their names now", async () => {
    const { study, users } = await smallStudy();
    await getSnapshot(study.id);
    await snapshotStoresSettled();
    // a rename writes no answer: the data version stays, and so does the stored row
    await db.user.update({ where: { id: users[0].id }, data: { name: "Aaron" } });
    clearDashboardCaches();
    const version = await snapshotVersion(study.id);
    const stored = await loadSnapshot(study.id, version, "stored");
    const copy = await loadSnapshot(study.id, version, "copy");
    expect(stored.annotators).toEqual(copy.annotators);
    expect(stored.annotators[0].name).toBe("Aaron");
    expect([...stored.responses.annotator]).toEqual([...copy.responses.annotator]);
  });

  it("is stored for every one of many studies read at once", async () => {
    const studies = [];
    for (let n = 0; n < 12; n++) studies.push((await smallStudy()).study);
    await Promise.all(studies.map((study) => getSnapshot(study.id)));
    await snapshotStoresSettled();
    expect(await db.dashboardSnapshot.count({ where: { studyId: { in: studies.map((s) => s.id) } } })).toBe(12);
  });

  it("is not stored for a study below the threshold, and goes with its study", async () => {
    process.env.YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS = "1000";
    const { study } = await smallStudy();
    await getSnapshot(study.id);
    await snapshotStoresSettled();
    expect(await storedRow(study.id)).toBeNull();
    expect(await storeLoadedSnapshot(await getSnapshot(study.id))).toBe(true);
    expect(await db.dashboardSnapshotPart.count({ where: { studyId: study.id } })).toBe(1);
    await db.study.delete({ where: { id: study.id } });
    expect(await db.dashboardSnapshotPart.count({ where: { studyId: study.id } })).toBe(0);
  });
});
