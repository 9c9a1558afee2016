/**
 * Load benchmark: the production build against a real PostgreSQL,
 * N concurrent annotators on loopback, then an integrity check of the database.
 *
 *   node --conditions=react-server --import tsx bench/load/run.ts [--annotators 50,200,500] [--seconds 30]
 *        [--batch 12] [--interval 1000] [--batches 15] [--ramp 10] [--retry 0.1] [--rebuild] [--port 0] [--workers N] [--pool 10] [--cpu-prof <dir>]
 *        [--items 2000] [--instances 1] [--throwaway-pg] [--capacity 200]
 *
 * `--instances 2` starts two app instances (two `scripts/serve.mjs` process groups on two
 * ports, one database) and spreads every client's requests over them round robin, as a load
 * balancer would; `--items 100000` seeds that many items. `--throwaway-pg` runs the database in a
 * cluster of its own (initdb on a free port, as the fault tests do), so that its CPU time can be
 * read from /proc; `--capacity K` then measures, after the load runs, the CPU time (app and
 * database) of each request type, K requests of one type at a time from one client, with the idle
 * CPU of the same interval subtracted, and prints the capacity model of docs/scaling.md from them.
 *
 * What it does:
 * - builds the app into its own folder (NEXT_DIST_DIR=.next-load, `next build`) when
 *   .next-load/BUILD_ID is missing (or with --rebuild);
 * - creates a throwaway database on YARDSTICK_TEST_PG_URL (default
 *   postgresql://postgres@127.0.0.1:5432/postgres), applies prisma/migrations;
 * - starts the production server (scripts/serve.mjs: `next start` in --workers processes, by
 *   default one per core) on a free loopback port with that database;
 * - for each N: seeds a fresh study (2,000 items of scripts/demo-data/load-items.ts, small public payloads,
 *   overlap k = 3, LIKERT_5) and N annotator accounts (members, bcrypt hash of one password),
 *   then runs N simulated annotators for --seconds (each starts at a random moment of the first
 *   --ramp seconds, as people arrive at a study): each GETs its next item, POSTs event batches
 *   (--batch events every --interval ms +-20 %, --batches per item, the last one ending with the
 *   `submitted` event), then POSTs the response with a client-generated id. A fraction (--retry)
 *   of event batches is sent again after the ack (same seqs), a fraction of submissions is sent
 *   again after the ack and another fraction as two concurrent copies (same clientId);
 * - prints throughput and p50/p95/p99 per endpoint and the ingestion rate, checks the database
 *   (every acked event and response stored exactly once, no item past k places (MAIN assignments
 *   that are not RELEASED), nobody given an item twice), prints PASS/MISS against the targets,
 *   and exits 1 when an integrity check fails;
 * - stops the server and drops the database on the way out, also after a failure or Ctrl-C.
 *
 * Sessions: signing in N times through next-auth would measure bcrypt, not the annotation API,
 * so the session cookies are minted directly with `encode` from next-auth/jwt and the server's
 * NEXTAUTH_SECRET (the same JWE that next-auth sets after a credentials sign-in: `sub` = user
 * id). Every request still goes through requireRole(), i.e. JWT decryption + a User lookup.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import bcrypt from "bcryptjs";
import { encode } from "next-auth/jwt";
import { applyMigrations } from "@/lib/db/schema-engine";
import { startThrowawayCluster, type ThrowawayCluster } from "@/tests/faults/pg-cluster";
import { ITEM_SHOWN_PAYLOAD, LOAD_FILLER_EVENTS, LOAD_ITEM_KIND, loadEventPayload, loadItemPublic } from "@/scripts/demo-data/load-items";

// --- options --------------------------------------------------------------------------------
const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}
const ANNOTATOR_COUNTS = flag("annotators", "50,200")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = Number(flag("seconds", "30"));
const BATCH = Number(flag("batch", "12"));
const INTERVAL_MS = Number(flag("interval", "1000"));
// 15 batches of 12 events, one a second: 15 s and 180 events per item. Busier than people (an
// ENACT item takes a person tens of seconds), and 200 annotators offer 2,400 events/s.
const BATCHES_PER_ITEM = Number(flag("batches", "15"));
const RAMP_SECONDS = Number(flag("ramp", "10"));
const RETRY = Number(flag("retry", "0.1"));
const ITEMS = Number(flag("items", "2000"));
const INSTANCES = Math.max(1, Number(flag("instances", "1")));
const THROWAWAY_PG = args.includes("--throwaway-pg");
const CAPACITY = Number(flag("capacity", "0"));
const OVERLAP = 3;
const STEPS = 4; // actions/candidates per item
const REQUEST_TIMEOUT_MS = 30_000;
const REBUILD = args.includes("--rebuild");
/** the server's worker processes (YARDSTICK_WORKERS, scripts/serve.mjs); empty: the default, one per core (at most 4) */
const WORKERS = flag("workers", "");
/** the app's pg pool size per worker (DATABASE_POOL_SIZE, lib/db.ts); empty: the app's default */
const POOL = flag("pool", "");
/** a folder: the server runs with node --cpu-prof and writes its profile there when stopped */
const CPU_PROF = flag("cpu-prof", "");
const ROOT = path.resolve(import.meta.dirname, "../..");
const DIST = ".next-load";
const SECRET = "load-bench-secret-not-for-production-0123456789";
const PASSWORD = "load-bench-password";

let serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_load_${process.pid}_${Date.now().toString(36)}`;
let dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${dbName}`;
/** the throwaway cluster (--throwaway-pg) */
let cluster: ThrowawayCluster | null = null;

// --- helpers --------------------------------------------------------------------------------
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (ms: number) => ms * (0.8 + Math.random() * 0.4);
const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** CPU seconds (user + system) of a process, from /proc (Linux). */
/** CPU seconds of a process and its children (the server's workers); workers that died and were replaced are not counted. */
function cpuSeconds(pid: number | undefined, withReaped = false): number {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime, stime; with `withReaped` also cutime, cstime (children that exited and were waited for)
    let total = (Number(fields[11]) + Number(fields[12]) + (withReaped ? Number(fields[13]) + Number(fields[14]) : 0)) / 100;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    for (const child of children ? children.split(" ") : []) total += cpuSeconds(Number(child), withReaped) || 0;
    return total;
  } catch {
    return NaN;
  }
}

async function insertRows(client: pg.Client, table: string, columns: string[], types: string[], rows: unknown[][]) {
  for (let start = 0; start < rows.length; start += 5000) {
    const chunk = rows.slice(start, start + 5000);
    const select = types.map((t, i) => `$${i + 1}::${t}[]`).join(", ");
    await client.query(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${select})`,
      columns.map((_, c) => chunk.map((row) => row[c])),
    );
  }
}

// --- build, database, server ----------------------------------------------------------------
function buildIfNeeded() {
  if (!REBUILD && existsSync(path.join(ROOT, DIST, "BUILD_ID"))) {
    console.log(`using the build in ${DIST}/ (--rebuild to rebuild)`);
    return;
  }
  console.log(`building into ${DIST}/ (next build) ...`);
  // `next build` rewrites tsconfig.json (adds .next-load/types to "include") and next-env.d.ts
  // (imports .next-load/types): put both back, so the checkout's typecheck is left as it was
  const kept = ["tsconfig.json", "next-env.d.ts"]
    .map((file) => path.join(ROOT, file))
    .filter((file) => existsSync(file))
    .map((file) => [file, readFileSync(file, "utf8")] as const);
  let result;
  try {
    result = spawnSync("npx", ["next", "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: DIST } });
  } finally {
    for (const [file, text] of kept) if (readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  }
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
}

let servers: ChildProcess[] = [];
let serverLog = "";
/** server log lines that mention an error (the 500s' stack traces), per run */
let serverErrors: string[] = [];

async function startServer(port: number): Promise<string> {
  const base = `http://127.0.0.1:${port}`;
  const profile = CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [];
  const server = spawn(process.execPath, [...profile, path.join(ROOT, "scripts/serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    detached: true, // its own process group, stopped as a whole in stopServer()
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: DIST,
      DATABASE_URL: dbUrl.toString(),
      NEXTAUTH_SECRET: SECRET,
      NEXTAUTH_URL: base,
      NEXT_TELEMETRY_DISABLED: "1",
      ...(POOL ? { DATABASE_POOL_SIZE: POOL } : {}),
      ...(WORKERS ? { YARDSTICK_WORKERS: WORKERS } : {}),
    },
  });
  servers.push(server);
  const keep = (chunk: Buffer) => {
    serverLog = (serverLog + chunk.toString()).slice(-20_000);
    for (const text of chunk.toString().split("\n")) if (/error/i.test(text) && serverErrors.length < 50) serverErrors.push(text.slice(0, 300));
  };
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${serverLog}`);
    try {
      const response = await fetch(`${base}/signin`);
      if (response.ok) return base;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`the server did not answer within 60 s:\n${serverLog}`);
}

async function stopServers() {
  const stopping = servers;
  servers = [];
  await Promise.all(stopping.map(stopServer));
}

async function stopServer(child: ChildProcess) {
  if (!child.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if ((await Promise.race([exited, sleep(5000).then(() => "timeout")])) === "timeout") {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** CPU seconds of every app instance (all their workers). */
function appCpu(): number {
  return servers.reduce((sum, server) => sum + cpuSeconds(server.pid), 0);
}

/** CPU seconds of the database (--throwaway-pg: the postmaster and its backends, live and exited); NaN on a shared server. */
function dbCpu(): number {
  if (!cluster) return NaN;
  const pid = Number(readFileSync(path.join(cluster.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  return cpuSeconds(pid, true);
}

// --- seeding --------------------------------------------------------------------------------
interface Seeded {
  studyId: string;
  slug: string;
  users: Array<{ id: string; cookie: string }>;
}

async function seedStudy(client: pg.Client, n: number, passwordHash: string): Promise<Seeded> {
  const studyId = randomUUID();
  const slug = `load-${n}-${Date.now().toString(36)}`;
  const batchId = randomUUID();
  await client.query(`INSERT INTO "Study" (id, slug, title, overlap, "confidenceScale", "updatedAt") VALUES ($1, $2, $3, $4, 'LIKERT_5', now())`, [
    studyId,
    slug,
    `Load ${n}`,
    OVERLAP,
  ]);
  await client.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'load.jsonl', $3, $4)`, [
    batchId,
    studyId,
    `load-${studyId}`,
    ITEMS,
  ]);
  const itemRows: unknown[][] = [];
  for (let i = 0; i < ITEMS; i++) {
    const order = Array.from({ length: STEPS }, (_, j) => j).sort(() => Math.random() - 0.5);
    itemRows.push([
      randomUUID(),
      studyId,
      batchId,
      `load-${i}`,
      LOAD_ITEM_KIND,
      JSON.stringify(loadItemPublic(i, order)),
      JSON.stringify({ order }),
      "{}",
      `h${studyId}${i}`,
    ]);
  }
  await insertRows(
    client,
    "Item",
    ["id", "studyId", "batchId", "externalId", "kind", "public", "key", "tags", "contentHash"],
    ["text", "text", "text", "text", "text", "jsonb", "jsonb", "jsonb", "text"],
    itemRows,
  );
  const ids = Array.from({ length: n }, () => randomUUID());
  await insertRows(
    client,
    "User",
    ["id", "email", "name", "passwordHash", "role", "updatedAt"],
    ["text", "text", "text", "text", '"Role"', "timestamp"],
    ids.map((id, i) => [id, `load-${slug}-${i}@bench.local`, `Load annotator ${i}`, passwordHash, "ANNOTATOR", new Date()]),
  );
  await client.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, unnest($2::text[])`, [studyId, ids]);
  await client.query("ANALYZE");
  const users = await Promise.all(
    ids.map(async (id, i) => ({
      id,
      cookie: `next-auth.session-token=${await encode({ token: { sub: id, name: `Load annotator ${i}`, email: `load-${slug}-${i}@bench.local` }, secret: SECRET })}`,
    })),
  );
  return { studyId, slug, users };
}

// --- the simulated annotators ---------------------------------------------------------------
type Endpoint = "next" | "events" | "submit";

class Stats {
  latency: Record<Endpoint, number[]> = { next: [], events: [], submit: [] };
  /** Date.now() when each request of `latency` was sent (same order) */
  sentAt: Record<Endpoint, number[]> = { next: [], events: [], submit: [] };
  errors: Record<Endpoint, Map<string, number>> = { next: new Map(), events: new Map(), submit: new Map() };
  ackedEvents = new Set<string>(); // `${assignmentId}:${seq}`
  ackTimes: number[] = []; // Date.now() of each first ack of an event
  eventsSent = 0;
  ackedResponses = new Map<string, string>(); // clientId -> assignmentId
  duplicateAcks = 0; // retried submissions answered `duplicate: true`
  retriedBatches = 0;
  retriedSubmits = 0;
  concurrentSubmits = 0;
  servedAgain = 0; // an assignment served after its submission was acknowledged
  items = 0;
  done = 0;
  error(endpoint: Endpoint, what: string) {
    this.errors[endpoint].set(what, (this.errors[endpoint].get(what) ?? 0) + 1);
  }
}

/**
 * The simulated browsers' connections: node:http with keep-alive. Lighter than fetch (undici's
 * WHATWG streams and Headers), and the client shares the cores with the server it measures.
 */
const agent = new http.Agent({ keepAlive: true });

function send(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(Object.assign(new Error("timeout"), { name: "TimeoutError" })));
    request.on("error", reject);
    request.end(body);
  });
}

async function call(stats: Stats, endpoint: Endpoint, url: string, cookie: string, body?: unknown): Promise<{ status: number; json: unknown } | null> {
  const start = performance.now();
  const sentAt = Date.now();
  try {
    const response = await send(
      url,
      body === undefined ? "GET" : "POST",
      body === undefined ? { cookie } : { cookie, "content-type": "application/json" },
      body === undefined ? undefined : JSON.stringify(body),
    );
    stats.latency[endpoint].push(performance.now() - start);
    stats.sentAt[endpoint].push(sentAt);
    if (response.status < 200 || response.status >= 300) stats.error(endpoint, `HTTP ${response.status}: ${response.text.slice(0, 120)}`);
    let json: unknown = null;
    try {
      json = JSON.parse(response.text);
    } catch {
      // not JSON
    }
    return { status: response.status, json };
  } catch (error) {
    stats.error(endpoint, (error as Error).name === "TimeoutError" ? "timeout" : `network: ${(error as Error).message}`);
    return null;
  }
}

const eventPayload = (type: string, i: number) => loadEventPayload(type, i, STEPS);

/** The instance for the next request: round robin over all, as a load balancer spreads requests. */
let turn = 0;
const bases: string[] = [];
const nextBase = () => bases[turn++ % bases.length];

async function annotator(slug: string, cookie: string, stats: Stats, deadline: number) {
  await sleep(Math.random() * RAMP_SECONDS * 1000);
  const submitted = new Set<string>();
  await sleep(Math.random() * INTERVAL_MS); // spread the start
  while (Date.now() < deadline) {
    const next = await call(stats, "next", `${nextBase()}/api/annotate/studies/${slug}/next`, cookie);
    const view = next?.json as { status?: string; assignment?: { assignmentId: string; history: Array<{ seq: number }> } } | undefined;
    if (!view || view.status !== "item" || !view.assignment) {
      if (view?.status === "done") {
        stats.done++;
        return;
      }
      await sleep(jitter(INTERVAL_MS));
      continue;
    }
    const assignmentId = view.assignment.assignmentId;
    if (submitted.has(assignmentId)) stats.servedAgain++;
    stats.items++;
    let seq = view.assignment.history.length; // resume after the stored events
    const clientId = randomUUID();
    const order = Array.from({ length: STEPS }, (_, j) => j).sort(() => Math.random() - 0.5);
    const confidence = 1 + Math.floor(Math.random() * 5);
    const started = Date.now();

    // event batches, the last one ending with `submitted`
    let lastSeq = -1;
    let ok = true;
    for (let b = 0; b < BATCHES_PER_ITEM && ok; b++) {
      if (b > 0) await sleep(jitter(INTERVAL_MS));
      const events = Array.from({ length: BATCH }, (_, i) => {
        const s = seq++;
        const last = b === BATCHES_PER_ITEM - 1 && i === BATCH - 1;
        const type = s === 0 ? "item_shown" : last ? "submitted" : pick(LOAD_FILLER_EVENTS);
        const payload = type === "item_shown" ? ITEM_SHOWN_PAYLOAD : last ? { order, confidence, clientId } : eventPayload(type, s);
        return { assignmentId, seq: s, type, payload, clientTime: Date.now() };
      });
      lastSeq = seq - 1;
      stats.eventsSent += events.length;
      // send until acknowledged (at most 3 tries, like the browser's queue), then maybe once more (a lost ack)
      let acked = false;
      for (let attempt = 0; attempt < 3 && !acked; attempt++) {
        if (attempt > 0) await sleep(200 * attempt);
        const reply = await call(stats, "events", `${nextBase()}/api/annotate/events`, cookie, { events });
        const ack = reply?.status === 200 ? (reply.json as { acked?: Record<string, number[]>; rejected?: unknown[] }) : null;
        if (ack?.acked) {
          for (const s of ack.acked[assignmentId] ?? []) {
            const key = `${assignmentId}:${s}`;
            if (stats.ackedEvents.has(key)) continue;
            stats.ackedEvents.add(key);
            stats.ackTimes.push(Date.now());
          }
          acked = (ack.acked[assignmentId] ?? []).length === events.length;
        }
      }
      ok = acked;
      if (acked && Math.random() < RETRY) {
        stats.retriedBatches++;
        await call(stats, "events", `${nextBase()}/api/annotate/events`, cookie, { events });
      }
    }
    if (!ok) continue; // events not acknowledged: the browser would not submit yet; ask again

    const input = { assignmentId, clientId, answer: { order }, confidence, wallMs: Date.now() - started, activeMs: Date.now() - started, submitSeq: lastSeq };
    const url = () => `${nextBase()}/api/annotate/responses`;
    const concurrent = Math.random() < RETRY / 2;
    if (concurrent) stats.concurrentSubmits++;
    const replies = await Promise.all(
      concurrent ? [call(stats, "submit", url(), cookie, input), call(stats, "submit", url(), cookie, input)] : [call(stats, "submit", url(), cookie, input)],
    );
    let reply = replies.find((r) => r?.status === 200) ?? null;
    for (let attempt = 1; attempt < 3 && !reply; attempt++) {
      await sleep(200 * attempt);
      const again = await call(stats, "submit", url(), cookie, input);
      if (again?.status === 200) reply = again;
    }
    if (!reply) continue;
    const ack = reply.json as { clientId: string; assignmentId: string; duplicate: boolean };
    stats.ackedResponses.set(ack.clientId, ack.assignmentId);
    submitted.add(assignmentId);
    if (Math.random() < RETRY) {
      stats.retriedSubmits++;
      const again = await call(stats, "submit", url(), cookie, input);
      if ((again?.json as { duplicate?: boolean } | null)?.duplicate === true) stats.duplicateAcks++;
      else if (again) stats.error("submit", `retry not answered duplicate: ${JSON.stringify(again.json).slice(0, 120)}`);
    }
  }
}

// --- one run --------------------------------------------------------------------------------
interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface RunResult {
  n: number;
  elapsed: number;
  stats: Stats;
  checks: Check[];
  storedEvents: number;
  serverCpu: number;
  load: number[];
  /** events acked per second between the last arrival and the deadline */
  steadyRate: number;
  /** Date.now() at the start, and the end of the ramp (the last arrival) */
  startedAt: number;
  steadyFrom: number;
}

async function runOnce(client: pg.Client, n: number, passwordHash: string): Promise<RunResult> {
  const seeded = await seedStudy(client, n, passwordHash);
  const probe = await fetch(`${bases[0]}/api/annotate/studies/${seeded.slug}/next`, { headers: { cookie: seeded.users[0].cookie } });
  if (!probe.ok) throw new Error(`the minted session cookie is refused: HTTP ${probe.status} ${await probe.text()}`);
  // the probe created an assignment for user 0; that is fine (it is served again as the open one)

  const stats = new Stats();
  serverErrors = [];
  const load = os.loadavg();
  const cpu0 = appCpu();
  const start = performance.now();
  const startedAt = Date.now();
  const deadline = Date.now() + SECONDS * 1000;
  await Promise.all(seeded.users.map((user) => annotator(seeded.slug, user.cookie, stats, deadline)));
  const elapsed = (performance.now() - start) / 1000;
  const serverCpu = appCpu() - cpu0;

  // --- integrity ---
  const checks: Check[] = [];
  const events = await client.query<{ assignmentId: string; seq: number; n: string }>(
    `SELECT e."assignmentId", e.seq, count(*) AS n FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" WHERE a."studyId" = $1 GROUP BY 1, 2`,
    [seeded.studyId],
  );
  const stored = new Map(events.rows.map((row) => [`${row.assignmentId}:${row.seq}`, Number(row.n)]));
  let lost = 0;
  let duplicated = 0;
  for (const key of stats.ackedEvents) {
    const count = stored.get(key) ?? 0;
    if (count === 0) lost++;
    else if (count > 1) duplicated++;
  }
  const extra = [...stored.keys()].filter((key) => !stats.ackedEvents.has(key)).length;
  checks.push({
    name: "acked events stored exactly once",
    ok: lost === 0 && duplicated === 0,
    detail: `${stats.ackedEvents.size} acked, ${lost} lost, ${duplicated} duplicated (${extra} stored but never acked: timeouts)`,
  });

  const responses = await client.query<{ clientId: string; assignmentId: string; status: string; n: string }>(
    `SELECT r."clientId", r."assignmentId", a.status, count(*) OVER (PARTITION BY r."clientId") AS n FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = $1`,
    [seeded.studyId],
  );
  const byClient = new Map(responses.rows.map((row) => [row.clientId, row]));
  let rLost = 0;
  let rDup = 0;
  let rWrong = 0;
  for (const [clientId, assignmentId] of stats.ackedResponses) {
    const row = byClient.get(clientId);
    if (!row) rLost++;
    else if (Number(row.n) > 1) rDup++;
    else if (row.assignmentId !== assignmentId || row.status !== "SUBMITTED") rWrong++;
  }
  const perAssignment = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT r."assignmentId" FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = $1 GROUP BY 1 HAVING count(*) > 1) d`,
    [seeded.studyId],
  );
  rDup += Number(perAssignment.rows[0].n);
  checks.push({
    name: "acked responses stored exactly once",
    ok: rLost === 0 && rDup === 0 && rWrong === 0,
    detail: `${stats.ackedResponses.size} acked, ${rLost} lost, ${rDup} duplicated, ${rWrong} on the wrong assignment or not SUBMITTED`,
  });

  // a place is a MAIN assignment that is not RELEASED (lib/assignment); released ones never count toward k
  const pastK = await client.query<{ n: string; worst: string | null }>(
    `SELECT count(*) AS n, max(c) AS worst FROM (SELECT "itemId", count(*) AS c FROM "Assignment" WHERE "studyId" = $1 AND purpose = 'MAIN' AND status <> 'RELEASED' GROUP BY 1 HAVING count(*) > $2) d`,
    [seeded.studyId, OVERLAP],
  );
  const atK = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT "itemId" FROM "Assignment" WHERE "studyId" = $1 AND purpose = 'MAIN' AND status <> 'RELEASED' GROUP BY 1 HAVING count(*) = $2) d`,
    [seeded.studyId, OVERLAP],
  );
  const released = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "Assignment" WHERE "studyId" = $1 AND status = 'RELEASED'`, [seeded.studyId]);
  checks.push({
    name: `no item past k = ${OVERLAP}`,
    ok: Number(pastK.rows[0].n) === 0,
    detail: `${pastK.rows[0].n} items past k${pastK.rows[0].worst ? ` (worst ${pastK.rows[0].worst})` : ""}; ${atK.rows[0].n} items at k; ${released.rows[0].n} assignments released`,
  });

  const twice = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT "itemId", "userId" FROM "Assignment" WHERE "studyId" = $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
    [seeded.studyId],
  );
  checks.push({
    name: "no annotator given an item twice",
    ok: Number(twice.rows[0].n) === 0 && stats.servedAgain === 0,
    detail: `${twice.rows[0].n} (item, annotator) pairs twice in the database; ${stats.servedAgain} submitted assignments served again`,
  });

  // the rate while everyone is at work: from the last arrival to the deadline
  const steadyFrom = startedAt + Math.min(RAMP_SECONDS, SECONDS / 2) * 1000;
  const steadyEvents = stats.ackTimes.filter((time) => time >= steadyFrom && time < deadline).length;
  const steadyRate = steadyEvents / ((deadline - steadyFrom) / 1000);
  return { n, elapsed, stats, checks, storedEvents: stored.size, serverCpu, load, steadyRate, startedAt, steadyFrom };
}

function report(result: RunResult): boolean {
  const { n, elapsed, stats, checks } = result;
  const line = (s: string) => console.log(s);
  line(
    `\n=== ${n} annotators, ${elapsed.toFixed(1)} s (load average before: ${result.load.map((x) => x.toFixed(2)).join(" ")}; server CPU (all workers) ${result.serverCpu.toFixed(1)} s = ${((100 * result.serverCpu) / elapsed).toFixed(0)} % of one core) ===`,
  );
  line(
    `  ${"endpoint".padEnd(10)} ${"requests".padStart(9)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}  errors`,
  );
  for (const endpoint of ["next", "events", "submit"] as const) {
    const sorted = [...stats.latency[endpoint]].sort((a, b) => a - b);
    const errors = [...stats.errors[endpoint].values()].reduce((a, b) => a + b, 0);
    line(
      `  ${endpoint.padEnd(10)} ${String(sorted.length).padStart(9)} ${(sorted.length / elapsed).toFixed(1).padStart(8)} ${quantile(sorted, 0.5).toFixed(1).padStart(8)} ${quantile(sorted, 0.95).toFixed(1).padStart(8)} ${quantile(sorted, 0.99).toFixed(1).padStart(8)} ${(sorted.at(-1) ?? NaN).toFixed(1).padStart(8)}  ${errors}`,
    );
    for (const [what, count] of stats.errors[endpoint]) line(`      ${count} x ${what}`);
  }
  // where the tail is: p99 per 10-s window of sending time (arrivals fill the first --ramp seconds)
  for (const endpoint of ["events", "submit"] as const) {
    const windows = new Map<number, number[]>();
    stats.sentAt[endpoint].forEach((at, i) => {
      const w = Math.floor((at - result.startedAt) / 10_000);
      (windows.get(w) ?? windows.set(w, []).get(w)!).push(stats.latency[endpoint][i]);
    });
    const parts = [...windows.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(
        ([w, list]) =>
          `${w * 10}-${w * 10 + 10} s ${quantile(
            list.sort((a, b) => a - b),
            0.99,
          ).toFixed(0)} (${list.length})`,
      );
    line(`  ${endpoint} p99 ms by sending time: ${parts.join(", ")}`);
  }
  // all arrived (after the ramp, before the deadline): the rate the server sustains
  const ingested = result.steadyRate;
  line(`  items started ${stats.items}, responses acked ${stats.ackedResponses.size}, annotators done ${stats.done}`);
  line(
    `  events: ${stats.eventsSent} sent (first copies), ${stats.ackedEvents.size} acked distinct (${(stats.ackedEvents.size / elapsed).toFixed(0)} events/s over the whole run, ${ingested.toFixed(0)} events/s once everyone had arrived); ${result.storedEvents} rows stored`,
  );
  line(
    `  dedup exercised: ${stats.retriedBatches} event batches re-sent, ${stats.retriedSubmits} submissions re-sent (${stats.duplicateAcks} answered duplicate), ${stats.concurrentSubmits} sent as two concurrent copies`,
  );
  line(`  integrity:`);
  for (const check of checks) line(`    ${check.ok ? "OK  " : "FAIL"} ${check.name}: ${check.detail}`);
  if (serverErrors.length > 0) {
    line(`  server log: ${serverErrors.length} line(s) mentioning an error, first ones:`);
    for (const text of serverErrors.slice(0, 6)) line(`    | ${text}`);
  }
  const integrityOk = checks.every((check) => check.ok);
  if (n === 200) {
    const p99 = quantile(
      [...stats.latency.submit].sort((a, b) => a - b),
      0.99,
    );
    line(`  targets at 200 annotators:`);
    line(`    ${p99 < 100 ? "PASS" : "MISS"} p99 submit ${p99.toFixed(1)} ms (target < 100 ms${p99 < 100 ? "" : `; ${(p99 / 100).toFixed(1)}x over`})`);
    line(
      `    ${ingested > 2000 ? "PASS" : "MISS"} event ingestion ${ingested.toFixed(0)} events/s (target > 2,000${ingested > 2000 ? "" : `; ${((100 * ingested) / 2000).toFixed(0)} % of it`})`,
    );
    line(`    ${integrityOk ? "PASS" : "MISS"} zero lost or duplicated rows`);
  }
  return integrityOk;
}

// --- capacity: CPU time per request type ----------------------------------------
interface RequestCost {
  type: string;
  requests: number;
  appMs: number;
  dbMs: number;
  wallMs: number;
}

/**
 * K requests of one type, one at a time from one client (no queueing, no contention), against the
 * first instance; the app's and the database's CPU time over them, minus their idle CPU over the
 * same time (measured just before), divided by K.
 */
async function capacity(client: pg.Client, passwordHash: string, k: number): Promise<RequestCost[]> {
  const seeded = await seedStudy(client, k, passwordHash);
  const base = bases[0];
  // one image of 60 kB as an asset of the study (an ENACT item shows about five)
  const image = Buffer.alloc(60_000, 7);
  image.write("\x89PNG\r\n\x1a\n", 0, "latin1");
  const hash = createHash("sha256").update(image).digest("hex");
  await client.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [
    hash,
    image.length,
    image,
  ]);
  await client.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [seeded.studyId, hash]);
  await sleep(3000); // let the load runs' work settle
  const idleStart = performance.now();
  const idleApp0 = appCpu();
  const idleDb0 = dbCpu();
  await sleep(3000);
  const idleSeconds = (performance.now() - idleStart) / 1000;
  const idleApp = (appCpu() - idleApp0) / idleSeconds;
  const idleDb = (dbCpu() - idleDb0) / idleSeconds;

  const costs: RequestCost[] = [];
  const measure = async (type: string, one: (user: { id: string; cookie: string }, i: number) => Promise<void>) => {
    const start = performance.now();
    const app0 = appCpu();
    const db0 = dbCpu();
    for (const [i, user] of seeded.users.entries()) await one(user, i);
    const seconds = (performance.now() - start) / 1000;
    const app = appCpu() - app0 - idleApp * seconds;
    const db = dbCpu() - db0 - idleDb * seconds;
    costs.push({
      type,
      requests: seeded.users.length,
      appMs: (1000 * app) / seeded.users.length,
      dbMs: (1000 * db) / seeded.users.length,
      wallMs: (1000 * seconds) / seeded.users.length,
    });
  };
  const ok = (what: string, response: { status: number; text: string }) => {
    if (response.status < 200 || response.status >= 300) throw new Error(`capacity: ${what} -> HTTP ${response.status}: ${response.text.slice(0, 200)}`);
    return response;
  };
  const assignment = new Map<string, string>();
  const jsonHeaders = (cookie: string) => ({ cookie, "content-type": "application/json" });
  await measure("work page (HTML, once a session)", async (user) => {
    ok("page", await send(`${base}/s/${seeded.slug}/work`, "GET", { cookie: user.cookie }, undefined));
  });
  await measure("next item (creates the assignment)", async (user) => {
    const reply = ok("next", await send(`${base}/api/annotate/studies/${seeded.slug}/next`, "GET", { cookie: user.cookie }, undefined));
    const view = JSON.parse(reply.text) as { assignment?: { assignmentId: string } };
    if (!view.assignment) throw new Error(`capacity: no item for ${user.id}: ${reply.text.slice(0, 200)}`);
    assignment.set(user.id, view.assignment.assignmentId);
  });
  await measure("image (60 kB asset)", async (user) => {
    ok("image", await send(`${base}/api/assets/${hash}`, "GET", { cookie: user.cookie }, undefined));
  });
  await measure("event batch (3 events)", async (user) => {
    const assignmentId = assignment.get(user.id)!;
    const events = [0, 1, 2].map((seq) => ({
      assignmentId,
      seq,
      type: seq === 0 ? "item_shown" : "slot_filled",
      payload: seq === 0 ? ITEM_SHOWN_PAYLOAD : eventPayload("slot_filled", seq),
      clientTime: Date.now(),
    }));
    ok("events", await send(`${base}/api/annotate/events`, "POST", jsonHeaders(user.cookie), JSON.stringify({ events })));
  });
  await measure("submission (last events + response)", async (user, i) => {
    const assignmentId = assignment.get(user.id)!;
    const order = Array.from({ length: STEPS }, (_, j) => (j + i) % STEPS);
    const clientId = randomUUID();
    const events = [{ assignmentId, seq: 3, type: "submitted", payload: { order, confidence: 3, clientId }, clientTime: Date.now() }];
    ok("events", await send(`${base}/api/annotate/events`, "POST", jsonHeaders(user.cookie), JSON.stringify({ events })));
    const input = { assignmentId, clientId, answer: { order }, confidence: 3, wallMs: 30_000, activeMs: 30_000, submitSeq: 3 };
    ok("submit", await send(`${base}/api/annotate/responses`, "POST", jsonHeaders(user.cookie), JSON.stringify(input)));
  });
  return costs;
}

/**
 * The capacity model (docs/scaling.md): CPU per annotator-second from the measured costs and a
 * working pattern, then the cores for N annotators at a utilisation target, app and database apart.
 */
const CAPACITY_PROFILES = [
  // a person on an ENACT / GridWM item: an item every 30 s, an event batch every 3 s (the browser sends 400 ms after an action), 5 images an item, the page once per 20 items
  { name: "typical (item 30 s, a batch every 3 s)", itemSeconds: 30, batchSeconds: 3, imagesPerItem: 5, itemsPerSession: 20 },
  // the load bench's own annotators: an item every 15 s, a batch every second
  { name: "busy (item 15 s, a batch every 1 s)", itemSeconds: 15, batchSeconds: 1, imagesPerItem: 5, itemsPerSession: 20 },
] as const;
const UTILISATION = 0.6;

function reportCapacity(costs: RequestCost[]) {
  const line = (text: string) => console.log(text);
  const cost = (prefix: string) => costs.find((c) => c.type.startsWith(prefix))!;
  line(`\ncapacity: CPU time per request, ${costs[0]?.requests ?? 0} requests of each type one at a time (idle CPU subtracted)`);
  line(`  ${"request".padEnd(38)} ${"app CPU ms".padStart(11)} ${"db CPU ms".padStart(10)} ${"wall ms".padStart(8)}`);
  for (const c of costs)
    line(
      `  ${c.type.padEnd(38)} ${c.appMs.toFixed(2).padStart(11)} ${Number.isNaN(c.dbMs) ? "n/a".padStart(10) : c.dbMs.toFixed(2).padStart(10)} ${c.wallMs.toFixed(1).padStart(8)}`,
    );
  for (const profile of CAPACITY_PROFILES) {
    const perSecond = (pick: (c: RequestCost) => number) =>
      (pick(cost("next")) + pick(cost("submission")) + profile.imagesPerItem * pick(cost("image")) + pick(cost("work page")) / profile.itemsPerSession) /
        profile.itemSeconds +
      pick(cost("event batch")) / profile.batchSeconds;
    const app = perSecond((c) => c.appMs) / 1000;
    const db = perSecond((c) => c.dbMs) / 1000;
    line(
      `  ${profile.name}: ${(1000 * app).toFixed(2)} ms app CPU and ${Number.isNaN(db) ? "n/a" : (1000 * db).toFixed(2)} ms database CPU per annotator-second`,
    );
    for (const n of [1000, 10000]) {
      line(
        `    ${String(n).padStart(6)} annotators: app ${((n * app) / UTILISATION).toFixed(1)} cores, database ${Number.isNaN(db) ? "n/a" : ((n * db) / UTILISATION).toFixed(1)} cores (at ${UTILISATION * 100} % utilisation)`,
      );
    }
  }
}

// --- where the time goes: the library calls behind the routes, in this process, one at a time --
/**
 * Times nextAssignment (one short transaction under the participant's own lock), progressFor (run
 * by every next-item request after it) and getAssignmentView, one fresh annotator of the study
 * seeded last (so with the assignments the load left), no concurrency: the service time of each step.
 */
async function profile(client: pg.Client, passwordHash: string) {
  process.env.DATABASE_URL = dbUrl.toString();
  const { nextAssignment, progressFor } = await import("@/lib/assignment");
  const { getAssignmentView } = await import("@/lib/annotate/assignment-view");
  const { disconnectDb } = await import("@/lib/db");
  const study = await client.query<{ id: string; n: string }>(
    `SELECT s.id, (SELECT count(*) FROM "Assignment" a WHERE a."studyId" = s.id) AS n FROM "Study" s ORDER BY s."createdAt" DESC LIMIT 1`,
  );
  const studyId = study.rows[0].id;
  const userId = randomUUID();
  await client.query(`INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES ($1, $2, 'Profile annotator', $3, 'ANNOTATOR', now())`, [
    userId,
    `profile-${userId}@bench.local`,
    passwordHash,
  ]);
  await client.query(`INSERT INTO "StudyMember" ("studyId", "userId") VALUES ($1, $2)`, [studyId, userId]);
  const times: Record<string, number[]> = { "nextAssignment (creates one)": [], "progressFor (after it)": [], getAssignmentView: [] };
  const [a, b, c] = Object.values(times);
  for (let i = 0; i < 15; i++) {
    let t = performance.now();
    const next = await nextAssignment(studyId, userId);
    a.push(performance.now() - t);
    t = performance.now();
    await progressFor(studyId, userId);
    b.push(performance.now() - t);
    if (next.status !== "assigned") break;
    t = performance.now();
    await getAssignmentView(next.assignmentId, userId);
    c.push(performance.now() - t);
    await client.query(`UPDATE "Assignment" SET status = 'SUBMITTED' WHERE id = $1`, [next.assignmentId]);
  }
  await disconnectDb();
  console.log(`\nservice times, one request at a time, in-process (study with ${study.rows[0].n} assignments; median / max of ${a.length}):`);
  for (const [label, values] of Object.entries(times)) {
    const sorted = [...values].sort((x, y) => x - y);
    console.log(`  ${label.padEnd(52)} ${quantile(sorted, 0.5).toFixed(1).padStart(7)} ms ${(sorted.at(-1) ?? NaN).toFixed(1).padStart(7)} ms`);
  }
}

// --- main -----------------------------------------------------------------------------------
let admin: pg.Client | null = null;
let dbCreated = false;

async function cleanup() {
  await stopServers();
  if (admin && dbCreated) {
    dbCreated = false;
    await admin
      .query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`)
      .catch((error) => console.error(`could not drop ${dbName}: ${(error as Error).message}`));
  }
  await admin?.end().catch(() => undefined);
  admin = null;
  cluster?.destroy();
  cluster = null;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<boolean> {
  console.log(
    `Yardstick load bench: annotators ${ANNOTATOR_COUNTS.join(", ")}; ${SECONDS} s each; ${ITEMS} ${LOAD_ITEM_KIND} items per study, k = ${OVERLAP}; ${INSTANCES} app instance(s); ${BATCH} events per batch every ~${INTERVAL_MS} ms, ${BATCHES_PER_ITEM} batches per item; arrivals over ${RAMP_SECONDS} s; retry fraction ${RETRY}; server workers: ${WORKERS || "one per core"}`,
  );
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  buildIfNeeded();
  if (THROWAWAY_PG) {
    cluster = await startThrowawayCluster();
    serverUrl = cluster.serverUrl;
    dbUrl = new URL(serverUrl);
    dbUrl.pathname = `/${dbName}`;
    console.log(`database cluster of its own on port ${cluster.port} (its CPU time is read from /proc)`);
  }
  admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  dbCreated = true;
  await applyMigrations(dbUrl.toString());
  const client = new pg.Client({ connectionString: dbUrl.toString() });
  await client.connect();
  try {
    const passwordHash = await bcrypt.hash(PASSWORD, 8);
    for (let i = 0; i < INSTANCES; i++) bases.push(await startServer(await freePort()));
    console.log(`${INSTANCES === 1 ? "server" : `${INSTANCES} app instances:`} ${bases.join(", ")} (${DIST}), database ${dbName}`);
    let allOk = true;
    const results: RunResult[] = [];
    for (const n of ANNOTATOR_COUNTS) {
      const result = await runOnce(client, n, passwordHash);
      results.push(result);
      allOk = report(result) && allOk;
    }
    if (CAPACITY > 0) reportCapacity(await capacity(client, passwordHash, CAPACITY));
    if (results.length > 0) await profile(client, passwordHash);
    console.log(`\nsummary`);
    console.log(
      `  ${"N".padStart(4)} ${"next p50/p95/p99 ms".padStart(22)} ${"events p50/p95/p99 ms".padStart(22)} ${"submit p50/p95/p99 ms".padStart(22)} ${"req/s".padStart(7)} ${"events/s".padStart(9)} ${"errors".padStart(7)}  integrity`,
    );
    for (const r of results) {
      const q = (e: Endpoint) => {
        const s = [...r.stats.latency[e]].sort((a, b) => a - b);
        return [0.5, 0.95, 0.99].map((p) => quantile(s, p).toFixed(0)).join("/");
      };
      const requests = r.stats.latency.next.length + r.stats.latency.events.length + r.stats.latency.submit.length;
      const errors = (["next", "events", "submit"] as const).reduce((sum, e) => sum + [...r.stats.errors[e].values()].reduce((a, b) => a + b, 0), 0);
      console.log(
        `  ${String(r.n).padStart(4)} ${q("next").padStart(22)} ${q("events").padStart(22)} ${q("submit").padStart(22)} ${(requests / r.elapsed).toFixed(0).padStart(7)} ${r.steadyRate.toFixed(0).padStart(9)} ${String(errors).padStart(7)}  ${r.checks.every((c) => c.ok) ? "OK" : "FAIL"}`,
      );
    }
    return allOk;
  } finally {
    await client.end().catch(() => undefined);
  }
}

main()
  .then(async (ok) => {
    await cleanup();
    if (!ok) console.error("\nintegrity check FAILED");
    process.exit(ok ? 0 : 1);
  })
  .catch(async (error) => {
    console.error(error);
    if (serverLog) console.error(`--- server log (tail) ---\n${serverLog.slice(-4000)}`);
    await cleanup();
    process.exit(1);
  });
