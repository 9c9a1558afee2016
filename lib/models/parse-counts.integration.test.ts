import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * Model runs of the generic kinds read with the benchmarks' answer parsers: the import's
 * message counts what was read strictly, what was recovered from longer text and what could not be
 * read (unparsed, stored with the run) and was scored as the benchmark scores it: wrong; the scores
 * are the kinds' own.
 * choice: VSI-Bench's letter (the text before the first space, trailing dots removed); numeric:
 * VSI-Bench's to_float(fuzzy_matching(pred)); free-text: OpenEQA's cut after the last period.
 */

const ITEMS = [
  // choice: a letter is the option at that place in the item's own order
  {
    id: "c1",
    kind: "choice",
    public: {
      question: "Which colour?",
      options: [
        { id: "red", text: "red" },
        { id: "blue", text: "blue" },
        { id: "green", text: "green" },
      ],
    },
    key: { answer: "blue" },
  },
  {
    id: "c2",
    kind: "choice",
    public: { question: "Which one?", options: ["chair", "table", "lamp", "sofa"].map((id) => ({ id, text: id })) },
    key: { answer: "sofa" },
  },
  {
    id: "c3",
    kind: "choice",
    public: {
      question: "Yes or no?",
      options: [
        { id: "yes", text: "yes" },
        { id: "no", text: "no" },
      ],
    },
    key: { answer: "yes" },
  },
  {
    id: "c4",
    kind: "choice",
    public: {
      question: "Withheld?",
      options: [
        { id: "0", text: "a" },
        { id: "1", text: "b" },
        { id: "2", text: "c" },
      ],
    },
    key: {},
  },
  {
    id: "c5",
    kind: "choice",
    public: {
      question: "Three options",
      options: [
        { id: "x", text: "x" },
        { id: "y", text: "y" },
        { id: "z", text: "z" },
      ],
    },
    key: { answer: "x" },
  },
  // numeric
  { id: "n1", kind: "numeric", public: { question: "How many?" }, key: { answer: 10, metric: "mra" } },
  { id: "n2", kind: "numeric", public: { question: "How far?", unit: "meters" }, key: { answer: 2, metric: "exact" } },
  { id: "n3", kind: "numeric", public: { question: "How many chairs?" }, key: { answer: 3, metric: "mra" } },
  { id: "n4", kind: "numeric", public: { question: "How long?" }, key: { answer: 3, metric: "mra" } },
  { id: "n5", kind: "numeric", public: { question: "How wide?" }, key: { answer: 5, metric: "abs", tolerance: 0.5 } },
  { id: "n6", kind: "numeric", public: { question: "How tall?" }, key: { answer: 4, metric: "mra" } },
  // free-text
  { id: "f1", kind: "free-text", public: { question: "What colour is the sofa?" }, key: { answer: "Red" } },
  { id: "f2", kind: "free-text", public: { question: "How many chairs?" }, key: { answer: "Two" } },
  { id: "f3", kind: "free-text", public: { question: "What is by the sofa?" }, key: { answer: "A side table" } },
];

const lines = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join("\n") + "\n";

let slug = "";
let folder = "";

beforeAll(async () => {
  await resetDatabase();
  folder = await mkdtemp(path.join(tmpdir(), "parse-counts-"));
  await writeFile(path.join(folder, "items.jsonl"), lines(...ITEMS));
  const admin = await createUser("ADMIN");
  slug = (await createStudy()).slug;
  await importBatchFromPath(folder, { studySlug: slug, importedById: admin.id });
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await disconnectDb();
});

async function predictions(runId: string) {
  const rows = await db.modelPrediction.findMany({
    where: { runId },
    select: { answer: true, score: true, correct: true, item: { select: { externalId: true } } },
  });
  return Object.fromEntries(rows.map((row) => [row.item.externalId, { answer: row.answer, score: row.score, correct: row.correct }]));
}

describe("model runs of the generic kinds: parse counts and scores", () => {
  it("choice: one letter strict, a letter before the first space recovered; scored by the option at that place, the withheld item not at all", async () => {
    const result = await importModelRun({
      studySlug: slug,
      name: "choice run",
      fileName: "choice.jsonl",
      answersJsonl: lines(
        { id: "c1", answer: "B" }, // strict: blue, right
        { id: "c2", answer: "D. sofa, by the window" }, // recovered "D": sofa, right
        { id: "c3", answer: "b" }, // strict (one letter, any case): no, wrong
        { id: "c4", answer: "A." }, // recovered "A"; withheld: not scored
        { id: "c5", answer: { choice: "z" } }, // an answer object: strict, wrong
      ),
    });
    expect(result.scored).toBe(5);
    expect(result.message).toContain("Parsing: 3 strict, 2 recovered from surrounding text.");
    expect(result.message).not.toContain("unreadable");
    // 2 right of the 4 scored; chance the mean of 1/options over the same 4: (1/3 + 1/4 + 1/2 + 1/3) / 4
    expect(result.message).toContain("choice: accuracy 50.00%, chance 35.42% (n=5)");
    const byId = await predictions(result.runId);
    expect(byId.c1).toEqual({ answer: { letter: "B" }, score: { correct: true, score: 1, options: 3 }, correct: true });
    expect(byId.c2).toEqual({ answer: { letter: "D" }, score: { correct: true, score: 1, options: 4 }, correct: true });
    expect(byId.c3).toEqual({ answer: { letter: "B" }, score: { correct: false, score: 0, options: 2 }, correct: false });
    expect(byId.c4).toEqual({ answer: { letter: "A" }, score: { correct: null, score: null, options: 3 }, correct: null });
    expect(byId.c5).toEqual({ answer: { choice: "z" }, score: { correct: false, score: 0, options: 3 }, correct: false });
  });

  it("choice: a letter past the item's options is read and scored wrong; text without a letter first is unparsed: scored wrong, counted, the run kept", async () => {
    // "I think ..." starts with the letter I, as VSI-Bench's fuzzy_matching reads it: recovered, and wrong on a 4-option item
    const read = await importModelRun({
      studySlug: slug,
      name: "choice run E",
      fileName: "e.jsonl",
      answersJsonl: lines({ id: "c1", answer: "E" }, { id: "c2", answer: "I think it is the sofa" }),
    });
    expect(read.message).toContain("Parsing: 1 strict, 1 recovered from surrounding text.");
    const byId = await predictions(read.runId);
    expect(byId.c1).toMatchObject({ answer: { letter: "E" }, score: { correct: false, score: 0 } });
    expect(byId.c2).toMatchObject({ answer: { letter: "I" }, score: { correct: false, score: 0 } });

    // the release's parser reads no option from "The sofa": scored wrong and counted, the run kept
    const unparsed = await importModelRun({
      studySlug: slug,
      name: "choice run unparsed",
      fileName: "unparsed.jsonl",
      answersJsonl: lines({ id: "c1", answer: "B" }, { id: "c2", answer: "The sofa" }),
    });
    expect(unparsed.unparsed).toBe(1);
    expect(unparsed.scored).toBe(2);
    expect(unparsed.message).toContain(
      "Parsing: 1 strict, 0 recovered from surrounding text, 1 unparsed (scored as the benchmark's parser scores them: wrong).",
    );
    const unparsedById = await predictions(unparsed.runId);
    expect(unparsedById.c1).toMatchObject({ correct: true });
    expect(unparsedById.c2).toMatchObject({ answer: { letter: "" }, score: { correct: false, score: 0 }, correct: false });
    expect(await db.modelRun.findUniqueOrThrow({ where: { id: unparsed.runId }, select: { unparsed: true } })).toEqual({ unparsed: 1 });
  });

  it('numeric: a whole number strict, a number before the first space recovered, anything else unreadable and scored 0 ("about 3" included, as VSI-Bench reads it)', async () => {
    const result = await importModelRun({
      studySlug: slug,
      name: "numeric run",
      fileName: "numeric.jsonl",
      answersJsonl: lines(
        { id: "n1", answer: "11" }, // strict; MRA of 11 against 10: 0.9
        { id: "n2", answer: "2 meters" }, // recovered 2; exact: 1
        { id: "n3", answer: "about 3" }, // unreadable: 0, invalid
        { id: "n4", answer: 2.5 }, // a JSON number: strict; MRA of 2.5 against 3: 0.7
        { id: "n5", answer: "5.4." }, // recovered 5.4 (trailing dot removed); within 0.5 of 5: 1
        { id: "n6", answer: "nan" }, // Python reads nan, not a finite number: unreadable, 0
      ),
    });
    expect(result.scored).toBe(6);
    expect(result.message).toContain("Parsing: 2 strict, 2 recovered from surrounding text, 2 unparsed (scored as the benchmark's parser scores them: wrong).");
    expect(result.unparsed).toBe(2);
    // (0.9 + 1 + 0 + 0.7 + 1 + 0) / 6
    expect(result.message).toContain("numeric: score 60.00%, invalid 2 (n=6)");
    const byId = await predictions(result.runId);
    expect(byId.n1).toEqual({ answer: { value: 11 }, score: { score: 0.9, invalid: false }, correct: false });
    expect(byId.n2).toEqual({ answer: { value: 2 }, score: { score: 1, invalid: false }, correct: true });
    expect(byId.n3).toEqual({ answer: { value: null }, score: { score: 0, invalid: true }, correct: false });
    expect(byId.n4).toEqual({ answer: { value: 2.5 }, score: { score: 0.7, invalid: false }, correct: false });
    expect(byId.n5).toEqual({ answer: { value: 5.4 }, score: { score: 1, invalid: false }, correct: true });
    expect(byId.n6).toEqual({ answer: { value: null }, score: { score: 0, invalid: true }, correct: false });
  });

  it("free-text: whole text and answer objects strict, text cut after its last period recovered, anything else refused", async () => {
    const result = await importModelRun({
      studySlug: slug,
      name: "free-text run",
      fileName: "free-text.jsonl",
      answersJsonl: lines(
        { id: "f1", answer: "The sofa is red." }, // strict
        { id: "f2", answer: "Four chairs. Maybe two" }, // cut to "Four chairs.": recovered
        { id: "f3", answer: { text: "A lamp", grade: 2 } }, // graded elsewhere: strict, 25
      ),
    });
    expect(result.scored).toBe(3);
    expect(result.message).toContain("Parsing: 2 strict, 1 recovered from surrounding text.");
    expect(result.message).toContain("free-text: score 25 (n=3)");
    const byId = await predictions(result.runId);
    expect(byId.f1).toMatchObject({ answer: { text: "The sofa is red." }, score: { grade: null, score: null } });
    expect(byId.f2).toMatchObject({ answer: { text: "Four chairs." }, score: { grade: null, score: null } });
    expect(byId.f3).toMatchObject({ answer: { text: "A lamp", grade: 2 }, score: { grade: 2, score: 25 } });

    const refused = (await importModelRun({
      studySlug: slug,
      name: "free-text bad",
      fileName: "ft.jsonl",
      answersJsonl: lines({ id: "f1", answer: 42 }),
    }).catch((e: unknown) => e)) as AppError;
    expect(refused.message).toContain(
      'ft.jsonl line 1 (answer): cannot read an answer for free-text item "f1" from 42 (neither text nor a {text, grade?} answer)',
    );
  });

  it("counts over a run of several kinds together", async () => {
    const result = await importModelRun({
      studySlug: slug,
      name: "mixed run",
      fileName: "mixed.jsonl",
      answersJsonl: lines({ id: "c1", answer: "B" }, { id: "n1", answer: "10 chairs" }, { id: "n3", answer: "about 3" }, { id: "f1", answer: "Red. Surely" }),
    });
    expect(result.message).toContain("Parsing: 1 strict, 2 recovered from surrounding text, 1 unparsed (scored as the benchmark's parser scores them: wrong).");
    expect(result.message).toMatch(/^ {2}choice: accuracy 100\.00%, chance 33\.33% \(n=1\)$/m);
    expect(result.message).toMatch(/^ {2}numeric: score 50\.00%, invalid 1 \(n=2\)$/m);
  });
});
