import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createStudy } from "@/lib/studies/studies";
import { studyCreateSchema } from "@/lib/validations/study";
import { createUser, resetDatabase } from "@/tests/db-helpers";

describe("createStudy", () => {
  beforeEach(resetDatabase);

  it("stores the settings from the form, and refuses a slug that exists", async () => {
    const researcher = await createUser("RESEARCHER");
    const input = studyCreateSchema.parse({ title: "Pilot", slug: "pilot-1", instructions: "# Hi", overlap: "3", confidenceScale: "PERCENT" });
    const created = await createStudy(input, researcher.id);
    const stored = await db.study.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored).toMatchObject({ slug: "pilot-1", overlap: 3, confidenceScale: "PERCENT", createdById: researcher.id });
    await expect(createStudy(input, researcher.id)).rejects.toMatchObject({ code: "CONFLICT", message: 'A study with the slug "pilot-1" exists already' });
  });

  it("validates the slug and the overlap with messages that name the field", () => {
    const result = studyCreateSchema.safeParse({ title: "x", slug: "Bad Slug", overlap: 0 });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["title", "slug", "overlap"]));
  });
});
