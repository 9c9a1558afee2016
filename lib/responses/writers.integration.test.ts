import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { toResponse } from "@/lib/errors";
import { nextAssignment } from "@/lib/assignment";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { claimWriter, WRITER_IDLE_SECONDS } from "@/lib/responses/writer";
import { listEvents } from "@/lib/responses/events";
import type { ResponseCreateInput, TrajectoryEvent } from "@/lib/validations/annotate";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * One tab (or device) writes an item at a time: the "writer" of an assignment. Two tabs' events
 * are each stored once (their sequence numbers are their own), a tab that is not the writer is
 * refused (409) until it takes the item over, and a second submission is refused plainly.
 */

const t0 = Date.UTC(2026, 10, 23, 9, 0, 0);

async function setup() {
  const study = await createStudy({ overlap: 1 });
  await createEnactItems(study.id, { count: 1 });
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  const next = await nextAssignment(study.id, annotator.id);
  if (next.status !== "assigned") throw new Error("expected an assignment");
  return { annotator, assignmentId: next.assignmentId };
}

function slotFilled(assignmentId: string, writer: string | undefined, seq: number, slot: number, candidate: number): TrajectoryEvent {
  return {
    assignmentId,
    ...(writer ? { writer } : {}),
    seq,
    clientTime: t0 + seq * 1000,
    type: "slot_filled",
    payload: { slot, candidate, fromSlot: null, replaced: null, via: "click" },
  } as TrajectoryEvent;
}

function submission(assignmentId: string, writer: string | undefined, submitSeq: number): ResponseCreateInput {
  return {
    assignmentId,
    clientId: randomUUID(),
    ...(writer ? { writer } : {}),
    answer: { order: [0, 1, 2] },
    confidence: 4,
    wallMs: 1,
    activeMs: 1,
    submitSeq,
  } as ResponseCreateInput;
}

async function stored(assignmentId: string) {
  return db.$queryRaw<Array<{ writer: string; seq: number }>>`SELECT writer, seq FROM "Event" WHERE "assignmentId" = ${assignmentId} ORDER BY id`;
}

describe("the writer of an assignment", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("stores the events of two writers with the same seq each once (neither is dropped as the other's duplicate)", async () => {
    const { annotator, assignmentId } = await setup();
    // tab A writes 0..1; tab B, opened on the stored history 0, writes its own 1 (the race of a take-over)
    await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-a", 0, 0, 0), slotFilled(assignmentId, "tab-a", 1, 1, 1)]);
    await claimWriter(annotator.id, assignmentId, "tab-b", { takeOver: true });
    const reply = await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-b", 1, 1, 2)]);
    expect(reply.acked).toEqual({ [assignmentId]: [1] });
    expect(await stored(assignmentId)).toEqual([
      { writer: "tab-a", seq: 0 },
      { writer: "tab-a", seq: 1 },
      { writer: "tab-b", seq: 1 },
    ]);
    // a retry of tab B's batch stores nothing more
    await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-b", 1, 1, 2)]);
    expect(await stored(assignmentId)).toHaveLength(3);
    // the replay reads them in the order they were stored within a seq
    expect((await listEvents(assignmentId)).map((e) => e.writer)).toEqual(["tab-a", "tab-a", "tab-b"]);
  });

  it("makes the first tab that writes the writer, and refuses (409) the events of another tab, storing the writer's of the same batch", async () => {
    const { annotator, assignmentId } = await setup();
    await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-a", 0, 0, 0)]);
    const reply = await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-a", 1, 1, 1), slotFilled(assignmentId, "tab-b", 1, 1, 2)]);
    expect(reply.acked).toEqual({ [assignmentId]: [1] });
    expect(reply.notWriter).toEqual([assignmentId]);
    expect(reply.rejected).toEqual([{ index: 1, assignmentId, seq: 1, issues: [expect.stringContaining("another tab")] }]);
    expect(await stored(assignmentId)).toEqual([
      { writer: "tab-a", seq: 0 },
      { writer: "tab-a", seq: 1 },
    ]);
  });

  it("refuses a claim while another tab writes, takes the item over on request, and then refuses the old tab (409)", async () => {
    const { annotator, assignmentId } = await setup();
    expect(await claimWriter(annotator.id, assignmentId, "tab-a", { takeOver: false })).toMatchObject({ writer: "tab-a" });
    await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-a", 0, 0, 0)]);
    // the same tab again (a reload): still its own
    expect(await claimWriter(annotator.id, assignmentId, "tab-a", { takeOver: false })).toMatchObject({ writer: "tab-a", nextSeq: 1 });
    const busy = await claimWriter(annotator.id, assignmentId, "tab-b", { takeOver: false }).catch((e: unknown) => e);
    expect(toResponse(busy).status).toBe(409);
    expect(busy).toMatchObject({ code: "CONFLICT", details: { reason: "writer", writer: "tab-a" } });
    expect(await claimWriter(annotator.id, assignmentId, "tab-b", { takeOver: true })).toMatchObject({ writer: "tab-b", nextSeq: 1 });
    const late = await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-a", 1, 1, 1)]);
    expect(late.notWriter).toEqual([assignmentId]);
    expect(late.acked).toEqual({});
    const refused = await submitResponse(annotator.id, submission(assignmentId, "tab-a", 1)).catch((e: unknown) => e);
    expect(toResponse(refused).status).toBe(409);
    expect(refused).toMatchObject({ code: "CONFLICT", details: { reason: "writer" } });
    expect(await db.response.count()).toBe(0);
    // the writer's submission is taken
    await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-b", 1, 1, 1)]);
    await expect(submitResponse(annotator.id, submission(assignmentId, "tab-b", 1))).resolves.toMatchObject({ duplicate: false });
  });

  it("lets a claim take an item whose writer has been silent for the idle time", async () => {
    const { annotator, assignmentId } = await setup();
    await claimWriter(annotator.id, assignmentId, "tab-a", { takeOver: false });
    await db.assignment.update({ where: { id: assignmentId }, data: { writerSince: new Date(Date.now() - (WRITER_IDLE_SECONDS + 5) * 1000) } });
    expect(await claimWriter(annotator.id, assignmentId, "tab-b", { takeOver: false })).toMatchObject({ writer: "tab-b" });
  });

  it("lets a claim take an item whose writer submitted it but whose answer never arrived (the item is served reopened)", async () => {
    const { annotator, assignmentId } = await setup();
    await claimWriter(annotator.id, assignmentId, "tab-a", { takeOver: false });
    const submitted = {
      assignmentId,
      writer: "tab-a",
      seq: 1,
      clientTime: t0 + 2000,
      type: "submitted",
      payload: { order: [0, 1, 2], confidence: 4, clientId: randomUUID() },
    } as TrajectoryEvent;
    await recordEvents(annotator.id, [slotFilled(assignmentId, "tab-a", 0, 0, 0), submitted]);
    expect(await claimWriter(annotator.id, assignmentId, "device-b", { takeOver: false })).toMatchObject({ writer: "device-b", nextSeq: 2 });
  });

  it("refuses a second submission of an item plainly (409, reason submitted), and a claim of a submitted item", async () => {
    const { annotator, assignmentId } = await setup();
    await claimWriter(annotator.id, assignmentId, "tab-a", { takeOver: false });
    await submitResponse(annotator.id, submission(assignmentId, "tab-a", 0));
    const again = await submitResponse(annotator.id, submission(assignmentId, "tab-a", 0)).catch((e: unknown) => e);
    expect(toResponse(again).status).toBe(409);
    expect(again).toMatchObject({ code: "CONFLICT", details: { reason: "submitted" } });
    const claim = await claimWriter(annotator.id, assignmentId, "tab-b", { takeOver: true }).catch((e: unknown) => e);
    expect(toResponse(claim).status).toBe(409);
    expect(claim).toMatchObject({ code: "CONFLICT", details: { reason: "submitted" } });
    expect(await db.response.count()).toBe(1);
  });

  it("keeps clients that name no writer (API agents, an older page) working as one writer", async () => {
    const { annotator, assignmentId } = await setup();
    expect((await recordEvents(annotator.id, [slotFilled(assignmentId, undefined, 0, 0, 0)])).acked).toEqual({ [assignmentId]: [0] });
    await expect(submitResponse(annotator.id, submission(assignmentId, undefined, 0))).resolves.toMatchObject({ duplicate: false });
  });

  it("refuses a claim of another annotator's assignment (403)", async () => {
    const { assignmentId } = await setup();
    const other = await createUser("ANNOTATOR");
    const error = await claimWriter(other.id, assignmentId, "tab-x", { takeOver: true }).catch((e: unknown) => e);
    expect(toResponse(error).status).toBe(403);
  });
});
