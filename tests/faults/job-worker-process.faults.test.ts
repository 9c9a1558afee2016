import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep } from "./annotator-client";
import { startAppServer, type AppServer } from "./app-server";
import { createDatabase, dropDatabase } from "./pg-cluster";
import { migrate } from "./seed";

/**
 * The production server runs the job worker in a process of its own (scripts/job-worker-process.mjs):
 * a job that computes for seconds (a large study's dashboard view) then holds that process, not the
 * app's requests. The server restarts the worker when it dies, and the worker goes with the
 * server, even a server killed without a chance to stop it.
 */

const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_faults_jobworker_${process.pid}_${Date.now().toString(36)}`;
let databaseUrl: string;
const servers: AppServer[] = [];

/** Live processes whose parent is `ppid`, with their command lines (read from /proc: no ps needed). */
function childrenOf(ppid: number): Array<{ pid: number; args: string }> {
  const out: Array<{ pid: number; args: string }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || Number(fields[1]) !== ppid) continue;
      out.push({ pid: Number(entry), args: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ") });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const isAlive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

const jobWorkersOf = (server: AppServer) => childrenOf(server.process.pid!).filter((child) => child.args.includes("scripts/worker.ts"));

async function waitFor<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

beforeAll(async () => {
  databaseUrl = await createDatabase(serverUrl, dbName);
  await migrate(databaseUrl);
});

afterAll(async () => {
  for (const server of servers) await server.kill("SIGKILL");
  await dropDatabase(serverUrl, dbName);
});

describe("the job worker beside the app server", () => {
  it("runs as one process of the server's, is started again when it dies, and stops when the server is killed", async () => {
    const server = await startAppServer({ databaseUrl, env: { YARDSTICK_WORKERS: "2" } });
    servers.push(server);
    const [worker] = await waitFor("the job worker process", () => {
      const found = jobWorkersOf(server);
      return found.length > 0 && found;
    });
    expect(jobWorkersOf(server)).toHaveLength(1);
    await waitFor(
      "the worker to start on the queue",
      () => server.output().includes(`job worker `) && server.output().includes(`:${worker.pid} on DATABASE_URL`),
    );
    // the app's own processes run no worker of their own: only the one process announced itself
    expect(server.output().match(/Yardstick job worker /g)).toHaveLength(1);

    process.kill(worker.pid, "SIGKILL");
    const [again] = await waitFor("a new job worker process", () => {
      const found = jobWorkersOf(server).filter((child) => child.pid !== worker.pid);
      return found.length > 0 && found;
    });
    expect(server.output()).toContain("the job worker exited (SIGKILL); starting another");
    // the app kept answering meanwhile
    expect((await fetch(`${server.baseUrl}/signin`)).status).toBe(200);

    await server.kill("SIGKILL");
    await waitFor("the job worker to stop with its server", () => !isAlive(again.pid), 30_000);
  });

  it("is not started with YARDSTICK_JOB_WORKER=off (workers run apart)", async () => {
    const server = await startAppServer({ databaseUrl, env: { YARDSTICK_WORKERS: "1", YARDSTICK_JOB_WORKER: "off" } });
    servers.push(server);
    await sleep(3000);
    expect(jobWorkersOf(server)).toEqual([]);
    expect(server.output()).not.toContain("Yardstick job worker ");
    await server.kill("SIGTERM");
  });
});
