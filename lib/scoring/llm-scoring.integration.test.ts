import type { ExploreSection } from "@/lib/tasks/shared/explore/dashboard";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { importModelRun } from "@/lib/models/runs";
import { submitResponse } from "@/lib/responses/responses";
import { createLlmScoringJob, getLlmScoringStatus, getScoringJob } from "@/lib/scoring/llm-jobs";
import { runScoringJobsUntilIdle } from "@/lib/scoring/runner";
import { getBoss, jobState, QUEUES, stopBoss } from "@/lib/jobs/queue";
import { EXPLORE_LLM_PROMPT_VERSION, LLM_SYSTEM_PROMPT, llmScorerPrompt, type LlmScorerConfig } from "@/lib/tasks/shared/explore/llm";
import type { EmbedderConfig } from "@/lib/scoring/embed";
import { planExploreLlmScore } from "@/lib/tasks/shared/explore/llm-scorer";
import { exploreSceneKeySchema, type ExploreSceneAnswer } from "@/lib/tasks/explore-scene";
import { scoreStructured } from "@/lib/tasks/shared/explore/scorer";
import { addMember, createStudy, createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";

/**
 * The LLM scorer end to end against real PostgreSQL and a small local HTTP server that answers like
 * an OpenAI-compatible chat-completions server (the only stand-in: no model runs here): prompts
 * sent verbatim at temperature 0, a 500 retried, replies cached per prompt (a second run sends
 * nothing), progress to 100%, a job resumed after its runner died, failures recorded; then the
 * dashboard's tables per scorer, and free-text mode through submitResponse.
 */

interface ChatRequest {
  model: string;
  temperature: number;
  messages: Array<{ role: string; content: string }>;
  chat_template_kwargs?: unknown;
}

const received: ChatRequest[] = [];
let failOnceLeft = new Set<string>();
let server: Server;
let url = "";

/** 4 when the phrase's words all occur in the sentence, else 1; 500 once for phrases in failOnceLeft, always for "doomed" */
function reply(prompt: string): { status: number; content?: string } {
  const match = /^Sentence: '([\s\S]*)'\. Phrase: '([\s\S]*)'\. Please check/.exec(prompt);
  if (!match) return { status: 400 };
  const [, sentence, phrase] = match;
  if (phrase.includes("doomed")) return { status: 500 };
  if (failOnceLeft.has(phrase)) {
    failOnceLeft.delete(phrase);
    return { status: 500 };
  }
  const words = phrase.toLowerCase().split(/\W+/).filter(Boolean);
  return { status: 200, content: words.every((word) => sentence.toLowerCase().includes(word)) ? "4" : "1" };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.url === "/v1/embeddings") {
        // a stand-in embedder: letter counts, so one word's embedding is its own and related spellings are close
        const { input } = JSON.parse(body) as { input: string[] };
        embedded.push(...input);
        const vector = (text: string) => Array.from({ length: 26 }, (_, i) => [...text].filter((c) => c.charCodeAt(0) - 97 === i).length);
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ object: "list", data: input.map((text, index) => ({ object: "embedding", index, embedding: vector(text) })) }));
        return;
      }
      const parsed = JSON.parse(body) as ChatRequest;
      received.push(parsed);
      const answer = reply(parsed.messages.at(-1)?.content ?? "");
      if (answer.status !== 200) {
        res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "stand-in failure" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: randomUUID(),
          object: "chat.completion",
          model: parsed.model,
          choices: [{ index: 0, message: { role: "assistant", content: answer.content }, finish_reason: "stop" }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await stopBoss();
  await disconnectDb();
});

const config = (): LlmScorerConfig => ({ url, model: "test-llm", concurrency: 3 });
const embedded: string[] = [];
const embedder = (): EmbedderConfig => ({ url: url.replace("/v1/chat/completions", "/v1/embeddings"), model: "test-embed" });
const fastRetry = { retries: 2, minTimeout: 5, maxTimeout: 20 };

const KEYS = {
  s1: {
    objects: [
      { category: "bowl", description: "white ceramic bowl", relation: ["bowl on kitchen counter", "bowl next to sink"] },
      { category: "sink", description: "metal sink", relation: [] },
    ],
  },
  m1: {
    objects: [
      { category: "cabbage", description: "shredded green cabbage", relation: ["cabbage in colander"] },
      { category: "colander", description: "metal colander", relation: [] },
    ],
  },
  x1: { objects: [{ category: "cup", description: "doomed red cup", relation: [] }] },
};

async function seed() {
  const researcher = await createUser("RESEARCHER");
  const [a, b] = [await createUser("ANNOTATOR", { name: "Ann A" }), await createUser("ANNOTATOR", { name: "Bob B" })];
  const study = await createStudy({ overlap: 2 });
  const batch = await db.batch.create({ data: { studyId: study.id, fileName: "explore.jsonl", checksum: randomUUID(), itemCount: 2 } });
  const item = (externalId: string, subset: string, key: object) =>
    db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId,
        kind: "explore-scene",
        public: { initialImage: `/img/${externalId}.jpg`, actions: ["C picks up the bowl", "C puts the bowl on the counter"] },
        key: key as Prisma.InputJsonValue,
        tags: { subset, actions: 2 },
        contentHash: randomUUID(),
      },
    });
  const items = { s1: await item("s1", "Short", KEYS.s1), m1: await item("m1", "Medium", KEYS.m1) };
  let position = 0;
  const respond = async (it: (typeof items)["s1"], userId: string, answer: ExploreSceneAnswer) => {
    const score = scoreStructured(answer, exploreSceneKeySchema.parse(it.key));
    const assignment = await db.assignment.create({
      data: { studyId: study.id, itemId: it.id, userId, status: "SUBMITTED", position: position++, submittedAt: new Date() },
    });
    return db.response.create({
      data: {
        assignmentId: assignment.id,
        clientId: randomUUID(),
        answer: answer as unknown as Prisma.InputJsonValue,
        confidenceRaw: 4,
        confidence: 0.75,
        wallMs: 1000,
        activeMs: 900,
        score: score as unknown as Prisma.InputJsonValue,
        correct: score.correct,
      },
    });
  };
  // A builds structured scenes, B types free text (a study in free-text mode would do that)
  await respond(items.s1, a.id, {
    objects: [
      { category: "bowl", description: "white ceramic", relation: ["bowl on sink"] },
      { category: "sink", description: "metal", relation: [] },
    ],
    text: "",
  });
  await respond(items.s1, b.id, { objects: [], text: "A white ceramic bowl is on the kitchen counter next to the sink. The sink is metal." });
  await respond(items.m1, a.id, {
    objects: [
      { category: "cabbage", description: "green", relation: ["cabbage in colander"] },
      { category: "colander", description: "metal", relation: [] },
    ],
    text: "",
  });
  await importModelRun({
    studySlug: study.slug,
    name: "Model X",
    fileName: "answers.jsonl",
    answersJsonl: [
      JSON.stringify({ id: "s1", answer: "There is a white bowl on the kitchen counter." }),
      JSON.stringify({ id: "m1", answer: "Shredded green cabbage lies in a metal colander." }),
    ].join("\n"),
  });
  return { researcher, a, b, study, items };
}

describe("LLM scorer jobs", () => {
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
    clearDashboardCaches();
    received.length = 0;
    failOnceLeft = new Set();
  });

  it("scores answers and model predictions in the background with the paper's prompts, retries a 500, caches every reply", async () => {
    const { researcher, study } = await seed();
    failOnceLeft = new Set(["white ceramic bowl"]);
    const { job, created } = await createLlmScoringJob(study.slug, researcher.id, config());
    expect(created).toBe(true);
    expect(job.status).toBe("PENDING");
    // a second click finds the unfinished job
    expect((await createLlmScoringJob(study.slug, researcher.id, config())).created).toBe(false);

    expect(await runScoringJobsUntilIdle({ config: config(), retry: fastRetry, runnerId: "runner-1" })).toBe(1);
    const done = (await getScoringJob(job.id))!;
    expect(done).toMatchObject({ status: "DONE", total: 5, done: 5, failed: 0, progress: 1, errors: [] });
    expect(done.requests).toBe(received.length);

    // every request: the paper's system prompt (Listing 8) and user prompt verbatim, temperature 0, thinking off, the model's name
    const planned = new Set<string>();
    const answers = await db.response.findMany({ select: { answer: true, assignment: { select: { item: { select: { key: true } } } } } });
    const predictions = await db.modelPrediction.findMany({ select: { answer: true, item: { select: { key: true } } } });
    for (const row of [
      ...answers.map((r) => ({ answer: r.answer, key: r.assignment.item.key })),
      ...predictions.map((p) => ({ answer: p.answer, key: p.item.key })),
    ]) {
      for (const request of planExploreLlmScore(row.answer as unknown as ExploreSceneAnswer, exploreSceneKeySchema.parse(row.key)).requests)
        planned.add(llmScorerPrompt(request.sentence, request.phrase, request.aspect));
    }
    for (const request of received) {
      expect(request.temperature).toBe(0);
      expect(request.model).toBe("test-llm");
      expect(request.messages).toHaveLength(2);
      expect(request.messages[0]).toEqual({ role: "system", content: LLM_SYSTEM_PROMPT });
      expect(request.messages[1].role).toBe("user");
      expect(request.chat_template_kwargs).toEqual({ enable_thinking: false });
      expect(planned.has(request.messages[1].content)).toBe(true);
      expect(request.messages[1].content).toMatch(
        /^Sentence: '.*'\. Phrase: '.*'\. Please check if the sentence contains parts that accurately describe the (attributes|relations|states) referenced in the provided phrase and provide an integer score as a single number from 0 to 5 without explanation\.$/s,
      );
    }
    // each distinct prompt asked once, but for the one that failed once and was retried
    const contents = received.map((r) => r.messages[1].content);
    expect(new Set(contents).size).toBe(planned.size);
    expect(contents.length).toBe(planned.size + 1);
    expect(contents.filter((c) => c.includes("Phrase: 'white ceramic bowl'")).length).toBeGreaterThanOrEqual(2);
    expect(await db.scorerCache.count()).toBe(planned.size);

    const results = await db.scorerResult.findMany({ select: { model: true, promptVersion: true, score: true, responseId: true, predictionId: true } });
    expect(results).toHaveLength(5);
    expect(results.filter((r) => r.predictionId !== null)).toHaveLength(2);
    for (const r of results) expect(r.score).toMatchObject({ scorer: "llm", model: "test-llm", promptVersion: EXPLORE_LLM_PROMPT_VERSION });

    // nothing left: a new job has nothing to do; after the results are dropped, it is all cache hits
    expect((await getLlmScoringStatus(study.id, config())).unscored).toEqual({ responses: 0, predictions: 0 });
    await db.scorerResult.deleteMany({});
    const before = received.length;
    const again = await createLlmScoringJob(study.slug, researcher.id, config());
    await runScoringJobsUntilIdle({ config: config(), retry: fastRetry, runnerId: "runner-2" });
    expect(received.length).toBe(before);
    expect(await getScoringJob(again.job.id)).toMatchObject({ status: "DONE", done: 5, requests: 0, progress: 1 });
    expect((await getScoringJob(again.job.id))!.cacheHits).toBeGreaterThanOrEqual(planned.size);
    expect(await db.scorerResult.count()).toBe(5);
  });

  it("resumes a job whose worker died (the queue retries it after its heartbeat stops), and records answers that keep failing", async () => {
    const { researcher, study, a } = await seed();
    const { job } = await createLlmScoringJob(study.slug, researcher.id, config());
    const row = await db.scoringJob.findUniqueOrThrow({ where: { id: job.id } });
    // a worker takes the job, starts it and dies: no completion, no heartbeat
    const boss = await getBoss();
    const [taken] = await boss.fetch(QUEUES.llmScoring.name);
    expect(taken.id).toBe(row.bossJobId);
    await db.scoringJob.update({
      where: { id: job.id },
      data: { status: "RUNNING", runner: "dead-worker", heartbeatAt: new Date(Date.now() - 120_000), startedAt: new Date(Date.now() - 180_000) },
    });
    // while its heartbeat is fresh, nobody else takes it
    expect(await runScoringJobsUntilIdle({ config: config(), retry: fastRetry, runnerId: "runner-3" })).toBe(0);
    await boss.expire();
    expect(await jobState(QUEUES.llmScoring.name, taken.id)).toMatchObject({ state: "active" });
    // two minutes without a heartbeat: pg-boss's maintenance fails it, to be retried after a backoff
    await db.$executeRawUnsafe(`UPDATE pgboss.job SET started_on = now() - interval '2 minutes' WHERE id = $1::uuid`, taken.id);
    await boss.expire();
    expect(await jobState(QUEUES.llmScoring.name, taken.id)).toMatchObject({ state: "retry", retryCount: 0 });
    const [{ wait }] = await db.$queryRawUnsafe<Array<{ wait: number }>>(
      `SELECT extract(epoch FROM start_after - now())::float AS wait FROM pgboss.job WHERE id = $1::uuid`,
      taken.id,
    );
    expect(wait).toBeGreaterThan(QUEUES.llmScoring.retryDelay / 2);
    expect(await runScoringJobsUntilIdle({ config: config(), retry: fastRetry, runnerId: "runner-3" })).toBe(0);
    // past the backoff, another worker takes it over and finishes what is unscored
    await db.$executeRawUnsafe(`UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid`, taken.id);
    expect(await runScoringJobsUntilIdle({ config: config(), retry: fastRetry, runnerId: "runner-3" })).toBe(1);
    expect(await jobState(QUEUES.llmScoring.name, taken.id)).toMatchObject({ state: "completed" });
    expect(await getScoringJob(job.id)).toMatchObject({ status: "DONE", done: 5, failed: 0, progress: 1 });

    // an item whose prompt the server always refuses: the answer fails after the retries, the job says why
    const batch = await db.batch.findFirstOrThrow({ where: { studyId: study.id } });
    const x1 = await db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId: "x1",
        kind: "explore-scene",
        public: { initialImage: "/img/x1.jpg", actions: ["C drops the cup"] },
        key: KEYS.x1,
        tags: { subset: "Short" },
        contentHash: randomUUID(),
      },
    });
    const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: x1.id, userId: a.id, status: "SUBMITTED", position: 50 } });
    const answer = { objects: [{ category: "cup", description: "red", relation: [] }], text: "" };
    const score = scoreStructured(answer, exploreSceneKeySchema.parse(KEYS.x1));
    await db.response.create({
      data: {
        assignmentId: assignment.id,
        clientId: randomUUID(),
        answer,
        confidenceRaw: 3,
        confidence: 0.5,
        wallMs: 1,
        activeMs: 1,
        score: score as unknown as Prisma.InputJsonValue,
        correct: false,
      },
    });
    const failing = await createLlmScoringJob(study.slug, researcher.id, config());
    await runScoringJobsUntilIdle({ config: config(), retry: { retries: 1, minTimeout: 5, maxTimeout: 10 }, runnerId: "runner-4" });
    const ended = (await getScoringJob(failing.job.id))!;
    expect(ended).toMatchObject({ status: "FAILED", total: 1, done: 0, failed: 1, progress: 1, requests: 2 });
    expect(ended.errors[0].target).toContain("item x1");
    expect(ended.errors[0].message).toContain("HTTP 500");
    expect((await getLlmScoringStatus(study.id, config())).unscored).toEqual({ responses: 1, predictions: 0 });
  });

  it("refuses without a configured model; the dashboard shows one table per scorer beside the paper's humans", async () => {
    const { researcher, study } = await seed();
    await expect(createLlmScoringJob(study.slug, researcher.id, null)).rejects.toMatchObject({ code: "CONFLICT" });
    await createLlmScoringJob(study.slug, researcher.id, config());
    await runScoringJobsUntilIdle({ config: config(), retry: fastRetry, runnerId: "runner-5" });

    const d = await getStudyDashboard(study.slug, {});
    const explore = d.sections.explore as ExploreSection;
    expect(explore.tables.map((t) => t.title)).toEqual(["structured scorer", "LLM scorer (test-llm)"]);
    const [structured, llm] = explore.tables;
    expect(structured.rows.map((r) => r.participant.label)).toEqual(["Humans (pooled)", "Ann A", "Bob B", "Model X"]);
    expect(llm).toMatchObject({ scored: 5, answers: 5, promptVersion: EXPLORE_LLM_PROMPT_VERSION });
    const pooled = llm.rows[0];
    expect(pooled.cells.Short.n).toBe(2);
    expect(pooled.cells.Medium.n).toBe(1);
    expect(pooled.cells.Full.n).toBe(3);
    // S_obj is the structured object matching under both scorers
    expect(pooled.cells.Full.S_obj).toBeCloseTo(structured.rows[0].cells.Full.S_obj!);
    expect(llm.rows.find((r) => r.participant.label === "Model X")!.cells.Full.n).toBe(2);
    // two annotators on s1: S_uni and presence are pairable on one item
    expect(structured.sUniAlpha?.units).toBe(1);
    expect(explore.presenceAlpha?.units).toBe(2);
    expect(explore.paper.cells.Full.S_uni).toBe(59.08);
    expect(explore.llm).toMatchObject({ configured: false, jobs: [expect.objectContaining({ status: "DONE" })] });
  });
});

describe("object matching by embeddings (SCORER_EMBED_URL)", () => {
  beforeEach(async () => {
    await resetDatabase();
    await resetJobQueue();
    clearDashboardCaches();
    received.length = 0;
    embedded.length = 0;
    failOnceLeft = new Set();
  });

  it("a job with an embedder matches objects by the embeddings' cosine and its table says so; without the embedder it fails cleanly", async () => {
    const { researcher, study } = await seed();
    const { job } = await createLlmScoringJob(study.slug, researcher.id, config(), embedder());
    expect(job.promptVersion).toBe(`${EXPLORE_LLM_PROMPT_VERSION}+test-embed`);
    await runScoringJobsUntilIdle({ config: config(), embedder: embedder(), retry: fastRetry, runnerId: "runner-e" });
    expect(await getScoringJob(job.id)).toMatchObject({ status: "DONE", done: 5, failed: 0 });
    expect(embedded).toEqual(expect.arrayContaining(["bowl", "sink", "cabbage", "colander"]));
    const d = await getStudyDashboard(study.slug, {});
    expect((d.sections.explore as ExploreSection).tables.map((t) => t.title)).toEqual([
      "structured scorer",
      "LLM scorer (test-llm), objects matched by test-embed embeddings",
    ]);

    const other = await createLlmScoringJob(study.slug, researcher.id, { ...config(), model: "other-llm" }, embedder());
    await runScoringJobsUntilIdle({ config: { ...config(), model: "other-llm" }, embedder: null, retry: fastRetry, runnerId: "runner-f" });
    const failed = await getScoringJob(other.job.id);
    expect(failed).toMatchObject({ status: "FAILED" });
    expect(JSON.stringify(failed)).toContain("SCORER_EMBED_URL is not set");
  });
});

describe("free-text mode (Study.taskSettings)", () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  it("shows the text box, accepts only a typed description and scores it as free text", async () => {
    const annotator = await createUser("ANNOTATOR");
    const study = await createStudy();
    await addMember(study.id, annotator.id);
    const batch = await db.batch.create({ data: { studyId: study.id, fileName: "e.jsonl", checksum: randomUUID(), itemCount: 1 } });
    const item = await db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId: "s1",
        kind: "explore-scene",
        public: { initialImage: "/img/s1.jpg", actions: ["C rinses the bowl"] },
        key: KEYS.s1,
        tags: { subset: "Short" },
        contentHash: randomUUID(),
      },
    });
    const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: annotator.id, status: "STARTED", position: 0 } });
    const submission = (answer: unknown) => ({
      assignmentId: assignment.id,
      clientId: randomUUID(),
      answer,
      confidence: 4,
      wallMs: 5000,
      activeMs: 4000,
      submitSeq: 3,
    });
    const typed = { objects: [], text: "A white ceramic bowl is on the kitchen counter next to the sink." };

    // structured mode (the default): a text-only answer is refused, naming the field
    expect((await getAssignmentView(assignment.id, annotator.id)).view).not.toHaveProperty("freeText");
    const refused = await submitResponse(annotator.id, submission(typed)).catch((error: unknown) => error);
    expect(JSON.stringify(refused)).toContain("describe at least one object");
    expect(await db.response.count()).toBe(0);

    await db.study.update({ where: { id: study.id }, data: { taskSettings: { "explore-scene": { freeText: true } } } });
    expect((await getAssignmentView(assignment.id, annotator.id)).view).toMatchObject({ freeText: true });
    const objects = await submitResponse(annotator.id, submission({ objects: [{ category: "bowl", description: "", relation: [] }], text: "" })).catch(
      (error: unknown) => error,
    );
    expect(JSON.stringify(objects)).toContain("free-text mode");
    const ack = await submitResponse(annotator.id, submission(typed));
    const stored = await db.response.findUniqueOrThrow({ where: { id: ack.responseId }, select: { answer: true, score: true } });
    expect(stored.answer).toEqual(typed);
    expect(stored.score).toMatchObject({ scorer: "structured", source: "text" });
    expect((stored.score as { S_obj: number }).S_obj).toBeCloseTo(100);
  });
});
