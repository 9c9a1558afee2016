import { afterAll, describe, expect, it } from "vitest";
import { readBatchSource } from "@/lib/import/source";
import { formatIssue } from "@/lib/import/types";
import { collectItems, fieldPath, validateBatch } from "@/lib/import/validate";
import { taskKinds } from "@/lib/tasks";
import { batchFiles, forwardItem, image, jsonl, writeFolder, type BatchFiles, removeTempFolders } from "@/tests/fixtures/import-batches";

afterAll(removeTempFolders);

async function validate(files: BatchFiles, options: { maxImageBytes?: number; maxErrors?: number } = {}) {
  return validateBatch(await readBatchSource({ folder: await writeFolder(files) }), options);
}

describe("fieldPath", () => {
  it("writes dotted paths with array indices in brackets", () => {
    expect(fieldPath(["public", "candidates", 2])).toBe("public.candidates[2]");
    expect(fieldPath([])).toBe("");
  });
});

describe("validateBatch", () => {
  it("names a VSI-Bench row's place once", async () => {
    const row = {
      id: 1,
      dataset: "arkitscenes",
      scene_name: "s1",
      question_type: "object_rel_distance",
      question: "Which?",
      options: ["A. a", "B. b"],
      ground_truth: "E",
    };
    const result = await validate({ "vsi.jsonl": jsonl([row]) });
    expect(result.issues.map(formatIssue)).toEqual(['vsi.jsonl line 1, field ground_truth: "E" is not one of the option letters A, B']);
  });

  it("accepts a valid batch, rewriting image references to asset URLs and keeping the key", async () => {
    const result = await validate(await batchFiles([forwardItem("a"), forwardItem("b")]));
    expect(result.issues).toEqual([]);
    expect(result.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(result.items).toHaveLength(2);
    const [first] = await collectItems(result);
    expect(first.public).toMatchObject({ initialImage: expect.stringMatching(/^\/api\/assets\/[0-9a-f]{64}$/) });
    expect(first.key).toEqual({ order: [1, 0] });
    // img/start.png is shared: 1 + 2 + 2 images
    expect(result.assets.size).toBe(5);
  });

  it("gives the same content hash whatever the key order and image file names", async () => {
    const png = await image(1);
    const a = await validate({
      "items.jsonl": jsonl([forwardItem("a", { candidates: ["x.png", "y.png"] })]),
      "img/start.png": png,
      "x.png": await image(2),
      "y.png": await image(3),
    });
    const reordered = { ...forwardItem("a", { candidates: ["p/x2.png", "y2.png"] }) };
    const shuffled = { gold: false, practice: false, tags: reordered.tags, key: reordered.key, public: reordered.public, kind: reordered.kind, id: "a" };
    const b = await validate({ "items.jsonl": jsonl([shuffled]), "img/start.png": png, "p/x2.png": await image(2), "y2.png": await image(3) });
    expect(a.items[0].contentHash).toBe(b.items[0].contentHash);
    expect(a.checksum).not.toBe(b.checksum);
  });

  it("names file, line and field for each kind of problem, and collects them all", async () => {
    const files = await batchFiles([forwardItem("ok")]);
    const lines = [
      forwardItem("ok"),
      "{not json",
      forwardItem("kindless", { kind: "no-such-kind" }),
      forwardItem("missing", { candidates: ["img/missing-a.png", "img/c9.png"] }),
      forwardItem("parent", { candidates: ["../secret.png", "img/ok-b.png"] }),
      forwardItem("absolute", { candidates: ["img/ok-a.png", "/etc/passwd"] }),
      forwardItem("text", { candidates: ["img/ok-a.png", "img/text.png"] }),
      { ...forwardItem("schema"), key: { order: [0, 0] } },
      { ...forwardItem("tags"), tags: { nested: { no: 1 } } },
      "",
      "[1, 2]",
      { ...forwardItem("extra"), colour: "red" },
    ];
    const result = await validate({ ...files, "items.jsonl": jsonl(lines), "img/missing-a.png": await image(50), "img/text.png": "hello, I am text\n" });
    const formatted = result.issues.map(formatIssue);
    expect(formatted).toEqual([
      expect.stringMatching(/^items\.jsonl line 2: not valid JSON \(.+\)$/),
      `items.jsonl line 3, field kind: unknown task kind "no-such-kind"; known kinds: ${taskKinds.join(", ")}`,
      'items.jsonl line 4, field public.candidates[1]: image "img/c9.png" not found in the batch',
      'items.jsonl line 5, field public.candidates[0]: image path "../secret.png" contains ".." and would leave the batch folder',
      'items.jsonl line 6, field public.candidates[1]: image path "/etc/passwd" is an absolute path; paths must be relative to the batch folder',
      'items.jsonl line 7, field public.candidates[1]: image "img/text.png" is not a PNG, JPEG or WebP image: it starts like text: "hello, I am text\\n"',
      "items.jsonl line 8, field key.order: order must be a permutation of 0..1 (each index once); got [0, 0]",
      "items.jsonl line 9, field tags.nested: a tag value must be a string, number or boolean",
      "items.jsonl line 11: expected a JSON object (one item per line)",
      'items.jsonl line 12: Unrecognized key: "colour"',
    ]);
    expect(result.checksum).toBeNull();
    expect(result.truncated).toBe(false);
  });

  it("names the image's first use and counts the others", async () => {
    const lines = [1, 2, 3, 4, 5].map((n) => forwardItem(`i${n}`, { candidates: ["img/gone.png", `img/i${n}-b.png`] }));
    const files = await batchFiles(lines.map((line) => forwardItem(line.id)));
    const result = await validate({ ...files, "items.jsonl": jsonl(lines) });
    expect(result.issues.map(formatIssue)).toEqual([
      'items.jsonl line 1, field public.candidates[0]: image "img/gone.png" not found in the batch (also used on line 2, line 3, line 4 and 1 more)',
    ]);
  });

  it("refuses images over the limit", async () => {
    const files = await batchFiles([forwardItem("a")]);
    const result = await validate(files, { maxImageBytes: 60 });
    expect(result.issues[0]).toMatchObject({ file: "items.jsonl", line: 1, field: "public.initialImage" });
    expect(result.issues[0].message).toMatch(/^image "img\/start\.png" is \d+ bytes, over the 60 bytes limit per image$/);
  });

  it("refuses duplicate ids within a batch, saying whether the content differs", async () => {
    const files = await batchFiles([forwardItem("a")]);
    const result = await validate({ ...files, "items.jsonl": jsonl([forwardItem("a"), forwardItem("a"), forwardItem("a", { order: [0, 1] })]) });
    expect(result.issues.map(formatIssue)).toEqual([
      'items.jsonl line 2, field id: duplicate id "a": already on line 1 with the same content; ids must be unique in a batch',
      'items.jsonl line 3, field id: duplicate id "a": already on line 1 with other content; ids must be unique in a batch',
    ]);
  });

  it("stops at the error cap and says so", async () => {
    const files = await batchFiles([forwardItem("a")]);
    const result = await validate({ ...files, "items.jsonl": Array.from({ length: 80 }, () => "oops").join("\n") }, { maxErrors: 50 });
    expect(result.issues).toHaveLength(50);
    expect(result.truncated).toBe(true);
    expect(result.issues[49].line).toBe(50);
  });

  it("refuses an empty items file and a file that is not UTF-8", async () => {
    expect((await validate({ "items.jsonl": "\n\n" })).issues).toEqual([{ file: "items.jsonl", message: "holds no items" }]);
    expect((await validate({ "items.jsonl": Buffer.from([0xff, 0xfe, 0x00]) })).issues).toEqual([{ file: "items.jsonl", message: "is not valid UTF-8 text" }]);
  });
});
