const { annotator, assignmentId } = await setup();
const error = await deletedUnder(assignmentId, () => submitResponse(annotator.id, submission(assignmentId, [0, 1, 2])));
expect(toResponse(error).status).toBe(404);
expect(error).toMatchObject({ code: "NOT_FOUND", message: `No assignment ${assignmentId}` });
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { toResponse } from "@/lib/errors";
import { nextAssignment } from "@/lib/assignment";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { getMemberStudy } from "@/lib/annotate/studies";
import { nextForMember } from "@/lib/annotate/next";
import { MAX_EVENTS_PER_ASSIGNMENT, parseTrajectoryBatch, type ResponseCreateInput, type TrajectoryEvent } from "@/lib/validations/annotate";
import { EVENT_GRACE_AFTER_SUBMIT_SECONDS } from "@/lib/responses/events";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { eventually } from "@/tests/eventually";
import { getTaskModule, taskKinds } from "@/lib/tasks";

const t0 = Date.UTC(2026, 10, 23, 9, 0, 0);

type OrderKind = NonNullable<NonNullable<Parameters<typeof createEnactItems>[1]>["kind"]>;
/**
 * The two kinds createEnactItems makes: those whose answers are orders, found in the registry (a
 * kind keeps its id to its folders), in the order of their ids; the first is its default.
 */
const [forwardKind, inverseKind] = taskKinds.filter((kind) => getTaskModule(kind).agreementEncodings.some((e) => e.kendallPermutations)).sort() as OrderKind[];

async function setup(options: { practice?: boolean; kind?: OrderKind; scale?: "LIKERT_5" | "PERCENT" } = {}) {
  const study = await createStudy({ overlap: 1 });
  if (options.scale) await db.study.update({ where: { id: study.id }, data: { confidenceScale: options.scale } });
  const [item] = await createEnactItems(study.id, { count: 1, practice: options.practice, kind: options.kind });
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  const next = await nextAssignment(study.id, annotator.id);
  if (next.status !== "assigned") throw new Error("expected an assignment");
  return { study, item, annotator, assignmentId: next.assignmentId };
}

function events(assignmentId: string, times: Array<[TrajectoryEvent["type"], number, unknown?]>): TrajectoryEvent[] {
  return times.map(
    ([type, seconds, payload], seq) => ({ assignmentId, seq, type, clientTime: t0 + seconds * 1000, payload: payload ?? {} }) as TrajectoryEvent,
  );
}

function submission(assignmentId: string, order: number[], extra: Partial<ResponseCreateInput> = {}): ResponseCreateInput {
  return { assignmentId, clientId: randomUUID(), answer: { order }, confidence: 4, wallMs: 1, activeMs: 1, submitSeq: 0, ...extra };
}

/**
 * Runs `write` while a transaction deletes the assignment: the write reads past the uncommitted
 * deletion, then waits on its lock (the foreign key's check), and the deletion commits under it.
 * Returns what the write threw (or gave).
 */
async function deletedUnder(assignmentId: string, write: () => Promise<unknown>): Promise<unknown> {
  const deleter = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await deleter.connect();
  try {
    await deleter.query("BEGIN");
    await deleter.query(`DELETE FROM "Assignment" WHERE id = $1`, [assignmentId]);
    const writing = write().catch((e: unknown) => e);
    await eventually("the write waiting on the deletion's lock", async () => {
      const { rows } = await deleter.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows[0].n > 0;
    });
    await deleter.query("COMMIT");
    return await writing;
  } finally {
    await deleter.end();
  }
}

describe("events", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("stores each (assignment, seq) once however often a batch is sent, and acknowledges every seq", async () => {
    const { annotator, assignmentId } = await setup();
    const batch = events(assignmentId, [
      ["item_shown", 0, { kind: forwardKind, resumed: false }],
      ["slot_filled", 3, { slot: 0, candidate: 1, fromSlot: null, replaced: null, via: "drag" }],
    ]);
    expect(await recordEvents(annotator.id, batch)).toEqual({ acked: { [assignmentId]: [0, 1] } });
    // the same batch again, and an overlapping one with another copy of seq 1 (the first copy wins)
    expect(await recordEvents(annotator.id, batch)).toEqual({ acked: { [assignmentId]: [0, 1] } });
    const overlapping = events(assignmentId, [
      ["item_shown", 0, { kind: forwardKind, resumed: false }],
      ["slot_cleared", 9, { slot: 0, candidate: 1, via: "click" }],
      ["page_hidden", 10],
    ]);
    expect(await recordEvents(annotator.id, overlapping)).toEqual({ acked: { [assignmentId]: [0, 1, 2] } });
    const stored = await db.event.findMany({ where: { assignmentId }, orderBy: { seq: "asc" }, select: { seq: true, type: true } });
    expect(stored).toEqual([
      { seq: 0, type: "item_shown" },
      { seq: 1, type: "slot_filled" },
      { seq: 2, type: "page_hidden" },
    ]);
    const assignment = await db.assignment.findUniqueOrThrow({ where: { id: assignmentId } });
    expect(assignment.status).toBe("STARTED");
    expect(assignment.startedAt).not.toBeNull();
  });

  it("answers 404, not a server error, for events of an assignment deleted while their batch is written, and stores none of it", async () => {
    const { annotator, assignmentId } = await setup();
    const error = await deletedUnder(assignmentId, () => recordEvents(annotator.id, events(assignmentId, [["page_hidden", 0]])));
    expect(toResponse(error).status).toBe(404);
    expect(error).toMatchObject({ code: "NOT_FOUND", message: `No assignment ${assignmentId}` });
    expect(await db.event.count()).toBe(0);
  });

  it("refuses (403) events for another annotator's assignment and stores none of the batch", async () => {
    const { assignmentId } = await setup();
    const other = await createUser("ANNOTATOR");
    const mine = await setup();
    const mixed = [...events(mine.assignmentId, [["page_hidden", 0]]), ...events(assignmentId, [["page_hidden", 0]])];
    const error = await recordEvents(other.id, mixed).catch((e: unknown) => e);
    expect(toResponse(error).status).toBe(403);
    expect(await db.event.count()).toBe(0);
  });

  it("takes events shortly after the submission (the outbox's late ones) and refuses them after the grace window", async () => {
    const { annotator, assignmentId } = await setup();
    const [shown, late, later] = events(assignmentId, [
      ["item_shown", 0, { kind: forwardKind, resumed: false }],
      ["page_hidden", 5],
      ["page_visible", 6],
    ]);
    await recordEvents(annotator.id, [shown]);
    await db.assignment.update({ where: { id: assignmentId }, data: { status: "SUBMITTED", submittedAt: new Date() } });
    expect(await recordEvents(annotator.id, [late])).toEqual({ acked: { [assignmentId]: [1] } });
    // past the grace window: refused one by one (the browser puts them aside), nothing stored
    await db.assignment.update({ where: { id: assignmentId }, data: { submittedAt: new Date(Date.now() - (EVENT_GRACE_AFTER_SUBMIT_SECONDS + 5) * 1000) } });
    const refused = await recordEvents(annotator.id, [later]);
    expect(refused.acked).toEqual({});
    expect(refused.rejected).toEqual([{ index: 0, assignmentId, seq: 2, issues: [expect.stringContaining("submitted more than")] }]);
    expect(await db.event.count({ where: { assignmentId } })).toBe(2);
  });

  it("refuses events for a closed study, keeping the others of the batch", async () => {
    const closed = await setup();
    const open = await setup();
    const otherUserBatch = events(open.assignmentId, [["page_hidden", 0]]);
    await db.study.update({ where: { id: closed.study.id }, data: { status: "CLOSED" } });
    const reply = await recordEvents(
      closed.annotator.id,
      events(closed.assignmentId, [
        ["page_hidden", 0],
        ["page_visible", 1],
      ]),
    );
    expect(reply.acked).toEqual({});
    expect(reply.rejected?.map((r) => [r.index, r.seq, r.issues[0]])).toEqual([
      [0, 0, expect.stringContaining("closed")],
      [1, 1, expect.stringContaining("closed")],
    ]);
    expect(await db.event.count({ where: { assignmentId: closed.assignmentId } })).toBe(0);
    expect(await recordEvents(open.annotator.id, otherUserBatch)).toEqual({ acked: { [open.assignmentId]: [0] } });
    // nor a submission (422 naming the reason), and nothing is stored
    const error = await submitResponse(closed.annotator.id, submission(closed.assignmentId, [0, 1, 2])).catch((e: unknown) => e);
    expect(toResponse(error).status).toBe(422);
    expect((error as Error).message).toContain("closed");
    expect(await db.response.count({ where: { assignmentId: closed.assignmentId } })).toBe(0);
  });

  it("caps the events of one assignment (seq below MAX_EVENTS_PER_ASSIGNMENT, unique per assignment)", async () => {
    const { assignmentId } = await setup();
    const [last, beyond] = [MAX_EVENTS_PER_ASSIGNMENT - 1, MAX_EVENTS_PER_ASSIGNMENT].map((seq) => ({
      assignmentId,
      seq,
      type: "page_hidden",
      clientTime: t0,
      payload: {},
    }));
    expect(MAX_EVENTS_PER_ASSIGNMENT).toBeLessThanOrEqual(20_000);
    const parsed = parseTrajectoryBatch([last, beyond]);
    expect(parsed.valid.map((event) => event.seq)).toEqual([MAX_EVENTS_PER_ASSIGNMENT - 1]);
    expect(parsed.rejected).toEqual([{ index: 1, assignmentId, seq: MAX_EVENTS_PER_ASSIGNMENT, issues: [expect.stringContaining("seq")] }]);
  });
});

describe("a disabled or deleted account (the token still valid)", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("gets 401 for events and submissions, also for unknown assignments, and nothing is stored", async () => {
    const { annotator, assignmentId } = await setup();
    await db.user.update({ where: { id: annotator.id }, data: { disabled: true } });
    const status = (work: Promise<unknown>) =>
      work.then(
        () => 200,
        (error: unknown) => toResponse(error).status,
      );
    expect(await status(recordEvents(annotator.id, events(assignmentId, [["page_hidden", 0]])))).toBe(401);
    expect(await status(recordEvents(annotator.id, []))).toBe(401);
    expect(await status(recordEvents(annotator.id, events("no-such-assignment", [["page_hidden", 0]])))).toBe(401);
    expect(await status(submitResponse(annotator.id, submission(assignmentId, [0, 1, 2])))).toBe(401);
    expect(await status(submitResponse(annotator.id, submission("no-such-assignment", [0, 1, 2])))).toBe(401);
    expect(await status(submitResponse("no-such-user", submission(assignmentId, [0, 1, 2])))).toBe(401);
    expect(await db.event.count()).toBe(0);
    expect(await db.response.count()).toBe(0);
    expect((await db.assignment.findUniqueOrThrow({ where: { id: assignmentId } })).status).toBe("ASSIGNED");
    // enabled again: the same requests go through
    await db.user.update({ where: { id: annotator.id }, data: { disabled: false } });
    expect(await status(recordEvents(annotator.id, events(assignmentId, [["page_hidden", 0]])))).toBe(200);
    expect(await status(submitResponse(annotator.id, submission(assignmentId, [0, 1, 2])))).toBe(200);
  });
});

describe("responses", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("scores on the server, stores once per clientId and returns the stored result to a retry", async () => {
    const { annotator, assignmentId } = await setup();
    const input = submission(assignmentId, [1, 2, 0]); // the key order of createEnactItems
    const first = await submitResponse(annotator.id, input);
    expect(first).toMatchObject({ assignmentId, clientId: input.clientId, duplicate: false, purpose: "MAIN" });
    expect(first.feedback).toBeUndefined(); // no correctness for main items
    const retries = await Promise.all([submitResponse(annotator.id, input), submitResponse(annotator.id, input)]);
    for (const retry of retries) expect(retry).toMatchObject({ responseId: first.responseId, duplicate: true });
    expect(await db.response.count()).toBe(1);
    const stored = await db.response.findUniqueOrThrow({ where: { clientId: input.clientId } });
    expect(stored.correct).toBe(true);
    expect(stored.score).toMatchObject({ accepted: true, exact: true, correctPairs: 3, L: 3, semanticAvailable: true });
    expect(stored.confidenceRaw).toBe(4);
    expect(stored.confidence).toBe(0.75);
    const assignment = await db.assignment.findUniqueOrThrow({ where: { id: assignmentId } });
    expect(assignment.status).toBe("SUBMITTED");
    // another submission (another clientId) for the same assignment: 409
    const again = await submitResponse(annotator.id, submission(assignmentId, [0, 1, 2])).catch((e: unknown) => e);
    expect(toResponse(again).status).toBe(409);
  });

  it("answers 404, not a server error, to a submission whose assignment is deleted while it is stored, and stores nothing", async () => {
    const { annotator, assignmentId } = await setup();
    const deleter = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await deleter.connect();
    try {
      await deleter.query("BEGIN");
      await deleter.query(`DELETE FROM "Assignment" WHERE id = $1`, [assignmentId]);
      const storing = submitResponse(annotator.id, submission(assignmentId, [0, 1, 2])).catch((e: unknown) => e);
      await eventually("the submission waiting on the deletion's lock", async () => {
        const { rows } = await deleter.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0].n > 0;
      });
      await deleter.query("COMMIT");
      const error = await storing;
      expect(toResponse(error).status).toBe(404);
      expect(error).toMatchObject({ code: "NOT_FOUND", message: `No assignment ${assignmentId}` });
    } finally {
      await deleter.end();
    }
    expect(await db.response.count()).toBe(0);
  });

  it("stores one response when copies of a first submission race each other", async () => {
    const { annotator, assignmentId } = await setup();
    const input = submission(assignmentId, [1, 2, 0]);
    const acks = await Promise.all(Array.from({ length: 5 }, () => submitResponse(annotator.id, input)));
    expect(new Set(acks.map((ack) => ack.responseId)).size).toBe(1);
    expect(acks.filter((ack) => !ack.duplicate).length).toBeLessThanOrEqual(1);
    expect(await db.response.count({ where: { assignmentId } })).toBe(1);
  });

  it("stores a wrong answer as not correct with the verifier's pairwise score", async () => {
    const { annotator, assignmentId } = await setup({ kind: inverseKind });
    await submitResponse(annotator.id, submission(assignmentId, [1, 0, 2]));
    const stored = await db.response.findFirstOrThrow({ where: { assignmentId } });
    expect(stored.correct).toBe(false);
    expect(stored.score).toMatchObject({ accepted: false, correctPairs: 1, L: 3 });
  });

  it("recomputes wall and active time from the stored events when they are complete", async () => {
    const { annotator, assignmentId } = await setup();
    const clientId = randomUUID();
    await recordEvents(
      annotator.id,
      events(assignmentId, [
        ["item_shown", 0, { kind: forwardKind, resumed: false }],
        ["slot_filled", 10, { slot: 0, candidate: 1, fromSlot: null, replaced: null, via: "drag" }],
        ["page_hidden", 20],
        ["page_visible", 620],
        ["slot_filled", 720, { slot: 1, candidate: 2, fromSlot: null, replaced: null, via: "drag" }], // 100 s gap, capped at 60
        ["slot_filled", 725, { slot: 2, candidate: 0, fromSlot: null, replaced: null, via: "drag" }],
        ["confidence_changed", 727, { value: 5, previous: null }],
        ["submitted", 728, { order: [1, 2, 0], confidence: 5, clientId }],
      ]),
    );
    await submitResponse(annotator.id, { ...submission(assignmentId, [1, 2, 0]), clientId, confidence: 5, wallMs: 999, activeMs: 999, submitSeq: 7 });
    const stored = await db.response.findFirstOrThrow({ where: { assignmentId } });
    expect(stored.wallMs).toBe(728_000);
    expect(stored.activeMs).toBe((10 + 10 + 0 + 60 + 5 + 2 + 1) * 1000);
  });

  it("counts nothing between a closed tab's last event and the next page view's item_shown", async () => {
    const { annotator, assignmentId } = await setup();
    const clientId = randomUUID();
    await recordEvents(
      annotator.id,
      events(assignmentId, [
        ["item_shown", 0, { kind: forwardKind, resumed: false }],
        ["slot_filled", 10, { slot: 0, candidate: 1, fromSlot: null, replaced: null, via: "drag" }],
        // the tab was closed here and no page_hidden arrived; the item is shown again 40 s later
        ["item_shown", 50, { kind: forwardKind, resumed: true }],
        ["slot_filled", 55, { slot: 1, candidate: 2, fromSlot: null, replaced: null, via: "drag" }],
        ["slot_filled", 56, { slot: 2, candidate: 0, fromSlot: null, replaced: null, via: "drag" }],
        ["confidence_changed", 57, { value: 5, previous: null }],
        ["submitted", 58, { order: [1, 2, 0], confidence: 5, clientId }],
      ]),
    );
    await submitResponse(annotator.id, { ...submission(assignmentId, [1, 2, 0]), clientId, confidence: 5, wallMs: 999, activeMs: 999, submitSeq: 6 });
    const stored = await db.response.findFirstOrThrow({ where: { assignmentId } });
    expect(stored.activeMs).toBe((10 + 0 + 5 + 1 + 1 + 1) * 1000);
  });

  it("keeps the browser's times when the stored trajectory has a gap", async () => {
    const { annotator, assignmentId } = await setup();
    await recordEvents(annotator.id, events(assignmentId, [["item_shown", 0, { kind: forwardKind, resumed: false }]]));
    await submitResponse(annotator.id, submission(assignmentId, [1, 2, 0], { wallMs: 5000, activeMs: 7000, submitSeq: 3 }));
    const stored = await db.response.findFirstOrThrow({ where: { assignmentId } });
    expect(stored.wallMs).toBe(5000);
    expect(stored.activeMs).toBe(5000); // never more than the wall time
  });

  it("checks the answer against the item (422) and the confidence against the study's scale", async () => {
    const { annotator, assignmentId } = await setup({ scale: "PERCENT" });
    const short = await submitResponse(annotator.id, submission(assignmentId, [1, 0])).catch((e: unknown) => e);
    expect(toResponse(short).status).toBe(422);
    const repeated = await submitResponse(annotator.id, submission(assignmentId, [1, 1, 0])).catch((e: unknown) => e);
    expect(toResponse(repeated).status).toBe(422);
    await submitResponse(annotator.id, submission(assignmentId, [1, 2, 0], { confidence: 85 }));
    expect((await db.response.findFirstOrThrow({ where: { assignmentId } })).confidence).toBeCloseTo(0.85);
    const likert = await setup();
    const offScale = await submitResponse(likert.annotator.id, submission(likert.assignmentId, [1, 2, 0], { confidence: 50 })).catch((e: unknown) => e);
    expect(toResponse(offScale).status).toBe(422);
    expect(await db.response.count({ where: { assignmentId: likert.assignmentId } })).toBe(0);
  });

  it("returns the right answer after a practice item, only for practice", async () => {
    const { annotator, assignmentId } = await setup({ practice: true });
    const ack = await submitResponse(annotator.id, submission(assignmentId, [0, 1, 2]));
    expect(ack).toMatchObject({ purpose: "PRACTICE", feedback: { correct: false, answer: { order: [1, 2, 0] } } });
  });

  it("403 for another annotator's assignment: submitting, viewing; and for a study one is not a member of", async () => {
    const { study, annotator, assignmentId } = await setup();
    const other = await createUser("ANNOTATOR");
    const submitted = await submitResponse(other.id, submission(assignmentId, [1, 2, 0])).catch((e: unknown) => e);
    expect(toResponse(submitted).status).toBe(403);
    const viewed = await getAssignmentView(assignmentId, other.id).catch((e: unknown) => e);
    expect(toResponse(viewed).status).toBe(403);
    const notMember = await getMemberStudy(study.slug, other.id).catch((e: unknown) => e);
    expect(toResponse(notMember).status).toBe(403);
    const nextNotMember = await nextForMember(study.slug, other.id).catch((e: unknown) => e);
    expect(toResponse(nextNotMember).status).toBe(403);
    expect(await db.assignment.count({ where: { userId: other.id } })).toBe(0);
    // the owner sees the public view and nothing of the key
    const view = await getAssignmentView(assignmentId, annotator.id);
    expect(JSON.stringify(view)).not.toContain("SecretFact");
    expect(Object.keys(view.view as object).sort()).toEqual(["actions", "candidates", "initialImage"]);
  });
});
