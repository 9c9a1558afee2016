import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { nextForMember } from "@/lib/annotate/next";
import { createSubmission, studySubmissionFiles } from "@/lib/exports/submission";
import { importModelRun } from "@/lib/models/runs";
import { chosenOptionId, type ChoicePublic, type ChoiceReadAnswer } from "@/lib/tasks/choice";
import { egoschemaFormat, perceptionTestFormat } from "@/lib/tasks/choice/import";
import type { ItemLine } from "@/lib/import/types";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Withheld answers: EgoSchema and Perception Test items (converted from their release
 * files, some without a key) and a BLINK test item (a native line tagged source "blink") answered
 * through the functions the routes call, then exported in the benchmarks' submission formats, one
 * annotator's or the majority's; the unkeyed answers unscored.
 */

const noFiles = () => Promise.resolve(null);

async function converted(): Promise<ItemLine[]> {
  const ego = await egoschemaFormat.convert(
    JSON.stringify([
      {
        q_uid: "aaaa-1",
        google_drive_id: "x",
        question: "What is C doing overall?",
        "option 0": "cooking",
        "option 1": "cleaning",
        "option 2": "reading",
        "option 3": "painting",
        "option 4": "sleeping",
      },
      { q_uid: "bbbb-2", question: "Why does C open the drawer?", "option 0": "a", "option 1": "b", "option 2": "c", "option 3": "d", "option 4": "e" },
    ]),
    { path: "ego/questions.json", format: "egoschema", files: ["ego/subset_answers.json"] },
    (file) => Promise.resolve(file === "ego/subset_answers.json" ? JSON.stringify({ "aaaa-1": 0 }) : null),
  );
  const pt = await perceptionTestFormat.convert(
    JSON.stringify({
      video_10: {
        metadata: { video_id: "video_10", frame_rate: 30 },
        mc_question: [
          {
            id: 0,
            question: "Where is the ball?",
            options: ["left cup", "middle cup", "right cup"],
            area: "Memory",
            reasoning: "Descriptive",
            tag: ["location"],
          },
        ],
      },
    }),
    { path: "pt/mc_question_test.json", format: "perception-test-mc" },
    noFiles,
  );
  expect([...ego.issues, ...pt.issues]).toEqual([]);
  // BLINK: a native choice line, id = BLINK's idx, options in the order of its `choices`, no key (the test split)
  const blink: ItemLine = {
    id: "test_Art_Style_1",
    kind: "choice",
    public: {
      question: "Which image shares the style of the reference image?",
      options: [
        { id: "A", text: "the second image" },
        { id: "B", text: "the third image" },
      ],
    },
    key: {},
    tags: { source: "blink", sub_task: "Art_Style" },
  };
  return [...ego.items.map((entry) => entry.item), ...pt.items.map((entry) => entry.item), blink];
}

let slug = "";
const annotators: string[] = [];

beforeAll(async () => {
  await resetDatabase();
  const study = await createStudy({ overlap: 3 });
  slug = study.slug;
  const lines = await converted();
  const batch = await db.batch.create({ data: { studyId: study.id, fileName: "release", checksum: randomUUID(), itemCount: lines.length } });
  for (const line of lines) {
    await db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId: line.id,
        kind: line.kind,
        public: line.public as object,
        key: line.key as object,
        tags: line.tags ?? {},
        contentHash: randomUUID(),
      },
    });
  }
  // three people: option ids chosen per item (EgoSchema "aaaa-1" keyed 0; the others withheld)
  const choices: Array<Record<string, string>> = [
    { "aaaa-1": "0", "bbbb-2": "3", "video_10/0": "2", test_Art_Style_1: "B" },
    { "aaaa-1": "1", "bbbb-2": "3", "video_10/0": "1", test_Art_Style_1: "A" },
    { "aaaa-1": "0", "bbbb-2": "4", "video_10/0": "1", test_Art_Style_1: "B" },
  ];
  for (const wanted of choices) {
    const user = await createUser("ANNOTATOR");
    annotators.push(user.id);
    await addMember(study.id, user.id);
    for (;;) {
      const next = await nextForMember(slug, user.id);
      if (next.status !== "item") break;
      const id = next.assignment.assignmentId;
      const item = await db.assignment.findUniqueOrThrow({ where: { id }, select: { item: { select: { externalId: true } } } });
      const answer = { choice: wanted[item.item.externalId] };
      const clientId = randomUUID();
      const t = Date.now();
      await recordEvents(user.id, [
        { assignmentId: id, seq: 0, type: "item_shown", clientTime: t, payload: { kind: "choice", resumed: false } },
        { assignmentId: id, seq: 1, type: "submitted", clientTime: t + 1, payload: { answer, confidence: 3, clientId } },
      ]);
      await submitResponse(user.id, { assignmentId: id, clientId, answer, confidence: 3, wallMs: 1000, activeMs: 1000, submitSeq: 1 });
    }
  }
}, 120_000);
afterAll(async () => {
  await disconnectDb();
});

const read = async (format: string, who: string) => {
  const { stream, fileName } = await createSubmission(slug, format, who, annotators[0]);
  return { fileName, body: JSON.parse(await new Response(stream).text()) as unknown };
};

describe("submission files of benchmarks that withhold their answers", () => {
  it("scores only the keyed items", async () => {
    const responses = await db.response.findMany({ select: { score: true, assignment: { select: { item: { select: { externalId: true } } } } } });
    const scores = responses.map((r) => [r.assignment.item.externalId, r.score] as const);
    expect(
      scores
        .filter(([id]) => id === "aaaa-1")
        .map(([, s]) => (s as { score: number }).score)
        .sort(),
    ).toEqual([0, 1, 1]);
    const options: Record<string, number> = { "bbbb-2": 5, "video_10/0": 3, test_Art_Style_1: 2 };
    for (const [id, score] of scores) if (id !== "aaaa-1") expect(score).toEqual({ correct: null, score: null, options: options[id] });
    expect(scores.filter(([id]) => id === "test_Art_Style_1")).toHaveLength(3);
  });

  it("writes EgoSchema's {q_uid: answer} for the majority and for one person", async () => {
    expect(await read("egoschema", "majority")).toEqual({ fileName: "egoschema-submission.json", body: { "aaaa-1": 0, "bbbb-2": 3 } });
    expect((await read("egoschema", annotators[1])).body).toEqual({ "aaaa-1": 1, "bbbb-2": 3 });
  });

  it("writes Perception Test's {video_id: [{id, answer_id, answer}]}", async () => {
    expect((await read("perception-test-mc", "majority")).body).toEqual({ video_10: [{ id: 0, answer_id: 1, answer: "middle cup" }] });
  });

  it('writes BLINK\'s final prediction file {idx: "(letter)"} for the majority and for one person', async () => {
    expect(await read("blink", "majority")).toEqual({ fileName: "blink-submission.json", body: { test_Art_Style_1: "(B)" } });
    expect((await read("blink", annotators[1])).body).toEqual({ test_Art_Style_1: "(A)" });
  });

  it("lists the submission files a study's items make, for the Exports page", async () => {
    const study = await db.study.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    expect(await studySubmissionFiles(study.id)).toEqual([
      { id: "egoschema", benchmark: "EgoSchema", fileName: "egoschema-submission.json", items: 2 },
      { id: "perception-test-mc", benchmark: expect.any(String), fileName: expect.any(String), items: 1 },
      { id: "blink", benchmark: "BLINK", fileName: "blink-submission.json", items: 1 },
    ]);
    const empty = await createStudy({});
    expect(await studySubmissionFiles(empty.id)).toEqual([]);
  });

  it("names an unknown format and audits each export", async () => {
    await expect(createSubmission(slug, "mmsi-bench", "majority", annotators[0])).rejects.toThrow(
      /No submission format "mmsi-bench"; known: egoschema, perception-test-mc, blink/,
    );
    expect(await db.auditLog.count({ where: { action: "study.submission-export" } })).toBeGreaterThanOrEqual(3);
  });

  it("round-trips: each submission file imported as a model run gives the same options as the person's answers", async () => {
    const study = await db.study.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    for (const who of annotators) {
      const answered = await db.response.findMany({
        where: { assignment: { studyId: study.id, userId: who } },
        select: { answer: true, assignment: { select: { item: { select: { externalId: true } } } } },
      });
      const theirs = Object.fromEntries(answered.map((r) => [r.assignment.item.externalId, (r.answer as { choice: string }).choice]));
      for (const format of ["egoschema", "perception-test-mc", "blink"]) {
        const { stream, fileName } = await createSubmission(slug, format, who, annotators[0]);
        const run = await importModelRun({ studySlug: slug, name: `${format} ${who}`, answersJsonl: await new Response(stream).text(), fileName });
        expect(run.format).toBe(format);
        expect(run.unparsed).toBe(0);
        const predictions = await db.modelPrediction.findMany({
          where: { runId: run.runId },
          select: { answer: true, item: { select: { externalId: true, public: true } } },
        });
        expect(predictions.length).toBeGreaterThan(0);
        for (const p of predictions) {
          expect(chosenOptionId(p.answer as ChoiceReadAnswer, p.item.public as ChoicePublic)).toBe(theirs[p.item.externalId]);
        }
      }
    }
  });
});
