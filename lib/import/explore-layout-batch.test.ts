import { afterAll, describe, expect, it } from "vitest";
import { readBatchSource } from "@/lib/import/source";
import { formatIssue } from "@/lib/import/types";
import { collectItems, validateBatch } from "@/lib/import/validate";
import { image, writeFolder, zipOf, removeTempFolders, type BatchFiles } from "@/tests/fixtures/import-batches";

afterAll(removeTempFolders);

const objects = [
  { category: "bowl", description: "white ceramic bowl", relation: ["bowl on kitchen counter"] },
  { category: "kitchen counter", description: "grey stone counter", relation: [] },
];

async function exploreFiles(): Promise<BatchFiles> {
  return {
    "0001.jpg": await image("explore-1", "jpeg"),
    "0001.json": JSON.stringify(objects),
    "0001.actions.txt": "C picks up the bowl\nC puts the bowl on the counter\n",
    "0002.png": await image("explore-2", "png"),
    "0002.json": JSON.stringify({ atomic_actions: "C opens the tap|C closes the tap", end_frame_info: objects, key_state: "the tap is closed" }),
    "notes.txt": "not part of any item\n",
  };
}

describe("EXPLORE-Bench layout in the importer", () => {
  it("imports a folder of image + JSON pairs (+ actions files) as explore-scene items", async () => {
    const source = await readBatchSource({ folder: await writeFolder(await exploreFiles(), "explore") });
    expect(source.itemsFiles).toEqual([
      { path: "0001.json", format: "explore-layout", image: "0001.jpg", actionsFile: "0001.actions.txt" },
      { path: "0002.json", format: "explore-layout", image: "0002.png" },
    ]);
    const result = await validateBatch(source);
    expect(result.issues).toEqual([]);
    expect(result.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(result.items.map((item) => [item.externalId, item.kind, item.file])).toEqual([
      ["0001", "explore-scene", "0001.json"],
      ["0002", "explore-scene", "0002.json"],
    ]);
    const [first, second] = await collectItems(result);
    expect(first.public).toMatchObject({
      initialImage: expect.stringMatching(/^\/api\/assets\/[0-9a-f]{64}$/),
      actions: ["C picks up the bowl", "C puts the bowl on the counter"],
    });
    expect(first.tags).toEqual({ subset: "Other", actions: 2, source: "explore-layout" });
    expect(second.key).toMatchObject({ keyStates: ["the tap is closed"] });
    expect(result.assets.size).toBe(2);
  });

  it("reads a zip whose pairs sit in one folder, with the same checksum as the folder", async () => {
    const files = await exploreFiles();
    const zip = await validateBatch(await readBatchSource({ zip: await zipOf(files, { wrap: "explore" }), fileName: "explore.zip" }));
    const folder = await validateBatch(await readBatchSource({ folder: await writeFolder(files) }));
    expect(zip.issues).toEqual([]);
    expect(zip.items).toHaveLength(2);
    expect(zip.checksum).toBe(folder.checksum);
  });

  it("names the file and field of each problem", async () => {
    const files: BatchFiles = {
      ...(await exploreFiles()),
      "0002.json": JSON.stringify({ atomic_actions: 7, end_frame_info: objects }),
      "0003.jpg": await image("explore-3", "jpeg"),
      "0003.json": JSON.stringify([{ description: "no category" }]),
      "0003.actions.txt": "C waits\n",
      "0004.jpg": "not an image\n",
      "0004.json": JSON.stringify(objects),
      "0004.actions.txt": "C waits\n",
      "0005.png": await image("explore-5"),
      "0005.json": "{broken",
      "0006.png": await image("explore-6"),
      "0006.json": JSON.stringify(objects),
    };
    const result = await validateBatch(await readBatchSource({ folder: await writeFolder(files) }));
    const messages = result.issues.map(formatIssue);
    expect(messages[0]).toBe("0002.json field atomic_actions: expected a |-separated string or a list of strings");
    expect(messages[1]).toMatch(/^0003\.json field end_frame_info\[0\]\.category: /);
    expect(messages[2]).toMatch(/^0004\.json line 1, field public\.initialImage: image "0004\.jpg" is not a /);
    expect(messages[3]).toMatch(/^0005\.json: not valid JSON/);
    expect(messages[4]).toBe("0006.json field atomic_actions: no actions: add 0006.actions.txt or atomic_actions");
    expect(messages).toHaveLength(5);
    expect(result.items.map((item) => item.externalId)).toEqual(["0001"]);
  });
});
