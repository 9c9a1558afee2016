import { cp, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { importBatchFromPath } from "@/lib/import";
import { createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

// The three real release questions (data/esi-sample, copied from ../shared/data/esi-bench); their
// images are not shipped, so the test draws placeholders where the release would keep them.
const sample = path.resolve(import.meta.dirname, "..", "..", "data", "esi-sample");
const dirs = {
  action: "dataset/json_clean/Action Sequencing/Action Order Inference/Beechwood_0_garden/bathroom_0",
  connectivity: "dataset/json_clean/Cognitive Mapping/Connectivity/Beechwood_0_garden/full_scene",
  counting: "dataset/json_clean/Enumerative Perception/Spatial Segmentation/Merom_0_int/living_room_0",
};

async function placeholder(file: string, color: string) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    await sharp({ create: { width: 32, height: 20, channels: 3, background: color } })
      .png()
      .toBuffer(),
  );
}

describe("yardstick import of ESI-Bench's release", () => {
  let folder: string;
  beforeEach(async () => {
    await resetDatabase();
    folder = await mkdtemp(path.join(os.tmpdir(), "esi-release-"));
    await cp(sample, folder, { recursive: true });
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  afterAll(disconnectDb);

  it("refuses the questions without their images, naming each file and field, and stores nothing", async () => {
    const admin = await createUser("ADMIN");
    const study = await createStudy();
    const error = await importBatchFromPath(folder, { studySlug: study.slug, importedById: admin.id }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID" });
    const issues = (error as { details: { errors: Array<{ file: string; field?: string; message: string }> } }).details.errors;
    expect(issues.map((issue) => [issue.file.split("/").at(-1), issue.field])).toEqual([
      ["Beechwood_0_garden__bathroom_0.json", "public.initialImage"],
      ["q_001.json", "public.initialImage"],
      ["q_000.json", "public.initialImage"],
    ]);
    expect(issues[2].message).toContain("q_000.png");
    expect(await db.item.count()).toBe(0);
  });

  it("imports the three questions as esi-explore items with their tags, answers and reference views", async () => {
    await placeholder(path.join(folder, dirs.action, "stage0_initial_orb0.png"), "#dc2626");
    await placeholder(path.join(folder, dirs.connectivity, "pair_connectivity__corridor_0__private_office_0__initial.png"), "#2563eb");
    await placeholder(path.join(folder, dirs.connectivity, "path_views", "path_view_000.png"), "#16a34a");
    await placeholder(path.join(folder, dirs.connectivity, "q_001", "path_view_001.png"), "#ca8a04");
    await placeholder(path.join(folder, dirs.counting, "images", "q_000.png"), "#7c3aed");
    const admin = await createUser("ADMIN");
    const study = await createStudy();

    const result = await importBatchFromPath(folder, { studySlug: study.slug, importedById: admin.id });
    expect(result).toMatchObject({ status: "imported", itemCount: 3, newItems: 3, assetsStored: 5 });
    const items = await db.item.findMany({
      where: { studyId: study.id },
      orderBy: { externalId: "asc" },
      select: { externalId: true, kind: true, public: true, key: true, tags: true },
    });
    expect(
      items.map((item) => [item.externalId, item.kind, (item.tags as { category: string }).category, (item.tags as { subcategory: string }).subcategory]),
    ).toEqual([
      ["0001", "esi-explore", "Action Sequencing", "Action Order Inference"],
      ["0078", "esi-explore", "Cognitive Mapping", "Connectivity"],
      ["0551", "esi-explore", "Enumerative Perception", "Spatial Segmentation"],
    ]);
    const [action, connectivity, counting] = items;
    expect((action.key as { answer: unknown }).answer).toEqual({ A: "right", C: "left" });
    expect((action.public as { options: unknown }).options).toEqual({ A: ["right", "left"], C: ["left", "right"] });
    expect((connectivity.key as { answer: unknown }).answer).toBe("Yes");
    expect((counting.key as { answer: unknown }).answer).toBe("2");
    for (const item of items) expect((item.public as { initialImage: string }).initialImage).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);
    const gt = (connectivity.key as { views: { gt: string[] } }).views.gt;
    expect(gt).toHaveLength(2);
    for (const url of gt) expect(url).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);

    // ESI-Bench's confidence is c in [0, 1] (App. E): the study's first import sets the percent scale
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).confidenceScale).toBe("PERCENT");
    expect(result.message).toMatch(/confidence scale is now 0–100%/);

    // importing the same release again changes nothing
    expect((await importBatchFromPath(folder, { studySlug: study.slug, importedById: admin.id })).status).toBe("unchanged");
  });

  it("leaves the confidence scale of a study that had items before as it was", async () => {
    await placeholder(path.join(folder, dirs.action, "stage0_initial_orb0.png"), "#dc2626");
    await placeholder(path.join(folder, dirs.connectivity, "pair_connectivity__corridor_0__private_office_0__initial.png"), "#2563eb");
    await placeholder(path.join(folder, dirs.connectivity, "path_views", "path_view_000.png"), "#16a34a");
    await placeholder(path.join(folder, dirs.connectivity, "q_001", "path_view_001.png"), "#ca8a04");
    await placeholder(path.join(folder, dirs.counting, "images", "q_000.png"), "#7c3aed");
    const admin = await createUser("ADMIN");
    const study = await createStudy();
    await createOrderItem(study.id, (await createBatch(study.id)).id, { externalId: "enact-1", order: [0, 1, 2] });
    const result = await importBatchFromPath(folder, { studySlug: study.slug, importedById: admin.id });
    expect(result).toMatchObject({ status: "imported", newItems: 3 });
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).confidenceScale).toBe("LIKERT_5");
    expect(result.message).not.toMatch(/confidence scale/);
  });
});
