import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { contactByEntryToken, contactByInvite, contactBySlug, contactOf, updateStudyContact } from "@/lib/studies/contact";
import { getStudySettings } from "@/lib/studies/settings";
import { createStudyVersion } from "@/lib/studies/versions";
import { getMemberStanding, getMemberStudy } from "@/lib/annotate/studies";
import { listStudyAudit } from "@/lib/audit/log";
import { issueToken } from "@/lib/auth/api-tokens";
import { PATCH as patchContact } from "@/app/api/studies/[slug]/contact/route";
import { call } from "@/tests/api/http";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/** The research team's contact: set on a frozen study, audited, and read by the participants' pages. */
describe("the study's contact for participants", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("changes once the study has answers, with an audit entry, and is copied into a new version", async () => {
    const researcher = await createUser("RESEARCHER");
    const annotator = await createUser("ANNOTATOR");
    const study = await createStudy();
    const [item] = await createEnactItems(study.id, { count: 1 });
    await addMember(study.id, annotator.id);
    const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: annotator.id, position: 0, status: "SUBMITTED" } });
    await db.response.create({
      data: {
        assignmentId: assignment.id,
        clientId: randomUUID(),
        answer: { order: [0] },
        confidenceRaw: 3,
        confidence: 0.5,
        wallMs: 1,
        activeMs: 1,
        score: {},
        correct: true,
      },
    });
    expect((await getStudySettings(study.slug)).frozen).toBe(true);
    expect((await getStudySettings(study.slug)).contact).toEqual({ contactName: null, contactEmail: null });

    await updateStudyContact(study.slug, { contactName: " Ana Ruiz, Embodied AI Lab ", contactEmail: "ana@lab.example.org" }, researcher.id);
    expect((await getStudySettings(study.slug)).contact).toEqual({ contactName: "Ana Ruiz, Embodied AI Lab", contactEmail: "ana@lab.example.org" });
    const audit = await listStudyAudit(study.slug);
    expect(audit.entries.find((entry) => entry.action === "study.contact")?.detail).toMatchObject({
      from: { contactName: null, contactEmail: null },
      to: { contactName: "Ana Ruiz, Embodied AI Lab", contactEmail: "ana@lab.example.org" },
    });

    // the participant's side: the study as its member reads it, both ways
    const member = await getMemberStudy(study.slug, annotator.id);
    expect(contactOf(member)).toEqual({ name: "Ana Ruiz, Embodied AI Lab", email: "ana@lab.example.org" });
    expect(contactOf((await getMemberStanding(study.slug, annotator.id)).study)).toEqual({ name: "Ana Ruiz, Embodied AI Lab", email: "ana@lab.example.org" });

    const copy = await createStudyVersion(study.slug, researcher.id);
    expect((await getStudySettings(copy.slug)).contact).toEqual({ contactName: "Ana Ruiz, Embodied AI Lab", contactEmail: "ana@lab.example.org" });

    // emptied: none again
    await updateStudyContact(study.slug, { contactName: null, contactEmail: null }, researcher.id);
    expect(contactOf(await getMemberStudy(study.slug, annotator.id))).toBeNull();
  });

  it("PATCH /api/studies/<slug>/contact refuses an address that is not one, naming the field, and stores nothing", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    const token = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcher.id)).token;
    const patch = (json: unknown) =>
      call(patchContact, { method: "PATCH", path: `/api/studies/${study.slug}/contact`, token, params: { slug: study.slug }, json });
    const bad = await patch({ contactName: "Ana", contactEmail: "ana at lab" });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ issues: [{ path: "contactEmail" }] });
    expect(await db.study.findUniqueOrThrow({ where: { id: study.id }, select: { contactName: true, contactEmail: true } })).toEqual({
      contactName: null,
      contactEmail: null,
    });
    const saved = await patch({ contactName: "", contactEmail: "team@lab.example.org" });
    expect(saved).toMatchObject({ status: 200, body: { contactName: null, contactEmail: "team@lab.example.org" } });
  });

  it("is found from an entry link or an invite, for the page that refuses it; nothing for a link that matches no study", async () => {
    const study = await createStudy();
    await db.study.update({ where: { id: study.id }, data: { entryToken: "entry-token-0123456789", contactEmail: "team@lab.example.org" } });
    expect(await contactByEntryToken("entry-token-0123456789")).toEqual({ name: null, email: "team@lab.example.org" });
    expect(await contactByEntryToken("no-such-token-0000")).toBeNull();
    expect(await contactByEntryToken("x")).toBeNull();
    const invited = await createUser("ANNOTATOR");
    await db.studyInvite.create({ data: { studyId: study.id, userId: invited.id, token: "invite-token-0123456789" } });
    expect(await contactByInvite("invite-token-0123456789")).toEqual({ name: null, email: "team@lab.example.org" });
    expect(await contactByInvite("no-such-invite-0000")).toBeNull();
    // the page a withdrawn participant lands on, signed out, finds it by the study's slug
    expect(await contactBySlug(study.slug)).toEqual({ contact: { name: null, email: "team@lab.example.org" }, studyTitle: study.title });
    expect(await contactBySlug("no-such-study")).toBeNull();
    expect(await contactBySlug("x".repeat(101))).toBeNull();
  });
});
