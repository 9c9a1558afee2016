import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { startImportJob, getImportJobFor } from "@/lib/import/jobs";
import { addStudyMembers, listStudyMembersFor, removeStudyMember } from "@/lib/studies/members";
import { mayManageStudy } from "@/lib/studies/managers";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, type RunningWorker } from "@/lib/jobs/worker";
import { batchFiles, forwardItem, zipOf } from "@/tests/fixtures/import-batches";
import { createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";

/**
 * Who may import into a study and add members to it: admins, and the study's owner (the researcher
 * who created it); another researcher is refused (403) and is shown no candidates to add.
 */

let slug = "";
let owner: { id: string; role: string };
let other: { id: string; role: string };
let admin: { id: string; role: string };
let annotator: { id: string; role: string };

let worker: RunningWorker | null = null;
beforeAll(async () => {
  await resetDatabase();
  await resetJobQueue();
  worker = await startWorker({ pollMs: 100, queues: [QUEUES.import.name] });
  owner = await createUser("RESEARCHER");
  other = await createUser("RESEARCHER");
  admin = await createUser("ADMIN");
  annotator = await createUser("ANNOTATOR");
  slug = (await createStudy({ createdById: owner.id })).slug;
});
afterAll(async () => {
  await worker?.stop();
  await stopBoss();
  await disconnectDb();
});

describe("a study's managers", () => {
  it("are its admins and its owner", async () => {
    expect(await mayManageStudy(slug, admin)).toBe(true);
    expect(await mayManageStudy(slug, owner)).toBe(true);
    expect(await mayManageStudy(slug, other)).toBe(false);
    expect(await mayManageStudy(slug, annotator)).toBe(false);
    expect(await mayManageStudy("no-such-study", owner)).toBe(false);
  });

  it("the owner adds and removes members and sees the candidates; another researcher is refused and sees none", async () => {
    expect((await listStudyMembersFor(slug, owner)).candidates?.map((c) => c.id)).toContain(annotator.id);
    expect((await listStudyMembersFor(slug, other)).candidates).toBeUndefined();
    await expect(addStudyMembers(slug, [annotator.id], other)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: `Only an admin or the study's owner (the researcher who created it) may add members to ${slug}`,
    });
    expect(await addStudyMembers(slug, [annotator.id], owner)).toEqual({ added: 1, already: 0 });
    await expect(removeStudyMember(slug, annotator.id, other)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await removeStudyMember(slug, annotator.id, owner);
    expect(await db.studyMember.count({ where: { userId: annotator.id } })).toBe(0);
  });

  it("the owner imports a batch and polls its job; another researcher can neither start one nor read the owner's", async () => {
    const zip = await zipOf(await batchFiles([forwardItem("m1")]));
    await expect(startImportJob({ zip, fileName: "b.zip", studySlug: slug, actorId: other.id, actor: other })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await db.importJob.count()).toBe(0);
    const { job, finished } = await startImportJob({ zip, fileName: "b.zip", studySlug: slug, actorId: owner.id, actor: owner });
    expect((await finished).status).toBe("SUCCEEDED");
    expect((await getImportJobFor(job.id, owner)).status).toBe("SUCCEEDED");
    expect((await getImportJobFor(job.id, admin)).status).toBe("SUCCEEDED");
    await expect(getImportJobFor(job.id, other)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
