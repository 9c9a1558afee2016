import "server-only";
import pLimit from "p-limit";
import pRetry from "p-retry";
import type PgBoss from "pg-boss";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { JobContext } from "@/lib/jobs/types";
import { enqueue, EXPIRE_SECONDS, jobState, newJobId, QUEUES } from "@/lib/jobs/queue";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ScoringJobStatus } from "@/lib/generated/prisma/enums";
import type { LlmScoringStatus, ScoringJobError, ScoringJobView } from "@/lib/scoring/types";
import { embedderFromEnv, type EmbedderConfig } from "@/lib/scoring/embed";
import { llmScorerFromEnv, LlmScorerError, type LlmScorerConfig } from "@/lib/scoring/llm-chat";
import { taskKinds, taskModules } from "@/lib/tasks";
import type { KindLlmScoring, LlmRequest } from "@/lib/scoring/kind-scoring";
import { readScorerCache, scorerCacheKey, writeScorerCache } from "@/lib/scoring/scorer-cache";
import { inTransaction } from "@/lib/repos/transactions";
import { findStudyIdBySlug } from "@/lib/repos/studies";
import {
  claimJob,
  countStudyItemsOfKind,
  countUnscored as countUnscoredOf,
  createJob,
  failJobOfRunner,
  findItemKeys,
  findJob,
  findJobStatus,
  findJobWithRunner,
  findOpenJob,
  finishRunningJob,
  listJobsOfStudy,
  listStudyKindsAmong,
  listUnqueuedJobs,
  lockStudyScoringJobs,
  markAbandonedJobFailed,
  markJobFailed,
  markJobQueued,
  nextUnscored,
  saveJobProgress,
  storeScore,
  type ScoringJobRow,
  type UnscoredTarget,
} from "@/lib/repos/scoring-jobs";

/**
 * Background LLM scoring of a study's answers (ScoringJob): every submitted answer to a
 * non-practice item of the job's kind (a kind with an LLM scoring hook,
 * lib/tasks/<kind>/scoring.ts) and every model prediction for one, not yet scored by the job's
 * (model, prompt version), is planned by that hook, its prompts answered
 * from ScorerCache or asked of the scorer LLM (bounded concurrency, retries with exponential
 * backoff), and its score stored in ScorerResult. Nothing runs inside an annotator's request.
 *
 * A job runs on the job queue (queue "llm-scoring", lib/jobs/queue.ts): whichever worker takes it
 * owns the row for that attempt (`runner`), and writes of an older attempt are ignored. All state
 * is in the database, so a job survives a restart: when its worker dies the queue retries it (with
 * backoff) in another worker, which continues with what is still unscored, the replies asked before
 * coming from the cache. An answer whose prompts still fail after the retries is counted as failed
 * with its error, and stays unscored for the next job.
 */

export const LLM_SCORER = "llm";

interface LlmScoredKind {
  kind: string;
  benchmark: string;
  load: () => Promise<KindLlmScoring>;
}

/** The kinds the scorer LLM scores: the registered kinds whose module has an LLM scoring hook, in registry order. */
export function llmScoredKinds(): LlmScoredKind[] {
  return taskKinds.flatMap((kind) => {
    const load = taskModules[kind].scoring?.llm;
    return load ? [{ kind, benchmark: taskModules[kind].benchmark, load }] : [];
  });
}

/** One LLM-scored kind by name; without one, the first in registry order. */
function llmScoredKind(kind?: string): LlmScoredKind {
  const kinds = llmScoredKinds();
  const found = kind === undefined ? kinds[0] : kinds.find((entry) => entry.kind === kind);
  if (!found)
    throw new AppError(
      "INVALID",
      kind === undefined
        ? "No registered task kind is scored by the scorer LLM"
        : `The task kind "${kind}" is not scored by the scorer LLM; LLM-scored kinds: ${kinds.map((entry) => entry.kind).join(", ") || "none"}`,
    );
  return found;
}

/** The version a new job of this kind records, with the embedder configured (if the kind uses one). */
export async function currentPromptVersion(kind?: string, embedModel: string | null = embedderFromEnv()?.model ?? null): Promise<string> {
  return (await llmScoredKind(kind).load()).promptVersion(embedModel);
}
const FLUSH_EVERY_MS = 1_000;
const TARGETS_PER_CHUNK = 50;
const MAX_KEPT_ERRORS = 20;

export interface ScoringRunOptions {
  /** the scorer LLM (default: from SCORER_LLM_* in the environment) */
  config?: LlmScorerConfig | null;
  /** the embedder for jobs recorded with one (default: from SCORER_EMBED_* in the environment) */
  embedder?: EmbedderConfig | null;
  /** p-retry's retries (after the first attempt), first and largest backoff in ms */
  retry?: { retries?: number; minTimeout?: number; maxTimeout?: number };
  /** aborted when the attempt lost the job (the queue expired it): stop writing */
  signal?: AbortSignal;
}

export type { LlmScoringStatus, ScoringJobError, ScoringJobView };

type JobRow = ScoringJobRow;

function errorsOf(value: unknown): ScoringJobError[] {
  return Array.isArray(value) ? (value as ScoringJobError[]) : [];
}

function viewOf(job: JobRow): ScoringJobView {
  const handled = job.done + job.failed;
  return {
    id: job.id,
    status: job.status,
    kind: job.kind,
    scorer: job.scorer,
    model: job.model,
    promptVersion: job.promptVersion,
    total: job.total,
    done: job.done,
    failed: job.failed,
    requests: job.requests,
    cacheHits: job.cacheHits,
    progress: job.status === "DONE" ? 1 : job.total > 0 ? Math.min(1, handled / job.total) : null,
    errors: errorsOf(job.errors),
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// What is still unscored

/**
 * Answers and model predictions of the study's items of `kind` (default: the first LLM-scored
 * kind) that (model, prompt version) has not scored; the prompt version defaults to the one a new
 * job of the kind would record.
 */
export async function countUnscored(
  studyId: string,
  model: string,
  promptVersion?: string,
  kind?: string,
): Promise<{ responses: number; predictions: number }> {
  const scored = llmScoredKind(kind);
  const version = promptVersion ?? (await currentPromptVersion(scored.kind));
  return countUnscoredOf(scored.kind, studyId, { scorer: LLM_SCORER, model, promptVersion: version });
}

// ---------------------------------------------------------------------------------------------
// Jobs

/**
 * New LLM scoring jobs for the study (PENDING, queued), or the study's unfinished job for the same
 * kind, model and prompt version when there is one (`created` false). `kind`: the LLM-scored kind
 * whose answers it scores; without one, a job for every LLM-scored kind the study has items of
 * (registry order; `job` is the first, `jobs` all of them, `created` whether any is new).
 */
export async function createLlmScoringJob(
  studySlug: string,
  userId: string | null,
  config: LlmScorerConfig | null = llmScorerFromEnv(),
  embedder: EmbedderConfig | null = embedderFromEnv(),
  kind?: string,
): Promise<{ job: ScoringJobView; created: boolean; jobs: ScoringJobView[] }> {
  if (!config)
    throw new AppError(
      "CONFLICT",
      "No scorer LLM is configured on this server: set SCORER_LLM_URL (and SCORER_LLM_MODEL) to an OpenAI-compatible chat-completions endpoint and restart it",
    );
  const study = await findStudyIdBySlug(studySlug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${studySlug}"`);
  let kinds: LlmScoredKind[];
  if (kind !== undefined) {
    const scored = llmScoredKind(kind);
    const items = await countStudyItemsOfKind(study.id, scored.kind);
    if (items === 0) throw new AppError("INVALID", `The study "${studySlug}" has no ${scored.kind} items: this job only scores ${scored.benchmark} answers`);
    kinds = [scored];
  } else {
    const all = llmScoredKinds();
    const present = await listStudyKindsAmong(
      study.id,
      all.map((entry) => entry.kind),
    );
    kinds = all.filter((entry) => present.includes(entry.kind));
    if (kinds.length === 0)
      throw new AppError("INVALID", `The study "${studySlug}" has no items the LLM scorer scores (kinds: ${all.map((entry) => entry.kind).join(", ")})`);
  }
  const results: Array<{ job: ScoringJobView; created: boolean }> = [];
  for (const scored of kinds) results.push(await createKindJob(study.id, scored, userId, config, embedder));
  return { job: results[0].job, created: results.some((result) => result.created), jobs: results.map((result) => result.job) };
}

/** One kind's job for the study: the unfinished one for the same (kind, model, version), or a new one, queued. */
async function createKindJob(
  studyId: string,
  scored: LlmScoredKind,
  userId: string | null,
  config: LlmScorerConfig,
  embedder: EmbedderConfig | null,
): Promise<{ job: ScoringJobView; created: boolean }> {
  const study = { id: studyId };
  // e.g. objects matched by embeddings when an embedder is configured: recorded in the version
  const promptVersion = (await scored.load()).promptVersion(embedder?.model ?? null);
  const bossJobId = newJobId();
  const by = { scorer: LLM_SCORER, model: config.model, promptVersion };
  const result = await inTransaction(async (tx) => {
    // one unfinished job per study, kind, model and prompt version (the lock serialises two clicks)
    await lockStudyScoringJobs(tx, study.id);
    const open = await findOpenJob(tx, study.id, scored.kind, by);
    if (open) return { job: viewOf(open), created: false };
    const job = await createJob(tx, { studyId: study.id, kind: scored.kind, ...by, createdById: userId, bossJobId });
    return { job: viewOf(job), created: true };
  });
  if (result.created) {
    try {
      await enqueue(QUEUES.llmScoring, bossJobId, { scoringJobId: result.job.id });
    } catch (error) {
      const message = `the job queue did not take the job: ${error instanceof Error ? error.message : String(error)}`;
      await markJobFailed(result.job.id, [{ at: new Date().toISOString(), target: "job", message }]).catch(() => undefined);
      throw new AppError("UNAVAILABLE", `Scoring could not be started (${message}); try again in a minute`);
    }
  }
  return result;
}

/**
 * Queues the unfinished jobs that have no queue job (made before the queue existed, or whose
 * sending failed half-way): run when a worker starts (lib/jobs/handlers.ts). Two workers starting
 * at once queue each job once (the row is marked first).
 */
export async function queueUnqueuedScoringJobs(boss?: PgBoss): Promise<number> {
  const rows = await listUnqueuedJobs();
  let queued = 0;
  for (const row of rows) {
    const bossJobId = newJobId();
    if (!(await markJobQueued(row.id, bossJobId))) continue;
    await enqueue(QUEUES.llmScoring, bossJobId, { scoringJobId: row.id }, boss);
    queued += 1;
  }
  return queued;
}

/** The study's most recent scoring jobs, newest first. */
export async function listScoringJobs(studyId: string, take = 5, kind?: string): Promise<ScoringJobView[]> {
  const jobs = await listJobsOfStudy(studyId, take, kind);
  return Promise.all(jobs.map(async (job) => viewOf(await settleAbandoned(job))));
}

/**
 * A RUNNING job whose heartbeat is old, and that the queue has given up (its workers died on every
 * attempt), reads as FAILED and is marked so; any other job is as it is.
 */
async function settleAbandoned<T extends JobRow & { heartbeatAt: Date | null; bossJobId: string | null }>(job: T): Promise<T> {
  if (job.status !== "RUNNING" || !job.bossJobId || (job.heartbeatAt && Date.now() - job.heartbeatAt.getTime() < EXPIRE_SECONDS * 1000)) return job;
  const queued = await jobState(QUEUES.llmScoring.name, job.bossJobId).catch(() => undefined);
  if (queued === undefined || (queued && !["failed", "cancelled", "completed"].includes(queued.state))) return job;
  const errors = [
    ...errorsOf(job.errors),
    { at: new Date().toISOString(), target: "job", message: "its workers stopped on every attempt the job queue allows" },
  ].slice(-MAX_KEPT_ERRORS);
  await markAbandonedJobFailed(job.id, job.bossJobId, errors as unknown as Prisma.InputJsonValue);
  return { ...job, status: "FAILED", errors: errors as unknown as Prisma.JsonValue };
}

export async function getScoringJob(jobId: string): Promise<ScoringJobView | null> {
  const job = await findJob(jobId);
  return job ? viewOf(job) : null;
}

/** Makes this attempt the owner of the job; false when the job has ended (nothing to do). */
export async function claimScoringJob(jobId: string, runnerId: string): Promise<boolean> {
  return claimJob(jobId, runnerId);
}

const scoringJobData = z.object({ scoringJobId: z.string().min(1).max(100) });

/** Runs a queued job (the data the queue carries) as one attempt of the given context. */
export async function runQueuedScoringJob(data: unknown, context: JobContext, options: ScoringRunOptions = {}): Promise<{ status: string }> {
  const { scoringJobId } = scoringJobData.parse(data);
  const runnerId = `${context.workerId}:${context.jobId}:${context.attempt}`;
  if (!(await claimScoringJob(scoringJobId, runnerId))) return { status: "already ended" };
  await runScoringJob(scoringJobId, runnerId, { ...options, signal: options.signal ?? context.signal });
  return { status: (await findJobStatus(scoringJobId)) ?? "deleted" };
}

/** The queue's handler (lib/jobs/handlers.ts), with the scorer of the environment. */
export function handleScoringJob(data: unknown, context: JobContext): Promise<{ status: string }> {
  return runQueuedScoringJob(data, context);
}

/**
 * Runs one claimed job to its end (or until another runner takes it over). `runnerId` must be the
 * one that claimed it.
 */
export async function runScoringJob(jobId: string, runnerId: string, options: ScoringRunOptions = {}): Promise<void> {
  const job = await findJobWithRunner(jobId);
  if (!job || job.runner !== runnerId || job.status !== "RUNNING") return;
  const state = { done: job.done, failed: 0, requests: job.requests, cacheHits: job.cacheHits, total: job.done, errors: errorsOf(job.errors) };
  let lost = false;
  options.signal?.addEventListener("abort", () => {
    lost = true;
  });
  const flush = async () => {
    if (lost) return;
    if (!(await saveJobProgress(jobId, runnerId, state))) lost = true;
  };
  const fail = (target: string, error: unknown) => {
    state.failed += 1;
    state.errors = [...state.errors, { at: new Date().toISOString(), target, message: error instanceof Error ? error.message : String(error) }].slice(
      -MAX_KEPT_ERRORS,
    );
  };

  const config = options.config === undefined ? llmScorerFromEnv() : options.config;
  if (!config) {
    fail("job", new Error("SCORER_LLM_URL is not set on the server that ran the job"));
    await flush();
    await failJobOfRunner(jobId, runnerId);
    return;
  }
  const model = job.model;
  const { promptVersion } = job;
  let scoring: KindLlmScoring;
  try {
    scoring = await llmScoredKind(job.kind).load();
  } catch (error) {
    fail("job", error);
    await flush();
    await failJobOfRunner(jobId, runnerId);
    return;
  }
  // a job recorded with an embedder matches objects by its embeddings, so it needs that embedder here
  const embedModel = scoring.embedModelOf?.(promptVersion) ?? null;
  const embedder = embedModel === null ? null : options.embedder === undefined ? embedderFromEnv() : options.embedder;
  if (embedModel !== null && (!embedder || embedder.model !== embedModel)) {
    fail(
      "job",
      new Error(
        `the job matches objects by ${embedModel} embeddings, but SCORER_EMBED_URL${embedder ? ` serves ${embedder.model}` : " is not set"} on the server that ran it`,
      ),
    );
    await flush();
    await failJobOfRunner(jobId, runnerId);
    return;
  }
  const vectors = new Map<string, number[]>();
  const pending = await countUnscored(job.studyId, model, promptVersion, job.kind);
  state.total = job.done + pending.responses + pending.predictions;
  await flush();

  const limit = pLimit(config.concurrency);
  const inFlight = new Map<string, Promise<number>>();
  const keys = new Map<string, { key: unknown; public: unknown }>();
  const retry = { retries: options.retry?.retries ?? 4, minTimeout: options.retry?.minTimeout ?? 1_000, maxTimeout: options.retry?.maxTimeout ?? 30_000 };

  const ask = (cacheKey: string, request: LlmRequest): Promise<number> => {
    let pendingScore = inFlight.get(cacheKey);
    if (!pendingScore) {
      pendingScore = limit(() =>
        pRetry(
          () => {
            state.requests += 1;
            return scoring.ask({ ...config, model }, request, promptVersion);
          },
          { ...retry, factor: 2, randomize: true, shouldRetry: ({ error }) => !(error instanceof LlmScorerError) || error.retryable },
        ),
      ).then(async (result) => {
        await writeScorerCache({ key: cacheKey, model, promptVersion, request, score: result.score, reply: result.reply });
        return result.score;
      });
      inFlight.set(cacheKey, pendingScore);
      const forget = () => inFlight.delete(cacheKey);
      pendingScore.then(forget, forget);
    }
    return pendingScore;
  };

  const keyOf = async (itemIds: string[]) => {
    const missing = [...new Set(itemIds)].filter((id) => !keys.has(id));
    if (missing.length === 0) return;
    const rows = await findItemKeys(missing);
    for (const row of rows) keys.set(row.id, { key: row.key, public: row.public });
  };

  const scoreTarget = async (target: UnscoredTarget) => {
    try {
      const item = keys.get(target.itemId);
      const plan = await scoring.plan(target.answer, item?.key, embedder ? { embedder, vectors } : null, item?.public);
      const cacheKeys = plan.requests.map((request) => scorerCacheKey(model, promptVersion, request));
      const cached = await readScorerCache(cacheKeys);
      const scores = await Promise.all(
        plan.requests.map((request, i) => {
          const hit = cached.get(cacheKeys[i]);
          if (hit !== undefined) {
            state.cacheHits += 1;
            return hit;
          }
          return ask(cacheKeys[i], request);
        }),
      );
      const score = plan.finish(scores, { model, promptVersion });
      // the answer's own score and correctness follow its latest score, in the same transaction
      const own = scoring.answerScoreOf?.(score);
      await storeScore(
        target,
        job.studyId,
        { scorer: LLM_SCORER, model, promptVersion },
        score as unknown as Prisma.InputJsonValue,
        own ? { score: own.score as Prisma.InputJsonValue, correct: own.correct } : null,
      );
      state.done += 1;
    } catch (error) {
      fail(target.label, error);
    }
  };

  const heartbeat = setInterval(() => void flush().catch(() => undefined), FLUSH_EVERY_MS);
  try {
    for (const type of ["response", "prediction"] as const) {
      let after = "";
      while (!lost) {
        const targets = await nextUnscored(type, job.kind, job.studyId, { scorer: LLM_SCORER, model, promptVersion }, after, TARGETS_PER_CHUNK);
        if (targets.length === 0) break;
        after = targets[targets.length - 1].id;
        await keyOf(targets.map((target) => target.itemId));
        await Promise.all(targets.map(scoreTarget));
      }
    }
  } catch (error) {
    fail("job", error);
  } finally {
    clearInterval(heartbeat);
  }
  await flush();
  if (lost) return;
  const status: ScoringJobStatus = state.done === job.done && state.failed > 0 ? "FAILED" : "DONE";
  await finishRunningJob(jobId, runnerId, status);
}

/**
 * What the dashboard's LLM scorer panel shows (GET /api/studies/[slug]/scoring-jobs): for `kind`
 * (default: the first LLM-scored kind), the version a new job records and what it has not scored,
 * and the study's latest jobs (of `kind` when one is given, else of every kind).
 */
export async function getLlmScoringStatus(studyId: string, config: LlmScorerConfig | null = llmScorerFromEnv(), kind?: string): Promise<LlmScoringStatus> {
  const scored = llmScoredKind(kind);
  const promptVersion = await currentPromptVersion(scored.kind);
  const [jobs, unscored] = await Promise.all([
    listScoringJobs(studyId, undefined, kind === undefined ? undefined : scored.kind),
    config ? countUnscored(studyId, config.model, promptVersion, scored.kind) : Promise.resolve(null),
  ]);
  return { configured: config !== null, model: config?.model ?? null, promptVersion, jobs, unscored };
}
