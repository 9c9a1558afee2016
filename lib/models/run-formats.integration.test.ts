import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importModelRun, listModelRuns } from "@/lib/models/runs";
import { convertVsiRow } from "@/lib/tasks/shared/vsi/release";
import { createStudy, resetDatabase } from "@/tests/db-helpers";

/**
 * Model runs imported from the benchmarks' own output files into a study of their items: VSI-Bench
 * rows with their prediction (its unparseable outputs scored 0 and counted, the run kept), OpenEQA's
 * results list, BLINK's per-task outputs; the unparsed count is stored with the run and listed.
 */

const vsiRow = (id: number, ground_truth: string, options: string[] | null) => ({
  id,
  dataset: "arkitscenes",
  scene_name: "41069025",
  question_type: options ? "object_rel_distance" : "object_counting",
  question: "Which is closest to the door?",
  options,
  ground_truth,
});
const ABC = ["A. chair", "B. table", "C. lamp"];
const ROWS = [vsiRow(1, "B", ABC), vsiRow(2, "C", ABC), vsiRow(3, "B", ABC), vsiRow(4, "2", null)];

let slug = "";
let studyId = "";

beforeAll(async () => {
  await resetDatabase();
  const study = await createStudy();
  slug = study.slug;
  studyId = study.id;
  const items = [
    ...ROWS.map((row, i) => convertVsiRow(row, { file: "vsi.jsonl", line: i + 1 })),
    { id: "q-1", kind: "free-text", public: { question: "What colour is the sofa?" }, key: { answer: "red" }, tags: { source: "openeqa" } },
    { id: "q-2", kind: "free-text", public: { question: "How many chairs?" }, key: { answer: "two" }, tags: { source: "openeqa" } },
    {
      id: "val_Counting_1",
      kind: "choice",
      public: { question: "How many?", options: ["one", "two", "three"].map((text, i) => ({ id: "ABC"[i], text })) },
      key: { answer: "B" },
      tags: { source: "blink" },
    },
  ];
  const batch = await db.batch.create({ data: { studyId, fileName: "release", checksum: randomUUID(), itemCount: items.length } });
  for (const item of items)
    await db.item.create({
      data: {
        studyId,
        batchId: batch.id,
        externalId: item.id,
        kind: item.kind,
        public: item.public,
        key: item.key,
        tags: item.tags,
        contentHash: randomUUID(),
      },
    });
});
afterAll(async () => {
  await disconnectDb();
});

const rowsOf = (predictions: string[]) => predictions.map((prediction, i) => JSON.stringify({ ...ROWS[i], prediction })).join("\n") + "\n";

describe("model runs in the benchmarks' own output formats", () => {
  it("VSI-Bench rows: '(C)' and 'The answer is B' are scored 0 as its parser scores them, counted unparsed, and the run is kept", async () => {
    const result = await importModelRun({
      studySlug: slug,
      name: "vsi run",
      fileName: "vsi-predictions.jsonl",
      answersJsonl: rowsOf(["B", "(C)", "The answer is B", "2"]),
    });
    expect(result).toMatchObject({ format: "vsi-bench", scored: 4, unparsed: 2 });
    expect(result.message).toContain("2 unparsed");
    const rows = await db.modelPrediction.findMany({ where: { runId: result.runId }, select: { correct: true, item: { select: { externalId: true } } } });
    expect(Object.fromEntries(rows.map((row) => [row.item.externalId, row.correct]))).toEqual({ "1": true, "2": false, "3": false, "4": true });
    expect((await listModelRuns(studyId)).find((run) => run.name === "vsi run")).toMatchObject({ predictions: 4, unparsed: 2 });
  });

  it("OpenEQA's results list and BLINK's per-task outputs", async () => {
    const openEqa = await importModelRun({
      studySlug: slug,
      name: "openeqa run",
      fileName: "gpt4-results.json",
      answersJsonl: JSON.stringify([
        { question_id: "q-1", answer: "Red." },
        { question_id: "q-2", answer: "Two chairs" },
      ]),
    });
    expect(openEqa).toMatchObject({ format: "openeqa-results", scored: 2, unparsed: 0 });
    const blink = await importModelRun({
      studySlug: slug,
      name: "blink run",
      fileName: "Counting.json",
      answersJsonl: JSON.stringify({ val: [{ idx: "val_Counting_1", answer: "(B)", full_prediction: "There are two. (B)", prediction: "(B)" }] }),
    });
    expect(blink).toMatchObject({ format: "blink-outputs", scored: 1, unparsed: 0 });
    expect(await db.modelPrediction.findFirstOrThrow({ where: { runId: blink.runId }, select: { correct: true } })).toEqual({ correct: true });
  });

  it("an unknown id in a document names its entry and line, and nothing is stored", async () => {
    const error = (await importModelRun({
      studySlug: slug,
      name: "bad run",
      fileName: "results.json",
      answersJsonl: JSON.stringify(
        [
          { question_id: "q-1", answer: "Red." },
          { question_id: "q-9", answer: "?" },
        ],
        null,
        2,
      ),
    }).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.message).toContain('results.json entry 2 (line 6) (id): no item "q-9"');
    expect(await db.modelRun.count({ where: { name: "bad run" } })).toBe(0);
  });
});
