import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertExploreInstance } from "@/lib/tasks/explore-scene/import";
import { exploreScenePublicSchema, exploreSceneKeySchema, exploreSceneModule } from "@/lib/tasks/explore-scene";
import {
  exploreDemoScenes,
  generateExploreDemoBatch,
  labelPlacement,
  type ExploreDemoItem,
  type Shape,
} from "@/scripts/demo-data/explore/generate-explore-batch";

let outDir = "";
let items: ExploreDemoItem[] = [];

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), "explore-demo-"));
  ({ items } = await generateExploreDemoBatch({ outDir }));
}, 120_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe("EXPLORE-Bench demo batch", () => {
  it("writes valid explore-scene items with drawn PNG scenes: a Short list, a Long one, one abnormal item", async () => {
    const lines = (await readFile(path.join(outDir, "items.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ExploreDemoItem);
    expect(lines).toEqual(items);
    for (const item of lines) {
      expect(exploreScenePublicSchema.safeParse(item.public).success).toBe(true);
      expect(exploreSceneKeySchema.safeParse(item.key).success).toBe(true);
      const png = await readFile(path.join(outDir, item.public.initialImage));
      expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
    expect(lines.map((item) => item.tags.subset).sort()).toEqual(["Long", "Short", "Short"]);
    expect(Math.max(...lines.map((item) => item.public.actions.length))).toBeGreaterThanOrEqual(200);
    const abnormal = lines.filter((item) => item.tags.abnormal === true);
    expect(abnormal).toHaveLength(1);
    expect(abnormal[0].key.keyStates).toEqual([
      { state: "The water is flowing from the spout of the faucet.", object: 0 },
      { state: "The bottle without label lies horizontally on the table.", object: 4 },
    ]);
  });

  it("keys read as the layout importer reads the paper's format, and the key itself scores 100", () => {
    for (const scene of exploreDemoScenes()) {
      const converted = convertExploreInstance({
        image: `img/${scene.id}.png`,
        annotationFile: `${scene.id}.json`,
        annotation: { atomic_actions: scene.actions, end_frame_info: scene.final },
      });
      const item = items.find((entry) => entry.id === scene.id)!;
      expect(converted.key).toEqual(item.key);
      const key = exploreSceneKeySchema.parse(item.key);
      expect(exploreSceneModule.score(exploreSceneModule.keyAnswer!(key), key, { ...item, tags: {} }).S_uni).toBeCloseTo(100);
    }
  }, 60_000);
});

describe("the drawn initial scenes", () => {
  // 11 px DejaVu Sans Condensed: about 6 px a character, 9 px above the baseline
  const labelBox = (shape: Shape) => {
    const { x, y, anchor } = labelPlacement(shape);
    const width = shape.label.length * 6;
    return { x: anchor === "middle" ? x - width / 2 : x, y: y - 9, w: width, h: 11 };
  };
  const overlap = (a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) =>
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

  it("every label can be read: none runs into another, none is drawn over by a later shape", () => {
    for (const scene of exploreDemoScenes()) {
      const shapes = scene.shapes;
      shapes.forEach((shape, i) => {
        const box = labelBox(shape);
        shapes.forEach((other, j) => {
          if (j === i) return;
          if (j > i) expect(overlap(box, labelBox(other)), `${scene.title}: "${shape.label}" and "${other.label}" labels`).toBe(false);
          if (j > i)
            expect(overlap(box, { x: other.x, y: other.y, w: other.w, h: other.h }), `${scene.title}: "${other.label}" covers the label "${shape.label}"`).toBe(
              false,
            );
        });
      });
    }
  });
});
