import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ScoringJobStatus } from "@/lib/generated/prisma/enums";

/**
 * Data access for scoring jobs (ScoringJob) and the scores they store (ScorerResult). Which
 * answers a job scores, how and when it ends are lib/scoring/llm-jobs.ts's.
 */

const jobSelect = {
  id: true,
  studyId: true,
  status: true,
  kind: true,
  scorer: true,
  model: true,
  promptVersion: true,
  total: true,
  done: true,
  failed: true,
  requests: true,
  cacheHits: true,
  errors: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const satisfies Prisma.ScoringJobSelect;

export type ScoringJobRow = Prisma.ScoringJobGetPayload<{ select: typeof jobSelect }>;

/** Which scorer scored an answer: (scorer, model, prompt version). */
export interface ScorerVersion {
  scorer: string;
  model: string;
  promptVersion: string;
}

function unscoredResponses(kind: string, studyId: string, by: ScorerVersion) {
  return {
    assignment: { studyId, item: { kind, practice: false } },
    scorerResults: { none: { scorer: by.scorer, model: by.model, promptVersion: by.promptVersion } },
  } satisfies Prisma.ResponseWhereInput;
}

function unscoredPredictions(kind: string, studyId: string, by: ScorerVersion) {
  return {
    run: { studyId },
    item: { kind, practice: false },
    scorerResults: { none: { scorer: by.scorer, model: by.model, promptVersion: by.promptVersion } },
  } satisfies Prisma.ModelPredictionWhereInput;
}

/** Answers and model predictions to the study's non-practice items of `kind` that `by` has not scored. */
export async function countUnscored(kind: string, studyId: string, by: ScorerVersion): Promise<{ responses: number; predictions: number }> {
  const [responses, predictions] = await Promise.all([
    db.response.count({ where: unscoredResponses(kind, studyId, by) }),
    db.modelPrediction.count({ where: unscoredPredictions(kind, studyId, by) }),
  ]);
  return { responses, predictions };
}

/** An answer or prediction to score, with its item and how a job's errors name it. */
export interface UnscoredTarget {
  type: "response" | "prediction";
  id: string;
  itemId: string;
  answer: unknown;
  label: string;
}

/** The next `take` answers (or predictions), by id after `after`, that `by` has not scored. */
export async function nextUnscored(
  type: UnscoredTarget["type"],
  kind: string,
  studyId: string,
  by: ScorerVersion,
  after: string,
  take: number,
): Promise<UnscoredTarget[]> {
  if (type === "response") {
    const rows = await db.response.findMany({
      where: { ...unscoredResponses(kind, studyId, by), id: { gt: after } },
      orderBy: { id: "asc" },
      take,
      select: { id: true, answer: true, assignment: { select: { itemId: true, item: { select: { externalId: true } } } } },
    });
    return rows.map((row) => ({
      type,
      id: row.id,
      itemId: row.assignment.itemId,
      answer: row.answer,
      label: `response ${row.id} (item ${row.assignment.item.externalId})`,
    }));
  }
  const rows = await db.modelPrediction.findMany({
    where: { ...unscoredPredictions(kind, studyId, by), id: { gt: after } },
    orderBy: { id: "asc" },
    take,
    select: { id: true, answer: true, itemId: true, item: { select: { externalId: true } }, run: { select: { name: true } } },
  });
  return rows.map((row) => ({ type, id: row.id, itemId: row.itemId, answer: row.answer, label: `model run "${row.run.name}", item ${row.item.externalId}` }));
}

/** The key and public part of these items. */
export async function findItemKeys(itemIds: string[]): Promise<Array<{ id: string; key: Prisma.JsonValue; public: Prisma.JsonValue }>> {
  return db.item.findMany({ where: { id: { in: itemIds } }, select: { id: true, key: true, public: true } });
}

export async function countStudyItemsOfKind(studyId: string, kind: string): Promise<number> {
  return db.item.count({ where: { studyId, kind } });
}

/** Those of `kinds` the study has items of. */
export async function listStudyKindsAmong(studyId: string, kinds: string[]): Promise<string[]> {
  const present = await db.item.groupBy({ by: ["kind"], where: { studyId, kind: { in: kinds } } });
  return present.map((row) => row.kind);
}

/** Serialises the creation of the study's scoring jobs until the transaction ends. */
export async function lockStudyScoringJobs(tx: Tx, studyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`scoring-job:${studyId}`}))`;
}

/** The study's PENDING or RUNNING job for this kind and scorer version, if any. */
export async function findOpenJob(tx: Tx, studyId: string, kind: string, by: ScorerVersion): Promise<ScoringJobRow | null> {
  return tx.scoringJob.findFirst({
    where: { studyId, kind, scorer: by.scorer, model: by.model, promptVersion: by.promptVersion, status: { in: ["PENDING", "RUNNING"] } },
    select: jobSelect,
  });
}

export async function createJob(
  tx: Tx,
  job: { studyId: string; kind: string; createdById: string | null; bossJobId: string } & ScorerVersion,
): Promise<ScoringJobRow> {
  return tx.scoringJob.create({
    data: {
      studyId: job.studyId,
      kind: job.kind,
      scorer: job.scorer,
      model: job.model,
      promptVersion: job.promptVersion,
      createdById: job.createdById,
      bossJobId: job.bossJobId,
    },
    select: jobSelect,
  });
}

/** FAILED now, with these errors. */
export async function markJobFailed(jobId: string, errors: Prisma.InputJsonValue): Promise<void> {
  await db.scoringJob.updateMany({ where: { id: jobId }, data: { status: "FAILED", finishedAt: new Date(), errors } });
}

/** The unfinished jobs that have no queue job. */
export async function listUnqueuedJobs(): Promise<Array<{ id: string }>> {
  return db.scoringJob.findMany({ where: { status: { in: ["PENDING", "RUNNING"] }, bossJobId: null }, select: { id: true } });
}

/** Records the job's queue job; false when another worker recorded one first. */
export async function markJobQueued(jobId: string, bossJobId: string): Promise<boolean> {
  const marked = await db.scoringJob.updateMany({ where: { id: jobId, bossJobId: null }, data: { bossJobId } });
  return marked.count > 0;
}

/** The study's most recent `take` jobs (of `kind`, when given), newest first, with their heartbeat and queue job. */
export async function listJobsOfStudy(studyId: string, take: number, kind: string | undefined) {
  return db.scoringJob.findMany({
    where: { studyId, ...(kind === undefined ? {} : { kind }) },
    orderBy: { createdAt: "desc" },
    take,
    select: { ...jobSelect, heartbeatAt: true, bossJobId: true },
  });
}

/** FAILED now, with these errors, while it is still RUNNING under that queue job. */
export async function markAbandonedJobFailed(jobId: string, bossJobId: string, errors: Prisma.InputJsonValue): Promise<void> {
  await db.scoringJob.updateMany({ where: { id: jobId, status: "RUNNING", bossJobId }, data: { status: "FAILED", finishedAt: new Date(), errors } });
}

export async function findJob(jobId: string): Promise<ScoringJobRow | null> {
  return db.scoringJob.findUnique({ where: { id: jobId }, select: jobSelect });
}

/** The job with the runner that owns it. */
export async function findJobWithRunner(jobId: string): Promise<(ScoringJobRow & { runner: string | null }) | null> {
  return db.scoringJob.findUnique({ where: { id: jobId }, select: { ...jobSelect, runner: true } });
}

export async function findJobStatus(jobId: string): Promise<ScoringJobStatus | null> {
  return (await db.scoringJob.findUnique({ where: { id: jobId }, select: { status: true } }))?.status ?? null;
}

/** RUNNING under this runner (its counters of failures reset); false when the job has ended. */
export async function claimJob(jobId: string, runnerId: string): Promise<boolean> {
  const claimed = await db.$executeRaw`
    UPDATE "ScoringJob" SET status = 'RUNNING', runner = ${runnerId}, "heartbeatAt" = now(), "startedAt" = COALESCE("startedAt", now()), failed = 0
    WHERE id = ${jobId} AND status IN ('PENDING', 'RUNNING')`;
  return claimed === 1;
}

export interface JobProgress {
  done: number;
  failed: number;
  requests: number;
  cacheHits: number;
  total: number;
  errors: unknown[];
}

/** The runner's counters and a heartbeat; false when the job is no longer this runner's, or no longer RUNNING. */
export async function saveJobProgress(jobId: string, runnerId: string, state: JobProgress): Promise<boolean> {
  const updated = await db.$executeRaw`
      UPDATE "ScoringJob" SET done = ${state.done}, failed = ${state.failed}, requests = ${state.requests}, "cacheHits" = ${state.cacheHits}, total = ${state.total},
        errors = ${JSON.stringify(state.errors)}::jsonb, "heartbeatAt" = now()
      WHERE id = ${jobId} AND runner = ${runnerId} AND status = 'RUNNING'`;
  return updated !== 0;
}

/** FAILED now, if the job is still this runner's. */
export async function failJobOfRunner(jobId: string, runnerId: string): Promise<void> {
  await db.scoringJob.updateMany({ where: { id: jobId, runner: runnerId }, data: { status: "FAILED", finishedAt: new Date() } });
}

/** Ended with `status` now, if the job is still this runner's and RUNNING. */
export async function finishRunningJob(jobId: string, runnerId: string, status: ScoringJobStatus): Promise<void> {
  await db.scoringJob.updateMany({ where: { id: jobId, runner: runnerId, status: "RUNNING" }, data: { status, finishedAt: new Date() } });
}

/**
 * Stores a score of the answer (unless that scorer version scored it already); with `correct`, the
 * answer's correctness is set to it in the same transaction (the latest score decides).
 */
export async function storeScore(
  target: Pick<UnscoredTarget, "type" | "id">,
  studyId: string,
  by: ScorerVersion,
  score: Prisma.InputJsonValue,
  own?: { score: Prisma.InputJsonValue; correct: boolean | null } | null,
): Promise<void> {
  const stored = db.scorerResult.createMany({
    data: [
      {
        studyId,
        scorer: by.scorer,
        model: by.model,
        promptVersion: by.promptVersion,
        ...(target.type === "response" ? { responseId: target.id } : { predictionId: target.id }),
        score,
      },
    ],
    skipDuplicates: true,
  });
  if (!own) {
    await stored;
    return;
  }
  const data = { score: own.score, correct: own.correct };
  await db.$transaction([
    stored,
    target.type === "response" ? db.response.updateMany({ where: { id: target.id }, data }) : db.modelPrediction.updateMany({ where: { id: target.id }, data }),
  ]);
}
