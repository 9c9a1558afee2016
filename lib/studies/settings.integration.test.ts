import { randomUUID } from "node:crypto";
import { createHash } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { db, disconnectDb } from "@/lib/db";
import { toResponse } from "@/lib/errors";
import { changeStudyStatus, getStudySettings, setEntryLink, updateStudySettings } from "@/lib/studies/settings";
import { createStudyVersion, versionSlug } from "@/lib/studies/versions";
import { createStudyExport, pseudonymisedExternalId } from "@/lib/exports/study-export";
import { listStudyAudit } from "@/lib/audit/log";
import { enterByLink } from "@/lib/studies/entry";
import { addMember, createEnactItems, createGridwmJudgeFamilies, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { issueToken } from "@/lib/auth/api-tokens";
import { PATCH as patchSettings } from "@/app/api/studies/[slug]/settings/route";
import { call } from "@/tests/api/http";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function respond(studyId: string, itemId: string, userId: string) {
  const assignment = await db.assignment.create({ data: { studyId, itemId, userId, position: 0, status: "SUBMITTED" } });
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
}

describe("study settings", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("validates every setting with messages naming the field, and changes nothing on bad input", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await createEnactItems(study.id, { count: 2 });
    const view = await getStudySettings(study.slug);
    expect(view).toMatchObject({ frozen: false, responses: 0, version: 1, status: "OPEN", tagKeys: ["steps"] });
    const bad = {
      ...view.settings,
      overlap: 0,
      goldRate: 1.5,
      goldFailLimit: 3,
      goldFailWindow: 2,
      leaseSeconds: 5,
      completionRedirectUrl: "javascript:alert(1)",
      tutorialPages: [{ title: "", body: "x" }],
      conditions: ["active", "active"],
    };
    const error = await updateStudySettings(study.slug, bad, researcher.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZodError);
    const reply = toResponse(error);
    expect(reply.status).toBe(422);
    const paths = ((await reply.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["overlap", "goldRate", "leaseSeconds", "completionRedirectUrl", "tutorialPages.0.title", "conditions.1"]));

    // cross-field rule: the window must hold the failures
    const windowError = await updateStudySettings(study.slug, { ...view.settings, goldRate: 0.2, goldFailLimit: 3, goldFailWindow: 2 }, researcher.id).catch(
      (e: unknown) => e,
    );
    expect((windowError as ZodError).issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["goldFailWindow", "the window (2) is smaller than the failures that exclude (3)"],
    ]);
    // a balance tag the items do not have, and settings for a kind that takes none
    await expect(updateStudySettings(study.slug, { ...view.settings, balanceTag: "category" }, researcher.id)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining('no item of this study has the tag "category"'),
    });
    await expect(updateStudySettings(study.slug, { ...view.settings, taskSettings: { "enact-forward": { speed: 2 } } }, researcher.id)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("takes no settings"),
    });
    await expect(updateStudySettings(study.slug, { ...view.settings, taskSettings: { "no-such-kind": {} } }, researcher.id)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining('unknown task kind "no-such-kind"'),
    });
    expect((await getStudySettings(study.slug)).settings).toEqual(view.settings);
    expect(await db.auditLog.count()).toBe(0);

    const good = {
      ...view.settings,
      title: "Pilot with Prolific",
      consentMarkdown: "# Consent\n\nI agree.",
      tutorialPages: [{ title: "How it works", body: "Drag the pictures **in order**." }],
      practicePassMark: 0.5,
      goldRate: 0.2,
      goldFailLimit: 2,
      goldFailWindow: 5,
      itemsPerParticipant: 10,
      itemTimeLimitSeconds: 120,
      sessionTimeLimitSeconds: 3600,
      leaseSeconds: 600,
      completionCode: "C0DE42",
      completionRedirectUrl: "https://app.prolific.com/submissions/complete?cc={code}",
      balanceTag: "steps",
      conditions: ["passive", "active"],
    };
    const saved = await updateStudySettings(study.slug, good, researcher.id);
    expect(saved.settings).toMatchObject({
      title: "Pilot with Prolific",
      goldFailLimit: 2,
      conditions: ["passive", "active"],
      balanceTag: "steps",
      tutorialPages: [{ title: "How it works" }],
    });
    // the first consent text is version 1: nobody accepted an earlier one
    expect(saved.consentVersion).toBe(1);
    const [entry] = await db.auditLog.findMany({ where: { action: "study.settings" } });
    expect(entry).toMatchObject({
      actorId: researcher.id,
      target: `study:${study.id}`,
      detail: { consentVersionRaised: false, changes: { title: { from: study.title, to: "Pilot with Prolific" }, goldFailLimit: { from: null, to: 2 } } },
    });
    // a changed text is a new version, which everyone who accepted the old one is asked again
    const changed = await updateStudySettings(study.slug, { ...good, consentMarkdown: "# Consent\n\nI agree to be recorded." }, researcher.id);
    expect(changed.consentVersion).toBe(2);
  });

  it("GridWM-Judge's probe spacing is the kind's setting: offered with the study's kinds, checked by its schema, stored in taskSettings", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await createGridwmJudgeFamilies(study.id, { families: 1, members: 2 });
    const view = await getStudySettings(study.slug);
    expect(view.settings).not.toHaveProperty("probeMinGap");
    const judge = view.kinds.find((kind) => kind.kind === "gridwm-judge");
    expect(judge).toMatchObject({
      inStudy: true,
      jsonSchema: { type: "object", properties: { probeMinGap: { type: "integer", default: 5, minimum: 0, maximum: 100, title: "Probe spacing" } } },
    });

    const bad = await updateStudySettings(study.slug, { ...view.settings, taskSettings: { "gridwm-judge": { probeMinGap: 101 } } }, researcher.id).catch(
      (e: unknown) => e,
    );
    expect(bad).toMatchObject({ code: "INVALID", details: { issues: [{ path: "taskSettings.gridwm-judge.probeMinGap", message: "at most 100" }] } });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).taskSettings).toEqual({});

    const saved = await updateStudySettings(study.slug, { ...view.settings, taskSettings: { "gridwm-judge": { probeMinGap: 8 } } }, researcher.id);
    expect(saved.settings.taskSettings).toEqual({ "gridwm-judge": { probeMinGap: 8 } });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).taskSettings).toEqual({ "gridwm-judge": { probeMinGap: 8 } });
  });

  it("PATCH /api/studies/<slug>/settings checks its body with each kind's settings schema, as its OpenAPI document says", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await createGridwmJudgeFamilies(study.id, { families: 1, members: 2 });
    const token = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcher.id)).token;
    const { settings } = await getStudySettings(study.slug);
    const patch = (taskSettings: unknown) =>
      call(patchSettings, {
        method: "PATCH",
        path: `/api/studies/${study.slug}/settings`,
        token,
        params: { slug: study.slug },
        json: { ...settings, taskSettings },
      });

    const bad = await patch({ "gridwm-judge": { probeMinGap: 101 } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ issues: [{ path: "taskSettings.gridwm-judge.probeMinGap", message: "at most 100" }] });
    expect((await patch({ "enact-forward": { speed: 2 } })).status).toBe(422); // a kind without settings
    expect((await patch({ "no-such-kind": {} })).body).toMatchObject({ issues: [{ path: "taskSettings" }] });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).taskSettings).toEqual({});

    const saved = await patch({ "gridwm-judge": { probeMinGap: 8 }, "explore-scene": {} });
    expect(saved.status).toBe(200);
    expect((saved.body as { settings: { taskSettings: unknown } }).settings.taskSettings).toEqual({
      "gridwm-judge": { probeMinGap: 8 },
      "explore-scene": { freeText: false },
    });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).taskSettings).toEqual({
      "gridwm-judge": { probeMinGap: 8 },
      "explore-scene": { freeText: false },
    });
  });

  it("freezes the settings once a response exists, and a new version copies the study (settings, batches, items, assets) as a draft", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy({ slug: "pilot" });
    const items = await createEnactItems(study.id, { count: 3 });
    await createEnactItems(study.id, { count: 1, practice: true, prefix: "prac" });
    await db.item.update({ where: { id: items[0].id }, data: { gold: true } });
    const asset = await db.asset.create({ data: { hash: "ab".repeat(32), mime: "image/png", size: 1, bytes: Buffer.from([1]) } });
    await db.studyAsset.create({ data: { studyId: study.id, assetHash: asset.hash } });
    const settings = (await getStudySettings(study.slug)).settings;
    await updateStudySettings(
      study.slug,
      { ...settings, goldRate: 0.25, goldFailLimit: 1, consentMarkdown: "I agree.", conditions: ["a", "b"] },
      researcher.id,
    );
    await setEntryLink(study.slug, "create", researcher.id);

    const annotator = await createUser("ANNOTATOR");
    await addMember(study.id, annotator.id);
    await respond(study.id, items[1].id, annotator.id);
    const frozen = await getStudySettings(study.slug);
    expect(frozen).toMatchObject({ frozen: true, responses: 1 });
    await expect(updateStudySettings(study.slug, { ...frozen.settings, title: "Changed" }, researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("create a new version"),
    });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).title).toBe(study.title);
    // the lifecycle still works on a frozen study
    await changeStudyStatus(study.slug, "PAUSED", researcher.id);

    const copy = await createStudyVersion(study.slug, researcher.id);
    expect(copy).toMatchObject({ slug: "pilot-v2", version: 2 });
    const stored = await db.study.findUniqueOrThrow({ where: { id: copy.id } });
    const original = await db.study.findUniqueOrThrow({ where: { id: study.id } });
    expect(stored).toMatchObject({
      status: "DRAFT",
      version: 2,
      previousVersionId: study.id,
      entryToken: null,
      goldRate: 0.25,
      goldFailLimit: 1,
      consentMarkdown: "I agree.",
      consentVersion: original.consentVersion,
      conditions: ["a", "b"],
      pseudonymSalt: original.pseudonymSalt,
      createdById: researcher.id,
    });
    const copiedItems = await db.item.findMany({ where: { studyId: copy.id }, orderBy: { externalId: "asc" } });
    const originalItems = await db.item.findMany({ where: { studyId: study.id }, orderBy: { externalId: "asc" } });
    const shape = (i: (typeof copiedItems)[number]) => ({
      externalId: i.externalId,
      kind: i.kind,
      public: i.public,
      key: i.key,
      tags: i.tags,
      practice: i.practice,
      gold: i.gold,
      contentHash: i.contentHash,
      createdAt: i.createdAt,
    });
    expect(copiedItems.map(shape)).toEqual(originalItems.map(shape));
    const originalIds = new Set(originalItems.map((i) => i.id));
    expect(copiedItems.filter((i) => originalIds.has(i.id))).toEqual([]);
    expect(await db.batch.count({ where: { studyId: copy.id } })).toBe(2);
    expect(await db.studyAsset.count({ where: { studyId: copy.id } })).toBe(1);
    expect(await db.studyMember.count({ where: { studyId: copy.id } })).toBe(0);
    expect((await getStudySettings(copy.slug)).frozen).toBe(false);
    // the new version's settings are editable, and the original is untouched
    await updateStudySettings(copy.slug, { ...(await getStudySettings(copy.slug)).settings, title: "Pilot, second version" }, researcher.id);
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(4);
    const versions = await getStudySettings(study.slug);
    expect(versions.nextVersions).toEqual([{ slug: "pilot-v2", version: 2 }]);
    expect((await getStudySettings(copy.slug)).previousVersion).toEqual({ slug: "pilot", version: 1 });
    // a second copy of the first version becomes v3
    expect(await createStudyVersion(study.slug, researcher.id)).toMatchObject({ slug: "pilot-v3", version: 3 });
    expect(versionSlug("pilot-v3", 4)).toBe("pilot-v4");

    const audit = await listStudyAudit(study.slug);
    expect(audit.entries.map((e) => e.action)).toEqual(["study.version", "study.version", "study.status", "study.entry-link.create", "study.settings"]);
    expect(audit.entries[0].actor).toEqual({ name: researcher.name, role: "RESEARCHER" });
  });

  it("follows the lifecycle DRAFT -> OPEN -> PAUSED -> OPEN -> CLOSED and refuses other steps", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await db.study.update({ where: { id: study.id }, data: { status: "DRAFT" } });
    await expect(changeStudyStatus(study.slug, "PAUSED", researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "A draft study cannot become paused; it can become open",
    });
    for (const status of ["OPEN", "PAUSED", "OPEN", "CLOSED"] as const)
      await expect(changeStudyStatus(study.slug, status, researcher.id)).resolves.toEqual({ status });
    await expect(changeStudyStatus(study.slug, "OPEN", researcher.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "A closed study cannot become open (closed is final)",
    });
    const entries = await db.auditLog.findMany({ where: { action: "study.status" }, orderBy: { id: "asc" }, select: { detail: true } });
    expect(entries.map((e) => (e.detail as { to: string }).to)).toEqual(["OPEN", "PAUSED", "OPEN", "CLOSED"]);
  });
});

describe("exports with external ids", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("gives external ids as stored, or pseudonymised on request as sha256(salt + id) truncated; each export is audited", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    const items = await createEnactItems(study.id, { count: 2 });
    await setEntryLink(study.slug, "create", researcher.id);
    const { entryToken, pseudonymSalt } = await db.study.findUniqueOrThrow({ where: { id: study.id } });
    const pid = "5f4c1e8a9b2d3c4e5f6a7b8c";
    const entered = await enterByLink(
      entryToken!,
      { PROLIFIC_PID: pid, STUDY_ID: "60aa11bb22cc33dd44ee55ff", SESSION_ID: "61ab12bc23cd34de45ef5600" },
      "192.0.2.1",
    );
    await respond(study.id, items[0].id, entered.id);

    const raw = await text((await createStudyExport(study.slug, "annotators", "jsonl", {}, { actorId: researcher.id })).stream);
    expect(JSON.parse(raw.trim())).toMatchObject({ external_source: "prolific", external_id: pid, participant_status: "ACTIVE", responses: 1 });

    const hidden = await text((await createStudyExport(study.slug, "annotators", "csv", {}, { externalIds: "pseudonymised", actorId: researcher.id })).stream);
    const expected = createHash("sha256").update(`${pseudonymSalt}${pid}`).digest("hex").slice(0, 16);
    expect(pseudonymisedExternalId(pseudonymSalt, pid)).toBe(expected);
    expect(hidden).toContain(expected);
    // nowhere: not in the id column, nor in the display name that was made from it ("Prolific <pid>")
    expect(hidden).not.toContain(pid);
    expect(hidden).toContain(`Prolific ${expected}`);
    expect(hidden.split("\r\n")[0].split(",")).toEqual(expect.arrayContaining(["external_source", "external_id", "participant_status", "status_reason"]));

    // another study's salt gives another pseudonym
    expect(pseudonymisedExternalId(randomUUID(), pid)).not.toBe(expected);

    const audits = await db.auditLog.findMany({ where: { action: "study.export" }, orderBy: { id: "asc" }, select: { actorId: true, detail: true } });
    expect(audits).toEqual([
      { actorId: researcher.id, detail: { slug: study.slug, what: "annotators", format: "jsonl", kind: null, tag: null, externalIds: "raw" } },
      { actorId: researcher.id, detail: { slug: study.slug, what: "annotators", format: "csv", kind: null, tag: null, externalIds: "pseudonymised" } },
    ]);
  });
});
