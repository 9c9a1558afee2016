import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";
import { createBoss, enqueue, jobState, newJobId, QUEUES } from "@/lib/jobs/queue";
import { workUntilIdle } from "@/lib/jobs/worker";
import { freePort } from "@/tests/faults/ports";

/**
 * `npm run demo` without DATABASE_URL runs the app on the embedded PGlite, served over the wire
 * protocol by pglite-socket (lib/db/database-url.ts): the job queue must work there too.
 */
let pglite: PGlite;
let server: PGLiteSocketServer;
let boss: PgBoss;
let url: string;

beforeAll(async () => {
  pglite = await PGlite.create();
  const port = await freePort();
  server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port, maxConnections: 10 });
  await server.start();
  url = embeddedDatabaseUrl(port);
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true, close: true });
  await server?.stop();
  await pglite?.close();
});

describe("job queue on the embedded database (PGlite behind pglite-socket)", () => {
  it("creates its schema, takes jobs, completes them and retries a failed one", async () => {
    boss = await createBoss(url, { supervise: false });
    const ok = newJobId();
    const flaky = newJobId();
    await enqueue(QUEUES.import, ok, { n: 1 }, boss);
    await enqueue(QUEUES.import, flaky, { n: 2, fail: true }, boss);
    const seen: number[] = [];
    let failures = 0;
    const handler = async (data: unknown) => {
      const { n, fail } = data as { n: number; fail?: boolean };
      seen.push(n);
      if (fail && failures++ === 0) throw new Error("first attempt fails");
      return { n };
    };
    expect(await workUntilIdle({ boss, queues: [QUEUES.import.name], handler })).toBe(2);
    expect(await jobState(QUEUES.import.name, ok, boss)).toMatchObject({ state: "completed" });
    expect(await jobState(QUEUES.import.name, flaky, boss)).toMatchObject({ state: "retry" });
    // past the backoff (set here instead of waited for), the retry succeeds
    await boss.getDb().executeSql(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [flaky]);
    expect(await workUntilIdle({ boss, queues: [QUEUES.import.name], handler })).toBe(1);
    expect(await jobState(QUEUES.import.name, flaky, boss)).toMatchObject({ state: "completed", retryCount: 1 });
    expect(seen.sort()).toEqual([1, 2, 2]);
  });
});
