import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ego2worldItemSchema, ego2worldPlayModule } from "@/lib/tasks/ego2world-play";
import { demoEpisodes } from "@/scripts/demo-data/ego2world/episodes";
import { generateEgo2worldDemoBatch } from "@/scripts/demo-data/ego2world/generate-ego2world-batch";

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe("the Ego2World demo batch", () => {
  it("writes three episodes that pass the importer's checks, 3-4 chained tasks each, with every rule kind", async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), "ego-demo-"));
    folders.push(outDir);
    const { items, runs, images } = await generateEgo2worldDemoBatch({ outDir, seed: 1 });
    expect(items.map((item) => item.id)).toEqual(["ego-coffee", "ego-slicing", "ego-pot"]);
    expect(images).toBe(11);
    const lines = (await readFile(path.join(outDir, "items.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const item of items) {
      const parsed = ego2worldItemSchema.safeParse({ public: item.public, key: item.key });
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(item.public.tasks.length).toBeGreaterThanOrEqual(3);
      expect(item.public.tasks.length).toBeLessThanOrEqual(4);
      for (const area of Object.values(item.public.areas)) {
        const bytes = await readFile(path.join(outDir, area.image));
        expect(bytes.subarray(1, 4).toString()).toBe("PNG");
      }
    }
    // the kinds of Table 6 appear: state change, create, destroy, hand
    const effects = demoEpisodes.flatMap((episode) => episode.rules.flatMap((rule) => rule.eff));
    expect(effects.some((effect) => effect.startsWith("create "))).toBe(true);
    expect(effects.some((effect) => effect.startsWith("destroy "))).toBe(true);
    expect(effects.some((effect) => effect.startsWith("hand :="))).toBe(true);
    expect(effects.some((effect) => /^\w+\.\w+ := /.test(effect))).toBe(true);
    // synthetic runs: readable answers for every episode, scored below the reference for the hasty one
    expect(runs.map((run) => run.name)).toEqual(["synthetic careful planner (not a real model)", "synthetic hasty planner (not a real model)"]);
    for (const run of runs) {
      for (const line of run.jsonl.trim().split("\n")) {
        const { id, answer } = JSON.parse(line) as { id: string; answer: unknown };
        const item = items.find((entry) => entry.id === id)!;
        const parsed = ego2worldPlayModule.parseModelAnswer(answer);
        expect(parsed).not.toBeNull();
        const score = ego2worldPlayModule.score(parsed!, item.key as never, { ...item, public: item.public as never, key: item.key as never });
        expect(score.tasks).toHaveLength(item.public.tasks.length);
      }
    }
  });

  it("is deterministic: the same seed writes the same bytes", async () => {
    const a = await mkdtemp(path.join(os.tmpdir(), "ego-demo-a-"));
    const b = await mkdtemp(path.join(os.tmpdir(), "ego-demo-b-"));
    folders.push(a, b);
    await generateEgo2worldDemoBatch({ outDir: a, seed: 3 });
    await generateEgo2worldDemoBatch({ outDir: b, seed: 3 });
    for (const file of ["items.jsonl", "runs/synthetic-hasty.jsonl", "img/ego-pot/stove.png"]) {
      expect((await readFile(path.join(a, file))).equals(await readFile(path.join(b, file))), file).toBe(true);
    }
  });
});
