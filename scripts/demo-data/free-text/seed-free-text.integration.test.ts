import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { FreeTextSection } from "@/lib/tasks/free-text/dashboard";
import { createUser, resetDatabase } from "@/tests/db-helpers";

/** The demo's free-text study: imported through the real importer (images and kitchen frames), its SYNTHETIC judge's grades, and its grading study. */
let dataDir = "";

beforeAll(async () => {
  await resetDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "free-text-seed-"));
  vi.stubEnv("YARDSTICK_DATA_DIR", dataDir);
  vi.resetModules();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
});

describe("demo: free-text study", () => {
  it("seeds the questions with drawn media, a synthetic run graded by the labelled synthetic judge, and a graded grading study", async () => {
    const { seedFreeTextStudy, FREE_TEXT_STUDY, SYNTHETIC_JUDGE, syntheticGrade } = await import("@/scripts/demo-data/free-text/seed-free-text");
    const { getStudyDashboard } = await import("@/lib/dashboard/study-dashboard");
    const researcher = await createUser("RESEARCHER", { email: "researcher@yardstick.local" });
    const admin = await createUser("ADMIN");
    const annotator = await createUser("ANNOTATOR");
    expect(await seedFreeTextStudy({ "researcher@yardstick.local": researcher.id }, admin.id, [annotator.id])).toBe(8);
    const study = await db.study.findUniqueOrThrow({ where: { slug: FREE_TEXT_STUDY }, select: { id: true } });
    const items = await db.item.findMany({
      where: { studyId: study.id },
      select: { externalId: true, kind: true, public: true, practice: true },
      orderBy: { externalId: "asc" },
    });
    expect(items.every((item) => item.kind === "free-text")).toBe(true);
    const kitchen = items.find((item) => item.externalId === "ft-004")!.public as { media: { frames: string[]; fps: number } };
    expect(kitchen.media.frames).toHaveLength(8);
    expect(kitchen.media.frames.every((frame) => /^\/api\/assets\/[0-9a-f]{64}$/.test(frame))).toBe(true);
    // the demo clip, stored as a video asset and cut before the ball falls
    const ball = items.find((item) => item.externalId === "ft-007")!.public as { media: { video: string; cutAt: number } };
    expect(ball.media).toMatchObject({ cutAt: 2.4 });
    expect(ball.media.video).toMatch(/^\/api\/(assets|media)\//);

    const section = (await getStudyDashboard(FREE_TEXT_STUDY, {})).sections.freeText as FreeTextSection;
    // the kitchen frames and the clip play: watch figures for every question of the kind
    expect(section.watch?.items.map((row) => row.externalId).sort()).toEqual(["ft-001", "ft-002", "ft-003", "ft-004", "ft-005", "ft-006", "ft-007"]);
    expect(section.judge).toMatchObject({ model: SYNTHETIC_JUDGE, synthetic: true, graded: 6, temperature: 0, seed: 0 });
    const all = section.rows.find((row) => row.category === "All")!;
    const predictions = await db.modelPrediction.findMany({ where: { run: { studyId: study.id } }, select: { answer: true, item: { select: { key: true } } } });
    const grades = predictions.map((p) => {
      const key = p.item.key as { answer: string; extraAnswers?: string[] };
      const text = (p.answer as { text: string }).text;
      return syntheticGrade(text, [key.answer, ...(key.extraAnswers ?? [])]);
    });
    expect(all.cells[1]).toEqual({ graded: 6, score: grades.reduce((s, g) => s + (100 * (g - 1)) / 4, 0) / 6 });
    expect(section.agreement).toMatchObject({ gradingItems: 6, humanGrades: 12, graders: 2 });
    expect(section.agreement.judgeHuman?.units).toBe(6);
    // a grade has no right value: the graders' answers have no correctness, so calibration leaves them out
    const gradeCorrectness = await db.response.groupBy({
      by: ["correct"],
      where: { assignment: { item: { kind: "free-text-grade" } } },
      _count: { _all: true },
    });
    expect(gradeCorrectness).toEqual([{ correct: null, _count: { _all: 12 } }]);
  }, 120_000);
});
