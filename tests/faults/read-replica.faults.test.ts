import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientLog, runAnnotator, sleep, until } from "./annotator-client";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, startStreamingReplica, startThrowawayCluster, type ThrowawayCluster } from "./pg-cluster";
import { createJudgeStudy, createUsers, migrate, type SeededStudy, type SeededUser } from "./seed";

/**
 * With DATABASE_REPLICA_URL, dashboards and exports read from a streaming
 * replica (with "figures as of <replay time>" on the dashboard), while assignment and answers go
 * to the primary. A throwaway primary and a replica made from it with pg_basebackup -R, on
 * loopback; the test pauses the replica's replay to tell the two apart.
 */

const DB = "yardstick_replica";
let primary: ThrowawayCluster;
let replica: ThrowawayCluster;
let primaryPool: pg.Pool;
let replicaPool: pg.Pool;
let server: AppServer;
let annotator: SeededUser;
let admin: SeededUser;
let study: SeededStudy;

beforeAll(async () => {
  primary = await startThrowawayCluster();
  const primaryUrl = await createDatabase(primary.serverUrl, DB);
  await migrate(primaryUrl);
  primaryPool = new pg.Pool({ connectionString: primaryUrl, max: 2 });
  [annotator] = await createUsers(primaryPool, 1);
  [admin] = await createUsers(primaryPool, 1, "ADMIN", "replica");
  study = await createJudgeStudy(primaryPool, { items: 8, members: [annotator] });
  replica = await startStreamingReplica(primary);
  replicaPool = new pg.Pool({ connectionString: replica.urlOf(DB), max: 2 });
  server = await startAppServer({ databaseUrl: primaryUrl, env: { DATABASE_REPLICA_URL: replica.urlOf(DB), YARDSTICK_WORKERS: "1" } });
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await primaryPool?.end();
  await replicaPool?.end();
  replica?.destroy();
  primary?.destroy();
});

async function responsesOn(pool: pg.Pool): Promise<number> {
  return (await pool.query(`SELECT count(*)::int AS n FROM "Response"`)).rows[0].n;
}

async function dashboardText(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/research/studies/${study.slug}/dashboard`, { headers: { cookie: await sessionCookie(admin.id) } });
  expect(response.status).toBe(200);
  return (await response.text()).replace(/<!-- -->/g, "");
}

async function exportedResponses(): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/studies/${study.slug}/export/responses?format=jsonl`, {
    headers: { cookie: await sessionCookie(admin.id) },
  });
  expect(response.status).toBe(200);
  return (await response.text()).split("\n").filter((line) => line.trim() !== "").length;
}

describe("read replica (DATABASE_REPLICA_URL)", () => {
  it("dashboards and exports read the replica, with its freshness; assignment and answers go to the primary", async () => {
    const errors: string[] = [];
    const cookie = await sessionCookie(annotator.id);
    const answer = (maxItems: number) =>
      runAnnotator({
        baseUrl: server.baseUrl,
        slug: study.slug,
        cookie,
        maxItems,
        batches: 1,
        eventsPerBatch: 2,
        log: newClientLog(),
        onError: (e) => errors.push(String(e)),
      });

    await answer(3);
    await until("the replica to replay the first answers", async () => (await responsesOn(replicaPool)) === 3, errors, 30_000);
    const first = await dashboardText();
    expect(first).toContain("Figures from 3 answers");
    expect(first).toMatch(/from the read replica: figures as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(await exportedResponses()).toBe(3);

    // the replica stops replaying: answers still go to the primary, figures stay as they were
    await replicaPool.query("SELECT pg_wal_replay_pause()");
    const pausedAt = Date.now();
    await sleep(1100);
    const log = await answer(2);
    expect(errors).toEqual([]);
    expect(log.responses).toHaveLength(2);
    expect(await responsesOn(primaryPool)).toBe(5);
    expect(await responsesOn(replicaPool)).toBe(3);
    const paused = await dashboardText();
    expect(paused).toContain("Figures from 3 answers");
    const asOf = Date.parse(`${/figures as of (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC/.exec(paused)![1].replace(" ", "T")}Z`);
    // the figures are as of the last transaction replayed, before the pause (second precision)
    expect(asOf).toBeLessThanOrEqual(pausedAt);
    expect(asOf).toBeLessThan(Math.min(...log.responses.map((r) => r.at)));
    expect(await exportedResponses()).toBe(3);

    await replicaPool.query("SELECT pg_wal_replay_resume()");
    await until("the replica to catch up", async () => (await responsesOn(replicaPool)) === 5, errors, 30_000);
    expect(await dashboardText()).toContain("Figures from 5 answers");
    expect(await exportedResponses()).toBe(5);
  });
});
