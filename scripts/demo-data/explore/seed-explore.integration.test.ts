import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createUser, resetDatabase } from "@/tests/db-helpers";

/** The demo's EXPLORE-Bench study: imported through the real importer, with its synthetic run scored. */
let dataDir = "";

beforeAll(async () => {
  await resetDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "explore-seed-"));
  vi.stubEnv("YARDSTICK_DATA_DIR", dataDir);
  vi.resetModules();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
});

describe("demo: EXPLORE-Bench study", () => {
  it("seeds three scenes (one Long, one abnormal kept apart), its annotators and a synthetic run", async () => {
    const { seedExploreStudy, EXPLORE_STUDY } = await import("@/scripts/demo-data/explore/seed-explore");
    const researcher = await createUser("RESEARCHER", { email: "researcher@yardstick.local" });
    const admin = await createUser("ADMIN");
    const annotator = await createUser("ANNOTATOR");
    expect(await seedExploreStudy({ "researcher@yardstick.local": researcher.id }, admin.id, [annotator.id])).toBe(3);
    const study = await db.study.findUniqueOrThrow({ where: { slug: EXPLORE_STUDY }, select: { id: true, members: { select: { userId: true } } } });
    expect(study.members.map((m) => m.userId)).toEqual([annotator.id]);
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { kind: true, tags: true, key: true } });
    expect(items.map((item) => item.kind)).toEqual(["explore-scene", "explore-scene", "explore-scene"]);
    expect(items.filter((item) => (item.tags as { abnormal?: boolean }).abnormal === true)).toHaveLength(1);
    expect(items.some((item) => (item.tags as { subset?: string }).subset === "Long")).toBe(true);
    const predictions = await db.modelPrediction.findMany({ where: { run: { studyId: study.id } }, select: { score: true } });
    expect(predictions).toHaveLength(3);
    for (const prediction of predictions) expect(prediction.score).toMatchObject({ scorer: "structured", version: "structured-v2" });
  }, 120_000);
});
