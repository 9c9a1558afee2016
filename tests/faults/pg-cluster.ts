import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./ports";

/**
 * A throwaway PostgreSQL cluster for fault tests (as scripts/test-postgres.sh makes one): initdb in
 * a temporary folder, a free port, trust auth. The tests stop, restart and fill it; the machine's
 * own server on 5432 is never touched.
 */
export interface ThrowawayCluster {
  port: number;
  dir: string;
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  serverUrl: string;
  urlOf(database: string): string;
  pgCtl(...args: string[]): void;
  start(): void;
  /** fast shutdown: open transactions are rolled back, clients are disconnected */
  stop(): void;
  /** runs a command as the server's user (root runs PostgreSQL as `postgres`) */
  asServerUser(command: string, args: string[]): void;
  destroy(): void;
}

export function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "initdb"))) : [];
  versions.sort((a, b) => Number(a) - Number(b));
  const version = versions.pop();
  if (!version) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install -y postgresql)");
  return path.join(root, version, "bin");
}

const isRoot = process.getuid?.() === 0;

function pgUserIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

/** chown a path to the server's user when running as root (PostgreSQL refuses to run as root). */
export function giveToServerUser(target: string): void {
  if (!isRoot) return;
  const { uid, gid } = pgUserIds();
  chownSync(target, uid, gid);
}

export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-fault-pg-"));
  chmodSync(dir, 0o755);
  giveToServerUser(dir);
  const port = await freePort();
  const data = path.join(dir, "data");
  const run = (command: string, args: string[]) => {
    const [file, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    const result = spawnSync(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr.toString()}${result.stdout.toString()}`);
  };
  run(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const cluster: ThrowawayCluster = {
    port,
    dir,
    serverUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    urlOf: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    pgCtl: (...args) => run(path.join(bin, "pg_ctl"), ["-D", data, ...args]),
    start: () =>
      cluster.pgCtl(
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
        "-l",
        path.join(dir, "log"),
        "-w",
        "-t",
        "60",
        "start",
      ),
    stop: () => cluster.pgCtl("-m", "fast", "-w", "stop"),
    asServerUser: run,
    destroy: () => {
      try {
        cluster.pgCtl("-m", "immediate", "-w", "stop");
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}

export async function createDatabase(serverUrl: string, name: string, options: { tablespace?: string } = {}): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${options.tablespace ? ` TABLESPACE "${options.tablespace}"` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // pg's Pool.end() resolves once its clients are told to end, not once their sockets are closed:
    // a FORCE drop in that window terminates them (FATAL 57P01) after the pool stopped listening
    // for their errors, an uncaught exception in the test process. Give them a moment to go first.
    for (let waited = 0; waited < 5_000; waited += 50) {
      const others = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      if (others.rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A streaming replica of a throwaway cluster (docs/scaling.md, "Read replica"): pg_basebackup -R
 * copies the primary (whose default wal_level is replica, and whose initdb pg_hba trusts
 * replication from 127.0.0.1) and writes the standby settings; it starts as a hot standby on a
 * port of its own. `destroy` stops it and removes its folder.
 */
export async function startStreamingReplica(primary: ThrowawayCluster): Promise<ThrowawayCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-fault-pg-replica-"));
  chmodSync(dir, 0o755);
  giveToServerUser(dir);
  const port = await freePort();
  const data = path.join(dir, "data");
  primary.asServerUser(path.join(bin, "pg_basebackup"), [
    "-h",
    "127.0.0.1",
    "-p",
    String(primary.port),
    "-U",
    "postgres",
    "-D",
    data,
    "-R",
    "-X",
    "stream",
    "-c",
    "fast",
    "--no-sync",
  ]);
  const run = primary.asServerUser;
  const replica: ThrowawayCluster = {
    port,
    dir,
    serverUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    urlOf: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    pgCtl: (...args) => run(path.join(bin, "pg_ctl"), ["-D", data, ...args]),
    start: () =>
      replica.pgCtl(
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c hot_standby=on`,
        "-l",
        path.join(dir, "log"),
        "-w",
        "-t",
        "60",
        "start",
      ),
    stop: () => replica.pgCtl("-m", "fast", "-w", "stop"),
    asServerUser: run,
    destroy: () => {
      try {
        replica.pgCtl("-m", "immediate", "-w", "stop");
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  replica.start();
  return replica;
}
