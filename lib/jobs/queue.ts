import "server-only";
import { createHash, randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";

/**
 * Background work runs on pg-boss (a job queue kept in PostgreSQL, schema "pgboss"), so that every
 * app instance, or a worker apart (`npm run worker`), can take any job, and exactly one worker
 * handles it: pg-boss hands a job out with FOR UPDATE SKIP LOCKED. What a job did and how far it
 * is stays in our own tables (ImportJob, ScoringJob, AssetMigrationJob, ExportJob, keyed by the
 * pg-boss job id in `bossJobId`), which the pages poll.
 *
 * A worker that dies stops renewing its job's heartbeat: pg-boss 10 has none of its own, so the
 * worker moves the job's `started_on` forward every HEARTBEAT_SECONDS (renewHeartbeat), and the
 * queues expire an active job after EXPIRE_SECONDS without a renewal. pg-boss's maintenance (every
 * MAINTENANCE_SECONDS, in one instance at a time) then fails it, and it is retried with
 * exponential backoff (retryDelay * 2^n) until its retryLimit, by whichever worker fetches it.
 */

export interface QueueDefinition {
  name: string;
  /** attempts after the first one (after a worker died or the handler threw) */
  retryLimit: number;
  /** seconds before the first retry; doubled each time (retryBackoff) */
  retryDelay: number;
  /** how often an idle worker asks this queue for a job, when a visitor waits on its jobs (default: once a second) */
  pollMs?: number;
}

export const QUEUES = {
  /** an uploaded batch (lib/import/jobs.ts); all or nothing, so running it again is safe */
  import: { name: "import", retryLimit: 2, retryDelay: 5 },
  /** an LLM scoring job (lib/scoring/llm-jobs.ts); a retry goes on with what is still unscored */
  llmScoring: { name: "llm-scoring", retryLimit: 5, retryDelay: 10 },
  /** an export prepared in the background, or the removal of prepared files past their retention (lib/exports/export-jobs.ts); a retry writes the file again */
  export: { name: "export", retryLimit: 2, retryDelay: 5 },
  /** `assets migrate --to s3` started by an admin (lib/assets/migrate-jobs.ts); a retry skips what is verified in the bucket */
  assetMigration: { name: "asset-migration", retryLimit: 5, retryDelay: 10 },
  /** a large study's dashboard intervals for one view and data version (lib/dashboard/interval-jobs.ts); a retry computes them again */
  dashboardIntervals: { name: "dashboard-intervals", retryLimit: 2, retryDelay: 5, pollMs: 200 },
  /** a Prolific study's submissions synced (lib/recruitment/prolific/sync.ts); a sync stores states, so running it again is safe */
  prolificSync: { name: "prolific-sync", retryLimit: 2, retryDelay: 30 },
} as const satisfies Record<string, QueueDefinition>;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES]["name"];

/** how often a running job's heartbeat is renewed, and after how long without one it is taken for dead */
export const HEARTBEAT_SECONDS = 10;
export const EXPIRE_SECONDS = 60;
function maintenanceSeconds(): number {
  const configured = Number(process.env.YARDSTICK_JOB_MAINTENANCE_SECONDS ?? "");
  return Number.isInteger(configured) && configured >= 1 ? configured : 30;
}

export const BOSS_SCHEMA = "pgboss";

const holder = globalThis as unknown as { yardstickBoss?: Promise<PgBoss> };

/** A started pg-boss on the given database, with our queues created. */
export async function createBoss(connectionString: string, options: { supervise?: boolean } = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: BOSS_SCHEMA,
    // its own small pool beside Prisma's: fetches, heartbeats and completions are short
    max: 2,
    application_name: "yardstick-jobs",
    supervise: options.supervise ?? true,
    maintenanceIntervalSeconds: maintenanceSeconds(),
    // no cron schedules here: the clock-skew monitor has nothing to do
    schedule: false,
    // finished jobs are kept a week for inspection, then dropped; our rows keep the outcome
    deleteAfterDays: 7,
  });
  boss.on("error", (error: unknown) => console.error("job queue:", error instanceof Error ? error.message : error));
  await boss.start();
  for (const queue of Object.values(QUEUES)) {
    const options = { retryLimit: queue.retryLimit, retryDelay: queue.retryDelay, retryBackoff: true, expireInSeconds: EXPIRE_SECONDS };
    await boss.createQueue(queue.name, { name: queue.name, ...options });
    await boss.updateQueue(queue.name, { name: queue.name, ...options });
  }
  return boss;
}

/** This process's pg-boss (on DATABASE_URL or the embedded database), started on first use. */
export function getBoss(): Promise<PgBoss> {
  holder.yardstickBoss ??= createBoss(process.env.DATABASE_URL ?? embeddedDatabaseUrl()).catch((error: unknown) => {
    holder.yardstickBoss = undefined;
    throw error;
  });
  return holder.yardstickBoss;
}

/** Stops this process's pg-boss (tests, shutdown). */
export async function stopBoss(): Promise<void> {
  const pending = holder.yardstickBoss;
  holder.yardstickBoss = undefined;
  if (pending) await (await pending.catch(() => null))?.stop({ graceful: false, wait: true, close: true });
}

/** A new job id: our rows record it before the job is sent, so that a job and its row agree. */
export function newJobId(): string {
  return randomUUID();
}

/**
 * Sends a job with the given id to a queue (the queue's retry policy applies); `startAfter` holds
 * it back until then (pg-boss keeps it queued 14 days past that).
 */
export async function enqueue(queue: QueueDefinition, id: string, data: object, boss?: PgBoss, options: { startAfter?: Date } = {}): Promise<void> {
  const sent = await (boss ?? (await getBoss())).send(queue.name, data, {
    id,
    retryLimit: queue.retryLimit,
    retryDelay: queue.retryDelay,
    retryBackoff: true,
    expireInSeconds: EXPIRE_SECONDS,
    ...options,
  });
  if (sent !== id) throw new Error(`the job queue did not take job ${id} (queue ${queue.name})`);
}

/**
 * Sends a job whose id names its work (the same work, the same id): false when the queue already
 * holds that job (waiting, running or done), which is then not sent again.
 */
export async function enqueueOnce(queue: QueueDefinition, id: string, data: object, boss?: PgBoss): Promise<boolean> {
  const sent = await (boss ?? (await getBoss())).send(queue.name, data, {
    id,
    retryLimit: queue.retryLimit,
    retryDelay: queue.retryDelay,
    retryBackoff: true,
    expireInSeconds: EXPIRE_SECONDS,
  });
  return sent === id;
}

/** A job id (a UUID, as pg-boss requires) made from a text: the same text, the same id. */
export function jobIdFor(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Renews an active job's heartbeat; false when the job is no longer active (it expired and was
 * failed or handed to another worker): the caller must stop working on it.
 */
export async function renewHeartbeat(boss: PgBoss, queue: string, id: string): Promise<boolean> {
  const { rows } = await boss
    .getDb()
    .executeSql(`UPDATE ${BOSS_SCHEMA}.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id`, [queue, id]);
  return rows.length === 1;
}

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/** A job's state and attempts, or null when pg-boss has no such job (dropped after a week). */
export async function jobState(queue: string, id: string, boss?: PgBoss): Promise<{ state: JobState; retryCount: number; retryLimit: number } | null> {
  const job = await (boss ?? (await getBoss())).getJobById(queue, id, { includeArchive: true });
  return job ? { state: job.state, retryCount: job.retryCount, retryLimit: job.retryLimit } : null;
}

/**
 * Whether the queue has given a job up (failed after its last retry, cancelled, completed, or
 * dropped after a week): a row still RUNNING then belongs to no worker. undefined when the queue
 * cannot be asked now.
 */
export async function queueGaveUp(queue: string, id: string, boss?: PgBoss): Promise<boolean | undefined> {
  const state = await jobState(queue, id, boss).catch(() => undefined);
  if (state === undefined) return undefined;
  return state === null || state.state === "failed" || state.state === "cancelled" || state.state === "completed";
}

/** The id of one attempt of a job ("<worker>:<pg-boss job id>:<attempt>"): the owner of its row while it runs. */
export function attemptId(context: { workerId: string; jobId: string; attempt: number }): string {
  return `${context.workerId}:${context.jobId}:${context.attempt}`;
}
