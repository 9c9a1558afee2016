import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { importBatch, readBatchSource } from "@/lib/import";
import { createStudy, resetDatabase } from "@/tests/db-helpers";
import { image, jsonl, removeTempFolders, writeFolder, type BatchFiles } from "@/tests/fixtures/import-batches";

afterAll(removeTempFolders);

let studySlug: string;

beforeEach(async () => {
  await resetDatabase();
  studySlug = (await createStudy()).slug;
});

const gold = {
  agent: { pos: [2, 5], dir: 3, carrying: null },
  front_cell: { pos: [2, 4], type: "floor", state: null },
  objects: [{ type: "key", pos: [1, 3], color: "yellow", state: null }],
};

describe("importBatch: GridWM-Judge exam files", () => {
  it("stores the converted items with tags from the exam ids and the model prompt in the key, and re-imports as unchanged", async () => {
    const files: BatchFiles = {
      "task_a_exam.jsonl": jsonl([
        {
          exam_id: "A.doorkey.doorkey_s000001.t4",
          task: "A",
          env_task: "doorkey",
          action: "pickup (id=3)",
          image: "images/taskA/a.png",
          prompt: "Action: pickup (id=3).",
          answer: "D",
          label: 3,
        },
      ]),
      "task_b_exam.jsonl": jsonl([
        { exam_id: "B.doorkey.doorkey_s000001.t2", task: "B", image: "images/taskB/b.png", answer_json: gold, answer: JSON.stringify(gold) },
      ]),
      "task_c_exam.jsonl": jsonl([
        {
          exam_id: "C.doorkey.doorkey_s000001.cf.rev.noisy",
          task: "C",
          variant: "cf",
          visual: "noisy",
          image: "images/taskC/c.png",
          prompt: "Evaluate agent success based on storyboard.",
          answer: "Fail",
          label: 0,
        },
      ]),
      "images/taskA/a.png": await image("a"),
      "images/taskB/b.png": await image("b"),
      "images/taskC/c.png": await image("c"),
      "manifest.json": "{}\n",
    };
    const folder = await writeFolder(files, "exams");
    const result = await importBatch({ source: await readBatchSource({ folder }), studySlug });
    expect(result).toMatchObject({ status: "imported", itemCount: 3, newItems: 3, assetsStored: 3 });
    const items = await db.item.findMany({ select: { externalId: true, kind: true, public: true, key: true, tags: true }, orderBy: { externalId: "asc" } });
    expect(items.map((item) => [item.externalId, item.kind])).toEqual([
      ["A.doorkey.doorkey_s000001.t4", "gridwm-next-obs"],
      ["B.doorkey.doorkey_s000001.t2", "gridwm-scene-json"],
      ["C.doorkey.doorkey_s000001.cf.rev.noisy", "gridwm-judge"],
    ]);
    const [a, b, c] = items;
    expect(a.key).toEqual({ answer: "D", modelPrompt: "Action: pickup (id=3)." });
    expect(a.tags).toEqual({ env: "doorkey", group: "doorkey_s000001", step: 4, action: "pickup", transition: "pickup", source: "gridwm-exam" });
    expect(b.public).toEqual({ image: expect.stringMatching(/^\/api\/assets\/[0-9a-f]{64}$/), frame: "egocentric", dirEncoding: "minigrid", gridSize: [8, 8] });
    expect(b.key).toEqual({ answer_json: gold });
    expect(c.tags).toEqual({ env: "doorkey", group: "doorkey_s000001", variant: "cf", temporal: "rev", visual: "noisy", source: "gridwm-exam" });
    expect(c.key).toEqual({ answer: "Fail", modelPrompt: "Evaluate agent success based on storyboard." });

    const again = await importBatch({ source: await readBatchSource({ folder }), studySlug });
    expect(again).toMatchObject({ status: "unchanged", batchId: result.batchId });
  });
});
