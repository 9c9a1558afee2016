import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchFiles, forwardItem, zipOf } from "../fixtures/import-batches";
import { newClientLog, runAnnotator, sleep, until } from "./annotator-client";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, startThrowawayCluster, type ThrowawayCluster } from "./pg-cluster";
import { createJudgeStudy, createUsers, migrate, type SeededStudy, type SeededUser } from "./seed";

/**
 * Restart PostgreSQL mid-run (a throwaway cluster of the test's own; the
 * machine's server is never touched). Requests fail cleanly (503, Retry-After, a JSON message, no
 * stack trace), nothing half-written remains (transactions), and the app recovers without a
 * restart of its own.
 */

const ANNOTATORS = 6;
const ITEMS_EACH = 6;
const DOWN_MS = 3000;

let cluster: ThrowawayCluster;
let databaseUrl: string;
let pool: pg.Pool;
let server: AppServer;
let users: SeededUser[];
let admin: SeededUser;
let study: SeededStudy;

/** errors of the simulated annotators so far (a run that fails ends the wait at once) */
const runErrors: string[] = [];
const untilOrFail = (what: string, check: () => Promise<boolean> | boolean, timeoutMs?: number) => until(what, check, runErrors, timeoutMs);

/** A pool that survives the restarts: idle clients the server drops are discarded. */
function newPool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  created.on("error", () => undefined);
  return created;
}

/** What a request answered while the database was away must look like. */
function expectCleanUnavailable(response: { status: number; retryAfter: string | null; body: string }, what: string) {
  expect(response.status, `${what}: ${response.body.slice(0, 300)}`).toBe(503);
  expect(Number(response.retryAfter), `${what}: Retry-After`).toBeGreaterThan(0);
  const json = JSON.parse(response.body) as { error: string; code: string };
  expect(json.code).toBe("UNAVAILABLE");
  expect(json.error).toMatch(/try again/i);
  expect(response.body).not.toMatch(/\n\s+at |Invalid `|prisma|node_modules|\/work\//i);
}

beforeAll(async () => {
  cluster = await startThrowawayCluster();
  databaseUrl = await createDatabase(cluster.serverUrl, "yardstick_faults");
  await migrate(databaseUrl);
  pool = newPool();
  users = await createUsers(pool, ANNOTATORS);
  [admin] = await createUsers(pool, 1, "ADMIN");
  study = await createJudgeStudy(pool, { items: ANNOTATORS * ITEMS_EACH, members: users });
  server = await startAppServer({ databaseUrl });
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await pool?.end().catch(() => undefined);
  cluster?.destroy();
});

describe("PostgreSQL restarts while annotators work", () => {
  it("answers 503 with a retry hint meanwhile, loses and doubles nothing, and recovers without restarting the app", async () => {
    const pid = server.process.pid;
    const cookies = await Promise.all(users.map((user) => sessionCookie(user.id)));
    const logs = users.map(() => newClientLog());
    const settled = Promise.allSettled(
      users.map((_, i) =>
        runAnnotator({
          onError: (error) => runErrors.push(String(error)),
          baseUrl: server.baseUrl,
          slug: study.slug,
          cookie: cookies[i],
          log: logs[i],
          batches: 2,
          eventsPerBatch: 3,
        }),
      ),
    );
    await untilOrFail("some submissions", () => logs.reduce((n, log) => n + log.responses.length, 0) >= ANNOTATORS);

    await pool.end();
    cluster.stop();
    const downSince = Date.now();
    // while it is down: the JSON API answers 503 at once; pages show the error page, never a stack trace
    const probe = await fetch(`${server.baseUrl}/api/annotate/studies`, { headers: { cookie: cookies[0] } });
    expectCleanUnavailable({ status: probe.status, retryAfter: probe.headers.get("retry-after"), body: await probe.text() }, "GET /api/annotate/studies");
    const page = await fetch(`${server.baseUrl}/studies`, { headers: { cookie: cookies[0] } });
    expect(page.status).toBeGreaterThanOrEqual(500);
    expect(await page.text()).not.toMatch(/\n\s+at |Invalid `|prisma\.|node_modules/i);
    await sleep(Math.max(0, DOWN_MS - (Date.now() - downSince)));
    cluster.start();
    pool = newPool();

    const results = await settled;
    expect(results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String(r.reason))).toEqual([]);
    expect(server.process.pid).toBe(pid);
    expect(server.process.exitCode).toBeNull();

    const failures = logs.flatMap((log) => log.failures);
    expect(failures.length, "the clients met the outage").toBeGreaterThan(0);
    for (const failure of failures) expectCleanUnavailable(failure, "a client request during the outage");
    expect(server.output()).not.toMatch(/unhandled|uncaught/i);

    // nothing half-written: each submitted assignment has its response and the other way round,
    // each trajectory is whole (0..submitted, no gap, no duplicate), each item answered once
    const assignments = await pool.query(
      `SELECT a.id, a.status, count(r.id)::int AS n FROM "Assignment" a LEFT JOIN "Response" r ON r."assignmentId" = a.id WHERE a."studyId" = $1 GROUP BY a.id`,
      [study.id],
    );
    expect(assignments.rows.length).toBe(ANNOTATORS * ITEMS_EACH);
    expect(assignments.rows.filter((row) => row.n !== 1 || row.status !== "SUBMITTED")).toEqual([]);
    const lastSeq = new Map(logs.flatMap((log) => [...log.lastSeq]));
    const events = await pool.query(
      `SELECT e."assignmentId", array_agg(e.seq ORDER BY e.seq) AS seqs FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" WHERE a."studyId" = $1 GROUP BY e."assignmentId"`,
      [study.id],
    );
    for (const row of events.rows) expect(row.seqs).toEqual(Array.from({ length: lastSeq.get(row.assignmentId)! + 1 }, (_, i) => i));
    const acked = logs.flatMap((log) => log.responses);
    const stored = await pool.query(`SELECT "clientId" FROM "Response" WHERE "clientId" = ANY($1::text[])`, [acked.map((r) => r.clientId)]);
    expect(stored.rows.length).toBe(acked.length);
    console.log(
      `database down ${DOWN_MS} ms: ${failures.length} requests answered 503 and were retried; ${acked.length} responses, ${events.rows.length} whole trajectories`,
    );
  });

  it("rolls back an import cut off mid-transaction, says so cleanly, and the same import works afterwards", async () => {
    const adminCookie = await sessionCookie(admin.id);
    const files = await batchFiles(Array.from({ length: 12 }, (_, i) => forwardItem(`restart-${i}`)));
    const zip = await zipOf(files);
    const upload = () => {
      const form = new FormData();
      form.set("study", study.slug);
      form.append("files", new Blob([new Uint8Array(zip)]), "restart.zip");
      return fetch(`${server.baseUrl}/api/admin/import`, { method: "POST", body: form, headers: { cookie: adminCookie } });
    };
    const count = async (table: string) => (await pool.query(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0].n as number;
    const before = { batches: await count("Batch"), items: await count("Item"), assets: await count("Asset"), audits: await count("AuditLog") };

    // hold the import inside its transaction: Batch and Asset rows written, Item rows waiting for a lock
    const locker = new pg.Client({ connectionString: databaseUrl });
    locker.on("error", () => undefined);
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE "Item" IN EXCLUSIVE MODE`);
    const importing = upload();
    await untilOrFail("the import waiting inside its transaction", async () => {
      const waiting = await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%INSERT INTO%Item%'`);
      return waiting.rows[0].n >= 1;
    });
    await pool.end();
    cluster.stop();
    const cut = await importing;
    expectCleanUnavailable({ status: cut.status, retryAfter: cut.headers.get("retry-after"), body: await cut.text() }, "the import cut off");
    await locker.end().catch(() => undefined);
    cluster.start();
    pool = newPool();

    expect({ batches: await count("Batch"), items: await count("Item"), assets: await count("Asset"), audits: await count("AuditLog") }).toEqual(before);
    const again = await upload();
    expect(again.status, await again.clone().text()).toBe(201);
    expect(await again.json()).toMatchObject({ status: "imported", newItems: 12 });
    expect(await count("Item")).toBe(before.items + 12);
    expect(await count("Batch")).toBe(before.batches + 1);
  });
});
