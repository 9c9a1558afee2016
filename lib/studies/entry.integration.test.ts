import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { toResponse } from "@/lib/errors";
import { newEntryToken } from "@/lib/studies/settings";
import {
  createInvite,
  enterByCredentials,
  enterByInvite,
  enterByLink,
  listInvites,
  parseEntryParams,
  previewEntry,
  previewInvite,
  revokeInvite,
} from "@/lib/studies/entry";
import { withdrawFromStudy } from "@/lib/participants/participants";
import { createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

const PID = "5f4c1e8a9b2d3c4e5f6a7b8c";
const STUDY = "60aa11bb22cc33dd44ee55ff";
const SESSION = "61ab12bc23cd34de45ef5600";
const ADDRESS = "192.0.2.10";
const prolific = (extra: Record<string, string | string[]> = {}) => ({ PROLIFIC_PID: PID, STUDY_ID: STUDY, SESSION_ID: SESSION, ...extra });

async function linkedStudy(options: { items?: number; overlap?: number } = {}) {
  const study = await createStudy({ overlap: options.overlap ?? 1 });
  const entryToken = newEntryToken();
  await db.study.update({ where: { id: study.id }, data: { entryToken } });
  if ((options.items ?? 3) > 0) await createEnactItems(study.id, { count: options.items ?? 3 });
  return { ...study, entryToken };
}

/** The INVALID error's issues as "field: message". */
async function problemsOf(work: Promise<unknown>): Promise<string[]> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "INVALID" });
  return ((error as { details: { issues: Array<{ path: string; message: string }> } }).details.issues ?? []).map((i) => `${i.path}: ${i.message}`);
}

describe("the public study link", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("creates a passwordless annotator account for a Prolific id, stores the session fields, and resumes the same account the second time", async () => {
    const study = await linkedStudy();
    const preview = await previewEntry(study.entryToken, prolific());
    expect(preview).toMatchObject({ study: { slug: study.slug }, params: { source: "prolific", externalId: PID }, returning: false });
    expect(await db.user.count({ where: { externalId: PID } })).toBe(0); // the page only checks

    const first = await enterByLink(study.entryToken, prolific(), ADDRESS);
    expect(first).toMatchObject({ slug: study.slug, created: true, name: `Prolific ${PID}` });
    const user = await db.user.findUniqueOrThrow({ where: { id: first.id } });
    expect(user).toMatchObject({ role: "ANNOTATOR", passwordHash: null, email: null, externalSource: "prolific", externalId: PID });
    const member = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: first.id } } });
    expect(member.status).toBe("ACTIVE");
    expect(member.entrySession).toMatchObject({ STUDY_ID: STUDY, SESSION_ID: SESSION, source: "prolific" });

    // the same id again on another device, through Prolific's link (the same session): the same account
    const second = await enterByLink(study.entryToken, prolific(), ADDRESS);
    expect(second).toMatchObject({ id: first.id, created: false });
    expect(await db.user.count({ where: { externalId: PID } })).toBe(1);
    expect(await db.studyMember.count({ where: { studyId: study.id } })).toBe(1);
    const again = await db.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: study.id, userId: first.id } } });
    expect(again.entrySession).toMatchObject({ STUDY_ID: STUDY, SESSION_ID: SESSION, sessionIds: [SESSION] });
    // a session the participant never entered with is refused (lib/studies/entry-trust.integration.test.ts)
    await expect(enterByLink(study.entryToken, prolific({ SESSION_ID: "62ac13bd24ce35df46f05701" }), ADDRESS)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await previewEntry(study.entryToken, prolific())).returning).toBe(true);
  });

  it("never makes two accounts for one id, even for requests at the same moment", async () => {
    const study = await linkedStudy();
    const results = await Promise.all(Array.from({ length: 12 }, () => enterByLink(study.entryToken, prolific(), ADDRESS)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created).length).toBe(1);
    expect(await db.user.count({ where: { externalSource: "prolific", externalId: PID } })).toBe(1);
    expect(await db.studyMember.count({ where: { studyId: study.id } })).toBe(1);

    // the generic pid is a source of its own: "link"
    const generic = await Promise.all(Array.from({ length: 6 }, () => enterByLink(study.entryToken, { pid: "lab-007" }, ADDRESS)));
    expect(new Set(generic.map((r) => r.id)).size).toBe(1);
    expect(await db.user.findUniqueOrThrow({ where: { id: generic[0].id } })).toMatchObject({
      externalSource: "link",
      externalId: "lab-007",
      name: "Participant lab-007",
    });
  });

  it("refuses missing, malformed, duplicated, conflicting and unfilled fields with a message naming each field, and writes nothing", async () => {
    const study = await linkedStudy();
    expect(await problemsOf(enterByLink(study.entryToken, {}, ADDRESS))).toEqual([
      "PROLIFIC_PID: missing: the link needs a participant id (PROLIFIC_PID from Prolific, or pid)",
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, { STUDY_ID: STUDY, SESSION_ID: SESSION }, ADDRESS))).toEqual([
      "PROLIFIC_PID: missing (the link has STUDY_ID and SESSION_ID but no participant id)",
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, prolific({ PROLIFIC_PID: "5f4c1e8a9b2d3c4e5f6a7b8" }), ADDRESS))).toEqual([
      'PROLIFIC_PID: "5f4c1e8a9b2d3c4e5f6a7b8" is not a Prolific id (24 hexadecimal characters)',
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, prolific({ PROLIFIC_PID: "{{%PROLIFIC_PID%}}" }), ADDRESS))).toEqual([
      'PROLIFIC_PID: still holds the placeholder "{{%PROLIFIC_PID%}}": open the study from the recruitment platform, which fills it in',
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, prolific({ PROLIFIC_PID: [PID, "aaaaaaaaaaaaaaaaaaaaaaaa"] }), ADDRESS))).toEqual([
      "PROLIFIC_PID: given 2 times with different values",
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, prolific({ SESSION_ID: "x'; DROP TABLE" }), ADDRESS))).toEqual([
      'SESSION_ID: "x\'; DROP TABLE" is not a Prolific session id (24 hexadecimal characters)',
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, prolific({ pid: "someone-else" }), ADDRESS))).toEqual([
      "pid: differs from PROLIFIC_PID: a link names one participant",
    ]);
    expect(await problemsOf(enterByLink(study.entryToken, { pid: "" }, ADDRESS))).toEqual(["pid: is empty"]);
    expect(await db.user.count({ where: { externalId: { not: null } } })).toBe(0);
    expect(await db.studyMember.count()).toBe(0);

    // as an HTTP reply: 422 with the fields
    const reply = toResponse(await enterByLink(study.entryToken, {}, ADDRESS).catch((e: unknown) => e));
    expect(reply.status).toBe(422);
    expect(await reply.json()).toMatchObject({ details: { issues: [{ path: "PROLIFIC_PID" }] } });

    // a changed STUDY_ID for a participant who entered before: the link was edited
    await enterByLink(study.entryToken, prolific(), ADDRESS);
    await expect(enterByLink(study.entryToken, prolific({ STUDY_ID: "70aa11bb22cc33dd44ee55ff" }), ADDRESS)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`entered from Prolific study ${STUDY}`),
    });
  });

  it("says so when the link is unknown, the study is not open or full, and keeps withdrawn participants out", async () => {
    const study = await linkedStudy({ items: 1, overlap: 1 });
    await expect(enterByLink("no-such-token-at-all", prolific(), ADDRESS)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("No study behind this link"),
    });
    await db.study.update({ where: { id: study.id }, data: { status: "DRAFT" } });
    await expect(previewEntry(study.entryToken, prolific())).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("has not started yet"),
    });
    await db.study.update({ where: { id: study.id }, data: { status: "PAUSED" } });
    await expect(enterByLink(study.entryToken, prolific(), ADDRESS)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("paused") });
    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });

    // one item, k = 1: a participant holding it fills the study; a newcomer is told it is full
    const first = await enterByLink(study.entryToken, prolific(), ADDRESS);
    const [item] = await db.item.findMany({ where: { studyId: study.id } });
    await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: first.id, position: 0 } });
    await expect(enterByLink(study.entryToken, { pid: "newcomer" }, ADDRESS)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("is full"),
    });
    // ... while the one inside resumes, also in a paused study
    await db.study.update({ where: { id: study.id }, data: { status: "PAUSED" } });
    await expect(enterByLink(study.entryToken, prolific(), ADDRESS)).resolves.toMatchObject({ id: first.id });
    // a released place (returned participant, expired lease) is a place again
    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
    await db.assignment.updateMany({ where: { userId: first.id }, data: { status: "RELEASED" } });
    await expect(previewEntry(study.entryToken, { pid: "newcomer" })).resolves.toMatchObject({ returning: false });

    await withdrawFromStudy(study.slug, first.id);
    await expect(enterByLink(study.entryToken, prolific(), ADDRESS)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("You withdrew"),
    });
  });

  it("signs in through next-auth's credentials: the link's token and its query string", async () => {
    const study = await linkedStudy();
    const query = new URLSearchParams(prolific()).toString();
    const entered = await enterByCredentials({ entryToken: study.entryToken, query }, ADDRESS);
    expect(entered).toMatchObject({ slug: study.slug, created: true });
    await expect(enterByCredentials({ entryToken: study.entryToken, query: `${query}&PROLIFIC_PID=aaaaaaaaaaaaaaaaaaaaaaaa` }, ADDRESS)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("PROLIFIC_PID: given 2 times"),
    });
    await expect(enterByCredentials({}, ADDRESS)).rejects.toMatchObject({ code: "INVALID" });
    // a staff account is never signed in by a link, even if its external id matches
    await db.user.update({ where: { id: entered.id }, data: { role: "RESEARCHER" } });
    await expect(enterByCredentials({ entryToken: study.entryToken, query }, ADDRESS)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("parses a generic pid and lower-cases Prolific ids", () => {
    expect(parseEntryParams({ pid: "lab:7@site" })).toEqual({ source: "link", externalId: "lab:7@site", session: {} });
    expect(parseEntryParams({ PROLIFIC_PID: PID.toUpperCase(), STUDY_ID: STUDY, SESSION_ID: SESSION })).toEqual({
      source: "prolific",
      externalId: PID,
      session: { STUDY_ID: STUDY, SESSION_ID: SESSION },
    });
  });
});

describe("invite links", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("signs in the new participant it made as often as the link is opened, until it is revoked", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await linkedStudy();
    const invite = await createInvite(study.slug, { name: "Nadia Named" }, researcher.id);
    expect(invite).toMatchObject({ name: "Nadia Named", usedAt: null });
    expect(invite).not.toHaveProperty("email");
    const user = await db.user.findUniqueOrThrow({ where: { id: invite.userId } });
    expect(user).toMatchObject({ role: "ANNOTATOR", passwordHash: null, email: null, externalSource: "invite", externalStudyId: study.id });
    expect(await db.studyMember.count({ where: { studyId: study.id, userId: user.id } })).toBe(1);
    expect(await previewInvite(invite.token)).toMatchObject({ name: "Nadia Named", study: { slug: study.slug } });

    expect(await enterByInvite(invite.token)).toMatchObject({ id: user.id, slug: study.slug });
    const used = (await listInvites(study.slug))[0].usedAt;
    expect(used).not.toBeNull();
    expect(await enterByCredentials({ invite: invite.token }, ADDRESS)).toMatchObject({ id: user.id });
    expect((await listInvites(study.slug))[0].usedAt).toBe(used); // the first use is kept

    // the same name again is another person
    const again = await createInvite(study.slug, { name: "Nadia Named" }, researcher.id);
    expect(again.userId).not.toBe(user.id);

    await revokeInvite(study.slug, invite.id, researcher.id);
    await expect(enterByInvite(invite.token)).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("not valid") });
    await expect(createInvite(study.slug, { userId: researcher.id } as never, researcher.id)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("existing users are added by an admin"),
    });
    const audit = await db.auditLog.findMany({ where: { target: `study:${study.id}` }, orderBy: { id: "asc" }, select: { action: true, actorId: true } });
    expect(audit).toEqual([
      { action: "study.invite.create", actorId: researcher.id },
      { action: "study.invite.create", actorId: researcher.id },
      { action: "study.invite.revoke", actorId: researcher.id },
    ]);
  });
});
