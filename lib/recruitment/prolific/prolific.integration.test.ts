import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { nextAssignment } from "@/lib/assignment";
import { nextForMember } from "@/lib/annotate/next";
import { submitResponse } from "@/lib/responses/responses";
import { enterByLink } from "@/lib/studies/entry";
import { newEntryToken } from "@/lib/studies/settings";
import { isAppError } from "@/lib/errors";
import { prolificClientFor, prolificTokenStatus, revokeProlificToken, storeProlificToken } from "@/lib/recruitment/prolific/tokens";
import { createProlificDraft, getProlificStudyView, transitionProlificStudy } from "@/lib/recruitment/prolific/study";
import { queueProlificSyncs, receiveProlificHook, syncProlificStudy } from "@/lib/recruitment/prolific/sync";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { workUntilIdle } from "@/lib/jobs/worker";
import { confirmBatch, previewBatch } from "@/lib/recruitment/prolific/batches";
import { prolificCompensation } from "@/lib/recruitment/prolific/compensation";
import { compensationFacts, PROLIFIC_COMPENSATION_SOURCE } from "@/lib/report/compensation";
import { studyReport } from "@/lib/report/facts";
import { ProlificClient } from "@/lib/recruitment/prolific/client";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";
import { startProlificStandIn, type ProlificStandIn } from "@/tests/stand-ins/prolific-server";

/**
 * Recruitment through Prolific end to end through lib/ (docs/prolific.md), against the stand-in of
 * Prolific's API (tests/stand-ins/prolific-server.ts) on a loopback port, and a loopback server
 * that hands hook requests to the receiver as the route does: a token stored and revoked, a draft
 * made from the study and published, three participants through the link (one returns on
 * Prolific, one fails the attention checks), then approve, reject and bonus by the rules, with a
 * preview and one confirm each.
 */

const RIGHT = [1, 2, 0];
const WRONG = [0, 1, 2];
const REJECT_MESSAGE =
  "Your submission failed the study's attention checks: the answers to the check items were wrong, as the study's instructions described before you started.";

let standIn: ProlificStandIn;
let hookServer: Server;
let hookUrl: string;

beforeAll(async () => {
  standIn = await startProlificStandIn();
  process.env.PROLIFIC_API_URL = standIn.url;
  // the hook receiver as the route runs it: the raw body and the headers
  hookServer = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers(Object.entries(request.headers).map(([k, v]) => [k, String(v)]) as Array<[string, string]>);
    try {
      const result = await receiveProlificHook(headers, Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result));
    } catch (error) {
      response.writeHead(isAppError(error) && error.code === "UNAUTHORIZED" ? 401 : 500).end(error instanceof Error ? error.message : "");
    }
  });
  await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}`;
  process.env.PROLIFIC_APP_URL = hookUrl;
});

afterAll(async () => {
  await standIn.close();
  await new Promise((resolve) => hookServer.close(resolve));
  await stopBoss();
  await disconnectDb();
});

async function errorOf(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return error as { code: string; message: string };
}

/** A study with an entry link, completion codes for "completed" and "excluded", 4 ordinary and 2 gold items, 3 answers per item, excluded at the first failed gold item. */
async function prolificReadyStudy(ownerId: string) {
  const study = await createStudy({ overlap: 3, createdById: ownerId });
  await db.study.update({
    where: { id: study.id },
    data: {
      entryToken: newEntryToken(),
      completionCode: "C1DONE",
      endings: { excluded: { code: "C1EXCL", redirectUrl: null } },
      goldRate: 0.34,
      goldFailLimit: 1,
    },
  });
  await createEnactItems(study.id, { count: 4, prefix: "o" });
  const gold = await createEnactItems(study.id, { count: 2, prefix: "g" });
  await db.item.updateMany({ where: { id: { in: gold.map((i) => i.id) } }, data: { gold: true } });
  return db.study.findUniqueOrThrow({ where: { id: study.id } });
}

/** Answers the participant's queue: right, except gold items when `failGold`; `stopAfter` leaves the rest open. */
async function work(studyId: string, slug: string, userId: string, options: { failGold?: boolean; stopAfter?: number } = {}) {
  for (let n = 0; n < 20; n++) {
    if (options.stopAfter !== undefined && n >= options.stopAfter) {
      await nextAssignment(studyId, userId); // one item on screen, left open
      return;
    }
    const next = await nextAssignment(studyId, userId);
    if (next.status !== "assigned") break;
    const row = await db.assignment.findUniqueOrThrow({ where: { id: next.assignmentId }, select: { item: { select: { gold: true } } } });
    const order = row.item.gold && options.failGold ? WRONG : RIGHT;
    await submitResponse(userId, {
      assignmentId: next.assignmentId,
      clientId: randomUUID(),
      answer: { order },
      confidence: 3,
      wallMs: 90_000,
      activeMs: 80_000,
      submitSeq: 0,
    });
  }
  await nextForMember(slug, userId);
}

describe("the Prolific token", () => {
  beforeEach(resetDatabase);

  it("is stored encrypted, shown by its last four characters only, replaced, revoked, and every step audited", async () => {
    const researcher = await createUser("RESEARCHER");
    const token = `tok_${randomBytes(20).toString("hex")}`;
    const view = await storeProlificToken(researcher.id, { token });
    expect(view).toMatchObject({ stored: true, last4: token.slice(-4) });
    expect(JSON.stringify(view)).not.toContain(token.slice(0, 20));
    const row = await db.prolificToken.findFirstOrThrow({ where: { userId: researcher.id } });
    expect(row.ciphertext).not.toContain(token);
    expect(row.ciphertext).not.toContain(Buffer.from(token).toString("base64").slice(0, 16));

    await storeProlificToken(researcher.id, { token: `${token}zz` });
    expect(await db.prolificToken.count({ where: { userId: researcher.id, revokedAt: null } })).toBe(1);
    expect((await prolificTokenStatus(researcher.id)).last4).toBe(`${token}zz`.slice(-4));

    await revokeProlificToken(researcher.id);
    expect(await prolificTokenStatus(researcher.id)).toMatchObject({ stored: false, last4: null });
    expect((await errorOf(revokeProlificToken(researcher.id))).code).toBe("NOT_FOUND");
    expect((await errorOf(prolificClientFor(researcher.id, null, researcher.id))).message).toMatch(/Store your Prolific API token/);

    const actions = (await db.auditLog.findMany({ where: { target: `user:${researcher.id}` }, orderBy: { id: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["prolific.token.store", "prolific.token.store", "prolific.token.revoke"]);
    expect(JSON.stringify(await db.auditLog.findMany({ select: { detail: true } }))).not.toContain(token);
  });

  it("refuses a malformed token, naming the field, and stores nothing", async () => {
    const researcher = await createUser("RESEARCHER");
    const error = await errorOf(storeProlificToken(researcher.id, { token: "short" }));
    expect(JSON.stringify(error)).toMatch(/token/);
    expect(await db.prolificToken.count()).toBe(0);
  });
});

describe("the Prolific client", () => {
  it("retries a GET past a 503, shows Prolific's error in words, and never retries a pay request", async () => {
    const calls: Array<{ path: string; ok: boolean; attempts: number }> = [];
    const client = new ProlificClient({ token: standIn.token, baseUrl: standIn.url, onCall: (c) => void calls.push(c) });
    const created = await client.createStudy({
      name: "x",
      description: "a study",
      external_study_url: "https://example.test/join/t?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
      prolific_id_option: "url_parameters",
      completion_codes: [{ code: "A", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
      total_available_places: 1,
      estimated_completion_time: 1,
      reward: 10,
    });
    standIn.failNext.set(`GET /studies/${created.id}/`, 503);
    expect((await client.getStudy(created.id)).status).toBe("UNPUBLISHED");
    expect(calls.at(-1)).toMatchObject({ ok: true, attempts: 2 });

    const refused = await errorOf(client.transitionStudy(created.id, "PAUSE"));
    expect(refused.message).toBe(`Prolific refused the study's PAUSE (400): Bad request: Cannot PAUSE a study that is UNPUBLISHED.`);

    standIn.failNext.set("POST /bulk-bonus-payments/000000000000000000000000/pay/", 503);
    const payments = standIn.requests.length;
    await errorOf(client.payBonuses("000000000000000000000000"));
    expect(standIn.requests.length - payments).toBe(1);
    expect(calls.at(-1)).toMatchObject({ ok: false, attempts: 1 });

    const bad = new ProlificClient({ token: "wrong-token", baseUrl: standIn.url, retries: 0 });
    expect((await errorOf(bad.getStudy(created.id))).message).toBe("Prolific refused reading the study (401): Unauthorized: Invalid token.");
  });
});

describe("a study recruited on Prolific", () => {
  beforeEach(resetDatabase);

  it("drafts, publishes, syncs (a return frees the place), approves, rejects and bonuses by the rules, each batch once", async () => {
    const owner = await createUser("RESEARCHER");
    const colleague = await createUser("RESEARCHER");
    const study = await prolificReadyStudy(owner.id);
    await storeProlificToken(owner.id, { token: standIn.token });

    // only the owner spends money
    const notOwner = await errorOf(
      createProlificDraft(study.slug, { description: "Order the steps of household tasks.", hourlyRate: 1200, estimatedMinutes: 9 }, colleague.id),
    );
    expect(notOwner.code).toBe("FORBIDDEN");

    // the draft: no pilot yet, so the researcher's minutes; places from the planner (6 items x 3 / 6 per person)
    const drafted = await createProlificDraft(
      study.slug,
      { description: "Order the steps of household tasks.", hourlyRate: 1200, estimatedMinutes: 9 },
      owner.id,
    );
    expect(drafted.prolific).toMatchObject({ status: "UNPUBLISHED", reward: 180, estimatedMinutes: 9, timeSource: "researcher", places: 3 });
    const remote = standIn.studies.get(drafted.prolific!.prolificId)!;
    expect(remote.body).toMatchObject({
      external_study_url: `${hookUrl}/join/${study.entryToken}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
      total_available_places: 3,
      reward: 180,
      estimated_completion_time: 9,
      completion_codes: [
        { code: "C1DONE", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] },
        { code: "C1EXCL", code_type: "FAILED_ATTENTION_CHECK", actions: [{ action: "MANUALLY_REVIEW" }] },
      ],
    });
    expect((await errorOf(createProlificDraft(study.slug, { description: "again and again", hourlyRate: 1200, estimatedMinutes: 9 }, owner.id))).code).toBe(
      "CONFLICT",
    );

    const published = await transitionProlificStudy(study.slug, "PUBLISH", owner.id);
    expect(published.prolific).toMatchObject({ status: "ACTIVE", hooked: true });
    expect(standIn.subscriptions).toEqual([expect.objectContaining({ target_url: `${hookUrl}/api/prolific/hooks`, confirmed: true })]);
    const prolificId = remote.id;

    // three participants come through the link from Prolific
    const people = [0, 1, 2].map(() => randomBytes(12).toString("hex"));
    const submissions = people.map((pid) => standIn.addSubmission(prolificId, pid));
    const users = [];
    for (const [i, pid] of people.entries())
      users.push(await enterByLink(study.entryToken!, { PROLIFIC_PID: pid, STUDY_ID: prolificId, SESSION_ID: submissions[i].id }, "192.0.2.1"));
    await work(study.id, study.slug, users[0].id);
    await work(study.id, study.slug, users[1].id, { failGold: true });
    await work(study.id, study.slug, users[2].id, { stopAfter: 1 });
    const standing = async (userId: string) => (await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId } } })).status;
    expect(await standing(users[0].id)).toBe("COMPLETE");
    expect(await standing(users[1].id)).toBe("EXCLUDED");
    expect(await standing(users[2].id)).toBe("ACTIVE");
    const openBefore = await db.assignment.count({ where: { userId: users[2].id, status: { in: ["ASSIGNED", "STARTED"] } } });
    expect(openBefore).toBeGreaterThan(0);

    standIn.setStatus(submissions[0].id, "AWAITING REVIEW");
    standIn.setStatus(submissions[1].id, "AWAITING REVIEW");
    standIn.setStatus(submissions[2].id, "RETURNED");
    const synced = await syncProlificStudy(study.id, owner.id);
    expect(synced).toMatchObject({ submissions: 3, freed: 1, status: "ACTIVE" });
    expect(await standing(users[2].id)).toBe("RETURNED");
    expect(await db.assignment.count({ where: { userId: users[2].id, status: { in: ["ASSIGNED", "STARTED"] } } })).toBe(0);
    expect(await db.prolificSubmission.findUniqueOrThrow({ where: { id: submissions[2].id } })).toMatchObject({ status: "RETURNED", userId: users[2].id });
    // a second sync frees nothing again
    expect((await syncProlificStudy(study.id, owner.id)).freed).toBe(0);

    // approve by the rules: the one who completed, not the excluded one
    const approve = await previewBatch(study.slug, { action: "approve" }, owner.id);
    expect(approve.rows).toEqual([expect.objectContaining({ submissionId: submissions[0].id, participantId: people[0], userId: users[0].id })]);
    expect((await errorOf(confirmBatch(study.slug, { batchId: approve.id }, colleague.id))).code).toBe("FORBIDDEN");
    expect(standIn.submissions.get(submissions[0].id)!.status).toBe("AWAITING REVIEW"); // a preview calls nothing
    expect((await confirmBatch(study.slug, { batchId: approve.id }, owner.id)).state).toBe("DONE");
    expect(standIn.submissions.get(submissions[0].id)!.status).toBe("APPROVED");

    // reject by the rules: the excluded one, with the category and message
    const tooShort = await errorOf(previewBatch(study.slug, { action: "reject", category: "FAILED_CHECK", message: "Failed." }, owner.id));
    expect(JSON.stringify(tooShort)).toMatch(/at least 100 characters/);
    const reject = await previewBatch(study.slug, { action: "reject", category: "FAILED_CHECK", message: REJECT_MESSAGE }, owner.id);
    expect(reject.rows.map((r) => r.participantId)).toEqual([people[1]]);
    expect(reject.rows[0].reason).toMatch(/failed 1 of/);
    await confirmBatch(study.slug, { batchId: reject.id }, owner.id);
    expect(standIn.submissions.get(submissions[1].id)).toMatchObject({ status: "REJECTED", rejection: { category: "FAILED_CHECK", message: REJECT_MESSAGE } });

    // bonus: 5 pence per correct answer, to the approved participant only; confirmed twice, paid once
    const bonus = await previewBatch(study.slug, { action: "bonus", perCorrect: 5 }, owner.id);
    const correct = await db.response.count({ where: { assignment: { userId: users[0].id, item: { gold: false } }, correct: true } });
    expect(correct).toBe(4);
    expect(bonus.rows).toEqual([expect.objectContaining({ participantId: people[0], amount: 20 })]);
    expect(bonus.totalAmount).toBe(20);
    const [first, second] = await Promise.allSettled([
      confirmBatch(study.slug, { batchId: bonus.id }, owner.id),
      confirmBatch(study.slug, { batchId: bonus.id }, owner.id),
    ]);
    expect([first.status, second.status]).toContain("fulfilled");
    const again = await confirmBatch(study.slug, { batchId: bonus.id }, owner.id);
    expect(again.state).toBe("DONE");
    expect(standIn.payments).toEqual([{ bulkId: expect.any(String), total_amount: 20 }]);
    expect([...standIn.setups.values()][0].lines).toEqual([{ participant: people[0], amount: 20 }]);
    // a new bonus batch leaves out who was paid
    expect((await previewBatch(study.slug, { action: "bonus", perCorrect: 5 }, owner.id)).rows).toEqual([]);

    // every Prolific call is in the study's audit log
    const calls = await db.auditLog.findMany({ where: { target: `study:${study.id}`, action: "prolific.call" } });
    const paths = calls.map((c) => `${(c.detail as { method: string }).method} ${(c.detail as { path: string }).path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        "POST studies/",
        `POST studies/${prolificId}/transition/`,
        "POST hooks/subscriptions/",
        "POST submissions/bulk-approve/",
        `POST submissions/${submissions[1].id}/transition/`,
        "POST submissions/bonus-payments/",
      ]),
    );
    expect(paths.filter((p) => p.endsWith("/pay/"))).toHaveLength(1);
    expect(JSON.stringify(calls.map((c) => c.detail))).not.toContain(standIn.token);

    // what the report's compensation reads
    expect(await prolificCompensation(study.id)).toMatchObject({
      reward: 180,
      estimatedMinutes: 9,
      timeSource: "researcher",
      hourlyRate: 1200,
      places: 3,
      submissions: 3,
      approved: 1,
      rejected: 1,
      returned: 1,
      bonuses: { participants: 1, total: 20, perParticipant: [{ participantId: people[0], amount: 20 }], rules: [{ perCorrect: 5 }] },
    });
    // and the report's pay entries are filled from it
    expect(await compensationFacts(study.id)).toEqual({
      source: PROLIFIC_COMPENSATION_SOURCE,
      rewardPerPerson: 1.8,
      currency: null,
      bonusRule: "0.05 per correct answer",
      bonusTotal: 0.2,
      estimatedMinutes: 9,
      notReported: null,
    });
    const report = await studyReport(study.slug);
    const entry = (number: string) => report.entries.find((e) => e.number === number)!;
    expect(entry("2.7.1")).toMatchObject({ value: "1.80 per person for an estimated 9 min", source: PROLIFIC_COMPENSATION_SOURCE });
    expect(entry("2.7.2.1")).toMatchObject({ value: "0.20 in total", reported: true });

    // pause, start, stop
    expect((await transitionProlificStudy(study.slug, "PAUSE", owner.id)).prolific?.status).toBe("PAUSED");
    expect((await transitionProlificStudy(study.slug, "START", owner.id)).prolific?.status).toBe("ACTIVE");
    expect((await transitionProlificStudy(study.slug, "STOP", owner.id)).prolific?.status).toBe("AWAITING REVIEW");
    const view = await getProlificStudyView(study.slug, colleague.id);
    expect(view).toMatchObject({ isOwner: false, ownerHasToken: true, token: { stored: false } });
  });

  it("takes the time from the pilot's median when participants have completed", async () => {
    const owner = await createUser("RESEARCHER");
    const study = await prolificReadyStudy(owner.id);
    await storeProlificToken(owner.id, { token: standIn.token });
    // one who answered an item and left it there (not completed) does not count
    const unfinished = await createUser("ANNOTATOR");
    await addMember(study.id, unfinished.id);
    await work(study.id, study.slug, unfinished.id, { stopAfter: 1 });
    const sums: number[] = [];
    for (let i = 0; i < 3; i++) {
      const person = await createUser("ANNOTATOR");
      await addMember(study.id, person.id);
      await work(study.id, study.slug, person.id);
      const answers = await db.response.findMany({
        where: { assignment: { studyId: study.id, userId: person.id, purpose: { not: "PRACTICE" } } },
        select: { wallMs: true },
      });
      sums.push(answers.reduce((sum, a) => sum + a.wallMs, 0));
    }
    // each answer took 90 s: the middle of the three completed participants' sums, in whole minutes
    const minutes = Math.ceil([...sums].sort((a, b) => a - b)[1] / 60_000);
    expect(minutes).toBeGreaterThanOrEqual(6);
    const drafted = await createProlificDraft(study.slug, { description: "Order the steps of household tasks.", hourlyRate: 1000 }, owner.id);
    expect(drafted.prolific).toMatchObject({ estimatedMinutes: minutes, timeSource: "pilot", timeSampleSize: 3, reward: Math.ceil((1000 * minutes) / 60) });
  });

  it("applies a signed hook at once, and refuses a wrongly signed or stale one, changing nothing", async () => {
    const owner = await createUser("RESEARCHER");
    const study = await prolificReadyStudy(owner.id);
    await storeProlificToken(owner.id, { token: standIn.token });
    const drafted = await createProlificDraft(
      study.slug,
      { description: "Order the steps of household tasks.", hourlyRate: 1200, estimatedMinutes: 9 },
      owner.id,
    );
    await transitionProlificStudy(study.slug, "PUBLISH", owner.id);
    const prolificId = drafted.prolific!.prolificId;
    const pid = randomBytes(12).toString("hex");
    const submission = standIn.addSubmission(prolificId, pid);
    const user = await enterByLink(study.entryToken!, { PROLIFIC_PID: pid, STUDY_ID: prolificId, SESSION_ID: submission.id }, "192.0.2.1");
    await work(study.id, study.slug, user.id, { stopAfter: 1 });
    await syncProlificStudy(study.id, owner.id);

    standIn.setStatus(submission.id, "TIMED-OUT");
    const forged = await standIn.sendHook(submission.id, { secret: "not-the-secret" });
    expect(forged.status).toBe(401);
    const stale = await standIn.sendHook(submission.id, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    expect((await db.prolificSubmission.findUniqueOrThrow({ where: { id: submission.id } })).status).toBe("ACTIVE");
    expect((await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: user.id } } })).status).toBe("ACTIVE");
    expect(await db.auditLog.count({ where: { action: "prolific.hook.refused" } })).toBe(2);

    const signed = await standIn.sendHook(submission.id);
    expect(signed.status).toBe(200);
    expect(await signed.json()).toEqual({ applied: true, freed: true });
    expect((await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: user.id } } })).status).toBe("TIMED_OUT");
    expect(await db.assignment.count({ where: { userId: user.id, status: { in: ["ASSIGNED", "STARTED"] } } })).toBe(0);
  });

  it("is polled by the job queue: one sync job per published study and time slot, which frees a returned participant's place", async () => {
    await resetJobQueue();
    const owner = await createUser("RESEARCHER");
    const study = await prolificReadyStudy(owner.id);
    await storeProlificToken(owner.id, { token: standIn.token });
    const drafted = await createProlificDraft(
      study.slug,
      { description: "Order the steps of household tasks.", hourlyRate: 1200, estimatedMinutes: 9 },
      owner.id,
    );
    const unpublished = await prolificReadyStudy(owner.id);
    await createProlificDraft(unpublished.slug, { description: "A draft nobody published.", hourlyRate: 1200, estimatedMinutes: 9 }, owner.id);
    await transitionProlificStudy(study.slug, "PUBLISH", owner.id);
    const pid = randomBytes(12).toString("hex");
    const submission = standIn.addSubmission(drafted.prolific!.prolificId, pid);
    const user = await enterByLink(study.entryToken!, { PROLIFIC_PID: pid, STUDY_ID: drafted.prolific!.prolificId, SESSION_ID: submission.id }, "192.0.2.1");
    await work(study.id, study.slug, user.id, { stopAfter: 1 });
    standIn.setStatus(submission.id, "RETURNED");

    const now = Date.now();
    expect(await queueProlificSyncs(now)).toBe(1); // the published study only
    expect(await queueProlificSyncs(now)).toBe(0); // the same slot: queued once
    expect(await workUntilIdle({ queues: [QUEUES.prolificSync.name] })).toBe(1);
    expect((await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: user.id } } })).status).toBe("RETURNED");
    expect((await db.prolificStudy.findUniqueOrThrow({ where: { studyId: study.id } })).lastSyncAt).not.toBeNull();
  });
});
