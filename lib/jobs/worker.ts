import "server-only";
import { hostname } from "node:os";
import type PgBoss from "pg-boss";
import { jobHandlers, type JobHandler } from "@/lib/jobs/handlers";
import { getBoss, HEARTBEAT_SECONDS, QUEUES, renewHeartbeat, type QueueDefinition, type QueueName } from "@/lib/jobs/queue";

/**
 * The job worker: one loop per queue that fetches a job from pg-boss, runs its handler
 * (lib/jobs/handlers.ts) while renewing the job's heartbeat, and completes it, or fails it so that
 * pg-boss retries it with backoff. It runs in a process of its own (scripts/worker.ts: `npm run
 * worker`, or the one the production server starts beside the app, scripts/job-worker-process.mjs)
 * or, with YARDSTICK_JOB_WORKER=app and under `next dev`, in each app process (instrumentation.ts);
 * pg-boss hands each job to exactly one of them. A worker handles one job per queue at a time.
 */

export interface RunningWorker {
  id: string;
  /** stops fetching; a job in hand is abandoned (its heartbeat stops, so it is retried elsewhere) */
  stop(): Promise<void>;
}

/** what a handler's job looked like to the worker */
type FetchedJob = PgBoss.JobWithMetadata<object>;

const POLL_MS = 1_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** Runs one fetched job to its end: complete with the handler's output, or fail (pg-boss retries). */
async function runJob(boss: PgBoss, queue: QueueName, job: FetchedJob, handler: JobHandler, workerId: string, stopping: AbortSignal): Promise<void> {
  const lost = new AbortController();
  const abandon = () => lost.abort(new Error("the worker is stopping"));
  stopping.addEventListener("abort", abandon);
  const heartbeat = setInterval(() => {
    renewHeartbeat(boss, queue, job.id)
      .then((alive) => {
        if (!alive) lost.abort(new Error(`job ${job.id} is no longer this worker's (it expired)`));
      })
      .catch(() => undefined);
  }, HEARTBEAT_SECONDS * 1000);
  heartbeat.unref?.();
  try {
    const output = await handler(job.data, {
      jobId: job.id,
      workerId,
      attempt: job.retryCount,
      lastAttempt: job.retryCount >= job.retryLimit,
      signal: lost.signal,
    });
    if (!lost.signal.aborted) await boss.complete(queue, job.id, output ?? {});
  } catch (error) {
    if (!lost.signal.aborted)
      await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error), worker: workerId }).catch(() => undefined);
    console.error(`job ${queue}/${job.id} (attempt ${job.retryCount + 1}) failed:`, error instanceof Error ? error.message : error);
  } finally {
    clearInterval(heartbeat);
    stopping.removeEventListener("abort", abandon);
  }
}

async function fetchOne(boss: PgBoss, queue: QueueName): Promise<FetchedJob | null> {
  const [job] = await boss.fetch<object>(queue, { includeMetadata: true, batchSize: 1 });
  return job ?? null;
}

/** A queue's idle poll (QueueDefinition.pollMs: the dashboard's, whose jobs a visit waits on, is asked often), else POLL_MS. */
function pollMsOf(queue: QueueName): number {
  const definition: QueueDefinition | undefined = Object.values(QUEUES).find((q) => q.name === queue);
  return definition?.pollMs ?? POLL_MS;
}

function queueNames(queues?: QueueName[]): QueueName[] {
  return queues ?? Object.values(QUEUES).map((queue) => queue.name);
}

/** A queue's periodic work (HandlerEntry.periodic): at once, then every so many seconds, until the worker stops; a failed pass is logged. */
async function runPeriodically(queue: QueueName, periodic: NonNullable<(typeof jobHandlers)[QueueName]["periodic"]>, stopping: AbortSignal): Promise<void> {
  const loaded = await periodic().catch((error: unknown) => {
    console.error(`job queue ${queue}: periodic work could not load:`, error instanceof Error ? error.message : error);
    return null;
  });
  if (!loaded) return;
  const { everySeconds, run } = loaded;
  if (!(everySeconds > 0)) return;
  while (!stopping.aborted) {
    await run().catch((error: unknown) => console.error(`job queue ${queue}: periodic work failed:`, error instanceof Error ? error.message : error));
    await sleep(everySeconds * 1000, stopping);
  }
}

/**
 * Starts a worker on this process's pg-boss (or the given one), with its queues' periodic work
 * unless `periodic` is false (the app's own worker: see startWorkerOnBoot).
 */
export async function startWorker(
  options: { boss?: PgBoss; queues?: QueueName[]; pollMs?: number; id?: string; handler?: JobHandler; periodic?: boolean } = {},
): Promise<RunningWorker> {
  const boss = options.boss ?? (await getBoss());
  const id = options.id ?? `${hostname()}:${process.pid}`;
  const stopping = new AbortController();
  const loops: Array<Promise<void>> = [];
  for (const queue of queueNames(options.queues)) {
    const entry = jobHandlers[queue];
    await entry
      .adopt?.(boss)
      .catch((error: unknown) => console.error(`job queue ${queue}: adopting old jobs failed:`, error instanceof Error ? error.message : error));
    loops.push(
      (async () => {
        const handler = options.handler ?? (await entry.load());
        while (!stopping.signal.aborted) {
          const job = await fetchOne(boss, queue).catch(() => null);
          if (!job) {
            await sleep(options.pollMs ?? pollMsOf(queue), stopping.signal);
            continue;
          }
          await runJob(boss, queue, job, handler, id, stopping.signal);
        }
      })(),
    );
    if (entry.periodic && options.periodic !== false) loops.push(runPeriodically(queue, entry.periodic, stopping.signal));
  }
  return {
    id,
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}

/** Runs the queues' jobs until none is ready (tests, the CLI); returns how many it ran. */
export async function workUntilIdle(options: { boss?: PgBoss; queues?: QueueName[]; id?: string; handler?: JobHandler } = {}): Promise<number> {
  const boss = options.boss ?? (await getBoss());
  const never = new AbortController().signal;
  let ran = 0;
  for (;;) {
    let any = false;
    for (const queue of queueNames(options.queues)) {
      const job = await fetchOne(boss, queue);
      if (!job) continue;
      any = true;
      await runJob(boss, queue, job, options.handler ?? (await jobHandlers[queue].load()), options.id ?? `${hostname()}:${process.pid}`, never);
      ran += 1;
    }
    if (!any) return ran;
  }
}

const holder = globalThis as unknown as { yardstickWorker?: boolean };

/**
 * instrumentation.ts: the worker of this app process, unless YARDSTICK_JOB_WORKER=off (the
 * production server sets it for its app processes when it starts a worker process beside them,
 * scripts/serve.mjs; `app` keeps a worker in each app process). When the
 * database cannot be reached yet, it tries again every 10 s. It runs the jobs asked for but not
 * the queues' periodic work: that work (the dashboard views of large studies computed before
 * anyone asks, lib/dashboard/view-refresh.ts) holds a process's CPU for seconds at a time that
 * no visitor waits on, and in the app it would hold every request of the app with it, the
 * participants' answers included; workers started apart (`npm run worker`) run it.
 */
export function startWorkerOnBoot(): void {
  if (process.env.YARDSTICK_JOB_WORKER === "off" || holder.yardstickWorker) return;
  holder.yardstickWorker = true;
  const attempt = () => {
    startWorker({ periodic: false }).catch((error: unknown) => {
      console.error("job worker: could not start (trying again in 10 s):", error instanceof Error ? error.message : error);
      setTimeout(attempt, 10_000).unref?.();
    });
  };
  attempt();
}
