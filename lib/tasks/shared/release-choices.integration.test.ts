import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatchFromPath } from "@/lib/import";
import { createStudy, resetDatabase } from "@/tests/db-helpers";
import { openEqaQuestion } from "@/lib/tasks/free-text/testing/openeqa-question";

/**
 * Releases as they are, through the real batch import: OpenEQA's list with one bad entry (an empty
 * string in extra_answers, as entry 1136 of open-eqa-v0.json has) is refused whole by default with
 * a clear error, and imported without it when "skip bad entries" is chosen, the skipped listed;
 * its episodes' frames missing refuse the batch unless "text only" is chosen; EgoSchema's
 * questions without their videos import text only when that is chosen.
 */

let root = "";
beforeAll(async () => {
  await resetDatabase();
  root = await mkdtemp(path.join(tmpdir(), "release-choices-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await disconnectDb();
});

async function folderWith(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

const refusal = async (attempt: Promise<unknown>) => {
  const error = (await attempt.catch((e: unknown) => e)) as AppError;
  expect(error).toBeInstanceOf(AppError);
  return error;
};

describe("OpenEQA's release with one bad entry, and without its frames", () => {
  const release = [openEqaQuestion(1), openEqaQuestion(2, ["by the door", ""]), openEqaQuestion(3), openEqaQuestion(4)];

  it("refuses the batch by default, naming the entry, its line and why, and saying how to skip it", async () => {
    const dir = await folderWith("openeqa-default", { "open-eqa-v0.json": JSON.stringify(release, null, 2) });
    const study = await createStudy();
    const error = await refusal(importBatchFromPath(dir, { studySlug: study.slug, textOnly: true }));
    expect(error.message).toContain("1 error");
    expect(error.message).toContain('to import the 3 good entries and skip these 1, import again choosing "skip bad entries" (skipInvalid=1)');
    const [issue] = (error.details as { errors: Array<{ entry?: number; line?: number; field?: string }> }).errors;
    expect(issue).toMatchObject({ entry: 2, line: 9, field: "[1].extra_answers[1]" });
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(0);
  });

  it("imports the good entries when skipping is chosen, listing the skipped in the result and its message", async () => {
    const dir = await folderWith("openeqa-skip", { "open-eqa-v0.json": JSON.stringify(release, null, 2) });
    const study = await createStudy();
    const result = await importBatchFromPath(dir, { studySlug: study.slug, textOnly: true, skipInvalid: true });
    expect(result).toMatchObject({ status: "imported", itemCount: 3, newItems: 3 });
    expect(result.skipped).toEqual([expect.objectContaining({ file: "open-eqa-v0.json", entry: 2, line: 9, field: "[1].extra_answers[1]" })]);
    expect(result.message).toContain(
      "Skipped 1 entry that could not be imported (as chosen):\n  open-eqa-v0.json entry 2 (line 9), field [1].extra_answers[1]: an extra answer is empty",
    );
    expect(
      (await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true }, orderBy: { externalId: "asc" } })).map((i) => i.externalId),
    ).toEqual(["q-1", "q-3", "q-4"]);
  });

  it("refuses questions whose episode frames are missing unless text only is chosen; skipping does not skip missing media", async () => {
    const dir = await folderWith("openeqa-frames", {
      "open-eqa-v0.json": JSON.stringify([openEqaQuestion(1), openEqaQuestion(2)], null, 2),
      "frames/hm3d-v0/ep-1/00000-rgb.png": "not read here",
    });
    const study = await createStudy();
    for (const options of [{}, { skipInvalid: true }]) {
      const error = await refusal(importBatchFromPath(dir, { studySlug: study.slug, ...options }));
      expect(error.message).toContain("the frames of 1 episode are not in the batch");
      expect(error.message).toContain('hm3d-v0/ep-0; add them, or choose "text only"');
    }
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(0);
  });
});

describe("EgoSchema's questions without their videos", () => {
  const questions = [{ q_uid: "aaaa-1", question: "What does C do?", "option 0": "a", "option 1": "b", "option 2": "c", "option 3": "d", "option 4": "e" }];

  it("refuse the batch naming the video, or import as text only when chosen", async () => {
    const dir = await folderWith("egoschema-text", { "questions.json": JSON.stringify(questions) });
    const study = await createStudy();
    const error = await refusal(importBatchFromPath(dir, { studySlug: study.slug }));
    expect(error.message).toMatch(/videos\/aaaa-1\.mp4/);
    expect(error.message).toContain('add the missing media, or choose "text only" to import the questions without them');
    const result = await importBatchFromPath(dir, { studySlug: study.slug, textOnly: true });
    expect(result).toMatchObject({ status: "imported", newItems: 1 });
    const item = await db.item.findFirstOrThrow({ where: { studyId: study.id }, select: { public: true } });
    expect(item.public).not.toHaveProperty("media");
  });
});

describe("a native items file without its videos", () => {
  it('is refused naming the video, with no "text only" way out (native items keep their media)', async () => {
    const line = {
      id: "n1",
      kind: "choice",
      public: {
        question: "What happens?",
        options: [
          { id: "a", text: "a" },
          { id: "b", text: "b" },
        ],
        media: { video: "clips/n1.mp4" },
      },
      key: { answer: "a" },
    };
    const dir = await folderWith("native-video", { "items.jsonl": JSON.stringify(line) + "\n" });
    const study = await createStudy();
    const error = await refusal(importBatchFromPath(dir, { studySlug: study.slug }));
    expect(error.message).toContain('"clips/n1.mp4" not found in the batch');
    expect(error.message).not.toContain("text only");
  });
});

describe("VSI-Bench's rows without their videos", () => {
  const rows = [
    {
      id: 1,
      dataset: "arkitscenes",
      scene_name: "41069025",
      question_type: "object_rel_distance",
      question: "Which of these objects is the closest to the sofa?",
      options: ["A. table", "B. lamp", "C. door", "D. stool"],
      ground_truth: "B",
    },
    {
      id: 2,
      dataset: "scannet",
      scene_name: "scene0011_00",
      question_type: "object_counting",
      question: "How many chairs are in this room?",
      options: null,
      ground_truth: "6",
    },
  ];
  const jsonl = rows.map((row) => JSON.stringify(row)).join("\n") + "\n";

  it("refuse the batch naming each row's line and video, skipping bad entries or not", async () => {
    const dir = await folderWith("vsi-videos", { "test.jsonl": jsonl });
    const study = await createStudy();
    for (const options of [{}, { skipInvalid: true }]) {
      const error = await refusal(importBatchFromPath(dir, { studySlug: study.slug, ...options }));
      const issues = (error.details as { errors: Array<{ file?: string; line?: number; message: string }> }).errors;
      expect(issues).toEqual([
        expect.objectContaining({ file: "test.jsonl", line: 1, message: expect.stringContaining('"arkitscenes/41069025.mp4"') }),
        expect.objectContaining({ file: "test.jsonl", line: 2, message: expect.stringContaining('"scannet/scene0011_00.mp4"') }),
      ]);
      // the way out is said once, on the first missing video
      expect(issues[0].message).toContain('add the missing media (this and 1 more file), or choose "text only" to import the questions without them');
      expect(issues[1].message).not.toContain("text only");
    }
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(0);
  });

  it("import as text only when chosen: the questions, options and keys, without media", async () => {
    const dir = await folderWith("vsi-text", { "test.jsonl": jsonl });
    const study = await createStudy();
    const result = await importBatchFromPath(dir, { studySlug: study.slug, textOnly: true });
    expect(result).toMatchObject({ status: "imported", newItems: 2 });
    const items = await db.item.findMany({
      where: { studyId: study.id },
      select: { externalId: true, kind: true, public: true, key: true },
      orderBy: { externalId: "asc" },
    });
    expect(items.map(({ externalId, kind, key }) => ({ externalId, kind, key }))).toEqual([
      { externalId: "1", kind: "choice", key: { answer: "B" } },
      { externalId: "2", kind: "numeric", key: { answer: 6, metric: "mra" } },
    ]);
    for (const item of items) expect(item.public).not.toHaveProperty("media");
  });
});
