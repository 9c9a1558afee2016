import { createHash } from "node:crypto";
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { formatIssue } from "@/lib/import/types";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * EgoSchema's and Perception Test's multiple-choice releases imported as they are (
 * lib/tasks/choice/import.ts), through the real batch import: small fixture files in the releases'
 * shapes (tests/fixtures/choice-releases/, written for these tests, not copied from the releases),
 * each question's video the demo clip copied where the release keeps its videos. Covered: video
 * paths, tags, the cut frame, the unkeyed questions (imported without a key and never scored), and
 * malformed files refused with errors that name the file, the place and the field.
 */

const FIXTURES = path.resolve(import.meta.dirname, "..", "..", "..", "tests", "fixtures", "choice-releases");
const CLIP = path.resolve(import.meta.dirname, "..", "..", "..", "scripts", "demo-data", "media", "demo-ball.mp4");

const EGO = {
  keyed3: "0074f737-11cb-497d-8d07-77c3a8127391",
  keyed4: "00b9a0de-c59e-49cb-a127-6081e2fb8c8e",
  open1: "00f93e1e-cf4e-4835-88b4-4ad68216e86f",
  open2: "011b8b73-0ce4-4843-95ef-33b79610d212",
};

interface Issue {
  file: string;
  line?: number;
  entry?: number;
  field?: string;
  message: string;
}

let folder = "";
let clipUrl = "";

async function withVideos(fixture: string, videos: string[]): Promise<string> {
  const dir = path.join(folder, fixture);
  await cp(path.join(FIXTURES, fixture), dir, { recursive: true });
  await mkdir(path.join(dir, "videos"), { recursive: true });
  for (const video of videos) await copyFile(CLIP, path.join(dir, "videos", `${video}.mp4`));
  return dir;
}

async function importInto(dir: string) {
  const admin = await createUser("ADMIN");
  const study = await createStudy();
  const result = await importBatchFromPath(dir, { studySlug: study.slug, importedById: admin.id });
  const items = await db.item.findMany({
    where: { studyId: study.id },
    orderBy: { externalId: "asc" },
    select: { externalId: true, kind: true, public: true, key: true, tags: true },
  });
  return { study, result, items: new Map(items.map((item) => [item.externalId, item])) };
}

async function refusal(dir: string): Promise<Issue[]> {
  const admin = await createUser("ADMIN");
  const study = await createStudy();
  const error = await importBatchFromPath(dir, { studySlug: study.slug, importedById: admin.id }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "INVALID" });
  expect(await db.item.count({ where: { studyId: study.id } })).toBe(0);
  return (error as { details: { errors: Issue[] } }).details.errors;
}

beforeEach(async () => {
  await resetDatabase();
  folder = await mkdtemp(path.join(tmpdir(), "choice-releases-"));
  clipUrl = `/api/assets/${createHash("sha256")
    .update(await readFile(CLIP))
    .digest("hex")}`;
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});
afterAll(disconnectDb);

describe("EgoSchema's release (questions.json + subset_answers.json)", () => {
  it("imports every question as a choice item with its video, options 0-4, the public answers as keys and the rest without one", async () => {
    const dir = await withVideos("egoschema", Object.values(EGO));
    const { study, result, items } = await importInto(dir);
    expect(result).toMatchObject({ status: "imported", itemCount: 4, newItems: 4 });
    // the four videos are one clip copied: one video, named as a video
    expect(result.message).toMatch(/: 4 items \(4 new, 0 already present\), 1 video \(1 stored, 0 already stored\)/);
    expect([...items.keys()]).toEqual([EGO.keyed3, EGO.keyed4, EGO.open1, EGO.open2]);
    const first = items.get(EGO.keyed3)!;
    expect(first.kind).toBe("choice");
    expect(first.public).toEqual({
      question: "Taking into account all the actions performed by c, what can you deduce about the primary objective of the video?",
      options: [
        { id: "0", text: "C is cooking." },
        { id: "1", text: "C is doing laundry." },
        { id: "2", text: "C is cleaning the kitchen." },
        { id: "3", text: "C is cleaning dishes." },
        { id: "4", text: "C is cleaning the bathroom." },
      ],
      media: { video: clipUrl },
    });
    // videos/<q_uid>.mp4 beside questions.json, stored (checked and probed) like any video
    for (const item of items.values()) expect((item.public as { media: { video: string } }).media.video).toBe(clipUrl);
    const asset = await db.asset.findUniqueOrThrow({
      where: { hash: clipUrl.split("/").at(-1)! },
      select: { mime: true, durationS: true, width: true, height: true },
    });
    expect(asset).toMatchObject({ mime: "video/mp4", width: 320, height: 240 });
    expect(asset.durationS).toBeCloseTo(4, 1);

    expect(first.key).toEqual({ answer: "3" });
    expect(items.get(EGO.keyed4)!.key).toEqual({ answer: "4" });
    expect(items.get(EGO.open1)!.key).toEqual({});
    expect(items.get(EGO.open2)!.key).toEqual({});
    expect(first.tags).toEqual({ source: "egoschema", keyed: true });
    expect(items.get(EGO.open1)!.tags).toEqual({ source: "egoschema", keyed: false });

    // the questions without a public answer are answered but never scored
    const run = await importModelRun({
      studySlug: study.slug,
      name: "letters",
      fileName: "run.jsonl",
      answersJsonl: [
        `{"id": "${EGO.keyed3}", "answer": "D"}`,
        `{"id": "${EGO.keyed4}", "answer": "A"}`,
        `{"id": "${EGO.open1}", "answer": "B"}`,
        `{"id": "${EGO.open2}", "answer": "C"}`,
      ].join("\n"),
    });
    expect(run.message).toContain("choice: accuracy 50.00%, chance 20.00% (n=4)");
    const scores = await db.modelPrediction.findMany({ where: { runId: run.runId }, select: { score: true, item: { select: { externalId: true } } } });
    const scoreOf = (id: string) => scores.find((row) => row.item.externalId === id)?.score;
    expect(scoreOf(EGO.keyed3)).toEqual({ correct: true, score: 1, options: 5 });
    expect(scoreOf(EGO.keyed4)).toEqual({ correct: false, score: 0, options: 5 });
    expect(scoreOf(EGO.open1)).toEqual({ correct: null, score: null, options: 5 });
    expect(scoreOf(EGO.open2)).toEqual({ correct: null, score: null, options: 5 });
  });

  it("without subset_answers.json every question comes without a key", async () => {
    const dir = await withVideos("egoschema", Object.values(EGO));
    await rm(path.join(dir, "subset_answers.json"));
    const { items } = await importInto(dir);
    expect([...items.values()].map((item) => [item.key, (item.tags as { keyed: boolean }).keyed])).toEqual(Array.from({ length: 4 }, () => [{}, false]));
  });

  it("refuses a keys file that keys none of the questions (another subset's), saying how to import them without keys", async () => {
    const dir = await withVideos("egoschema", Object.values(EGO));
    await writeFile(
      path.join(dir, "subset_answers.json"),
      JSON.stringify({ "ffffffff-0000-0000-0000-000000000001": 2, "ffffffff-0000-0000-0000-000000000002": 0 }),
    );
    expect(await refusal(dir)).toEqual([
      {
        file: "subset_answers.json",
        message: "keys none of the 4 questions of questions.json (its 2 q_uids are other questions'); remove it to import the questions without keys",
      },
    ]);
  });

  it("refuses a malformed release, naming the file, the question's place and the field, and stores nothing", async () => {
    const dir = await withVideos("egoschema", Object.values(EGO));
    const questions = JSON.parse(await readFile(path.join(dir, "questions.json"), "utf8")) as Array<Record<string, unknown>>;
    delete questions[1]["option 3"];
    questions[2].q_uid = "not a uid!";
    // pretty-printed: a question's entry number and the line it starts on differ (10 lines an entry, 9 without its option 3)
    await writeFile(path.join(dir, "questions.json"), JSON.stringify(questions, null, 2));
    await writeFile(path.join(dir, "subset_answers.json"), JSON.stringify({ [EGO.keyed3]: 7 }));
    const issues = await refusal(dir);
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: "subset_answers.json", field: EGO.keyed3, message: "expected an answer 0-4" },
        { file: "questions.json", line: 12, entry: 2, field: "[1].option 3", message: "expected the option's text" },
        { file: "questions.json", line: 21, entry: 3, field: "[2].q_uid", message: "expected the question's uid" },
      ]),
    );
    expect(formatIssue(issues.find((issue) => issue.entry === 2)!)).toBe("questions.json entry 2 (line 12), field [1].option 3: expected the option's text");
    expect(issues).toHaveLength(3);
  });

  it("refuses a questions.json that is not JSON, or whose videos are missing, naming the file", async () => {
    const dir = await withVideos("egoschema", [EGO.keyed3, EGO.keyed4, EGO.open1]);
    const missing = await refusal(dir);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ file: "questions.json", line: 5, field: "public.media.video" });
    expect(missing[0].message).toContain(`videos/${EGO.open2}.mp4`);

    await writeFile(path.join(dir, "questions.json"), '[{"q_uid": "a", ');
    const broken = await refusal(dir);
    expect(broken).toHaveLength(1);
    expect(broken[0].file).toBe("questions.json");
    expect(broken[0].message).toMatch(/^not valid JSON \(/);
  });
});

describe("Perception Test's multiple-choice release (mc_question_<split>.json)", () => {
  it("imports each question of each video with its video, the cut frame as cutAt, and its area, reasoning and tags", async () => {
    const dir = await withVideos("perception-test", ["video_10909", "video_7085", "video_8241"]);
    const { study, result, items } = await importInto(dir);
    expect(result).toMatchObject({ status: "imported", itemCount: 5, newItems: 5 });
    expect([...items.keys()]).toEqual(["video_10909/0", "video_10909/1", "video_7085/3", "video_8241/0", "video_8241/1"]);
    const predictive = items.get("video_10909/1")!;
    expect(predictive.kind).toBe("choice");
    // cut_frame_mapping_valid.json: frame 60 at 30 fps ends the clip at 2 s
    expect(predictive.public).toEqual({
      question: "What happens to the ball after the video ends?",
      options: [
        { id: "0", text: "it stays on the table" },
        { id: "1", text: "it falls to the floor" },
        { id: "2", text: "it rolls back" },
      ],
      media: { video: clipUrl, cutAt: 2 },
    });
    expect(predictive.key).toEqual({ answer: "1" });
    expect(predictive.tags).toEqual({
      source: "perception-test",
      video_id: "video_10909",
      question_id: "1",
      keyed: true,
      area: "physics",
      reasoning: "predictive",
      tag: "motion, object permanence",
    });
    // no cut frame for this video (and none for the test split): the whole clip; an empty tag list: no tag
    const counting = items.get("video_7085/3")!;
    expect(counting.public).toMatchObject({ media: { video: clipUrl } });
    expect((counting.public as { media: object }).media).not.toHaveProperty("cutAt");
    expect(counting.key).toEqual({ answer: "0" });
    expect(counting.tags).toEqual({
      source: "perception-test",
      video_id: "video_7085",
      question_id: "3",
      keyed: true,
      area: "semantics",
      reasoning: "counterfactual",
    });

    // the test split: answer_id absent or -1, no key, never scored
    expect(items.get("video_8241/0")!.key).toEqual({});
    expect(items.get("video_8241/1")!.key).toEqual({});
    expect(items.get("video_8241/0")!.tags).toMatchObject({ keyed: false, area: "memory", tag: "cup game" });
    const run = await importModelRun({
      studySlug: study.slug,
      name: "letters",
      fileName: "run.jsonl",
      answersJsonl: ["video_10909/0", "video_10909/1", "video_7085/3", "video_8241/0", "video_8241/1"]
        .map((id) => JSON.stringify({ id, answer: "B" }))
        .join("\n"),
    });
    expect(run.message).toContain("choice: accuracy 33.33%, chance 33.33% (n=5)");
    const scored = await db.modelPrediction.findMany({ where: { runId: run.runId }, select: { score: true, item: { select: { externalId: true } } } });
    expect(
      scored
        .filter((row) => (row.score as { score: number | null }).score === null)
        .map((row) => row.item.externalId)
        .sort(),
    ).toEqual(["video_8241/0", "video_8241/1"]);
  });

  it("refuses malformed questions, naming the file, the question's place within its video and the field", async () => {
    const dir = await withVideos("perception-test", ["video_10909", "video_7085", "video_8241"]);
    const release = JSON.parse(await readFile(path.join(dir, "mc_question_valid.json"), "utf8")) as Record<
      string,
      { mc_question: Array<Record<string, unknown>> }
    >;
    release.video_10909.mc_question[1].options = "it falls";
    release.video_7085.mc_question[0].answer_id = 5;
    await writeFile(path.join(dir, "mc_question_valid.json"), JSON.stringify(release));
    await writeFile(path.join(dir, "mc_question_test.json"), '{"video_8241": {"metadata": {"video_id": "video_8241"}, "mc_question": {"id": 0}}}');
    const issues = await refusal(dir);
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: "mc_question_valid.json", line: 1, entry: 1, field: "video_10909.mc_question[1].options", message: "expected 2-9 option texts" },
        { file: "mc_question_valid.json", line: 1, entry: 2, field: "video_7085.mc_question[0].answer_id", message: "expected 0-2" },
        { file: "mc_question_test.json", line: 1, entry: 1, field: "video_8241.mc_question", message: "expected a list of questions" },
      ]),
    );
    expect(issues).toHaveLength(3);
  });
});
