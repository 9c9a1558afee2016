import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { toResponse } from "@/lib/errors";
import { authOptions } from "@/lib/auth";
import { answerSignInRefusals } from "@/lib/auth/sign-in-refusals";
import { addStudyMembers, listMemberCandidates } from "@/lib/studies/members";
import { assignItemsTo, nextAssignment } from "@/lib/assignment";
import { newEntryToken } from "@/lib/studies/settings";
import { createInvite, enterByCredentials, enterByInvite, enterByLink, LINK_THROTTLE, openPlaces, previewEntry } from "@/lib/studies/entry";
import { createAgent } from "@/lib/participants/agents";
import { createReviewers, newReviewStudy, twoStudiesSharingABatch } from "@/lib/review/testing/fixtures";
import { createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Accounts and study entry: who a study link or an invite can sign in as, how many
 * accounts and places a public link can take, and who may enter a study whose items they reviewed
 * with the key (SECURITY.md, "Study entry").
 */

const PID = "5f4c1e8a9b2d3c4e5f6a7b8c";
const STUDY = "60aa11bb22cc33dd44ee55ff";
const SESSION = "61ab12bc23cd34de45ef5600";
const prolific = (extra: Record<string, string> = {}) => ({ PROLIFIC_PID: PID, STUDY_ID: STUDY, SESSION_ID: SESSION, ...extra });

async function linkedStudy(options: { items?: number; overlap?: number; prefix?: string } = {}) {
  const study = await createStudy({ overlap: options.overlap ?? 1 });
  const entryToken = newEntryToken();
  await db.study.update({ where: { id: study.id }, data: { entryToken } });
  if ((options.items ?? 3) > 0) await createEnactItems(study.id, { count: options.items ?? 3, prefix: options.prefix });
  return { ...study, entryToken };
}

type Authorize = (credentials: Record<string, string>, request: { headers: Record<string, string> }) => Promise<unknown>;
/** the study-link provider's authorize(), called as next-auth's callback route does: a throw becomes a 401 whose URL carries the message */
function nextAuthCallback(credentials: Record<string, string>, address: string): () => Promise<Response> {
  // next-auth keeps a credentials provider's configured id and authorize() under `options`
  const provider = (authOptions.providers as unknown as Array<{ options: { id?: string; authorize: Authorize } }>).find(
    (candidate) => candidate.options.id === "study-link",
  )!;
  return async () => {
    try {
      await provider.options.authorize(credentials, { headers: { "x-forwarded-for": address } });
      return Response.json({ url: "http://localhost:3000/s/study" });
    } catch (error) {
      return Response.json({ url: `http://localhost:3000/api/auth/error?error=${encodeURIComponent((error as Error).message)}` }, { status: 401 });
    }
  };
}

let addressCounter = 0;
/** a fresh client address per call, so that tests of other limits do not meet the per-address one */
const anywhere = () => `198.18.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

describe("invites (High: a researcher could sign in as any annotator)", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("never attaches an invite to an existing account: an existing user's email or id is refused and nothing is written", async () => {
    const researcher = await createUser("RESEARCHER");
    const annotator = await createUser("ANNOTATOR", { email: "ann@example.org", name: "Ann" });
    const other = await linkedStudy();
    await db.studyMember.create({ data: { studyId: other.id, userId: annotator.id } });
    const study = await linkedStudy();
    await expect(createInvite(study.slug, { name: "Ann", email: "ann@example.org" } as never, researcher.id)).rejects.toMatchObject({ code: "INVALID" });
    await expect(createInvite(study.slug, { userId: annotator.id } as never, researcher.id)).rejects.toMatchObject({ code: "INVALID" });
    expect(await db.studyInvite.count()).toBe(0);
    expect(await db.studyMember.count({ where: { studyId: study.id } })).toBe(0);
    expect(await db.user.count()).toBe(2);
    // an invite made before the fix for the existing account no longer signs anyone in
    await db.studyInvite.create({ data: { token: "an-old-invite-token-0001", studyId: study.id, userId: annotator.id } });
    await expect(enterByInvite("an-old-invite-token-0001")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(enterByCredentials({ invite: "an-old-invite-token-0001" }, anywhere())).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("makes a new passwordless participant account that belongs to the study, and signs in only that one", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await linkedStudy();
    const invite = await createInvite(study.slug, { name: "x" }, researcher.id);
    const user = await db.user.findUniqueOrThrow({ where: { id: invite.userId } });
    expect(user).toMatchObject({ role: "ANNOTATOR", passwordHash: null, email: null, externalSource: "invite", externalStudyId: study.id });
    expect(await enterByInvite(invite.token)).toMatchObject({ id: user.id, slug: study.slug });
    // two invites with the same name are two people
    const second = await createInvite(study.slug, { name: "x" }, researcher.id);
    expect(second.userId).not.toBe(user.id);
  });
});

describe("public links (Medium: takeover by PROLIFIC_PID alone)", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("requires Prolific's STUDY_ID and SESSION_ID, and refuses a changed STUDY_ID", async () => {
    const study = await linkedStudy();
    const first = await enterByLink(study.entryToken, prolific(), anywhere());
    await expect(enterByLink(study.entryToken, { PROLIFIC_PID: PID }, anywhere())).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringMatching(/STUDY_ID: missing.*SESSION_ID: missing/),
    });
    await expect(previewEntry(study.entryToken, { PROLIFIC_PID: PID })).rejects.toMatchObject({ code: "INVALID" });
    await expect(enterByLink(study.entryToken, { PROLIFIC_PID: PID, STUDY_ID: STUDY }, anywhere())).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("SESSION_ID: missing"),
    });
    await expect(enterByLink(study.entryToken, prolific({ STUDY_ID: "70aa11bb22cc33dd44ee55ff" }), anywhere())).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await enterByLink(study.entryToken, prolific(), anywhere())).toMatchObject({ id: first.id });
  });

  it("resumes a Prolific participant only with a SESSION_ID they entered with: a stranger holding the PID and the public link gets nothing", async () => {
    const study = await linkedStudy();
    const first = await enterByLink(study.entryToken, prolific(), anywhere());
    // the real person on a new device: Prolific's link carries the same SESSION_ID
    expect(await enterByLink(study.entryToken, prolific(), anywhere())).toMatchObject({ id: first.id, created: false });
    await expect(previewEntry(study.entryToken, prolific())).resolves.toMatchObject({ returning: true });
    // a stranger with the PID and the public link, and a session id of their own
    const stranger = prolific({ SESSION_ID: "71bc23cd34de45ef56f06711" });
    await expect(enterByLink(study.entryToken, stranger, anywhere())).rejects.toMatchObject({ code: "FORBIDDEN", details: { reason: "other-session" } });
    await expect(previewEntry(study.entryToken, stranger)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(toResponse(await enterByLink(study.entryToken, stranger, anywhere()).catch((error: unknown) => error)).status).toBe(403);
    const member = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: first.id } } });
    expect(JSON.stringify(member.entrySession)).not.toContain("71bc23cd34de45ef56f06711");
    // a member from before SESSION_ID was required (none stored) resumes and has it stored from then on
    await db.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: first.id } }, data: { entrySession: { source: "prolific" } } });
    expect(await enterByLink(study.entryToken, prolific(), anywhere())).toMatchObject({ id: first.id });
    await expect(enterByLink(study.entryToken, stranger, anywhere())).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("gives the same PID another study's link a separate account, which reaches nothing of the first study", async () => {
    const a = await linkedStudy();
    const b = await linkedStudy();
    const inA = await enterByLink(a.entryToken, prolific(), anywhere());
    const inB = await enterByLink(b.entryToken, prolific(), anywhere());
    expect(inB.id).not.toBe(inA.id);
    expect(await db.user.findUniqueOrThrow({ where: { id: inA.id } })).toMatchObject({ externalStudyId: a.id });
    expect(await db.user.findUniqueOrThrow({ where: { id: inB.id } })).toMatchObject({ externalStudyId: b.id });
    expect(await db.studyMember.findMany({ where: { userId: inB.id }, select: { studyId: true } })).toEqual([{ studyId: b.id }]);
    // nor does an admin move a link account into another study
    const admin = await createUser("ADMIN");
    await expect(addStudyMembers(b.slug, [inA.id], admin)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("participant account of another study"),
    });
    expect((await listMemberCandidates(b.slug)).map((u) => u.id)).not.toContain(inA.id);
    // the generic pid likewise
    const genericA = await enterByLink(a.entryToken, { pid: "lab-007" }, anywhere());
    const genericB = await enterByLink(b.entryToken, { pid: "lab-007" }, anywhere());
    expect(genericB.id).not.toBe(genericA.id);
  });
});

describe("public links (Medium: filling a study, unlimited accounts)", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("creates nothing when it refuses: closed, paused or full study", async () => {
    const study = await linkedStudy({ items: 1 });
    for (const status of ["CLOSED", "PAUSED", "DRAFT"] as const) {
      await db.study.update({ where: { id: study.id }, data: { status } });
      await expect(enterByLink(study.entryToken, { pid: `refused-${status}` }, anywhere())).rejects.toMatchObject({ code: "CONFLICT" });
    }
    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
    const inside = await enterByLink(study.entryToken, { pid: "inside" }, anywhere());
    expect(await nextAssignment(study.id, inside.id)).toMatchObject({ status: "assigned" });
    await expect(enterByLink(study.entryToken, { pid: "too-late" }, anywhere())).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("is full"),
    });
    expect((await db.user.findMany({ select: { externalId: true } })).map((u) => u.externalId)).toEqual(["inside"]);
  });

  it("limits link sign-ins per client address, in PostgreSQL", async () => {
    const study = await linkedStudy({ items: 200 });
    const address = "203.0.113.50";
    for (let i = 0; i < LINK_THROTTLE.maxPerAddress; i++) await enterByLink(study.entryToken, { pid: `p${i}` }, address);
    const refusal = await enterByLink(study.entryToken, { pid: "one-more" }, address).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "RATE_LIMITED", message: expect.stringContaining("Too many sign-ins") });
    expect(await db.user.count({ where: { externalId: "one-more" } })).toBe(0);
    // as an HTTP reply: 429 Too Many Requests with Retry-After (the rest of the window), not 409
    const reply = toResponse(refusal);
    expect(reply.status).toBe(429);
    const retryAfter = Number(reply.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(LINK_THROTTLE.windowMs / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(LINK_THROTTLE.windowMs / 1000);
    expect(await reply.json()).toMatchObject({ details: { reason: "rate-limited" } });
    // through next-auth's credentials too, and other addresses are not affected
    await expect(enterByCredentials({ entryToken: study.entryToken, query: "pid=one-more" }, address)).rejects.toMatchObject({
      message: expect.stringContaining("Too many sign-ins"),
    });
    await expect(enterByCredentials({ entryToken: study.entryToken, query: "pid=one-more" }, "203.0.113.51")).resolves.toMatchObject({ created: true });
    expect(await db.loginThrottle.findUnique({ where: { key: `link-ip:${address}` } })).toMatchObject({ failures: LINK_THROTTLE.maxPerAddress + 2 });
  });

  it("answers a rate-limited sign-in through next-auth's study-link callback 429 with Retry-After, and other refusals with their own status", async () => {
    const study = await linkedStudy({ items: 200 });
    const address = "203.0.113.60";
    await db.loginThrottle.create({ data: { key: `link-ip:${address}`, failures: LINK_THROTTLE.maxPerAddress, windowStart: new Date() } });
    const limited = await answerSignInRefusals(nextAuthCallback({ entryToken: study.entryToken, query: "pid=one-more" }, address));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await limited.json()) as { url: string; reason: string };
    expect(body.reason).toBe("rate-limited");
    // next-auth's client reads the refusal's words from the URL, as for any other refusal
    expect(new URL(body.url).searchParams.get("error")).toContain("Too many sign-ins");
    // another refusal keeps next-auth's 401, and a sign-in that works its own answer
    await db.study.update({ where: { id: study.id }, data: { status: "PAUSED" } });
    expect((await answerSignInRefusals(nextAuthCallback({ entryToken: study.entryToken, query: "pid=newcomer" }, anywhere()))).status).toBe(401);
    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
    const signedIn = await answerSignInRefusals(nextAuthCallback({ entryToken: study.entryToken, query: "pid=newcomer" }, anywhere()));
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("retry-after")).toBeNull();
  });

  it("limits new participants per study and window", async () => {
    const study = await linkedStudy({ items: 300 });
    await db.loginThrottle.create({ data: { key: `link-study:${study.id}`, failures: LINK_THROTTLE.maxNewPerStudy - 1, windowStart: new Date() } });
    await enterByLink(study.entryToken, { pid: "last-one" }, anywhere());
    const refusal = await enterByLink(study.entryToken, { pid: "flood" }, anywhere()).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "RATE_LIMITED", message: expect.stringContaining("Too many new participants") });
    const reply = toResponse(refusal);
    expect(reply.status).toBe(429);
    expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await reply.json()).toMatchObject({ details: { reason: "rate-limited" } });
    expect(await db.user.count({ where: { externalId: "flood" } })).toBe(0);
    // a participant who is inside already is not a newcomer: they resume
    await expect(enterByLink(study.entryToken, { pid: "last-one" }, anywhere())).resolves.toMatchObject({ created: false });
  });

  it("leaves a place an agent played to people: agents answer beside them, never in their place", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await linkedStudy({ items: 1 });
    const { agent } = await createAgent(study.slug, { name: "bot", model: "m", notes: "", expiresInDays: 30 }, researcher.id);
    expect(await nextAssignment(study.id, agent.id)).toMatchObject({ status: "assigned" });
    expect(await openPlaces(study.id, 1)).toBe(1);
    await expect(previewEntry(study.entryToken, { pid: "person" })).resolves.toMatchObject({ returning: false });
    const person = await enterByLink(study.entryToken, { pid: "person" }, anywhere());
    expect(await nextAssignment(study.id, person.id)).toMatchObject({ status: "assigned" });
    expect(await openPlaces(study.id, 1)).toBe(0);
  });

  it("releases a place that was handed out but never started after the study's short first-item lease", async () => {
    const study = await linkedStudy({ items: 1 });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).firstItemLeaseSeconds).toBe(120);
    await db.study.update({ where: { id: study.id }, data: { firstItemLeaseSeconds: 30 } });
    const idle = await enterByLink(study.entryToken, { pid: "idle" }, anywhere());
    const served = await nextAssignment(study.id, idle.id);
    expect(served).toMatchObject({ status: "assigned" });
    const assignment = await db.assignment.findUniqueOrThrow({ where: { id: (served as { assignmentId: string }).assignmentId } });
    const lease = (assignment.leaseExpiresAt!.getTime() - assignment.createdAt.getTime()) / 1000;
    expect(lease).toBeGreaterThan(25);
    expect(lease).toBeLessThan(35);
    // serving it again does not stretch it to the full lease
    await db.assignment.update({ where: { id: assignment.id }, data: { leaseExpiresAt: new Date(Date.now() + 5_000) } });
    await nextAssignment(study.id, idle.id);
    const renewed = await db.assignment.findUniqueOrThrow({ where: { id: assignment.id } });
    expect(renewed.leaseExpiresAt!.getTime() - Date.now()).toBeLessThan(31_000);
    // once it has passed, the place is free for the next participant
    await db.assignment.update({ where: { id: assignment.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    expect(await openPlaces(study.id, 1)).toBe(1);
    const next = await enterByLink(study.entryToken, { pid: "next" }, anywhere());
    expect(await nextAssignment(study.id, next.id)).toMatchObject({ status: "assigned" });
  });
});

describe("reviewers (Low: a reviewer could later annotate the items they reviewed)", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("refuses a reviewer of a study's items at the members route, admin assignment and the study link", async () => {
    const admin = await createUser("ADMIN");
    const { studyA, studyB, batchA, itemsB } = await twoStudiesSharingABatch({ count: 2 });
    const [reviewer] = await createReviewers(1, "ANNOTATOR");
    await newReviewStudy({ batchIds: [batchA], reviewerIds: [reviewer.id] }, admin.id);
    // study B holds the same items: its members route and the admin's assignment refuse the reviewer
    await expect(addStudyMembers(studyB.slug, [reviewer.id], admin)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("reviewed"),
    });
    await expect(assignItemsTo(reviewer.id, [itemsB[0].id], "AGREEMENT")).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("reviewed"),
    });
    expect(await db.studyMember.count({ where: { userId: reviewer.id } })).toBe(0);
    expect(await db.assignment.count({ where: { userId: reviewer.id } })).toBe(0);
    void studyA;

    // a link participant of study C made a reviewer of those items, and the items imported into C afterwards
    const c = await linkedStudy({ items: 1 });
    const participant = await enterByLink(c.entryToken, { pid: "rev-1" }, anywhere());
    await db.reviewStudyReviewer.create({ data: { reviewStudyId: (await db.reviewStudy.findFirstOrThrow()).id, userId: participant.id } });
    await createEnactItems(c.id, { count: 1, prefix: itemsB[0].externalId.replace(/-enact-forward-0$/, "") });
    await expect(enterByLink(c.entryToken, { pid: "rev-1" }, anywhere())).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("reviewed"),
    });
  });
});
