import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createUser, resetDatabase } from "@/tests/db-helpers";

/** The demo of the generic kinds: choice and numeric items through the real importer, a synthetic run scored. */
let dataDir = "";

beforeAll(async () => {
  await resetDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "generic-seed-"));
  vi.stubEnv("YARDSTICK_DATA_DIR", dataDir);
  vi.resetModules();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
});

describe("demo: choice and numeric study", () => {
  it("imports the drawn items with their keys and scores the synthetic run as the benchmark's parsers read it", async () => {
    const { seedChoiceStudy, GENERIC_STUDY } = await import("@/scripts/demo-data/choice/seed-choice");
    const { genericDemoItems } = await import("@/scripts/demo-data/choice/generate-choice-batch");
    const researcher = await createUser("RESEARCHER", { email: "researcher@yardstick.local" });
    const admin = await createUser("ADMIN");
    const annotator = await createUser("ANNOTATOR");
    expect(await seedChoiceStudy({ "researcher@yardstick.local": researcher.id }, admin.id, [annotator.id])).toBe(genericDemoItems().length);
    const study = await db.study.findUniqueOrThrow({ where: { slug: GENERIC_STUDY }, select: { id: true } });
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true, kind: true, key: true, public: true } });
    const byId = new Map(items.map((item) => [item.externalId, item]));
    expect(byId.get("nearest-to-chair")?.key).toEqual({ answer: "table", note: "computed from the drawn plan" });
    expect(byId.get("lamp-side")?.key).toEqual({ answer: "right" });
    expect(byId.get("count-balls")?.key).toEqual({ answer: 7, metric: "mra" });
    expect(byId.get("withheld-plant")?.key).toEqual({});
    // images were stored and referenced by hash
    expect(JSON.stringify(byId.get("which-is-sofa")?.public)).toMatch(/"image":"\/api\/assets\/[0-9a-f]{64}"/);
    const predictions = await db.modelPrediction.findMany({
      where: { run: { studyId: study.id } },
      select: { item: { select: { externalId: true } }, answer: true, score: true },
    });
    const scoreOf = (id: string) => predictions.find((p) => p.item.externalId === id)?.score;
    expect(scoreOf("nearest-to-chair")).toEqual({ correct: true, score: 1, options: 4 }); // "A. table": letter A, the item's first option
    expect(scoreOf("lamp-side")).toEqual({ correct: false, score: 0, options: 2 });
    expect(scoreOf("withheld-plant")).toEqual({ correct: null, score: null, options: 3 });
    expect(scoreOf("count-balls")).toEqual({ score: 0.8, invalid: false }); // 6 against 7: error 0.142857 <= 1 - t up to t = 0.85
    expect(scoreOf("room-area")).toEqual({ score: 0, invalid: true });
    expect(scoreOf("door-to-window")).toEqual({ score: 1, invalid: false }); // 6.2 against 6 m, within 0.5: 1

    // the real demo clip as media.video (stored as a video asset, probed), each item with its cut and the key the clip shows
    const clip = /^\/api\/assets\/([0-9a-f]{64})$/;
    const media = (id: string) => (byId.get(id)?.public as { media: { video: string; cutAt?: number } }).media;
    expect(media("ball-direction")).toEqual({ video: expect.stringMatching(clip), cutAt: 2.4 });
    expect(media("ball-leaves-table")).toEqual({ video: media("ball-direction").video, cutAt: 3.5 });
    expect(media("ball-bounces")).toEqual({ video: media("ball-direction").video });
    const asset = await db.asset.findUniqueOrThrow({
      where: { hash: clip.exec(media("ball-direction").video)![1] },
      select: { mime: true, durationS: true, width: true, height: true },
    });
    expect(asset).toMatchObject({ mime: "video/webm", width: 320, height: 240 });
    expect(asset.durationS).toBeCloseTo(4, 1);
    expect(byId.get("ball-direction")?.kind).toBe("choice");
    expect(byId.get("ball-direction")?.key).toEqual({ answer: "right", note: "the clip: the ball's x grows at 64 px/s" });
    expect(byId.get("ball-leaves-table")?.key).toMatchObject({ answer: 2.5, metric: "abs", tolerance: 0.25 });
    expect(byId.get("ball-bounces")?.key).toMatchObject({ answer: 0, metric: "exact" });
    expect(scoreOf("ball-direction")).toEqual({ correct: true, score: 1, options: 4 }); // "B": the item's second option, right
    expect(scoreOf("ball-leaves-table")).toEqual({ score: 0, invalid: false }); // "3 seconds": 3, half a second late
    expect(scoreOf("ball-bounces")).toEqual({ score: 0, invalid: false }); // "1": it does not bounce
  }, 120_000);
});
