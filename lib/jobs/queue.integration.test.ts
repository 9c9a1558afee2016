import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { db, disconnectDb } from "@/lib/db";
import { createBoss, enqueue, jobState, newJobId, QUEUES } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/worker";
import { resetJobQueue } from "@/tests/db-helpers";

/**
 * The job queue (lib/jobs/queue.ts, worker.ts) as two app instances use it: two workers, each
 * with its own pg-boss and connection pool on one database, take jobs from one queue.
 */
const bosses: PgBoss[] = [];

afterAll(async () => {
  for (const boss of bosses) await boss.stop({ graceful: false, wait: true, close: true });
  await disconnectDb();
});

describe("job queue", () => {
  beforeEach(async () => {
    // the queue's schema is made by the first pg-boss; its jobs outlive resetDatabase
    bosses.push(await createBoss(process.env.DATABASE_URL!, { supervise: false }));
    await resetJobQueue();
  });

  it("two workers on one queue: each of N jobs is handled exactly once, and both take part", async () => {
    const second = await createBoss(process.env.DATABASE_URL!, { supervise: false });
    bosses.push(second);
    const [first] = bosses;
    const handled: Array<{ n: number; worker: string; jobId: string }> = [];
    const handler = (worker: string) => async (data: unknown, context: { jobId: string }) => {
      handled.push({ n: (data as { n: number }).n, worker, jobId: context.jobId });
      // long enough that the other worker fetches meanwhile
      await new Promise((resolve) => setTimeout(resolve, 15));
      return { by: worker };
    };
    const workers = [
      await startWorker({ boss: first, queues: [QUEUES.import.name], pollMs: 20, id: "instance-a", handler: handler("instance-a") }),
      await startWorker({ boss: second, queues: [QUEUES.import.name], pollMs: 20, id: "instance-b", handler: handler("instance-b") }),
    ];
    const N = 60;
    const ids = Array.from({ length: N }, () => newJobId());
    await Promise.all(ids.map((id, n) => enqueue(QUEUES.import, id, { n }, n % 2 === 0 ? first : second)));
    const deadline = Date.now() + 60_000;
    while (handled.length < N && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all(workers.map((worker) => worker.stop()));

    expect(handled).toHaveLength(N);
    expect(new Set(handled.map((h) => h.n)).size).toBe(N);
    expect(new Set(handled.map((h) => h.jobId))).toEqual(new Set(ids));
    const byA = handled.filter((h) => h.worker === "instance-a").length;
    console.log(`jobs handled: instance-a ${byA}, instance-b ${N - byA}`);
    expect(byA).toBeGreaterThan(0);
    expect(N - byA).toBeGreaterThan(0);
    for (const id of ids) expect(await jobState(QUEUES.import.name, id, first)).toMatchObject({ state: "completed", retryCount: 0 });
  });

  it("a handler that throws is retried with exponential backoff, then given up", async () => {
    const [boss] = bosses;
    const id = newJobId();
    await enqueue(QUEUES.import, id, { n: 1 }, boss);
    const attempts: number[] = [];
    const failing = async (_data: unknown, context: { attempt: number; lastAttempt: boolean }) => {
      attempts.push(context.attempt);
      throw new Error(`attempt ${context.attempt} failed`);
    };
    const waits: number[] = [];
    for (let attempt = 0; attempt <= QUEUES.import.retryLimit; attempt++) {
      const worker = await startWorker({ boss, queues: [QUEUES.import.name], pollMs: 20, handler: failing });
      const until = Date.now() + 10_000;
      while (attempts.length <= attempt && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      await worker.stop();
      const state = await jobState(QUEUES.import.name, id, boss);
      if (attempt < QUEUES.import.retryLimit) {
        expect(state?.state).toBe("retry");
        const [{ wait }] = await db.$queryRawUnsafe<Array<{ wait: number }>>(
          `SELECT extract(epoch FROM start_after - now())::float AS wait FROM pgboss.job WHERE id = $1::uuid`,
          id,
        );
        waits.push(wait);
        // skip the wait
        await db.$executeRawUnsafe(`UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid`, id);
      } else {
        expect(state?.state).toBe("failed");
      }
    }
    expect(attempts).toEqual([0, 1, 2]);
    // retryDelay 5 s, doubled per retry (pg-boss adds jitter below the doubled delay)
    expect(waits[0]).toBeGreaterThan(QUEUES.import.retryDelay * 0.5);
    expect(waits[1]).toBeGreaterThan(waits[0]);
  });
});
