import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { ALL } from "@/lib/dashboard/accuracy";
import { getAnnotatorsOverview } from "@/lib/dashboard/annotators";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { importModelRun } from "@/lib/models/runs";
import type { LlmScorerConfig } from "@/lib/scoring/llm-chat";
import { createLlmScoringJob, getLlmScoringStatus, getScoringJob } from "@/lib/scoring/llm-jobs";
import { runScoringJobsUntilIdle } from "@/lib/scoring/runner";
import { krippendorffAlpha } from "@/lib/stats/krippendorff-alpha";
import type { FreeTextSection } from "@/lib/tasks/free-text/dashboard";
import { JUDGE_SYSTEM_PROMPT } from "@/lib/tasks/free-text/judge";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The free-text LLM judge end to end against real PostgreSQL and a stand-in OpenAI-compatible
 * chat-completions server on a free loopback port (no model runs here): the background job grades
 * every answer and model prediction once, with the judge's temperature and seed in each request and
 * stored with each grade; a second study with the same answers gets its grades from the cache (no
 * request); the dashboard's LLM-Match per category, and judge-human alpha from a grading study
 * built from the section's own grading batch.
 */

interface ChatRequest {
  model: string;
  temperature: number;
  seed: number;
  max_tokens?: number;
  messages: Array<{ role: string; content: string }>;
}

const received: ChatRequest[] = [];
let server: Server;
let url = "";

/** The stand-in's rule: 5 when the answer holds a reference, 3 when it shares a word of 4+ letters with one, else 1. */
function standInGrade(answer: string, references: string[]): number {
  const norm = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  const a = norm(answer);
  if (references.some((reference) => a.includes(norm(reference)))) return 5;
  const words = new Set(a.split(" ").filter((word) => word.length >= 4));
  return references.some((reference) =>
    norm(reference)
      .split(" ")
      .some((word) => words.has(word)),
  )
    ? 3
    : 1;
}

/** What a prompt of the stand-in prompt files says (Answer, Extra Answers as a Python list, Response). */
function readFilePrompt(prompt: string): { references: string[]; answer: string } {
  const extra = /\nExtra Answers: (\[.*\])\n/.exec(prompt)?.[1];
  return {
    references: [/\nAnswer: (.*)\n/.exec(prompt)![1], ...(extra ? (JSON.parse(extra.replace(/'/g, '"')) as string[]) : [])],
    answer: /\nResponse: (.*)\n/.exec(prompt)![1],
  };
}

/** What the prompt says: its references and the answer to grade, each in its tags (judgeField). */
function readPrompt(prompt: string): { references: string[]; answer: string } {
  const fields = (tag: string) =>
    [...prompt.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((match) =>
      match[1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
    );
  return { references: fields("reference"), answer: fields("answer")[0] ?? "" };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as ChatRequest;
      received.push(parsed);
      const prompt = parsed.messages.at(-1)?.content ?? "";
      // the stand-in prompt files end "Your mark:", and their judge replies that way
      const fromFile = prompt.endsWith("Your mark:");
      const { references, answer } = fromFile ? readFilePrompt(prompt) : readPrompt(prompt);
      const grade = standInGrade(answer, references);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: randomUUID(),
          object: "chat.completion",
          model: parsed.model,
          choices: [{ index: 0, message: { role: "assistant", content: fromFile ? `Your mark: ${grade}` : `Grade: ${grade}` }, finish_reason: "stop" }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await disconnectDb();
});

const config = (): LlmScorerConfig => ({ url, model: "judge-llm", concurrency: 2 });
const fastRetry = { retries: 1, minTimeout: 5, maxTimeout: 20 };

const ITEMS = [
  { id: "q1", question: "What color is the sofa?", answer: "Red", category: "attribute recognition" },
  {
    id: "q2",
    question: "Where is the mirror?",
    answer: "Next to the staircase",
    extra: ["by the stairs", "over the drawers in the hallway"],
    category: "object localization",
  },
  { id: "q3", question: "Is the front door open?", answer: "No", category: "object state recognition" },
];

async function seedStudy(people: Array<{ item: string; text: string }>, predictions: Record<string, string>) {
  const study = await createStudy();
  const batch = await db.batch.create({ data: { studyId: study.id, fileName: "items.jsonl", checksum: randomUUID(), itemCount: ITEMS.length } });
  const items = new Map<string, { id: string }>();
  for (const item of ITEMS) {
    items.set(
      item.id,
      await db.item.create({
        data: {
          studyId: study.id,
          batchId: batch.id,
          externalId: item.id,
          kind: "free-text",
          public: { question: item.question },
          key: { answer: item.answer, ...(item.extra ? { extraAnswers: item.extra } : {}) },
          tags: { category: item.category },
          contentHash: randomUUID(),
        },
      }),
    );
  }
  let position = 0;
  for (const answer of people) {
    const user = await createUser("ANNOTATOR");
    const assignment = await db.assignment.create({
      data: { studyId: study.id, itemId: items.get(answer.item)!.id, userId: user.id, status: "SUBMITTED", position: position++, submittedAt: new Date() },
    });
    await db.response.create({
      data: {
        assignmentId: assignment.id,
        clientId: randomUUID(),
        answer: { text: answer.text },
        confidenceRaw: 4,
        confidence: 0.75,
        wallMs: 1000,
        activeMs: 900,
        score: { grade: null, score: null } as Prisma.InputJsonValue,
        correct: null,
      },
    });
  }
  const run = await importModelRun({
    studySlug: study.slug,
    name: "Model X",
    fileName: "answers.jsonl",
    answersJsonl: Object.entries(predictions)
      .map(([id, answer]) => JSON.stringify({ id, answer }))
      .join("\n"),
  });
  return { study, run };
}

const PEOPLE = [
  { item: "q1", text: "It is red" },
  { item: "q1", text: "It is red" },
  { item: "q2", text: "Right by the stairs" },
  { item: "q3", text: "The door is open" },
];
// the model's text after its last period is cut, as OpenEQA's evaluate-predictions.py does
const MODEL = { q1: "Blue. I think", q2: "Near the staircase.", q3: "No." };

const referencesOf = (id: string) => {
  const item = ITEMS.find((entry) => entry.id === id)!;
  return [item.answer, ...(item.extra ?? [])];
};

describe("free-text LLM judge", () => {
  const env = { temperature: process.env.FREE_TEXT_JUDGE_TEMPERATURE, seed: process.env.FREE_TEXT_JUDGE_SEED };
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
    received.length = 0;
    process.env.FREE_TEXT_JUDGE_TEMPERATURE = "0.2";
    process.env.FREE_TEXT_JUDGE_SEED = "7";
  });
  afterEach(() => {
    for (const [name, value] of [
      ["FREE_TEXT_JUDGE_TEMPERATURE", env.temperature],
      ["FREE_TEXT_JUDGE_SEED", env.seed],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("grades every answer once in a background job, stores the judge with each grade, and a second study's same answers come from the cache", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study } = await seedStudy(PEOPLE, MODEL);
    const { job, created } = await createLlmScoringJob(study.slug, researcher.id, config(), null);
    expect(created).toBe(true);
    expect(job).toMatchObject({ kind: "free-text", model: "judge-llm", promptVersion: "llm-match-v2;temperature=0.2;seed=7" });
    expect(await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r1" })).toBe(1);
    const done = (await getScoringJob(job.id))!;
    // 4 answers + 3 predictions; the two identical answers to q1 share one request
    expect(done).toMatchObject({ status: "DONE", total: 7, done: 7, failed: 0 });
    expect(received).toHaveLength(6);
    expect(done.requests).toBe(6);
    for (const request of received) {
      expect(request).toMatchObject({ model: "judge-llm", temperature: 0.2, seed: 7 });
      expect(request.messages[0]).toEqual({ role: "system", content: JUDGE_SYSTEM_PROMPT });
    }
    // extra reference answers reach the judge
    const q2Prompt = received
      .map((request) => request.messages[1].content)
      .find((content) => content.startsWith("Question: <question>Where is the mirror?</question>"))!;
    expect(readPrompt(q2Prompt).references).toEqual(referencesOf("q2"));

    const results = await db.scorerResult.findMany({
      select: {
        score: true,
        model: true,
        promptVersion: true,
        response: { select: { answer: true, assignment: { select: { item: { select: { externalId: true } } } } } },
        prediction: { select: { answer: true, item: { select: { externalId: true } } } },
      },
    });
    expect(results).toHaveLength(7);
    for (const row of results) {
      const itemId = row.response?.assignment.item.externalId ?? row.prediction!.item.externalId;
      const text = ((row.response?.answer ?? row.prediction?.answer) as { text: string }).text;
      const grade = standInGrade(text, referencesOf(itemId));
      expect(row.score).toEqual({
        grade,
        score: (100 * (grade - 1)) / 4,
        judge: { model: "judge-llm", promptVersion: "llm-match-v2;temperature=0.2;seed=7", temperature: 0.2, seed: 7 },
        references: referencesOf(itemId).length,
      });
    }
    // the model's "Blue. I think" was judged as "Blue."
    expect(received.some((request) => request.messages[1].content.includes("Answer to grade: <answer>Blue.</answer>\n"))).toBe(true);
    expect((await getLlmScoringStatus(study.id, config(), "free-text")).unscored).toEqual({ responses: 0, predictions: 0 });

    // another study, the same questions and answers: every grade from the cache, no request
    const before = received.length;
    const second = await seedStudy(PEOPLE.slice(0, 2), { q3: "No." });
    const again = await createLlmScoringJob(second.study.slug, researcher.id, config(), null);
    await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r2" });
    expect(await getScoringJob(again.job.id)).toMatchObject({ status: "DONE", done: 3, requests: 0, cacheHits: 3 });
    expect(received.length).toBe(before);

    // another seed is another judge configuration: asked again
    process.env.FREE_TEXT_JUDGE_SEED = "8";
    const reseeded = await createLlmScoringJob(second.study.slug, researcher.id, config(), null);
    expect(reseeded.job.promptVersion).toBe("llm-match-v2;temperature=0.2;seed=8");
    await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r3" });
    // two distinct prompts (the two identical answers share one request in flight)
    expect(await getScoringJob(reseeded.job.id)).toMatchObject({ status: "DONE", done: 3, requests: 2, cacheHits: 0 });
    expect(received.slice(before).every((request) => request.seed === 8)).toBe(true);
  });

  it("shows LLM-Match per category and measures the judge against people who graded the section's grading batch", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study } = await seedStudy(PEOPLE, MODEL);
    await createLlmScoringJob(study.slug, researcher.id, config(), null);
    await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r1" });

    const section = (await getStudyDashboard(study.slug, {})).sections.freeText as FreeTextSection;
    // questions without a video or frames: no watch figures
    expect(section.watch).toBeNull();
    expect(section.judge).toMatchObject({ model: "judge-llm", temperature: 0.2, seed: 7, synthetic: false, graded: 7 });
    const grade = (item: string, text: string) => standInGrade(text, referencesOf(item));
    const peopleAll = PEOPLE.map((answer) => grade(answer.item, answer.text));
    const mean = (grades: number[]) => grades.reduce((sum, g) => sum + (100 * (g - 1)) / 4, 0) / grades.length;
    const all = section.rows.find((row) => row.category === "All")!;
    expect(all.cells[0]).toEqual({ graded: 4, score: mean(peopleAll) });
    const modelGrades = [grade("q1", "Blue."), grade("q2", "Near the staircase."), grade("q3", "No.")];
    expect(all.cells[1]).toEqual({ graded: 3, score: mean(modelGrades) });
    const attribute = section.rows.find((row) => row.category === "attribute recognition")!;
    expect(attribute.cells[0]).toEqual({ graded: 2, score: mean([grade("q1", "It is red"), grade("q1", "It is red")]) });
    expect(section.distribution.people).toEqual([1, 2, 3, 4, 5].map((g) => peopleAll.filter((x) => x === g).length));
    expect(section.ungraded).toEqual({ people: 0, models: 0 });
    expect(section.agreement.judgeHuman).toBeNull();

    // the grading batch: every answer (7 < the sample cap), never the judge's grade
    const lines = section.gradingBatch.jsonl
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            id: string;
            kind: string;
            public: { answer: string };
            key: { source: { study: string; response?: string; prediction?: string } };
          },
      );
    expect(lines).toHaveLength(7);
    for (const line of lines) {
      expect(line.kind).toBe("free-text-grade");
      expect(line.key.source.study).toBe(study.id);
      expect(JSON.stringify(line)).not.toMatch(/"grade"|judge-llm/);
    }

    // a grading study of that batch, two graders: one agrees with the judge, one is one grade lower where it can be
    const gradingStudy = await createStudy();
    const batch = await db.batch.create({ data: { studyId: gradingStudy.id, fileName: "grading.jsonl", checksum: randomUUID(), itemCount: lines.length } });
    const judgeGradeOf = async (source: { response?: string; prediction?: string }) => {
      const row = await db.scorerResult.findFirst({
        where: source.response ? { responseId: source.response } : { predictionId: source.prediction },
        select: { score: true },
      });
      return (row!.score as { grade: number }).grade;
    };
    const graders = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    const units: number[][] = [];
    let position = 0;
    for (const line of lines) {
      const item = await db.item.create({
        data: {
          studyId: gradingStudy.id,
          batchId: batch.id,
          externalId: line.id,
          kind: line.kind,
          public: line.public as Prisma.InputJsonValue,
          key: line.key as Prisma.InputJsonValue,
          contentHash: randomUUID(),
        },
      });
      const judged = await judgeGradeOf(line.key.source);
      const given = [judged, Math.max(1, judged - 1)];
      units.push([judged, ...given]);
      for (const [i, grader] of graders.entries()) {
        const assignment = await db.assignment.create({
          data: { studyId: gradingStudy.id, itemId: item.id, userId: grader.id, status: "SUBMITTED", position: position++, submittedAt: new Date() },
        });
        await db.response.create({
          data: {
            assignmentId: assignment.id,
            clientId: randomUUID(),
            answer: { grade: given[i] },
            confidenceRaw: 4,
            confidence: 0.75,
            wallMs: 1000,
            activeMs: 900,
            score: { grade: given[i] },
            correct: false,
          },
        });
      }
    }
    clearDashboardCaches();
    const graded = (await getStudyDashboard(study.slug, {})).sections.freeText as FreeTextSection;
    // coders: the judge, grader 1, grader 2; units: the answers
    const expected = krippendorffAlpha([units.map((u) => u[0]), units.map((u) => u[1]), units.map((u) => u[2])], "interval");
    expect(graded.agreement.judgeHuman!.alpha).toBeCloseTo(expected.alpha!, 12);
    expect(graded.agreement.judgeHuman!.units).toBe(7);
    expect(graded.agreement.judgeHuman!.ci).not.toBeNull();
    const people = krippendorffAlpha([units.map((u) => u[1]), units.map((u) => u[2])], "interval");
    expect(graded.agreement.humanHuman!.alpha).toBeCloseTo(people.alpha!, 12);
    expect(graded.agreement).toMatchObject({ gradingItems: 7, humanGrades: 14, graders: 2 });
  });

  it("a job started without a kind scores every LLM-scored kind the study has, and each kind's panel shows its own jobs", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study } = await seedStudy(PEOPLE, MODEL);
    const batch = await db.batch.create({ data: { studyId: study.id, fileName: "scenes.jsonl", checksum: randomUUID(), itemCount: 1 } });
    await db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId: "scene-1",
        kind: "explore-scene",
        public: { initialImage: "/img/s1.jpg", actions: ["C opens the drawer"] },
        key: {},
        contentHash: randomUUID(),
      },
    });
    const started = await createLlmScoringJob(study.slug, researcher.id, config(), null);
    expect(started.created).toBe(true);
    expect(started.jobs.map((job) => job.kind).sort()).toEqual(["explore-scene", "free-text"]);
    // a second start finds both unfinished jobs
    const again = await createLlmScoringJob(study.slug, researcher.id, config(), null);
    expect(again.created).toBe(false);
    expect(again.jobs.map((job) => job.id).sort()).toEqual(started.jobs.map((job) => job.id).sort());
    expect((await getLlmScoringStatus(study.id, config(), "free-text")).jobs.map((job) => job.kind)).toEqual(["free-text"]);
    expect((await getLlmScoringStatus(study.id, config(), "explore-scene")).jobs.map((job) => job.kind)).toEqual(["explore-scene"]);
    expect(await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r-both" })).toBe(2);
    expect((await getLlmScoringStatus(study.id, config(), "free-text")).unscored).toEqual({ responses: 0, predictions: 0 });
  });

  it("the main accuracy table reads the judge's grades: people's and the model run's LLM-Match equal the section's, on a dashboard loaded before the job", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study, run } = await seedStudy(PEOPLE, MODEL);
    const before = await getStudyDashboard(study.slug, {});
    const llmMatchOf = (dashboard: typeof before, series: string) =>
      [...dashboard.accuracy.rows, ...dashboard.accuracy.modelRows].find((row) => row.series === series && row.kind === "free-text")?.cells[ALL]?.metrics.score
        ?.value ?? null;
    expect(llmMatchOf(before, "humans")).toBeNull();
    expect(llmMatchOf(before, run.runId)).toBeNull();

    await createLlmScoringJob(study.slug, researcher.id, config(), null);
    await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r1" });
    // no cache cleared: the judge's grades are a change of the study's data
    const after = await getStudyDashboard(study.slug, {});
    const all = (after.sections.freeText as FreeTextSection).rows.find((row) => row.category === "All")!;
    expect(all.cells[0].score).not.toBeNull();
    expect(llmMatchOf(after, "humans")).toBeCloseTo(all.cells[0].score!, 9);
    expect(llmMatchOf(after, run.runId)).toBeCloseTo(all.cells[1].score!, 9);
    const stored = await db.modelPrediction.findMany({ select: { score: true, answer: true, item: { select: { externalId: true } } } });
    for (const row of stored) {
      const grade = standInGrade((row.answer as { text: string }).text, referencesOf(row.item.externalId));
      expect(row.score).toEqual({ grade, score: (100 * (grade - 1)) / 4 });
    }
  });

  it("a job that grades only a model run's answers is a change of the study's data: the figures cached before it are not served after", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study, run } = await seedStudy([], MODEL);
    const modelCell = async () =>
      (await getStudyDashboard(study.slug, {})).accuracy.modelRows.find((row) => row.series === run.runId)?.cells[ALL]?.metrics.score?.value ?? null;
    expect(await modelCell()).toBeNull();
    await createLlmScoringJob(study.slug, researcher.id, config(), null);
    await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r1" });
    const grades = [
      standInGrade("Blue.", referencesOf("q1")),
      standInGrade("Near the staircase.", referencesOf("q2")),
      standInGrade("No.", referencesOf("q3")),
    ];
    expect(await modelCell()).toBeCloseTo(grades.reduce((sum, g) => sum + (100 * (g - 1)) / 4, 0) / grades.length, 9);
  });

  it("an answer's correctness is unknown until the judge grades it, then a grade of 4 or 5 is right: calibration and per-annotator accuracy count only graded answers", async () => {
    const researcher = await createUser("RESEARCHER");
    const { study } = await seedStudy(PEOPLE, MODEL);
    // imported model outputs without a grade: no correctness yet
    expect((await db.modelPrediction.findMany({ select: { correct: true } })).map((p) => p.correct)).toEqual([null, null, null]);
    const before = await getStudyDashboard(study.slug, {});
    expect(before.calibration).toBeNull();
    const annotatorsBefore = await getAnnotatorsOverview(study.slug, {});
    for (const row of annotatorsBefore.rows) expect(row).toMatchObject({ accuracy: null, withoutCorrectness: 1 });

    await createLlmScoringJob(study.slug, researcher.id, config(), null);
    await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r1" });
    const responses = await db.response.findMany({
      select: { correct: true, answer: true, assignment: { select: { item: { select: { externalId: true } } } } },
    });
    for (const row of responses)
      expect(row.correct).toBe(standInGrade((row.answer as { text: string }).text, referencesOf(row.assignment.item.externalId)) >= 4);
    const predictions = await db.modelPrediction.findMany({ select: { correct: true, answer: true, item: { select: { externalId: true } } } });
    for (const row of predictions) expect(row.correct).toBe(standInGrade((row.answer as { text: string }).text, referencesOf(row.item.externalId)) >= 4);

    clearDashboardCaches();
    const after = await getStudyDashboard(study.slug, {});
    const right = PEOPLE.filter((answer) => standInGrade(answer.text, referencesOf(answer.item)) >= 4).length;
    expect(after.calibration).toMatchObject({ n: 4, withoutCorrectness: 0, right, wrong: 4 - right });
    const annotators = await getAnnotatorsOverview(study.slug, {});
    expect(annotators.rows.reduce((sum, row) => sum + (row.accuracy?.correct ?? 0), 0)).toBe(right);
    for (const row of annotators.rows) expect(row.withoutCorrectness).toBe(0);
  });

  it("judges with the benchmark's prompt file when one is configured: read at run time, filled, sent alone with OpenEQA's settings, its sha256 recorded with each grade and named on the page", async () => {
    const fixtures = path.join(import.meta.dirname, "__fixtures__");
    const main = path.join(fixtures, "stand-in-prompt.txt");
    const extra = path.join(fixtures, "stand-in-prompt-extra.txt");
    const sha = (file: string) => createHash("sha256").update(readFileSync(file, "utf8").trim(), "utf8").digest("hex");
    delete process.env.FREE_TEXT_JUDGE_TEMPERATURE;
    delete process.env.FREE_TEXT_JUDGE_SEED;
    process.env.FREE_TEXT_JUDGE_PROMPT_FILE = main;
    process.env.FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE = extra;
    try {
      const researcher = await createUser("RESEARCHER");
      const { study } = await seedStudy(PEOPLE, MODEL);
      const { job } = await createLlmScoringJob(study.slug, researcher.id, config(), null);
      const version = `file:${sha(main)},${sha(extra)};temperature=0.2;seed=1234;max_tokens=32`;
      expect(job.promptVersion).toBe(version);
      await runScoringJobsUntilIdle({ config: config(), embedder: null, retry: fastRetry, runnerId: "r-file" });
      expect(await getScoringJob(job.id)).toMatchObject({ status: "DONE", done: 7, failed: 0 });
      for (const request of received) {
        // the filled template alone, as OpenEQA sends it, with its settings
        expect(request).toMatchObject({ temperature: 0.2, seed: 1234, max_tokens: 32 });
        expect(request.messages).toHaveLength(1);
        expect(request.messages[0].role).toBe("user");
      }
      const q2 = received.find((request) => request.messages[0].content.includes("Question: Where is the mirror?"))!;
      expect(q2.messages[0].content).toContain("Extra Answers: ['by the stairs', 'over the drawers in the hallway']");
      const q1 = received.find((request) => request.messages[0].content.includes("Question: What color is the sofa?"))!;
      expect(q1.messages[0].content).not.toContain("Extra Answers");
      const results = await db.scorerResult.findMany({ select: { score: true, promptVersion: true } });
      expect(results).toHaveLength(7);
      for (const row of results) {
        expect(row.promptVersion).toBe(version);
        expect((row.score as { judge: unknown }).judge).toMatchObject({ promptSha256: [sha(main), sha(extra)], temperature: 0.2, seed: 1234, maxTokens: 32 });
      }
      const section = (await getStudyDashboard(study.slug, {})).sections.freeText as FreeTextSection;
      expect(section.judge).toMatchObject({ promptSha256: [sha(main), sha(extra)], temperature: 0.2, seed: 1234, maxTokens: 32, graded: 7 });
    } finally {
      delete process.env.FREE_TEXT_JUDGE_PROMPT_FILE;
      delete process.env.FREE_TEXT_JUDGE_PROMPT_EXTRA_FILE;
    }
  });
});
