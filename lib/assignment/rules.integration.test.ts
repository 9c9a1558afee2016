import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { candidateSearchesForTest, goldDue, nextAssignment, progressFor, sweepStudy, type NextAssignment } from "@/lib/assignment";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import type { TrajectoryEvent } from "@/lib/validations/annotate";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/** createEnactItems' key order for 3 steps (rotate by one), and a wrong one. */
const RIGHT = [1, 2, 0];
const WRONG = [0, 1, 2];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function assigned(next: NextAssignment): string {
  if (next.status !== "assigned") throw new Error(`expected an assignment, got ${JSON.stringify(next)}`);
  return next.assignmentId;
}

async function submit(userId: string, assignmentId: string, order = RIGHT) {
  return submitResponse(userId, { assignmentId, clientId: randomUUID(), answer: { order }, confidence: 3, wallMs: 1000, activeMs: 1000, submitSeq: 0 });
}

async function itemOf(assignmentId: string) {
  const row = await db.assignment.findUniqueOrThrow({
    where: { id: assignmentId },
    select: { itemId: true, condition: true, item: { select: { gold: true, tags: true } } },
  });
  return { itemId: row.itemId, condition: row.condition, gold: row.item.gold, tags: row.item.tags as Record<string, unknown> };
}

/** Asks and submits (right answers, or `answer`) until the queue says something else; returns the item ids in order and the last status. */
async function workThrough(studyId: string, userId: string, answer: (item: Awaited<ReturnType<typeof itemOf>>) => number[] = () => RIGHT) {
  const items: string[] = [];
  for (let guard = 0; guard < 500; guard++) {
    const next = await nextAssignment(studyId, userId);
    if (next.status !== "assigned") return { items, last: next };
    const item = await itemOf(next.assignmentId);
    items.push(item.itemId);
    await submit(userId, next.assignmentId, answer(item));
  }
  throw new Error("did not finish");
}

function shownEvent(assignmentId: string, seq = 0): TrajectoryEvent {
  return { assignmentId, seq, type: "item_shown", payload: { kind: "enact-forward", resumed: false }, clientTime: Date.now() } as TrajectoryEvent;
}

async function leaseOf(assignmentId: string): Promise<{ status: string; leaseExpiresAt: Date | null }> {
  return db.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { status: true, leaseExpiresAt: true } });
}

/** Non-released MAIN assignments per (item, condition). */
async function placesHeld(studyId: string): Promise<Map<string, number>> {
  const rows = await db.assignment.groupBy({
    by: ["itemId", "condition"],
    where: { studyId, purpose: "MAIN", status: { not: "RELEASED" } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [`${row.itemId}|${row.condition ?? ""}`, row._count._all]));
}

describe("queue rules", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("returns an abandoned item to the pool when its lease expires: k is still reached, and nobody gets an item twice", async () => {
    const study = await createStudy({ overlap: 2 });
    await db.study.update({ where: { id: study.id }, data: { leaseSeconds: 600 } });
    const items = await createEnactItems(study.id, { count: 3 });
    const [a, b, c] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    for (const user of [a, b, c]) await addMember(study.id, user.id);

    // a starts an item (its lease runs from now) ...
    const abandoned = assigned(await nextAssignment(study.id, a.id));
    const abandonedItem = (await itemOf(abandoned)).itemId;
    await recordEvents(a.id, [shownEvent(abandoned)]);
    const lease = await leaseOf(abandoned);
    expect(lease.status).toBe("STARTED");
    expect(lease.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 590_000);
    expect(lease.leaseExpiresAt!.getTime()).toBeLessThan(Date.now() + 610_000);

    // ... and leaves. b and c take every place they can: a's place is still held, so one of them misses that item
    const workB = await workThrough(study.id, b.id);
    const workC = await workThrough(study.id, c.id);
    expect(workB.items.length + workC.items.length).toBe(5);
    expect(workB.last).toEqual({ status: "done" });
    expect(workC.last).toEqual({ status: "done" });

    // the lease passes: whoever asks next takes the place, and a's assignment is RELEASED
    await db.assignment.update({ where: { id: abandoned }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    const lacking = workB.items.length < 3 ? b : c;
    expect((await progressFor(study.id, lacking.id)).main).toEqual({ done: 2, total: 3 });
    const again = await workThrough(study.id, lacking.id);
    expect(again.items).toEqual([abandonedItem]);
    expect((await leaseOf(abandoned)).status).toBe("RELEASED");

    // k reached: every item has exactly 2 submitted places and nothing more
    const held = await placesHeld(study.id);
    expect(held.size).toBe(items.length);
    for (const n of held.values()) expect(n).toBe(2);
    expect(await db.assignment.count({ where: { studyId: study.id, status: "SUBMITTED" } })).toBe(6);

    // a comes back: never the same item again (nothing else is left), and the late answer is kept without a place
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "done" });
    const late = await submit(a.id, abandoned);
    expect(late.duplicate).toBe(false);
    expect((await leaseOf(abandoned)).status).toBe("RELEASED");
    expect(await db.response.count({ where: { assignmentId: abandoned } })).toBe(1);
    for (const n of (await placesHeld(study.id)).values()) expect(n).toBe(2);
    const pairs = await db.assignment.groupBy({ by: ["itemId", "userId"], where: { studyId: study.id }, _count: { _all: true } });
    for (const pair of pairs) expect(pair._count._all).toBe(1);
  });

  it("keeps an expired lease for its owner while nobody needed the place; activity extends the lease; a late answer takes a free place back", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { leaseSeconds: 600 } });
    await createEnactItems(study.id, { count: 2 });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, a.id);
    await addMember(study.id, b.id);

    const mine = assigned(await nextAssignment(study.id, a.id));
    await db.assignment.update({ where: { id: mine }, data: { leaseExpiresAt: new Date(Date.now() - 5000) } });
    // nobody claimed it: a gets it back, with a fresh lease (never started: the first-item lease, 2 minutes)
    expect(await nextAssignment(study.id, a.id)).toMatchObject({ status: "assigned", assignmentId: mine, created: false });
    expect((await leaseOf(mine)).leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 110_000);
    expect((await leaseOf(mine)).leaseExpiresAt!.getTime()).toBeLessThan(Date.now() + 130_000);

    // events extend a lease that is running out, at most about once a minute
    await db.assignment.update({ where: { id: mine }, data: { leaseExpiresAt: new Date(Date.now() + 30_000) } });
    await recordEvents(a.id, [shownEvent(mine, 0)]);
    const extended = (await leaseOf(mine)).leaseExpiresAt!.getTime();
    expect(extended).toBeGreaterThan(Date.now() + 590_000);
    await recordEvents(a.id, [shownEvent(mine, 1)]);
    expect((await leaseOf(mine)).leaseExpiresAt!.getTime()).toBe(extended);

    // the sweep releases passed leases of people who never come back
    await db.assignment.update({ where: { id: mine }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    expect(await sweepStudy(study.id)).toEqual({ released: 1, timedOut: 0 });
    expect((await leaseOf(mine)).status).toBe("RELEASED");
    // a submits late; the item is still free (nobody took it), so the answer takes its place back
    await submit(a.id, mine);
    expect((await leaseOf(mine)).status).toBe("SUBMITTED");
    // and b never gets it
    const workB = await workThrough(study.id, b.id);
    expect(workB.items).toHaveLength(1);
    for (const n of (await placesHeld(study.id)).values()) expect(n).toBe(1);
  });

  it("mixes gold items in at the gold rate, gives them to everyone, and excludes at the limit within the window", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { goldRate: 0.25, goldFailLimit: 2, goldFailWindow: 3 } });
    // 24 ordinary items: the careless one's two gold items fall within their first 8 items (one per
    // block of 4), so at least 18 are left for the careful one, past the 4th gold slot (index < 16)
    const ordinary = await createEnactItems(study.id, { count: 24, prefix: "o" });
    const gold = await createEnactItems(study.id, { count: 4, prefix: "g" });
    await db.item.updateMany({ where: { id: { in: gold.map((item) => item.id) } }, data: { gold: true } });
    const [careful, careless] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, careful.id);
    await addMember(study.id, careless.id);

    // the careless participant fails every gold item; a prefetched item is open when the second failure lands
    let failures = 0;
    let prefetched: string | null = null;
    for (let guard = 0; guard < 40 && failures < 2; guard++) {
      const current = assigned(await nextAssignment(study.id, careless.id));
      const item = await itemOf(current);
      if (item.gold) {
        failures++;
        if (failures === 2) prefetched = assigned(await nextAssignment(study.id, careless.id, { exclude: [current] }));
      }
      await submit(careless.id, current, item.gold ? WRONG : RIGHT);
    }
    expect(failures).toBe(2);
    const member = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: careless.id } } });
    expect(member.status).toBe("EXCLUDED");
    expect(member.statusReason).toBe("failed 2 of 2 gold items (rule: 2 failed among the first 3 gold items)");
    expect((await leaseOf(prefetched!)).status).toBe("RELEASED");
    expect(await nextAssignment(study.id, careless.id)).toEqual({ status: "excluded", reason: member.statusReason });
    expect(await db.auditLog.count({ where: { action: "participant.exclude", target: `study:${study.id}` } })).toBe(1);

    // the careful participant gets the rest, with gold mixed in at about 1 in 4, and the same gold items again (gold has no k)
    const careWork = await workThrough(study.id, careful.id);
    expect(careWork.last).toEqual({ status: "done" });
    const queue = await db.assignment.findMany({
      where: { studyId: study.id, userId: careful.id, purpose: "MAIN" },
      orderBy: { position: "asc" },
      select: { item: { select: { gold: true } } },
    });
    const goldFlags = queue.map((row) => row.item.gold);
    expect(goldFlags.filter(Boolean)).toHaveLength(4);
    let goldSoFar = 0;
    goldFlags.forEach((isGold, index) => {
      goldSoFar += isGold ? 1 : 0;
      if (goldSoFar < 4) expect(Math.abs(goldSoFar - (index + 1) * 0.25)).toBeLessThanOrEqual(1);
    });
    expect((await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: careful.id } } })).status).toBe("ACTIVE");
    // every ordinary item done exactly once (the released prefetch went to the careful one), gold items by both
    for (const item of ordinary) expect(await db.assignment.count({ where: { itemId: item.id, status: { not: "RELEASED" } } })).toBe(1);
    for (const item of gold) expect(await db.assignment.count({ where: { itemId: item.id } })).toBeGreaterThanOrEqual(1);
    expect(await db.assignment.count({ where: { itemId: { in: gold.map((item) => item.id) }, userId: careful.id } })).toBe(4);

    // a researcher re-includes the careless one: a later failure inside the window does not exclude them again
    await db.studyMember.update({
      where: { studyId_userId: { studyId: study.id, userId: careless.id } },
      data: { status: "ACTIVE", statusReason: "re-included by a researcher" },
    });
    await db.study.update({ where: { id: study.id }, data: { goldRate: 1 } }); // the next item is gold
    await db.assignment.deleteMany({ where: { userId: careful.id } }); // ordinary work is left again (gold is only mixed into ordinary work)
    const third = assigned(await nextAssignment(study.id, careless.id));
    expect((await itemOf(third)).gold).toBe(true);
    await submit(careless.id, third, WRONG);
    expect((await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: careless.id } } })).status).toBe("ACTIVE");
  });

  it("places gold deterministically: one per block of 1 / rate, none at rate 0", () => {
    for (const userId of ["u1", "u2", "u3"]) {
      let goldSoFar = 0;
      const flags: boolean[] = [];
      for (let length = 0; length < 40; length++) {
        const isGold = goldDue(userId, length, goldSoFar, 0.2);
        flags.push(isGold);
        if (isGold) goldSoFar++;
      }
      for (let block = 0; block < 8; block++) expect(flags.slice(block * 5, block * 5 + 5).filter(Boolean)).toHaveLength(1);
    }
    expect(goldDue("u1", 100, 0, 0)).toBe(false);
  });

  it("stops at the items-per-participant quota (open items count), and the progress bar says so", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { itemsPerParticipant: 3 } });
    await createEnactItems(study.id, { count: 10 });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, a.id);
    await addMember(study.id, b.id);
    const first = assigned(await nextAssignment(study.id, a.id));
    await submit(a.id, first);
    const second = assigned(await nextAssignment(study.id, a.id));
    const third = assigned(await nextAssignment(study.id, a.id, { exclude: [second] })); // prefetched
    // the third is open and held by the browser: the quota is reached, but not finished yet
    expect(await nextAssignment(study.id, a.id, { exclude: [second, third] })).toEqual({ status: "wait" });
    await submit(a.id, second);
    await submit(a.id, third);
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "quota" });
    expect(await progressFor(study.id, a.id)).toMatchObject({ main: { done: 3, total: 3 }, open: 0, finished: true });
    // b has the same quota; the other 4 items stay for others
    expect((await progressFor(study.id, b.id)).main).toEqual({ done: 0, total: 3 });
    expect((await workThrough(study.id, b.id)).items).toHaveLength(3);
  });

  it("flags answers past the item time limit, and times out the session: status, reason, open work released", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { itemTimeLimitSeconds: 30, sessionTimeLimitSeconds: 600 } });
    await createEnactItems(study.id, { count: 4 });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, a.id);
    await addMember(study.id, b.id);

    const slow = assigned(await nextAssignment(study.id, a.id));
    const started = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: a.id } } });
    expect(started.startedAt).not.toBeNull();
    await recordEvents(a.id, [shownEvent(slow)]);
    await db.assignment.update({ where: { id: slow }, data: { startedAt: new Date(Date.now() - 45_000) } }); // 30 s + 10 s grace passed
    await submit(a.id, slow);
    expect((await db.response.findFirstOrThrow({ where: { assignmentId: slow } })).timedOut).toBe(true);

    const quick = assigned(await nextAssignment(study.id, a.id));
    await recordEvents(a.id, [shownEvent(quick)]);
    await db.assignment.update({ where: { id: quick }, data: { startedAt: new Date(Date.now() - 35_000) } }); // within the grace
    await submit(a.id, quick);
    expect((await db.response.findFirstOrThrow({ where: { assignmentId: quick } })).timedOut).toBe(false);

    const onScreen = assigned(await nextAssignment(study.id, a.id));
    await db.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: a.id } }, data: { startedAt: new Date(Date.now() - 11 * 60_000) } });
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "timed_out", reason: "session time limit of 10 minutes reached" });
    const member = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: a.id } } });
    expect(member).toMatchObject({ status: "TIMED_OUT", statusReason: "session time limit of 10 minutes reached" });
    expect((await leaseOf(onScreen)).status).toBe("RELEASED");
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "timed_out", reason: "session time limit of 10 minutes reached" });
    // the freed place goes back to the pool: b gets both items that are left
    expect((await workThrough(study.id, b.id)).items).toHaveLength(2);
  });

  it("gates real items on the practice pass mark", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { practicePassMark: 0.6 } });
    await createEnactItems(study.id, { count: 2, practice: true, prefix: "p" });
    await createEnactItems(study.id, { count: 4, prefix: "m" });
    const [weak, strong] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, weak.id);
    await addMember(study.id, strong.id);

    const p1 = assigned(await nextAssignment(study.id, weak.id));
    await submit(weak.id, p1, WRONG);
    const p2 = assigned(await nextAssignment(study.id, weak.id));
    expect((await db.assignment.findUniqueOrThrow({ where: { id: p2 } })).purpose).toBe("PRACTICE");
    // the last practice answer is still on its way: no real item yet
    expect(await nextAssignment(study.id, weak.id, { exclude: [p2] })).toEqual({ status: "wait" });
    await submit(weak.id, p2, RIGHT);
    const reason = "practice below pass mark (1 of 2 correct; the pass mark is 60 %)";
    expect(await nextAssignment(study.id, weak.id)).toEqual({ status: "excluded", reason });
    expect(await db.assignment.count({ where: { userId: weak.id, purpose: "MAIN" } })).toBe(0);

    for (let i = 0; i < 2; i++) await submit(strong.id, assigned(await nextAssignment(study.id, strong.id)), RIGHT);
    const real = assigned(await nextAssignment(study.id, strong.id));
    expect((await db.assignment.findUniqueOrThrow({ where: { id: real } })).purpose).toBe("MAIN");

    // re-included by a researcher: not gated again
    await db.studyMember.update({
      where: { studyId_userId: { studyId: study.id, userId: weak.id } },
      data: { status: "ACTIVE", statusReason: "re-included by a researcher" },
    });
    expect(await nextAssignment(study.id, weak.id)).toMatchObject({ status: "assigned", purpose: "MAIN" });
  });

  it("hands out no work in a paused, draft or closed study, nor to a returned participant (whose open work is released)", async () => {
    const study = await createStudy({ overlap: 1 });
    await createEnactItems(study.id, { count: 3 });
    const [a, b] = await Promise.all([createUser("ANNOTATOR"), createUser("ANNOTATOR")]);
    await addMember(study.id, a.id);
    await addMember(study.id, b.id);
    const open = assigned(await nextAssignment(study.id, a.id));
    await db.study.update({ where: { id: study.id }, data: { status: "PAUSED" } });
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "paused" });
    expect(await nextAssignment(study.id, b.id)).toEqual({ status: "paused" });
    await db.study.update({ where: { id: study.id }, data: { status: "DRAFT" } });
    expect(await nextAssignment(study.id, b.id)).toEqual({ status: "not_open" });
    await db.study.update({ where: { id: study.id }, data: { status: "CLOSED" } });
    expect(await nextAssignment(study.id, b.id)).toEqual({ status: "closed" });
    expect(await db.assignment.count({ where: { userId: b.id } })).toBe(0);

    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
    expect(await nextAssignment(study.id, a.id)).toMatchObject({ assignmentId: open, created: false });
    await db.studyMember.update({
      where: { studyId_userId: { studyId: study.id, userId: a.id } },
      data: { status: "RETURNED", statusReason: "returned on Prolific" },
    });
    expect(await nextAssignment(study.id, a.id)).toEqual({ status: "returned", reason: "returned on Prolific" });
    expect((await leaseOf(open)).status).toBe("RELEASED");
    expect((await workThrough(study.id, b.id)).items).toHaveLength(3); // the returned place is back in the pool
  });

  it("interleaves the balance tag's values in each participant's queue", async () => {
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { balanceTag: "category" } });
    const items = await createEnactItems(study.id, { count: 18 });
    const categories = ["kitchen", "garage", "garden"];
    for (const [index, item] of items.entries())
      await db.item.update({ where: { id: item.id }, data: { tags: { steps: 4, category: categories[index < 9 ? 0 : index < 14 ? 1 : 2] } } }); // 9 / 5 / 4
    const a = await createUser("ANNOTATOR");
    await addMember(study.id, a.id);
    const work = await workThrough(study.id, a.id);
    expect(work.items).toHaveLength(18);
    const byItem = new Map(items.map((item, index) => [item.id, categories[index < 9 ? 0 : index < 14 ? 1 : 2]]));
    const counts = new Map<string, number>();
    for (const [index, itemId] of work.items.entries()) {
      const category = byItem.get(itemId)!;
      counts.set(category, (counts.get(category) ?? 0) + 1);
      // balanced while every value still has items: 4 of each in the first 12
      if (index < 12) {
        const values = categories.map((value) => counts.get(value) ?? 0);
        expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("finds the same candidates with the in-memory search as with the full SQL search, on random study states", async () => {
    let seed = 20261123;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
    let decided = 0;
    for (let round = 0; round < 6; round++) {
      await resetDatabase();
      const conditions = pick([[], ["a", "b"], ["a", "b", "c"]]);
      const overlap = 1 + Math.floor(random() * 3);
      const study = await createStudy({ overlap });
      await db.study.update({ where: { id: study.id }, data: { conditions, balanceTag: random() < 0.7 ? "category" : null } });
      const items = await createEnactItems(study.id, { count: 30 + Math.floor(random() * 40) });
      for (const item of items) {
        const category = pick(["x", "y", "z", null]);
        await db.item.update({
          where: { id: item.id },
          data: { tags: category === null ? {} : { category }, gold: random() < 0.05, practice: random() < 0.05 },
        });
      }
      const users = [];
      for (let i = 0; i < 6; i++) {
        const user = await createUser("ANNOTATOR");
        await addMember(study.id, user.id);
        users.push(user);
      }
      // random places: submitted, open, open with a passed lease, released; in random conditions
      for (const [u, user] of users.entries()) {
        const taken = items.filter(() => random() < (u < 3 ? 0.6 : 0.2));
        await db.assignment.createMany({
          data: taken.map((item, position) => {
            const status = pick(["SUBMITTED", "SUBMITTED", "STARTED", "STARTED", "RELEASED"] as const);
            return {
              studyId: study.id,
              itemId: item.id,
              userId: user.id,
              position,
              purpose: "MAIN" as const,
              status,
              condition: conditions.length > 0 ? pick(conditions) : null,
              leaseExpiresAt: new Date(Date.now() + (random() < 0.3 ? -60_000 : 600_000)),
            };
          }),
        });
      }
      for (const user of users) {
        const { fast, full } = await candidateSearchesForTest(study.id, user.id);
        if (fast === null) continue;
        decided++;
        const key = (c: { condition: string | null; balance: string; rank: number; itemId: string; expired: boolean }) =>
          `${c.condition}|${c.balance}|${c.rank}|${c.itemId}|${c.expired}`;
        expect(fast.map(key).sort()).toEqual(full.map(key).sort());
      }
    }
    expect(decided).toBeGreaterThan(18); // the fast search decides most of the time
  });

  it("never falls back to an item outside the participant's Latin-square list while a preferred one is only busy: it waits, then takes the preferred one", async () => {
    const conditions = ["a", "b", "c", "d"];
    const study = await createStudy({ overlap: 2 });
    await db.study.update({ where: { id: study.id }, data: { conditions } });
    await createEnactItems(study.id, { count: 8 });
    const ordered = await db.item.findMany({ where: { studyId: study.id }, orderBy: [{ createdAt: "asc" }, { externalId: "asc" }], select: { id: true } });
    const ord = (n: number) => ordered[n]!.id;
    const user = await createUser("ANNOTATOR"); // participant index 0: item number n is in their list for condition n mod 4
    await addMember(study.id, user.id);
    const others = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    const row = (userId: string, itemId: string, condition: string, position: number) => ({
      studyId: study.id,
      itemId,
      userId,
      condition,
      position,
      purpose: "MAIN" as const,
      status: "SUBMITTED" as const,
      submittedAt: new Date(),
    });
    await db.assignment.createMany({
      data: [
        // they did their list's items 0, 1, 2 in a, b, c: only d is allowed now (strict balance)
        row(user.id, ord(0), "a", 0),
        row(user.id, ord(1), "b", 1),
        row(user.id, ord(2), "c", 2),
        // item 7 (theirs in d) is full in d, so their pool for d holds item 3 and items of other lists
        row(others[0]!.id, ord(7), "d", 0),
        row(others[1]!.id, ord(7), "d", 0),
      ],
    });

    // another request holds item 3's lock (it is claiming it right now)
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`yardstick:item:${ord(3)}`}, 0))::text AS locked`;
        locked();
        await holding;
      },
      { timeout: 30_000 },
    );
    await isLocked;
    const whileBusy = await nextAssignment(study.id, user.id);
    release();
    await holder;
    expect(whileBusy).toEqual({ status: "wait" });
    expect(await itemOf(assigned(await nextAssignment(study.id, user.id)))).toMatchObject({ itemId: ord(3), condition: "d" });
  });

  it("counterbalances conditions as a Latin square under concurrency: every item x condition gets exactly k, nobody gets an item twice, each person's conditions balanced", async () => {
    const conditions = ["passive-single", "passive-multi", "passive-gt", "active"];
    const run = async (people: number, workersEach: number) => {
      await resetDatabase();
      const study = await createStudy({ overlap: 2 });
      await db.study.update({ where: { id: study.id }, data: { conditions } });
      const items = await createEnactItems(study.id, { count: 8 });
      const users = [];
      for (let i = 0; i < people; i++) {
        const user = await createUser("ANNOTATOR");
        await addMember(study.id, user.id);
        users.push(user);
      }
      const worker = async (userId: string) => {
        for (let guard = 0; guard < 400; guard++) {
          const next = await nextAssignment(study.id, userId);
          if (next.status === "done") return;
          if (next.status === "wait") {
            await sleep(10);
            continue;
          }
          if (next.status !== "assigned") throw new Error(`unexpected ${next.status}`);
          // parallel workers of one person may hold the same open assignment: submitting twice is harmless here
          await db.assignment.updateMany({
            where: { id: next.assignmentId, status: { in: ["ASSIGNED", "STARTED"] } },
            data: { status: "SUBMITTED", submittedAt: new Date() },
          });
        }
        throw new Error("did not finish");
      };
      await Promise.all(users.flatMap((user) => Array.from({ length: workersEach }, () => worker(user.id))));

      const held = await placesHeld(study.id);
      expect(held.size).toBe(items.length * conditions.length);
      for (const n of held.values()) expect(n).toBe(2);
      const pairs = await db.assignment.groupBy({ by: ["itemId", "userId"], where: { studyId: study.id }, _count: { _all: true } });
      for (const pair of pairs) expect(pair._count._all).toBe(1);
      const rows = await db.assignment.findMany({ where: { studyId: study.id }, select: { userId: true, condition: true } });
      for (const user of users) {
        const counts = conditions.map((condition) => rows.filter((row) => row.userId === user.id && row.condition === condition).length);
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        if (counts.reduce((x, y) => x + y, 0) >= conditions.length) for (const n of counts) expect(n).toBeGreaterThanOrEqual(1);
      }
      return { users, rows };
    };

    // the classic design: k people per list (8 = k x conditions), each does every item, 2 in each condition
    const classic = await run(8, 3);
    for (const user of classic.users) {
      const counts = conditions.map((condition) => classic.rows.filter((row) => row.userId === user.id && row.condition === condition).length);
      expect(counts).toEqual([2, 2, 2, 2]);
    }
    // more people than places per item: still exactly k everywhere, balanced per person
    await run(16, 2);
  });
});
