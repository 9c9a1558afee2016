import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { addStudyMembers, listMemberCandidates, listStudyMembers, removeStudyMember } from "@/lib/studies/members";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

describe("study members", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("adds annotators (skipping members), lists them without emails, and removes them", async () => {
    const admin = await createUser("ADMIN");
    const [a, b, c] = await Promise.all(["Ann", "Bob", "Cy"].map((name) => createUser("ANNOTATOR", { name })));
    const study = await createStudy();
    expect((await listMemberCandidates(study.slug)).map((u) => u.name)).toEqual(["Ann", "Bob", "Cy"]);
    expect(await addStudyMembers(study.slug, [a.id, b.id], admin)).toEqual({ added: 2, already: 0 });
    expect(await addStudyMembers(study.slug, [b.id, c.id, c.id], admin)).toEqual({ added: 1, already: 1 });
    const members = await listStudyMembers(study.slug);
    expect(members.map((m) => m.name)).toEqual(["Ann", "Bob", "Cy"]);
    expect(JSON.stringify(members)).not.toContain("@test.local");
    expect(await listMemberCandidates(study.slug)).toEqual([]);
    await removeStudyMember(study.slug, b.id, admin);
    expect((await listStudyMembers(study.slug)).map((m) => m.name)).toEqual(["Ann", "Cy"]);
    await expect(removeStudyMember(study.slug, b.id, admin)).rejects.toThrow(/not a member/);
    expect(await db.auditLog.count({ where: { action: { startsWith: "study.members" } } })).toBe(3);
  });

  it("refuses non-annotators, disabled users and unknown ids, adding nobody", async () => {
    const admin = await createUser("ADMIN");
    const researcher = await createUser("RESEARCHER", { name: "Rita" });
    const a = await createUser("ANNOTATOR", { name: "Ann" });
    const off = await createUser("ANNOTATOR", { name: "Off" });
    await db.user.update({ where: { id: off.id }, data: { disabled: true } });
    const study = await createStudy();
    await expect(addStudyMembers(study.slug, [a.id, researcher.id, off.id, "nobody"], admin)).rejects.toThrow(
      /Rita is a researcher, not an annotator; Off is disabled; no user with id nobody/,
    );
    expect(await db.studyMember.count()).toBe(0);
    await expect(addStudyMembers("no-such-study", [a.id], admin)).rejects.toThrow(/No study/);
  });
});
