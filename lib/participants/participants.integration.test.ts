import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { nextAssignment } from "@/lib/assignment";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { nextForMember } from "@/lib/annotate/next";
import { getMemberStanding, getMemberStudy } from "@/lib/annotate/studies";
import {
  acceptConsent,
  actOnParticipant,
  completeTutorial,
  gatePath,
  getParticipation,
  listParticipants,
  withdrawFromStudy,
} from "@/lib/participants/participants";
import { updateStudySettings, getStudySettings } from "@/lib/studies/settings";
import { ALL, getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import type { TrajectoryEvent } from "@/lib/validations/annotate";
import { writeFile } from "@/lib/assets/files";
import { getExportJob } from "@/lib/exports/export-jobs";
import { scorerCacheKey, writeScorerCache } from "@/lib/scoring/scorer-cache";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/** Shows, answers (the key's order when `right`) and submits the annotator's next item. */
async function answerNext(studyId: string, userId: string, right = true) {
  const next = await nextAssignment(studyId, userId);
  if (next.status !== "assigned") throw new Error(`expected an assignment, got ${next.status}`);
  const assignment = await db.assignment.findUniqueOrThrow({ where: { id: next.assignmentId }, select: { item: { select: { key: true } } } });
  const order = (assignment.item.key as { order: number[] }).order;
  const answer = right ? order : [...order].reverse();
  const t = Date.now();
  const events: TrajectoryEvent[] = [
    { assignmentId: next.assignmentId, seq: 0, type: "item_shown", clientTime: t, payload: { kind: "enact-forward", resumed: false } },
    { assignmentId: next.assignmentId, seq: 1, type: "submitted", clientTime: t + 1000, payload: { order: answer, confidence: 4, clientId: randomUUID() } },
  ];
  await recordEvents(userId, events);
  await submitResponse(userId, {
    assignmentId: next.assignmentId,
    clientId: randomUUID(),
    answer: { order: answer },
    confidence: 4,
    wallMs: 1000,
    activeMs: 1000,
    submitSeq: 1,
  });
  return next.assignmentId;
}

async function studyWithMember(options: { items?: number; overlap?: number } = {}) {
  const study = await createStudy({ overlap: options.overlap ?? 1 });
  await createEnactItems(study.id, { count: options.items ?? 3 });
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  return { study, annotator };
}

describe("consent and tutorial", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("asks for consent before any work, stores its version and time, and asks again when the text changes", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study, annotator } = await studyWithMember();
    const settings = (await getStudySettings(study.slug)).settings;
    await updateStudySettings(
      study.slug,
      { ...settings, consentMarkdown: "# Consent\n\nI agree.", tutorialPages: [{ title: "Welcome", body: "Put the steps **in order**." }] },
      researcher.id,
    );
    // the first text is version 1; a change before anyone accepted is version 2
    expect(await getParticipation(study.slug, annotator.id)).toMatchObject({ consentNeeded: true, consentVersion: 1 });
    await updateStudySettings(
      study.slug,
      { ...(await getStudySettings(study.slug)).settings, consentMarkdown: "# Consent\n\nI agree to take part." },
      researcher.id,
    );

    let p = await getParticipation(study.slug, annotator.id);
    expect(p).toMatchObject({ consentNeeded: true, consentVersion: 2, acceptedVersion: null, tutorialNeeded: true });
    expect(gatePath(p)).toBe(`/s/${study.slug}/consent`);
    expect(await nextForMember(study.slug, annotator.id)).toMatchObject({ status: "consent", path: `/s/${study.slug}/consent` });
    expect(await db.assignment.count()).toBe(0);
    await expect(completeTutorial(study.slug, annotator.id)).rejects.toMatchObject({ code: "CONFLICT" });

    // accepting an older text is refused
    await expect(acceptConsent(study.slug, annotator.id, 1)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("changed") });
    const accepted = await acceptConsent(study.slug, annotator.id, 2);
    const member = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: annotator.id } } });
    expect(member.consentVersion).toBe(2);
    expect(member.consentedAt?.getTime()).toBe(accepted.consentedAt.getTime());

    p = await getParticipation(study.slug, annotator.id);
    expect(gatePath(p)).toBe(`/s/${study.slug}/tutorial`);
    expect(await nextForMember(study.slug, annotator.id)).toMatchObject({ status: "tutorial" });
    await completeTutorial(study.slug, annotator.id);
    p = await getParticipation(study.slug, annotator.id);
    expect(gatePath(p)).toBeNull();
    expect(await nextForMember(study.slug, annotator.id)).toMatchObject({ status: "item" });
    // next-item's one-query read says the same as the two functions it stands for (dates included)
    expect(await getMemberStanding(study.slug, annotator.id)).toEqual({
      study: await getMemberStudy(study.slug, annotator.id),
      participation: await getParticipation(study.slug, annotator.id),
    });
    expect((await getMemberStanding(study.slug, annotator.id)).participation.startedAt).toBeInstanceOf(Date);
    const outsider = await createUser("ANNOTATOR");
    await expect(getMemberStanding(study.slug, outsider.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getMemberStanding("no-such-study", annotator.id)).rejects.toMatchObject({ code: "NOT_FOUND" });

    // a new consent text (same settings otherwise): version 3, asked again
    const now = (await getStudySettings(study.slug)).settings;
    await updateStudySettings(study.slug, { ...now, consentMarkdown: "# Consent\n\nI agree, and I know I can withdraw." }, researcher.id);
    p = await getParticipation(study.slug, annotator.id);
    expect(p).toMatchObject({ consentNeeded: true, consentVersion: 3, acceptedVersion: 2, tutorialNeeded: false });
    // the same text again (whitespace aside) does not raise the version
    await updateStudySettings(study.slug, { ...(await getStudySettings(study.slug)).settings, title: "Renamed" }, researcher.id);
    expect((await getStudySettings(study.slug)).consentVersion).toBe(3);
  });
});

describe("withdrawal and researcher actions", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("withdrawal deletes the participant's responses and events (only theirs), frees the items, and says so in the audit log", async () => {
    const { study, annotator } = await studyWithMember({ items: 4, overlap: 1 });
    const other = await createUser("ANNOTATOR");
    await addMember(study.id, other.id);
    await answerNext(study.id, annotator.id);
    await answerNext(study.id, annotator.id);
    await answerNext(study.id, other.id);
    expect(await db.response.count()).toBe(3);
    expect(await db.event.count()).toBe(6);

    const deleted = await withdrawFromStudy(study.slug, annotator.id);
    expect(deleted).toEqual({ assignments: 2, responses: 2, events: 4 });
    expect(await db.response.count({ where: { assignment: { userId: annotator.id } } })).toBe(0);
    expect(await db.event.count({ where: { assignment: { userId: annotator.id } } })).toBe(0);
    expect(await db.response.count({ where: { assignment: { userId: other.id } } })).toBe(1);
    const member = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: annotator.id } } });
    expect(member).toMatchObject({ status: "RETURNED", statusReason: expect.stringContaining("withdrew") });
    const [entry] = await db.auditLog.findMany({ where: { action: "participant.withdraw" } });
    expect(entry).toMatchObject({ actorId: annotator.id, target: `study:${study.id}`, detail: { userId: annotator.id, responses: 2, events: 4 } });
    expect(await nextForMember(study.slug, annotator.id)).toMatchObject({ status: "returned" });
    await expect(withdrawFromStudy(study.slug, annotator.id)).rejects.toMatchObject({ code: "CONFLICT" });
    // the two freed items go to someone else
    await answerNext(study.id, other.id);
    await answerNext(study.id, other.id);
    await answerNext(study.id, other.id);
    expect(await db.response.count({ where: { assignment: { userId: other.id } } })).toBe(4);
  });

  it("withdrawal deletes the copies too: the scorer LLM's cached replies to the participant's texts and export files prepared before it", async () => {
    const { study, annotator } = await studyWithMember({ items: 1 });
    const other = await createUser("ANNOTATOR");
    await addMember(study.id, other.id);
    const batch = await db.batch.create({ data: { studyId: study.id, fileName: "free.jsonl", checksum: `free-${Math.random()}`, itemCount: 1 } });
    const item = await db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId: "q1",
        kind: "free-text",
        public: { question: "What colour is the sofa?" },
        key: { answer: "Red" },
        contentHash: "q1",
      },
    });
    const answers = [
      { userId: annotator.id, text: "A deep red, my cat sleeps on it" },
      { userId: other.id, text: "Red" },
    ];
    for (const [position, { userId, text }] of answers.entries()) {
      const assignment = await db.assignment.create({
        data: { studyId: study.id, itemId: item.id, userId, status: "SUBMITTED", position, submittedAt: new Date() },
      });
      await db.response.create({
        data: {
          assignmentId: assignment.id,
          clientId: randomUUID(),
          answer: { text },
          confidenceRaw: 4,
          confidence: 0.75,
          wallMs: 1000,
          activeMs: 900,
          score: {},
          correct: false,
        },
      });
      const request = { aspect: "llm-match", phrase: JSON.stringify({ question: "What colour is the sofa?", references: ["Red"] }), sentence: text };
      await writeScorerCache({ key: scorerCacheKey("judge", "v", request), model: "judge", promptVersion: "v", request, score: 4, reply: "4" });
    }
    const stored = await writeFile(
      "exports/before-withdrawal/0/s.csv",
      (async function* () {
        yield new TextEncoder().encode("text\nA deep red, my cat sleeps on it\n");
      })(),
      { contentType: "text/csv" },
    );
    const job = await db.exportJob.create({
      data: {
        studyId: study.id,
        table: "responses",
        format: "csv",
        fileName: "s.csv",
        contentType: "text/csv",
        status: "SUCCEEDED",
        storage: stored.storage,
        fileKey: "exports/before-withdrawal/0/s.csv",
        sha256: stored.sha256,
        bytes: stored.size,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });

    await withdrawFromStudy(study.slug, annotator.id);
    expect((await db.scorerCache.findMany({ select: { sentence: true } })).map((row) => row.sentence)).toEqual(["Red"]);
    expect(await db.storedFileChunk.count({ where: { key: "exports/before-withdrawal/0/s.csv" } })).toBe(0);
    expect(await getExportJob(study.slug, job.id)).toMatchObject({ status: "EXPIRED", downloadUrl: null });
    const [entry] = await db.auditLog.findMany({ where: { action: "participant.withdraw" } });
    expect(entry.detail).toMatchObject({ cachedReplies: 1, exportFiles: 1 });
  });

  it("marking a participant returned releases their open assignments; re-including works only for the excluded; both are audited", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study, annotator } = await studyWithMember({ items: 3 });
    await answerNext(study.id, annotator.id);
    const open = await nextAssignment(study.id, annotator.id);
    expect(open.status).toBe("assigned");

    const returned = await actOnParticipant(
      study.slug,
      { action: "return", userId: annotator.id, reason: "returned the submission on Prolific" },
      researcher.id,
    );
    expect(returned).toEqual({ status: "RETURNED", released: 1 });
    const statuses = await db.assignment.findMany({ where: { userId: annotator.id }, select: { status: true }, orderBy: { position: "asc" } });
    expect(statuses.map((s) => s.status)).toEqual(["SUBMITTED", "RELEASED"]);
    await expect(actOnParticipant(study.slug, { action: "reinclude", userId: annotator.id }, researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("not excluded"),
    });

    // someone who completed the study is not marked returned: their answers are whole
    const finished = await createUser("ANNOTATOR");
    await addMember(study.id, finished.id);
    await db.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: finished.id } }, data: { status: "COMPLETE", statusAt: new Date() } });
    await expect(actOnParticipant(study.slug, { action: "return", userId: finished.id }, researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("completed the study"),
    });
    expect((await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: finished.id } } })).status).toBe("COMPLETE");

    const excludedOne = await createUser("ANNOTATOR");
    await addMember(study.id, excludedOne.id);
    await db.studyMember.update({
      where: { studyId_userId: { studyId: study.id, userId: excludedOne.id } },
      data: { status: "EXCLUDED", statusReason: "failed 2 of 5 gold items", statusAt: new Date() },
    });
    expect(await nextForMember(study.slug, excludedOne.id)).toMatchObject({ status: "excluded", reason: "failed 2 of 5 gold items" });
    const { rows, counts } = await listParticipants(study.slug);
    expect(counts).toMatchObject({ ACTIVE: 0, RETURNED: 1, EXCLUDED: 1, COMPLETE: 1 });
    expect(rows.find((r) => r.userId === annotator.id)).toMatchObject({
      status: "RETURNED",
      statusReason: "returned the submission on Prolific",
      mainSubmitted: 1,
      open: 0,
    });

    expect(await actOnParticipant(study.slug, { action: "reinclude", userId: excludedOne.id }, researcher.id)).toEqual({ status: "ACTIVE", released: 0 });
    const audit = await db.auditLog.findMany({
      where: { target: `study:${study.id}` },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true, detail: true },
    });
    expect(audit.map((a) => a.action)).toEqual(["participant.return", "participant.reinclude"]);
    expect(audit[1].detail).toMatchObject({ userId: excludedOne.id, previousReason: "failed 2 of 5 gold items" });
  });

  it("leaves excluded participants' answers out of the dashboard unless asked", async () => {
    const { study, annotator } = await studyWithMember({ items: 2, overlap: 2 });
    const excluded = await createUser("ANNOTATOR");
    await addMember(study.id, excluded.id);
    await answerNext(study.id, annotator.id);
    await answerNext(study.id, annotator.id);
    await answerNext(study.id, excluded.id, false);
    await answerNext(study.id, excluded.id, false);
    clearDashboardCaches();
    const everyone = await getStudyDashboard(study.slug, {});
    expect(everyone.accuracy.responses).toBe(4);
    await db.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: excluded.id } }, data: { status: "EXCLUDED" } });
    const without = await getStudyDashboard(study.slug, {});
    expect(without.choices).toMatchObject({ excludedParticipants: 1, includeExcludedParticipants: false });
    expect(without.accuracy.responses).toBe(2);
    expect(without.annotators.map((a) => a.id)).toEqual([annotator.id]);
    // the kept annotator answered both right, the excluded one both wrong: task accuracy 1 without, 0.5 with
    const taskAccuracy = (d: typeof without) => d.accuracy.rows.find((r) => r.series === "humans" && r.kind === "enact-forward")?.cells[ALL]?.metrics.TA?.value;
    expect(taskAccuracy(without)).toBe(1);
    const withThem = await getStudyDashboard(study.slug, { participants: "with" });
    expect(withThem.accuracy.responses).toBe(4);
    expect(withThem.annotators).toHaveLength(2);
    expect(taskAccuracy(withThem)).toBe(0.5);
  });
});
