import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getPlay, playStep } from "@/lib/annotate/play";
import { AppError } from "@/lib/errors";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { stepCalls } from "@/tests/fixtures/toy-interactive";

// A toy interactive kind (tests/fixtures/toy-interactive.ts): the real kinds (ESI-Bench, Ego2World)
// have their own tests; this one pins lib/annotate/play.ts itself.
vi.mock("@/lib/tasks", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/tasks")>();
  const { toyCounterModule } = await import("@/tests/fixtures/toy-interactive");
  return { ...original, getTaskModule: (kind: string) => (kind === "toy-counter" ? toyCounterModule : original.getTaskModule(kind)) };
});

async function toyAssignment(condition: string | null = null) {
  const study = await createStudy();
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  const batch = await db.batch.create({ data: { studyId: study.id, fileName: "toy.jsonl", checksum: `toy-${Math.random()}`, itemCount: 1 } });
  const item = await db.item.create({
    data: { studyId: study.id, batchId: batch.id, externalId: "toy-1", kind: "toy-counter", public: {}, key: { secret: "hidden-answer" }, contentHash: "toy" },
  });
  const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: annotator.id, position: 0, condition } });
  return { study, annotator, assignment };
}

describe("interactive play (lib/annotate/play.ts)", () => {
  beforeEach(async () => {
    await resetDatabase();
    stepCalls.count = 0;
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("starts on first load, applies steps in order, and keeps the hidden state on the server", async () => {
    const { annotator, assignment } = await toyAssignment("active");
    const start = await getPlay(annotator.id, assignment.id);
    expect(start).toEqual({ seq: 0, view: { parity: "even", condition: "active" }, steps: [] });
    expect(await getPlay(annotator.id, assignment.id)).toEqual(start); // a reload resumes, it does not restart

    const first = await playStep(annotator.id, assignment.id, { seq: 1, action: { op: "inc" } });
    expect(first).toEqual({ seq: 1, view: { parity: "odd", condition: "active" }, valid: true, message: null, duplicate: false });
    const refused = await playStep(annotator.id, assignment.id, { seq: 2, action: { op: "nop" } });
    expect(refused).toMatchObject({ seq: 2, valid: false, message: "cannot do that here" });

    const stored = await db.assignment.findUniqueOrThrow({ where: { id: assignment.id }, select: { playState: true, status: true } });
    expect(stored).toEqual({ playState: { count: 1 }, status: "STARTED" });
    const loaded = await getPlay(annotator.id, assignment.id);
    expect(loaded.seq).toBe(2);
    expect(loaded.steps.map((step) => [step.seq, step.valid])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(JSON.stringify(loaded)).not.toContain("hidden-answer");
    expect(JSON.stringify(loaded)).not.toContain("count");
  });

  it("gives the kind's example action (and whether it takes another) after each step to callers that ask (API tokens), from the public and play views and the steps taken", async () => {
    const { annotator, assignment } = await toyAssignment();
    const agent = { withPlayAdvice: true };
    expect(await getPlay(annotator.id, assignment.id, agent)).toEqual({
      seq: 0,
      view: { parity: "even", condition: null },
      steps: [],
      canAct: true,
      exampleAction: { op: "inc" },
    });
    expect(Object.keys(await getPlay(annotator.id, assignment.id)).sort()).toEqual(["seq", "steps", "view"]); // the browser's call
    expect(await playStep(annotator.id, assignment.id, { seq: 1, action: { op: "inc" } }, agent)).toMatchObject({
      seq: 1,
      view: { parity: "odd" },
      exampleAction: { op: "nop" },
    });
    expect(await playStep(annotator.id, assignment.id, { seq: 2, action: { op: "nop" } }, agent)).toMatchObject({ seq: 2, valid: false, exampleAction: null });
    // a retried step is answered from the record, with the example of that step
    expect(await playStep(annotator.id, assignment.id, { seq: 1, action: { op: "inc" } }, agent)).toMatchObject({
      seq: 1,
      duplicate: true,
      exampleAction: { op: "nop" },
    });
    expect(Object.keys(await playStep(annotator.id, assignment.id, { seq: 3, action: { op: "inc" } })).sort()).toEqual([
      "duplicate",
      "message",
      "seq",
      "valid",
      "view",
    ]);
    expect((await getPlay(annotator.id, assignment.id, agent)).exampleAction).toBeNull();
  });

  it("applies a step retried concurrently exactly once and answers both copies alike", async () => {
    const { annotator, assignment } = await toyAssignment();
    await getPlay(annotator.id, assignment.id);
    const copies = await Promise.all(Array.from({ length: 5 }, () => playStep(annotator.id, assignment.id, { seq: 1, action: { op: "inc" } })));
    expect(stepCalls.count).toBe(1);
    expect(copies.filter((copy) => !copy.duplicate)).toHaveLength(1);
    for (const copy of copies) expect(copy.view).toEqual({ parity: "odd", condition: null });
    expect(await db.playStep.count({ where: { assignmentId: assignment.id } })).toBe(2);
  });

  it("refuses out-of-order steps with the expected seq, other users, bad actions, and closed assignments", async () => {
    const { annotator, assignment } = await toyAssignment();
    const other = await createUser("ANNOTATOR");
    await expect(playStep(annotator.id, assignment.id, { seq: 1, action: { op: "inc" } })).rejects.toMatchObject({
      code: "CONFLICT",
      details: { expectedSeq: 0 },
    });
    await getPlay(annotator.id, assignment.id);
    await expect(playStep(annotator.id, assignment.id, { seq: 3, action: { op: "inc" } })).rejects.toMatchObject({
      code: "CONFLICT",
      details: { expectedSeq: 1 },
    });
    await expect(getPlay(other.id, assignment.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(playStep(other.id, assignment.id, { seq: 1, action: { op: "inc" } })).rejects.toBeInstanceOf(AppError);
    await expect(playStep(annotator.id, assignment.id, { seq: 1, action: { op: "fly" } })).rejects.toThrow();
    expect(await db.playStep.count({ where: { assignmentId: assignment.id } })).toBe(1);

    await db.assignment.update({ where: { id: assignment.id }, data: { status: "SUBMITTED" } });
    await expect(playStep(annotator.id, assignment.id, { seq: 1, action: { op: "inc" } })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("holds the study's cap on agent steps under concurrent steps: exactly the cap's steps are taken, the rest 429", async () => {
    const { study, assignment: first } = await toyAssignment();
    await db.study.update({ where: { id: study.id }, data: { agentStepCap: 3 } });
    const agents = await Promise.all(Array.from({ length: 8 }, () => createUser("ANNOTATOR")));
    const assignments = [];
    for (const [position, agent] of agents.entries()) {
      await db.user.update({ where: { id: agent.id }, data: { isAgent: true } });
      await addMember(study.id, agent.id);
      const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: first.itemId, userId: agent.id, position, agent: true } });
      await getPlay(agent.id, assignment.id);
      assignments.push({ userId: agent.id, id: assignment.id });
    }
    const outcomes = await Promise.allSettled(assignments.map((a) => playStep(a.userId, a.id, { seq: 1, action: { op: "inc" } })));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(3);
    for (const outcome of outcomes) if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ code: "RATE_LIMITED" });
    expect(await db.playStep.count({ where: { assignment: { studyId: study.id }, seq: { gt: 0 } } })).toBe(3);
  });

  it("refuses kinds that are not interactive", async () => {
    const { annotator, assignment } = await toyAssignment();
    await db.item.update({ where: { id: assignment.itemId }, data: { kind: "enact-forward" } });
    await expect(getPlay(annotator.id, assignment.id)).rejects.toMatchObject({ code: "INVALID" });
  });
});
