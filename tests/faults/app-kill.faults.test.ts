import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientLog, runAnnotator, sleep, until, type ClientLog } from "./annotator-client";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, dropDatabase } from "./pg-cluster";
import { createJudgeStudy, createUsers, migrate, type SeededStudy, type SeededUser } from "./seed";

/**
 * SIGKILL the app server in the middle of a burst of submissions and event
 * batches from concurrent clients, restart it; every write acknowledged before the kill is in the
 * database, and the clients' retries after the restart complete the rest exactly once.
 *
 * To be sure the kill lands mid-transaction, the test holds an exclusive lock on "Response" just
 * before it: submissions then wait inside their transaction (INSERT sent, no COMMIT) when the
 * process dies, while event batches keep flowing.
 */

const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_faults_kill_${process.pid}_${Date.now().toString(36)}`;
const ANNOTATORS = 8;
const ITEMS_EACH = 8;

let databaseUrl: string;
let pool: pg.Pool;
let server: AppServer;
let users: SeededUser[];
let study: SeededStudy;

/** errors of the simulated annotators so far (a run that fails ends the wait at once) */
const runErrors: string[] = [];
const untilOrFail = (what: string, check: () => Promise<boolean> | boolean, timeoutMs?: number) => until(what, check, runErrors, timeoutMs);

beforeAll(async () => {
  databaseUrl = await createDatabase(serverUrl, dbName);
  await migrate(databaseUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  users = await createUsers(pool, ANNOTATORS);
  study = await createJudgeStudy(pool, { items: ANNOTATORS * ITEMS_EACH, members: users });
  server = await startAppServer({ databaseUrl });
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await pool?.end();
  await dropDatabase(serverUrl, dbName);
});

/** Acknowledged writes that are not in the database (empty when all are). */
async function missingFromDatabase(logs: ClientLog[], before = Infinity): Promise<string[]> {
  const missing: string[] = [];
  const events = logs.flatMap((log) => log.events).filter((event) => event.at < before);
  const stored = await pool.query(`SELECT "assignmentId", seq, type FROM "Event" WHERE "assignmentId" = ANY($1)`, [
    [...new Set(events.map((e) => e.assignmentId))],
  ]);
  const storedType = new Map(stored.rows.map((row) => [`${row.assignmentId}#${row.seq}`, row.type as string]));
  for (const event of events) if (storedType.get(`${event.assignmentId}#${event.seq}`) !== event.type) missing.push(`event ${event.assignmentId}#${event.seq}`);
  const responses = logs.flatMap((log) => log.responses).filter((response) => response.at < before);
  const storedResponses = await pool.query(`SELECT id, "clientId", "assignmentId" FROM "Response" WHERE "clientId" = ANY($1::text[])`, [
    responses.map((r) => r.clientId),
  ]);
  const byClient = new Map(storedResponses.rows.map((row) => [row.clientId as string, row]));
  for (const response of responses) {
    const row = byClient.get(response.clientId);
    if (!row || row.id !== response.responseId || row.assignmentId !== response.assignmentId) missing.push(`response ${response.clientId}`);
  }
  return missing;
}

describe("the app server is killed (SIGKILL) mid-burst and restarted", () => {
  it("keeps every acknowledged write, and the clients' retries complete the rest exactly once", async () => {
    const cookies = await Promise.all(users.map((user) => sessionCookie(user.id)));
    const inFlight = { count: 0 };
    const logs = users.map(() => newClientLog());
    const runs = users.map((_, i) =>
      runAnnotator({
        onError: (error) => runErrors.push(String(error)),
        baseUrl: server.baseUrl,
        slug: study.slug,
        cookie: cookies[i],
        inFlight,
        log: logs[i],
        batches: 3,
        eventsPerBatch: 3,
      }),
    );
    const settled = Promise.allSettled(runs);

    // a burst under way: some submissions acknowledged
    await untilOrFail("the first submissions", () => logs.reduce((n, log) => n + log.responses.length, 0) >= ANNOTATORS);
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE "Response" IN EXCLUSIVE MODE`);
    await untilOrFail("a submission waiting inside its transaction", async () => {
      const waiting = await pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query ILIKE '%INSERT INTO%Response%'`,
        [dbName],
      );
      return waiting.rows[0].n >= 1;
    });
    const eventsBefore = logs.reduce((n, log) => n + log.events.length, 0);
    await untilOrFail("more event batches after the lock", () => logs.reduce((n, log) => n + log.events.length, 0) > eventsBefore + 5, 10_000).catch(
      () => undefined,
    );

    const killedAt = Date.now();
    const inFlightAtKill = inFlight.count;
    await server.kill("SIGKILL");
    await locker.query("ROLLBACK");
    await locker.end();
    expect(server.process.signalCode).toBe("SIGKILL");
    expect(inFlightAtKill, "requests were in flight when the server died").toBeGreaterThan(0);

    // with the server dead: every write acknowledged before the kill is already in the database
    expect(await missingFromDatabase(logs, killedAt)).toEqual([]);
    const ackedBeforeKill = {
      events: logs.reduce((n, log) => n + log.events.filter((e) => e.at < killedAt).length, 0),
      responses: logs.reduce((n, log) => n + log.responses.filter((r) => r.at < killedAt).length, 0),
    };
    // and the submissions that were waiting were rolled back, not half-written
    const orphans = await pool.query(
      `SELECT count(*)::int AS n FROM "Assignment" a LEFT JOIN "Response" r ON r."assignmentId" = a.id WHERE (a.status = 'SUBMITTED') <> (r.id IS NOT NULL) AND a."studyId" = $1`,
      [study.id],
    );
    expect(orphans.rows[0].n).toBe(0);

    await sleep(500); // the clients keep retrying into a closed port
    await server.start();
    const results = await settled;
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String(r.reason));
    expect(failed).toEqual([]);

    // the clients met the outage (network errors), and nothing but that: no 4xx, no 500
    const failures = logs.flatMap((log) => log.failures);
    expect(failures.some((f) => f.status === 0)).toBe(true);
    expect(failures.filter((f) => f.status !== 0 && f.status !== 503)).toEqual([]);

    // every acknowledged write is stored; every item has exactly one response, with the client's id
    expect(await missingFromDatabase(logs)).toEqual([]);
    const responses = await pool.query(
      `SELECT a.id, count(r.id)::int AS n, a.status FROM "Assignment" a LEFT JOIN "Response" r ON r."assignmentId" = a.id WHERE a."studyId" = $1 GROUP BY a.id`,
      [study.id],
    );
    expect(responses.rows.length).toBe(ANNOTATORS * ITEMS_EACH);
    expect(responses.rows.every((row) => row.n === 1 && row.status === "SUBMITTED")).toBe(true);
    expect(logs.reduce((n, log) => n + log.responses.length, 0)).toBe(ANNOTATORS * ITEMS_EACH);
    // each trajectory complete: seqs 0..submitted, no gap, no duplicate, nothing extra
    const lastSeq = new Map(logs.flatMap((log) => [...log.lastSeq]));
    const events = await pool.query(
      `SELECT e."assignmentId", array_agg(e.seq ORDER BY e.seq) AS seqs FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" WHERE a."studyId" = $1 GROUP BY e."assignmentId"`,
      [study.id],
    );
    expect(events.rows.length).toBe(ANNOTATORS * ITEMS_EACH);
    for (const row of events.rows) {
      expect(row.seqs, `events of ${row.assignmentId}`).toEqual(Array.from({ length: lastSeq.get(row.assignmentId)! + 1 }, (_, i) => i));
    }
    console.log(
      `killed with ${inFlightAtKill} requests in flight; acknowledged before the kill: ${ackedBeforeKill.events} events, ${ackedBeforeKill.responses} responses; ` +
        `after: ${logs.reduce((n, log) => n + log.events.length, 0)} events, ${ANNOTATORS * ITEMS_EACH} responses; ` +
        `${failures.length} failed attempts retried; ${logs.flatMap((l) => l.responses).filter((r) => r.duplicate).length} retried submissions found already stored`,
    );
  });
});
