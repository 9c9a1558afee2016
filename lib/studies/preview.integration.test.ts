import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getStudyPreview } from "@/lib/studies/preview";
import { createEnactItems, createStudy, resetDatabase } from "@/tests/db-helpers";

async function rowCounts() {
  const [row] = await db.$queryRaw<Array<Record<string, bigint>>>`
    SELECT (SELECT count(*) FROM "Assignment") AS assignments, (SELECT count(*) FROM "Event") AS events, (SELECT count(*) FROM "Response") AS responses,
           (SELECT count(*) FROM "StudyMember") AS members, (SELECT count(*) FROM "PlayStep") AS "playSteps", (SELECT count(*) FROM "AuditLog") AS audit`;
  return row;
}

describe("study preview", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("gives consent, tutorial and each item's public view (practice first), never the key, and writes nothing", async () => {
    const study = await createStudy();
    await db.study.update({
      where: { id: study.id },
      data: { consentMarkdown: "# Consent\n\nWe record clicks.", consentVersion: 1, tutorialPages: [{ title: "How it works", body: "Drag the pictures." }] },
    });
    const main = await createEnactItems(study.id, { count: 2, prefix: "main" });
    const practice = await createEnactItems(study.id, { count: 1, practice: true, prefix: "prac" });
    const before = await rowCounts();

    const first = await getStudyPreview(study.slug, 0);
    expect(first).toMatchObject({
      consentMarkdown: "# Consent\n\nWe record clicks.",
      consentVersion: 1,
      tutorialPages: [{ title: "How it works", body: "Drag the pictures." }],
      items: { total: 3, practice: 1 },
    });
    expect(first.item).toMatchObject({ index: 0, externalId: practice[0].externalId, role: "practice", problem: null });
    const second = await getStudyPreview(study.slug, 1);
    expect(second.item?.externalId).toBe(main[0].externalId);
    // past the end: the last item
    expect((await getStudyPreview(study.slug, 99)).item?.index).toBe(2);
    for (const n of [0, 1, 2]) {
      const text = JSON.stringify(await getStudyPreview(study.slug, n));
      expect(text).not.toContain("SecretFact");
      expect(text).not.toContain('"order"');
    }
    expect(await rowCounts()).toEqual(before);
    await expect(getStudyPreview("no-such-study", 0)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
