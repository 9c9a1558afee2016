import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { APPROXIMATE_AVAILABLE_ABOVE, assignItemsTo, forgetFreeItemsForTest, nextAssignment, progressFor } from "@/lib/assignment";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

async function submit(assignmentId: string) {
  await db.assignment.update({ where: { id: assignmentId }, data: { status: "SUBMITTED", submittedAt: new Date() } });
}

/** Works through the study as one annotator: ask, "submit", repeat; returns the item ids in order. */
async function workThrough(studyId: string, userId: string): Promise<string[]> {
  const seen: string[] = [];
  for (let guard = 0; guard < 500; guard++) {
    const next = await nextAssignment(studyId, userId);
    if (next.status !== "assigned") break;
    const assignment = await db.assignment.findUniqueOrThrow({ where: { id: next.assignmentId }, select: { itemId: true } });
    seen.push(assignment.itemId);
    await submit(next.assignmentId);
  }
  return seen;
}

describe("assignment", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("progress in a large study: the per-process free-item set gives the exact total when fresh, and lags by at most the places taken since", async () => {
    const study = await createStudy({ overlap: 1 });
    const count = APPROXIMATE_AVAILABLE_ABOVE + 40;
    await createEnactItems(study.id, { count });
    const [reader, taker] = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    await addMember(study.id, reader.id);
    await addMember(study.id, taker.id);
    forgetFreeItemsForTest();
    expect((await progressFor(study.id, reader.id)).main).toEqual({ done: 0, total: count });
    // the reader's own item leaves the free set at once in their count (it is theirs: assigned, not available)
    const mine = await nextAssignment(study.id, reader.id);
    expect(mine.status).toBe("assigned");
    expect((await progressFor(study.id, reader.id)).main.total).toBe(count);
    // another annotator takes 3 places: within the set's second the total may lag by those 3, never more
    for (let i = 0; i < 3; i++) await submit(((await nextAssignment(study.id, taker.id)) as { assignmentId: string }).assignmentId);
    const lagging = (await progressFor(study.id, reader.id)).main.total;
    expect(lagging).toBeGreaterThanOrEqual(count - 3);
    expect(lagging).toBeLessThanOrEqual(count);
    forgetFreeItemsForTest();
    expect((await progressFor(study.id, reader.id)).main.total).toBe(count - 3);
    // the same figure as counting in the database: the reader's item plus the items nobody holds
    const unheld = await db.item.count({ where: { studyId: study.id, assignments: { none: {} } } });
    expect((await progressFor(study.id, reader.id)).main.total).toBe(unheld + 1);
  });

  it("never pushes an item past k when 8 annotators ask in parallel, and uses all capacity", async () => {
    const study = await createStudy({ overlap: 2 });
    const items = await createEnactItems(study.id, { count: 12 });
    const annotators = await Promise.all(Array.from({ length: 8 }, () => createUser("ANNOTATOR")));
    await Promise.all(annotators.map((a) => addMember(study.id, a.id)));

    // each annotator runs 3 workers that ask at the same moment, over and over
    const worker = async (userId: string) => {
      for (let guard = 0; guard < 200; guard++) {
        const next = await nextAssignment(study.id, userId);
        if (next.status === "done") return;
        if (next.status !== "assigned") throw new Error(`unexpected ${next.status}`);
        // both parallel workers may hold the same open assignment: submitting twice is harmless here
        await db.assignment.updateMany({ where: { id: next.assignmentId, status: { not: "SUBMITTED" } }, data: { status: "SUBMITTED" } });
      }
      throw new Error("did not finish");
    };
    await Promise.all(annotators.flatMap((a) => [worker(a.id), worker(a.id), worker(a.id)]));

    const perItem = await db.assignment.groupBy({ by: ["itemId"], where: { studyId: study.id, purpose: "MAIN" }, _count: { _all: true } });
    expect(perItem).toHaveLength(items.length);
    for (const row of perItem) expect(row._count._all).toBe(2);
    const total = await db.assignment.count({ where: { studyId: study.id } });
    expect(total).toBe(items.length * 2); // all capacity used, nothing more
    const perPair = await db.assignment.groupBy({ by: ["itemId", "userId"], where: { studyId: study.id }, _count: { _all: true } });
    for (const row of perPair) expect(row._count._all).toBe(1);
  });

  it("gives each annotator distinct items in a random order of their own, stable across calls", async () => {
    const study = await createStudy({ overlap: 3 });
    await createEnactItems(study.id, { count: 10 });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    const orderA = await workThrough(study.id, a.id);
    const orderB = await workThrough(study.id, b.id);
    expect(new Set(orderA).size).toBe(10);
    expect(orderA).toHaveLength(10);
    expect(orderB).toHaveLength(10);
    expect(orderA).not.toEqual(orderB); // about 1 / 10! chance of a false failure (participant-order.test.ts)

    // the order is a function of (user, item): the same annotator on another study copy gets it again
    await resetDatabase();
    const again = await createStudy({ overlap: 3 });
    const sameIds = await createEnactItems(again.id, { count: 10 });
    void sameIds;
    const user = await createUser("ANNOTATOR");
    const first = await nextAssignment(again.id, user.id);
    const repeat = await nextAssignment(again.id, user.id);
    expect(first.status).toBe("assigned");
    expect(repeat).toEqual({ ...first, created: false }); // resume the open assignment, do not create another
  });

  it("serves practice items first (to everyone, outside k), then pre-assigned agreement items, then main work", async () => {
    const study = await createStudy({ overlap: 1 });
    const practice = await createEnactItems(study.id, { count: 2, practice: true, prefix: "p" });
    const main = await createEnactItems(study.id, { count: 4, prefix: "m" });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, a.id);
    await assignItemsTo(a.id, [main[3].id], "AGREEMENT");

    const first = await nextAssignment(study.id, a.id);
    expect(first).toMatchObject({ status: "assigned", purpose: "PRACTICE" });
    const order = [first];
    await submit((first as { assignmentId: string }).assignmentId);
    for (let i = 0; i < 10; i++) {
      const next = await nextAssignment(study.id, a.id);
      if (next.status !== "assigned") break;
      order.push(next);
      await submit(next.assignmentId);
    }
    const purposes = order.map((n) => (n as { purpose: string }).purpose);
    expect(purposes.slice(0, 3)).toEqual(["PRACTICE", "PRACTICE", "AGREEMENT"]);
    // practice in import order
    const practiceItems = await db.assignment.findMany({
      where: { userId: a.id, purpose: "PRACTICE" },
      orderBy: { position: "asc" },
      select: { itemId: true },
    });
    expect(practiceItems.map((p) => p.itemId)).toEqual(practice.map((p) => p.id));
    // the agreement item did not count toward k = 1: a took the other 3 main items, and b may still get main[3]
    const bItems = await workThrough(study.id, b.id);
    expect(bItems.slice(0, 2).sort()).toEqual(practice.map((p) => p.id).sort()); // b does practice too
    expect(bItems.slice(2)).toEqual([main[3].id]);
    const progress = await progressFor(study.id, a.id);
    expect(progress).toMatchObject({ practice: { done: 2, total: 2 }, main: { done: 4, total: 4 }, open: 0, finished: true });
  });

  it("resumes the open assignment; a prefetch (exclude) gets the next one; at most 3 open on demand", async () => {
    const study = await createStudy({ overlap: 1 });
    await createEnactItems(study.id, { count: 6 });
    const a = await createUser("ANNOTATOR");
    const current = await nextAssignment(study.id, a.id);
    if (current.status !== "assigned") throw new Error("expected an item");
    expect(await nextAssignment(study.id, a.id)).toMatchObject({ assignmentId: current.assignmentId, created: false });
    const prefetched = await nextAssignment(study.id, a.id, { exclude: [current.assignmentId] });
    if (prefetched.status !== "assigned") throw new Error("expected an item");
    expect(prefetched.assignmentId).not.toBe(current.assignmentId);
    const third = await nextAssignment(study.id, a.id, { exclude: [current.assignmentId, prefetched.assignmentId] });
    expect(third.status).toBe("assigned");
    const ids = [current.assignmentId, prefetched.assignmentId, (third as { assignmentId: string }).assignmentId];
    expect(await nextAssignment(study.id, a.id, { exclude: ids })).toEqual({ status: "wait" });
    expect(await db.assignment.count({ where: { userId: a.id } })).toBe(3);
  });

  it("says done when nothing is left, wait while excluded items are open, and closed for a closed study", async () => {
    const study = await createStudy({ overlap: 1 });
    await createEnactItems(study.id, { count: 1 });
    const a = await createUser("ANNOTATOR");
    const only = await nextAssignment(study.id, a.id);
    if (only.status !== "assigned") throw new Error("expected an item");
    expect(await nextAssignment(study.id, a.id, { exclude: [only.assignmentId] })).toEqual({ status: "wait" });
    await submit(only.assignmentId);
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "done" });
    await db.study.update({ where: { id: study.id }, data: { status: "CLOSED" } });
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "closed" });
  });

  it("pre-assigns MAIN items only within k and skips items the annotator has", async () => {
    const study = await createStudy({ overlap: 1 });
    const [item] = await createEnactItems(study.id, { count: 1 });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    expect(await assignItemsTo(a.id, [item.id], "MAIN")).toMatchObject({ created: 1, skipped: 0 });
    expect(await assignItemsTo(a.id, [item.id], "AGREEMENT")).toMatchObject({ created: 0, skipped: 1 });
    await expect(assignItemsTo(b.id, [item.id], "MAIN")).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await assignItemsTo(b.id, [item.id], "AGREEMENT")).toMatchObject({ created: 1 });
    expect(await db.studyMember.count({ where: { studyId: study.id } })).toBe(2);
  });
});
