import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { importBatch, readBatchSource } from "@/lib/import";
import { nextForMember } from "@/lib/annotate/next";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { answerJsonSchema } from "@/lib/tasks/agent-contract";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { replayItemEvents } from "@/lib/tasks/item-state";
import { ALL } from "@/lib/dashboard/accuracy";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { clearDashboardCaches, loadSnapshot } from "@/lib/dashboard/snapshot";
import { isTaskKind, registerKind } from "@/lib/tasks";
import { parseTrajectoryBatch } from "@/lib/validations/annotate";
import { describeEvent } from "@/components/replay/describe-event";
import { getTaskUi, registerTaskUi, storeInitOf } from "@/components/tasks/registry";
import { shortcutsFor } from "@/components/annotate/task-shortcuts";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { image, jsonl, removeTempFolders, writeFolder } from "@/tests/fixtures/import-batches";
import { TOY_KIND, toyCountModule } from "@/tests/fixtures/toy-kind/lib";
import { toyCountEvents } from "@/tests/fixtures/toy-kind/lib/events";
import { toyCountUi } from "@/tests/fixtures/toy-kind/components";

/**
 * A kind is a plug-in: the toy kind in tests/fixtures/toy-kind/ (a lib half and a
 * components half, docs/adding-a-kind.md), registered here through the registries' hooks, goes
 * through the real import, the annotation functions the route handlers call, the replay and the
 * dashboard, with no other file knowing it.
 */

const t0 = Date.UTC(2026, 10, 27, 9, 0, 0);

describe("a toy kind registered at run time", () => {
  beforeAll(async () => {
    await resetDatabase();
    clearDashboardCaches();
    registerKind(toyCountModule, toyCountEvents);
    registerTaskUi(TOY_KIND, toyCountUi);
  });
  afterAll(async () => {
    await removeTempFolders();
    await disconnectDb();
  });

  it("is imported, answered, replayed and seen on the dashboard", async () => {
    expect(isTaskKind(TOY_KIND)).toBe(true);
    const admin = await createUser("ADMIN");
    const study = await createStudy({ overlap: 1 });
    const folder = await writeFolder({
      "img/dots.png": await image("toy-dots"),
      "items.jsonl": jsonl([{ id: "dots-1", kind: TOY_KIND, public: { image: "img/dots.png" }, key: { count: 3 }, tags: { size: "small" } }]),
    });

    // import: the real importer checks the kind's schemas and stores its image
    const imported = await importBatch({ source: await readBatchSource({ folder }), studySlug: study.slug, importedById: admin.id });
    expect(imported.itemCount).toBe(1);
    const item = await db.item.findFirstOrThrow({ where: { studyId: study.id }, select: { kind: true, public: true } });
    expect(item.kind).toBe(TOY_KIND);
    expect((item.public as { image: string }).image).toMatch(/^\/api\/assets\//);

    // answer: next item, events, submission (what GET next, POST events and POST responses call)
    const annotator = await createUser("ANNOTATOR");
    await addMember(study.id, annotator.id);
    const next = await nextForMember(study.slug, annotator.id, []);
    if (next.status !== "item") throw new Error(`expected an item, got ${next.status}`);
    expect(next.assignment.kind).toBe(TOY_KIND);
    expect(next.assignment.view).toEqual({ image: (item.public as { image: string }).image }); // the kind's publicView
    const assignmentId = next.assignment.assignmentId;
    // the browser gets no agent contract; an agent (a caller with an API token) gets the contract of a
    // kind without an agent part: its answer's JSON Schema, its title as instructions, no example
    expect(next.assignment.agent).toBeUndefined();
    expect((await getAssignmentView(assignmentId, annotator.id, { withAgentContract: true })).agent).toEqual({
      interactive: false,
      answerSchema: answerJsonSchema(toyCountModule.answerSchema),
      actionSchema: null,
      answerInstructions: "Count the dots: answer with a JSON object that matches answerSchema.",
      actionInstructions: null,
      exampleAnswer: null,
      answerFromActions: false,
    });
    expect(answerJsonSchema(toyCountModule.answerSchema)).toMatchObject({
      properties: { count: { type: "integer", minimum: 0, maximum: 999 } },
      required: ["count"],
    });
    const sent = [
      { type: "item_shown", payload: { kind: TOY_KIND, resumed: false } },
      { type: "count_set", payload: { count: 2, via: "keyboard" } },
      { type: "count_set", payload: { count: 3, via: "keyboard" } },
      { type: "count_set", payload: { count: -1, via: "keyboard" } }, // refused by the kind's schema
      { type: "confidence_changed", payload: { value: 4, previous: null } },
    ].map((event, seq) => ({ assignmentId, seq, clientTime: t0 + seq * 1000, ...event }));
    const { valid, rejected } = parseTrajectoryBatch(sent);
    expect(rejected.map((r) => r.index)).toEqual([3]);
    const stored = valid.map((event, seq) => ({ ...event, seq }));
    const clientId = randomUUID();
    const submitted = {
      assignmentId,
      seq: stored.length,
      clientTime: t0 + 9000,
      type: "submitted",
      payload: { answer: { count: 3 }, confidence: 4, clientId },
    };
    expect(parseTrajectoryBatch([submitted]).valid).toHaveLength(1);
    await recordEvents(annotator.id, [...stored, ...parseTrajectoryBatch([submitted]).valid]);
    const ack = await submitResponse(annotator.id, {
      assignmentId,
      clientId,
      answer: { count: 3 },
      confidence: 4,
      wallMs: 9000,
      activeMs: 9000,
      submitSeq: stored.length,
    });
    expect(ack.duplicate).toBe(false);
    const response = await db.response.findFirstOrThrow({ where: { assignmentId }, select: { answer: true, score: true } });
    expect(response.answer).toEqual({ count: 3 });
    expect(response.score).toEqual({ correct: true });

    // replay: the stored events through the kind's reducer and descriptions
    const events = await db.event.findMany({ where: { assignmentId }, orderBy: { seq: "asc" }, select: { type: true, payload: true } });
    const ui = getTaskUi(TOY_KIND)!;
    const init = storeInitOf(ui, { image: "x" });
    const state = replayItemEvents(events, init.initialAnswer);
    expect(state.answer).toEqual({ count: 3 });
    expect(state.confidence).toBe(4);
    expect(events.map((event) => describeEvent(event))).toEqual(["Item shown", "Counted 2", "Counted 3", "Confidence 4", "Submitted"]);
    expect(shortcutsFor(TOY_KIND, null)[0]).toEqual({ keys: "0–9", action: "type the count" });

    // dashboard: the snapshot holds the answer, the accuracy table the kind's own metric
    const snapshot = await loadSnapshot(study.id);
    expect(snapshot.items.kinds).toEqual([TOY_KIND]);
    const dashboard = await getStudyDashboard(study.slug, {});
    expect(dashboard.kinds.map((kind) => kind.kind)).toEqual([TOY_KIND]);
    const row = dashboard.accuracy.rows.find((r) => r.kind === TOY_KIND);
    expect(row, JSON.stringify(dashboard.accuracy.rows)).toBeDefined();
    expect(row!.cells[ALL].n).toBe(1);
    expect(row!.cells[ALL].metrics.Acc.value).toBe(1);
  });
});
