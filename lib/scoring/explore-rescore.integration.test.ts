import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createUser, resetDatabase } from "@/tests/db-helpers";

/** Stored EXPLORE structured scores of an older version are rescored and written back, once. */
let dataDir = "";

beforeAll(async () => {
  await resetDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "explore-rescore-"));
  vi.stubEnv("YARDSTICK_DATA_DIR", dataDir);
  vi.resetModules();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
});

describe("rescoring stale EXPLORE structured scores", () => {
  it("rewrites responses and predictions scored by an older version, leaves current ones, and is idempotent", async () => {
    const { seedExploreStudy, EXPLORE_STUDY } = await import("@/scripts/demo-data/explore/seed-explore");
    const { rescoreStaleExploreScores } = await import("@/lib/scoring/explore-rescore");
    const researcher = await createUser("RESEARCHER", { email: "researcher@yardstick.local" });
    const admin = await createUser("ADMIN");
    const annotator = await createUser("ANNOTATOR");
    await seedExploreStudy({ "researcher@yardstick.local": researcher.id }, admin.id, [annotator.id]);
    const study = await db.study.findUniqueOrThrow({ where: { slug: EXPLORE_STUDY }, select: { id: true } });
    const item = await db.item.findFirstOrThrow({ where: { studyId: study.id, externalId: "explore-breakfast" }, select: { id: true, key: true } });
    // an answer stored with the old scorer's numbers: S_att null, no version
    const old = {
      scorer: "structured",
      source: "objects",
      S_obj: 75,
      S_att: 5,
      S_rel: null,
      S_uni: 75,
      annotatedObjects: 6,
      predictedObjects: 1,
      matched: [],
      correct: true,
    };
    const answer = { objects: [{ category: "bowl", description: "white ceramic bowl", relation: [] }], text: "The bowl is white ceramic bowl." };
    const assignment = await db.assignment.create({
      data: { studyId: study.id, itemId: item.id, userId: annotator.id, position: 0, status: "SUBMITTED" },
      select: { id: true },
    });
    await db.response.create({
      data: { assignmentId: assignment.id, clientId: "c1", answer, confidenceRaw: 3, confidence: 0.5, wallMs: 1000, activeMs: 1000, score: old, correct: true },
    });
    const prediction = await db.modelPrediction.findFirstOrThrow({ where: { itemId: item.id }, select: { id: true, score: true } });
    await db.modelPrediction.update({ where: { id: prediction.id }, data: { score: old } });

    expect(await rescoreStaleExploreScores()).toEqual({ responses: 1, predictions: 1, unreadable: 0 });
    const response = await db.response.findFirstOrThrow({ where: { assignmentId: assignment.id }, select: { score: true, correct: true } });
    const score = response.score as { version: string; S_obj: number; S_att: number; S_rel: number; S_uni: number };
    expect(score.version).toBe("structured-v2");
    expect(score.S_uni).toBeCloseTo(0.25 * score.S_obj + 7 * score.S_att + 8 * score.S_rel, 9);
    expect(response.correct).toBe(score.S_uni >= 60);
    expect((await db.modelPrediction.findUniqueOrThrow({ where: { id: prediction.id }, select: { score: true } })).score).toEqual(prediction.score);
    // nothing is stale any more
    expect(await rescoreStaleExploreScores()).toEqual({ responses: 0, predictions: 0, unreadable: 0 });
  }, 120_000);
});
