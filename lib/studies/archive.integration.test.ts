import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { deleteStudy, setStudyArchived } from "@/lib/studies/archive";
import { listStudiesWithCounts, listStudyChoices } from "@/lib/studies/studies";
import { listMemberStudies } from "@/lib/annotate/studies";
import { nextAssignment } from "@/lib/assignment";
import { newEntryToken } from "@/lib/studies/settings";
import { previewEntry } from "@/lib/studies/entry";
import { insertFileChunk } from "@/lib/repos/files";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

const prolific = { PROLIFIC_PID: "a".repeat(24), STUDY_ID: "b".repeat(24), SESSION_ID: "c".repeat(24) };

/** A study with something of every kind: items, a participant with an answer and events, an asset link, an export file, an import job, dashboard rows. */
async function fullStudy(ownerId: string) {
  const study = await createStudy({ createdById: ownerId });
  const entryToken = newEntryToken();
  await db.study.update({ where: { id: study.id }, data: { entryToken } });
  const [item] = await createEnactItems(study.id, { count: 2 });
  const annotator = await createUser("ANNOTATOR");
  await addMember(study.id, annotator.id);
  const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: annotator.id, position: 0, status: "SUBMITTED" } });
  await db.event.createMany({ data: [0, 1].map((seq) => ({ assignmentId: assignment.id, seq, type: "slot_filled", payload: {}, clientTime: new Date() })) });
  await db.response.create({
    data: {
      assignmentId: assignment.id,
      clientId: randomUUID(),
      answer: { order: [1, 2, 0] },
      confidenceRaw: 3,
      confidence: 0.5,
      wallMs: 1,
      activeMs: 1,
      score: {},
      correct: true,
    },
  });
  const hash = randomUUID().replace(/-/g, "").padEnd(64, "0");
  await db.asset.create({ data: { hash, mime: "image/png", size: 1, bytes: Buffer.from([1]) } });
  await db.studyAsset.create({ data: { studyId: study.id, assetHash: hash } });
  const fileKey = `exports/${study.id}/responses.csv`;
  await insertFileChunk(fileKey, 0, Buffer.from("a,b\n"));
  await db.exportJob.create({
    data: {
      studyId: study.id,
      table: "responses",
      format: "csv",
      status: "SUCCEEDED",
      fileName: "responses.csv",
      contentType: "text/csv",
      storage: "postgres",
      fileKey,
    },
  });
  await db.importJob.create({ data: { studyId: study.id, studySlug: study.slug, fileName: "batch.zip", status: "SUCCEEDED" } });
  return { study, entryToken, annotator, hash, fileKey };
}

describe("archiving and deleting a study", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("archive hides the study from every list and closes it to participants; restore brings it back; owner or admin only; audited", async () => {
    const owner = await createUser("RESEARCHER");
    const other = await createUser("RESEARCHER");
    const admin = await createUser("ADMIN");
    const { study, entryToken, annotator } = await fullStudy(owner.id);
    await expect(setStudyArchived(study.slug, true, other)).rejects.toMatchObject({ code: "FORBIDDEN" });

    await setStudyArchived(study.slug, true, owner);
    expect((await listStudiesWithCounts()).map((s) => s.slug)).not.toContain(study.slug);
    expect((await listStudiesWithCounts({ archived: true })).map((s) => s.slug)).toEqual([study.slug]);
    expect((await listStudyChoices()).map((s) => s.slug)).not.toContain(study.slug);
    expect(await listMemberStudies(annotator.id)).toEqual([]);
    expect(await nextAssignment(study.id, annotator.id)).toEqual({ status: "closed" });
    await expect(previewEntry(entryToken, prolific)).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("closed") });
    // nothing was deleted
    expect(await db.response.count({ where: { assignment: { studyId: study.id } } })).toBe(1);

    await setStudyArchived(study.slug, false, admin);
    expect((await listStudiesWithCounts()).map((s) => s.slug)).toContain(study.slug);
    expect((await listMemberStudies(annotator.id)).map((s) => s.slug)).toEqual([study.slug]);
    expect((await nextAssignment(study.id, annotator.id)).status).not.toBe("closed");
    expect(
      await db.auditLog.findMany({ where: { target: `study:${study.id}` }, orderBy: { createdAt: "asc" }, select: { action: true, actorId: true } }),
    ).toEqual([
      { action: "study.archive", actorId: owner.id },
      { action: "study.restore", actorId: admin.id },
    ]);
  });

  it("delete needs the typed slug and the owner or an admin, then removes the study and everything of it, and only it", async () => {
    const owner = await createUser("RESEARCHER");
    const other = await createUser("RESEARCHER");
    const { study, hash, fileKey } = await fullStudy(owner.id);
    const kept = await fullStudy(other.id);
    const countsOf = async (studyId: string) => {
      const [row] = await db.$queryRaw<Array<Record<string, bigint>>>`
        SELECT (SELECT count(*) FROM "Study" WHERE id = ${studyId}) AS study, (SELECT count(*) FROM "Item" WHERE "studyId" = ${studyId}) AS items,
          (SELECT count(*) FROM "Batch" WHERE "studyId" = ${studyId}) AS batches, (SELECT count(*) FROM "StudyMember" WHERE "studyId" = ${studyId}) AS members,
          (SELECT count(*) FROM "Assignment" WHERE "studyId" = ${studyId}) AS assignments, (SELECT count(*) FROM "StudyAsset" WHERE "studyId" = ${studyId}) AS "assetLinks",
          (SELECT count(*) FROM "ExportJob" WHERE "studyId" = ${studyId}) AS exports, (SELECT count(*) FROM "ImportJob" WHERE "studyId" = ${studyId}) AS imports,
          (SELECT count(*) FROM "ProgressItemCount" WHERE "studyId" = ${studyId}) AS "progressRows"`;
      return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
    };
    const before = await countsOf(study.id);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const keptBefore = await countsOf(kept.study.id);
    const events = await db.event.count();
    const responses = await db.response.count();

    await expect(deleteStudy(study.slug, study.slug, other)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(deleteStudy(study.slug, "yes", owner)).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining(`Type the study's slug, ${study.slug}`),
    });
    expect(await countsOf(study.id)).toEqual(before);

    expect(await deleteStudy(study.slug, ` ${study.slug} `, owner)).toEqual({
      slug: study.slug,
      items: 2,
      participants: 1,
      assignments: 1,
      responses: 1,
      events: 2,
      exportFiles: 1,
    });
    expect(Object.values(await countsOf(study.id)).every((n) => n === 0)).toBe(true);
    expect(await db.event.count()).toBe(events - 2);
    expect(await db.response.count()).toBe(responses - 1);
    expect(await db.storedFileChunk.count({ where: { key: fileKey } })).toBe(0);
    // the other study is untouched, and so is the content-addressed asset store
    expect(await countsOf(kept.study.id)).toEqual(keptBefore);
    expect(await db.asset.count({ where: { hash } })).toBe(1);
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "study.delete" }, select: { actorId: true, target: true, detail: true } });
    expect(audit).toMatchObject({ actorId: owner.id, target: `study:${study.id}`, detail: { slug: study.slug, responses: 1, events: 2 } });
    await expect(deleteStudy(study.slug, study.slug, owner)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
