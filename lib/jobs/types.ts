/** The contract between the job worker (lib/jobs/worker.ts, handlers.ts) and the modules whose handlers it loads. */

/** What a handler is told about the job it runs. */
export interface JobContext {
  /** the pg-boss job id (our rows record it as bossJobId) */
  jobId: string;
  workerId: string;
  /** 0 for the first attempt, then 1, 2 ... */
  attempt: number;
  /** no retry follows if this attempt throws: the handler records the failure in its own row */
  lastAttempt: boolean;
  /** aborted when the job is no longer this worker's (expired, or the worker is stopping) */
  signal: AbortSignal;
}

/** Runs a job; throwing fails the attempt (pg-boss retries it with backoff until the queue's retryLimit). */
export type JobHandler = (data: unknown, context: JobContext) => Promise<object | void>;
