import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { nextForMember } from "@/lib/annotate/next";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { endingOf, getParticipation } from "@/lib/participants/participants";
import { createStudy as createStudyAsResearcher } from "@/lib/studies/studies";
import { getStudySettings, updateStudySettings } from "@/lib/studies/settings";
import { getStudyProgress } from "@/lib/dashboard/progress";
import { nextAssignment } from "@/lib/assignment";
import { trajectoryEventSchema, type TrajectoryEvent } from "@/lib/validations/annotate";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Nobody stuck, honest endings. Server side: an item whose trajectory says submitted
 * but whose response never arrived is reopened for answering on any device; each ending has its
 * own completion code (Study.endings); a new study starts OPEN; "main done / begun" leaves out
 * prefetched items nobody has seen.
 */

async function member(options: { items?: number; practice?: number } = {}) {
  const study = await createStudy();
  if (options.practice) await createEnactItems(study.id, { count: options.practice, practice: true, prefix: `p${study.id.slice(-4)}` });
  await createEnactItems(study.id, { count: options.items ?? 2 });
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  return { study, annotator };
}

async function keyOrder(assignmentId: string): Promise<number[]> {
  const row = await db.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { item: { select: { key: true } } } });
  return (row.item.key as { order: number[] }).order;
}

describe("an item submitted whose answer never reached the server", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("is served reopened (events kept, the reason given), takes a second submission, and is then done", async () => {
    const { study, annotator } = await member({ items: 1 });
    const first = await nextForMember(study.slug, annotator.id);
    if (first.status !== "item") throw new Error(`expected an item, got ${first.status}`);
    const id = first.assignment.assignmentId;
    expect(first.assignment.reopened).toBeNull();
    const order = await keyOrder(id);
    const t = Date.now() - 60_000;
    // the first browser: events and its `submitted` reach the server, the response does not (tab closed)
    await recordEvents(annotator.id, [
      { assignmentId: id, seq: 0, type: "item_shown", clientTime: t, payload: { kind: "enact-forward", resumed: false } },
      { assignmentId: id, seq: 1, type: "confidence_changed", clientTime: t + 1000, payload: { value: 4, previous: null } },
      { assignmentId: id, seq: 2, type: "submitted", clientTime: t + 2000, payload: { order, confidence: 4, clientId: randomUUID() } },
    ]);

    // another device asks for work: the same item, reopened, with everything recorded so far
    const again = await nextForMember(study.slug, annotator.id);
    if (again.status !== "item") throw new Error(`expected the item again, got ${again.status}`);
    expect(again.assignment.assignmentId).toBe(id);
    expect(again.assignment.history.map((e) => e.type)).toEqual(["item_shown", "confidence_changed", "submitted"]);
    expect(again.assignment.reopened).toMatchObject({ submittedSeq: 2, submittedAt: t + 2000 });
    expect(again.assignment.reopened?.reason).toMatch(/never reached the server/);

    // that device records the reopening (a valid event for the API) and submits again
    const reopenedEvent = {
      assignmentId: id,
      seq: 3,
      type: "submission_reopened",
      clientTime: t + 30_000,
      payload: { submittedSeq: 2, reason: again.assignment.reopened!.reason },
    };
    expect(trajectoryEventSchema.safeParse(reopenedEvent).success).toBe(true);
    const clientId = randomUUID();
    await recordEvents(annotator.id, [
      reopenedEvent as TrajectoryEvent,
      { assignmentId: id, seq: 4, type: "item_shown", clientTime: t + 30_001, payload: { kind: "enact-forward", resumed: true } },
      { assignmentId: id, seq: 5, type: "submitted", clientTime: t + 31_000, payload: { order, confidence: 4, clientId } },
    ]);
    // while its submission is on the way, the trajectory ends in a fresh `submitted`: still "reopened" for a third device
    expect((await getAssignmentView(id, annotator.id)).reopened).toMatchObject({ submittedSeq: 5 });
    const ack = await submitResponse(annotator.id, {
      assignmentId: id,
      clientId,
      answer: { order },
      confidence: 4,
      wallMs: 31_000,
      activeMs: 20_000,
      submitSeq: 5,
    });
    expect(ack.duplicate).toBe(false);
    const stored = await db.response.findUniqueOrThrow({ where: { assignmentId: id }, select: { correct: true, wallMs: true } });
    expect(stored.correct).toBe(true);
    // the times come from the whole stored trajectory 0..5 (gapless), not from the browser's figures
    expect(stored.wallMs).toBe(31_000);
    expect((await getAssignmentView(id, annotator.id)).reopened).toBeNull();
    expect((await nextForMember(study.slug, annotator.id)).status).toBe("done");
  });

  it("is not reopened when the response is stored, or when there was no submission", async () => {
    const { study, annotator } = await member({ items: 2 });
    const next = await nextAssignment(study.id, annotator.id);
    if (next.status !== "assigned") throw new Error(next.status);
    const t = Date.now();
    await recordEvents(annotator.id, [
      { assignmentId: next.assignmentId, seq: 0, type: "item_shown", clientTime: t, payload: { kind: "enact-forward", resumed: false } },
    ]);
    expect((await getAssignmentView(next.assignmentId, annotator.id)).reopened).toBeNull();
    const order = await keyOrder(next.assignmentId);
    const clientId = randomUUID();
    await recordEvents(annotator.id, [
      { assignmentId: next.assignmentId, seq: 1, type: "submitted", clientTime: t + 1, payload: { order, confidence: 3, clientId } },
    ]);
    await submitResponse(annotator.id, { assignmentId: next.assignmentId, clientId, answer: { order }, confidence: 3, wallMs: 1, activeMs: 1, submitSeq: 1 });
    expect((await getAssignmentView(next.assignmentId, annotator.id)).reopened).toBeNull();
  });
});

describe("endings", () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  const endings = {
    failedScreening: { code: "SCREENED-OUT", redirectUrl: "https://app.prolific.com/submissions/complete?cc={code}" },
    excluded: { code: "EXCLUDED-1", redirectUrl: null },
    timedOut: { code: "TIMEOUT-1", redirectUrl: null },
    full: { code: "NOPLACE-1", redirectUrl: null },
  };

  async function withEndings(slug: string, extra: Record<string, unknown> = {}) {
    const actor = await createUser("RESEARCHER");
    const current = await getStudySettings(slug);
    return updateStudySettings(slug, { ...current.settings, endings, ...extra }, actor.id);
  }

  it("stores each ending's code and redirect, and refuses a bad one naming the field", async () => {
    const study = await createStudy();
    const view = await withEndings(study.slug, { desktopOnly: true });
    expect(view.settings.endings).toEqual(endings);
    expect(view.settings.desktopOnly).toBe(true);
    const actor = await createUser("RESEARCHER");
    const bad = { ...view.settings, endings: { ...endings, excluded: { code: "has space", redirectUrl: "ftp://x" } } };
    await expect(updateStudySettings(study.slug, bad, actor.id)).rejects.toMatchObject({
      issues: expect.arrayContaining([
        expect.objectContaining({ path: ["endings", "excluded", "code"] }),
        expect.objectContaining({ path: ["endings", "excluded", "redirectUrl"] }),
      ]),
    });
    const unknown = { ...view.settings, endings: { ...endings, rejected: { code: "X", redirectUrl: null } } };
    await expect(updateStudySettings(study.slug, unknown, actor.id)).rejects.toBeDefined();
    expect((await getStudySettings(study.slug)).settings.endings).toEqual(endings);
  });

  it("missing the practice pass mark is 'failed screening' with its own code, not an exclusion for failed checks", async () => {
    const { study, annotator } = await member({ practice: 1, items: 2 });
    await db.study.update({ where: { id: study.id }, data: { practicePassMark: 1 } });
    await withEndings(study.slug);
    const practice = await nextForMember(study.slug, annotator.id);
    if (practice.status !== "item") throw new Error(practice.status);
    const id = practice.assignment.assignmentId;
    const wrong = [...(await keyOrder(id))].reverse();
    const clientId = randomUUID();
    await recordEvents(annotator.id, [
      { assignmentId: id, seq: 0, type: "submitted", clientTime: Date.now(), payload: { order: wrong, confidence: 3, clientId } },
    ]);
    await submitResponse(annotator.id, { assignmentId: id, clientId, answer: { order: wrong }, confidence: 3, wallMs: 1, activeMs: 1, submitSeq: 0 });
    expect((await nextForMember(study.slug, annotator.id)).status).toBe("excluded");
    const p = await getParticipation(study.slug, annotator.id);
    expect(endingOf(p)).toBe("failedScreening");
    expect(endingOf({ status: "EXCLUDED", statusReason: "failed 2 of 3 gold items (rule: 2 failed gold items)", withdrawn: false })).toBe("excluded");
    expect(endingOf({ status: "TIMED_OUT", statusReason: "session time limit of 30 minutes reached", withdrawn: false })).toBe("timedOut");
    expect(endingOf({ status: "RETURNED", statusReason: null, withdrawn: false })).toBeNull();
    expect(endingOf({ status: "COMPLETE", statusReason: null, withdrawn: false })).toBeNull();
  });

  it("a study with no place left gives the 'full' ending's code", async () => {
    const { study, annotator } = await member({ items: 1 });
    await withEndings(study.slug);
    const other = await createUser("ANNOTATOR");
    await addMember(study.id, other.id);
    expect((await nextAssignment(study.id, other.id)).status).toBe("assigned");
    const next = await nextForMember(study.slug, annotator.id);
    expect(next).toMatchObject({ status: "full", completion: { code: "NOPLACE-1", redirectUrl: null } });
  });
});

describe("small decisions", () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  it("a new study starts OPEN (README: Running a study), its new versions DRAFT", async () => {
    const researcher = await createUser("RESEARCHER");
    const created = await createStudyAsResearcher(
      { slug: `fresh-${Date.now()}`, title: "Fresh study", instructions: "", overlap: 1, confidenceScale: "LIKERT_5" },
      researcher.id,
    );
    expect((await db.study.findUniqueOrThrow({ where: { id: created.id }, select: { status: true } })).status).toBe("OPEN");
  });

  it("'main done / begun' leaves out an item fetched in advance that nobody has seen", async () => {
    const { study, annotator } = await member({ items: 3 });
    const shown = await nextAssignment(study.id, annotator.id);
    if (shown.status !== "assigned") throw new Error(shown.status);
    await recordEvents(annotator.id, [
      { assignmentId: shown.assignmentId, seq: 0, type: "item_shown", clientTime: Date.now(), payload: { kind: "enact-forward", resumed: false } },
    ]);
    // the page prefetches the next one while the first is on screen
    const prefetched = await nextAssignment(study.id, annotator.id, { exclude: [shown.assignmentId] });
    expect(prefetched.status).toBe("assigned");
    const progress = await getStudyProgress(study.id, 1);
    expect(progress.perAnnotator.find((row) => row.userId === annotator.id)).toMatchObject({ mainAssigned: 1, mainDone: 0 });
  });
});
