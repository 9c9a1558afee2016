/**
 * Dashboard benchmark: seeds 10,000 ENACT items x 5 annotators (50,000 scored answers, 500,000
 * trajectory events) into a throwaway database on 127.0.0.1:5432, times the dashboard's
 * computations and the exports, and drops the database. Every figure is also printed as a ratio to
 * a plain `SELECT count(*)` over the responses measured in the same run (the median of 5), so that
 * figures taken on a loaded machine compare; the exports add their time to first byte
 * (the header row), to the first record, and rate in MB/s, and are read three ways (by COPY, the
 * default; lines built in SQL; written from the records) that must give the same bytes.
 *
 *   node --conditions=react-server --import tsx bench/dashboard.ts [--items 10000] [--annotators 5] [--events 10]
 *   (the sizes of the dashboard targets: --items 10000 --annotators 5 --events 2, and --items 100000 --annotators 5 --events 2)
 *
 * (--conditions=react-server resolves "server-only" as the Next.js server does; BENCH_PG_URL
 * overrides the server, default postgresql://postgres@127.0.0.1:5432/postgres.)
 */
import pg from "pg";
import os from "node:os";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { randomUUID } from "node:crypto";
import { applyMigrations } from "@/lib/db/schema-engine";
import { mulberry32 } from "@/lib/stats/rng";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ITEMS = flag("items", 10_000);
const ANNOTATORS = flag("annotators", 5);
const EVENTS_PER_ANSWER = flag("events", 10);
/** --keep: leave the database in place (its name is printed) for profiling; drop it by hand */
/** --seed-only: seed the database, keep it (its name is printed) and stop, for profiling */
const SEED_ONLY = args.includes("--seed-only");
const KEEP = SEED_ONLY || args.includes("--keep");
/** --exports-only: progress and the exports, not the dashboard's views (for 100,000 items on a loaded machine) */
const EXPORTS_ONLY = args.includes("--exports-only");

const serverUrl = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_bench_${process.pid}_${Date.now().toString(36)}`;
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;

interface Figure {
  label: string;
  ms: number;
  /** the target at 100,000 x 5, in seconds, where one is set */
  targetS?: number;
  note?: string;
}

async function time<T>(label: string, run: () => Promise<T> | T, rows: Figure[], targetS?: number): Promise<T> {
  const start = performance.now();
  const value = await run();
  const ms = performance.now() - start;
  rows.push({ label, ms, targetS });
  return value;
}

/** The targets were measured against a 60 ms `SELECT count(*)` over 500,000 responses: a target as a ratio is its seconds over that. */
const ISSUE_COUNT_MS = 60;

const median = (values: number[]) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function insertRows(client: pg.Client, table: string, columns: string[], types: string[], rows: unknown[][]) {
  const CHUNK = 5000;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const arrays = columns.map((_, c) => chunk.map((row) => row[c]));
    const select = types.map((t, i) => `$${i + 1}::${t}[]`).join(", ");
    await client.query(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${select})`, arrays);
  }
}

/**
 * The job worker in a process of its own on the bench's database (scripts/worker.ts, as the
 * production server starts it), its periodic refresh off (the bench asks for a pass itself).
 * Resolves once it has started on the queue.
 */
async function startWorkerProcess(databaseUrl: string) {
  const child = spawn(process.execPath, ["--max-old-space-size=6000", "--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, YARDSTICK_DASHBOARD_REFRESH_SECONDS: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => void (log += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => void (log += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!log.includes("Yardstick job worker ")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker process did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    get exitCode() {
      return child.exitCode;
    },
    output: () => log.slice(-3000),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

async function main() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const figures: Figure[] = [];
  const loadAtStart = os.loadavg();
  try {
    await applyMigrations(url.toString());
    process.env.DATABASE_URL = url.toString();
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    // a failure drops the database under this connection (WITH FORCE): let the failure itself be what is reported
    client.on("error", () => undefined);
    const { getTaskModule } = await import("@/lib/tasks");

    // --- seed ----------------------------------------------------------------------------------
    const seedStart = performance.now();
    const random = mulberry32(42);
    const studyId = randomUUID();
    const batchId = randomUUID();
    const users = Array.from({ length: ANNOTATORS }, (_, a) => ({
      id: randomUUID(),
      name: `Annotator ${String.fromCharCode(65 + a)}`,
      skill: 0.97 - 0.04 * a,
      speed: a === ANNOTATORS - 1 ? 0.15 : 1 + 0.1 * a,
    }));
    await client.query(
      `INSERT INTO "User" (id, email, name, role, "updatedAt") SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::"Role"[], $5::timestamp[])`,
      [
        users.map((u) => u.id),
        users.map((u, i) => `bench${i}@bench.local`),
        users.map((u) => u.name),
        users.map(() => "ANNOTATOR"),
        users.map(() => new Date()),
      ],
    );
    await client.query(
      `INSERT INTO "Study" (id, slug, title, overlap, "confidenceScale", "updatedAt") VALUES ($1, 'bench', 'Bench study', $2, 'LIKERT_5', now())`,
      [studyId, ANNOTATORS],
    );
    await client.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, unnest($2::text[])`, [studyId, users.map((u) => u.id)]);
    await client.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'bench.jsonl', 'bench', $3)`, [
      batchId,
      studyId,
      ITEMS,
    ]);
    // the seed's kinds: those whose answers are orders of candidates (their agreement has a Kendall
    // permutation encoding), found in the registry rather than named (a kind keeps its id to its folders)
    const { taskKinds } = await import("@/lib/tasks");
    const orderKinds = taskKinds.filter((kind) => getTaskModule(kind).agreementEncodings.some((e) => e.kendallPermutations));
    if (orderKinds.length !== 2) throw new Error(`the bench seeds two kinds whose answers are orders; the registry has ${orderKinds.length}`);
    const items: Array<{ id: string; kind: string; order: number[]; L: number; externalId: string }> = [];
    const itemRows: unknown[][] = [];
    for (let n = 0; n < ITEMS; n++) {
      const kind = orderKinds[n % 2];
      const L = 3 + (Math.floor(n / 2) % 8);
      const order = Array.from({ length: L }, (_, i) => i);
      for (let i = L - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      const id = randomUUID();
      const externalId = `bench-${n}`;
      items.push({ id, kind, order, L, externalId });
      // the public side in whichever of the two shapes the kind's schema takes (images to order, or actions)
      const imagesToOrder = { initialImage: "i.png", actions: order.map((_, i) => `Action ${i}`), candidates: order.map((_, i) => `c${i}.png`) };
      const actionsToOrder = { observations: [...order, L].map((_, i) => `o${i}.png`), candidates: order.map((_, i) => `Action ${i}`) };
      const pub = getTaskModule(kind).publicSchema.safeParse(imagesToOrder).success ? imagesToOrder : actionsToOrder;
      itemRows.push([
        id,
        studyId,
        batchId,
        externalId,
        kind,
        JSON.stringify(pub),
        JSON.stringify({ order }),
        JSON.stringify({ steps: L, hand: n % 3 === 0 ? "left" : "right" }),
        `h${n}`,
      ]);
    }
    await insertRows(
      client,
      "Item",
      ["id", "studyId", "batchId", "externalId", "kind", "public", "key", "tags", "contentHash"],
      ["text", "text", "text", "text", "text", "jsonb", "jsonb", "jsonb", "text"],
      itemRows,
    );

    const assignmentRows: unknown[][] = [];
    const responseRows: unknown[][] = [];
    const eventRows: unknown[][] = [];
    const day0 = Date.UTC(2026, 0, 5);
    let position = 0;
    for (const item of items) {
      for (const user of users) {
        const assignmentId = randomUUID();
        const pCorrect = user.skill - 0.015 * (item.L - 3);
        let answer = item.order.slice();
        if (random() > pCorrect) {
          const i = Math.floor(random() * item.L);
          const j = (i + 1 + Math.floor(random() * (item.L - 1))) % item.L;
          [answer[i], answer[j]] = [answer[j], answer[i]];
          if (random() < 0.3) answer = answer.reverse();
        }
        const taskModule = getTaskModule(item.kind);
        const score = taskModule.score(
          { order: answer },
          { order: item.order },
          { id: item.externalId, kind: item.kind, public: {}, key: { order: item.order }, tags: {} },
        );
        const correct = taskModule.correct(score);
        const confidence = Math.min(4, Math.max(0, Math.round((correct ? 3.2 : 2.2) + (random() - 0.5) * 2))) / 4;
        const active = Math.round((4000 + 2500 * item.L) * user.speed * (0.6 + random() * 0.8));
        const createdAt = new Date(day0 + Math.floor(random() * 14) * 86_400_000 + Math.floor(random() * 36_000_000));
        assignmentRows.push([assignmentId, studyId, item.id, user.id, "SUBMITTED", "MAIN", position++, createdAt, createdAt]);
        responseRows.push([
          randomUUID(),
          assignmentId,
          randomUUID(),
          JSON.stringify({ order: answer }),
          confidence * 4 + 1,
          confidence,
          active + 3000,
          active,
          JSON.stringify(score),
          correct,
          createdAt,
        ]);
        for (let seq = 0; seq < EVENTS_PER_ANSWER; seq++) {
          const type = seq === 0 ? "item_shown" : seq === EVENTS_PER_ANSWER - 1 ? "submitted" : random() < 0.03 ? "page_hidden" : "slot_filled";
          eventRows.push([assignmentId, seq, type, "{}", createdAt, createdAt]);
        }
      }
    }
    await insertRows(
      client,
      "Assignment",
      ["id", "studyId", "itemId", "userId", "status", "purpose", "position", "startedAt", "submittedAt"],
      ["text", "text", "text", "text", '"AssignmentStatus"', '"AssignmentPurpose"', "int", "timestamp", "timestamp"],
      assignmentRows,
    );
    await insertRows(
      client,
      "Response",
      ["id", "assignmentId", "clientId", "answer", "confidenceRaw", "confidence", "wallMs", "activeMs", "score", "correct", "createdAt"],
      ["text", "text", "text", "jsonb", "float8", "float8", "int", "int", "jsonb", "bool", "timestamp"],
      responseRows,
    );
    await insertRows(
      client,
      "Event",
      ["assignmentId", "seq", "type", "payload", "clientTime", "serverTime"],
      ["text", "int", "text", "jsonb", "timestamp", "timestamp"],
      eventRows,
    );
    // the seed's rows are not part of what is measured: a server does not hold them (at 100,000
    // items they are millions of arrays, and every garbage collection below would walk them)
    const eventCount = eventRows.length;
    for (const rows of [itemRows, assignmentRows, responseRows, eventRows]) rows.length = 0;
    await client.query("ANALYZE");
    const seedMs = performance.now() - seedStart;
    if (SEED_ONLY) {
      console.log(`seeded in ${(seedMs / 1000).toFixed(1)} s`);
      return;
    }

    // --- timings ---------------------------------------------------------------------------------
    const { clearDashboardCaches, getSnapshot, loadSnapshot, snapshotStoresSettled, snapshotVersion } = await import("@/lib/dashboard/snapshot");
    const loadSnapshotIntoCache = () => getSnapshot(studyId);
    const { getStudyDashboard, visitStudyDashboard } = await import("@/lib/dashboard/study-dashboard");
    const { getAnnotatorsOverview } = await import("@/lib/dashboard/annotators");
    const { getStudyProgress, recomputeStudyProgress, focusLossesByUser } = await import("@/lib/dashboard/progress");
    const { createStudyExport } = await import("@/lib/exports/study-export");
    const { db, disconnectDb } = await import("@/lib/db");
    const { INLINE_INTERVALS_MAX_ANSWERS } = await import("@/lib/dashboard/constants");
    const { QUEUES, stopBoss } = await import("@/lib/jobs/queue");

    await db.$queryRaw`SELECT 1`; // connect first: not part of any figure
    // the reference: a plain count over the responses, the median of 5 (the machine is shared)
    const countTimes: number[] = [];
    let count = "0";
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      count = (await client.query(`SELECT count(*) FROM "Response"`)).rows[0].count;
      countTimes.push(performance.now() - start);
    }
    const countMs = median(countTimes);
    await time(`SELECT count(*) FROM "Response" (reference, Prisma)`, () => db.$queryRaw`SELECT count(*) FROM "Response"`, figures);
    // progress: the first call opens the pool's other connections (its queries run in parallel), so the figure is the median of 5
    await time("progress (from the tallies), first call", () => getStudyProgress(studyId, ANNOTATORS), figures);
    const progressTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await getStudyProgress(studyId, ANNOTATORS);
      progressTimes.push(performance.now() - start);
    }
    figures.push({ label: "progress (from the tallies), median of 5", ms: median(progressTimes), targetS: 0.2 });
    await time("progress, full recomputation (what the tallies replace)", () => recomputeStudyProgress(studyId, ANNOTATORS), figures);
    await time("focus losses per annotator (SQL GROUP BY over events)", () => focusLossesByUser(studyId), figures);
    // (read from the answers and not stored: the default view below is the first to read and store it)
    const snapshot = EXPORTS_ONLY
      ? null
      : await time("snapshot: one streaming pass over the responses", () => loadSnapshot(studyId, undefined, "copy"), figures);
    if (!EXPORTS_ONLY) clearDashboardCaches();
    const inlineIntervals = !EXPORTS_ONLY && Number(count) <= INLINE_INTERVALS_MAX_ANSWERS;
    const views: Array<{ label: string; params: Record<string, string>; targetS: number }> = [
      { label: "one annotator", params: { annotator: users[0].id }, targetS: 0.5 },
      { label: "agreement slot-nominal", params: { encoding: "slot-nominal" }, targetS: 2 },
      { label: "agreement item-kendall (dedicated algorithm)", params: { encoding: "item-kendall" }, targetS: 2 },
      { label: "agreement slot-ordinal with KALPHA", params: { ci: "kalpha" }, targetS: 2 },
      { label: "tag 'hand'", params: { tag: "hand" }, targetS: 1 },
    ];
    // A large study's views are computed by the job worker, in a process of its own as the
    // production server runs it (scripts/job-worker-process.mjs): this process is the app. A visit
    // to a view with no row asks the job and waits up to YARDSTICK_DASHBOARD_VISIT_WAIT_MS for its
    // first step's row (the values), else answers "pending" (visitStudyDashboard). The worker's
    // periodic refresh is off here: the bench asks for its pass itself, below. Small studies are
    // computed on the visit.
    let d: Awaited<ReturnType<typeof getStudyDashboard>> | null = null;
    const large = !EXPORTS_ONLY && !inlineIntervals;
    const worker = large ? await startWorkerProcess(url.toString()) : null;
    try {
      /** waits until the worker has no dashboard job waiting or running; returns the ms it waited */
      const workerIdle = async () => {
        const start = performance.now();
        for (;;) {
          const busy = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
            [QUEUES.dashboardIntervals.name],
          );
          if (busy.rows[0].n === 0) return performance.now() - start;
          if (worker && worker.exitCode !== null) throw new Error(`the worker process exited: ${worker.output()}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      /** waits until the view has a row; returns when (performance.now()) it was seen */
      const rowSeen = async (viewKey: string) => {
        for (;;) {
          const row = await client.query(`SELECT 1 FROM "DashboardIntervals" WHERE "studyId" = $1 AND "viewKey" = $2`, [studyId, viewKey]);
          if (row.rows.length > 0) return performance.now();
          if (worker && worker.exitCode !== null) throw new Error(`the worker process exited: ${worker.output()}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      /** a visit as a visitor meets it, and when it answered "pending", the time from the visit until the worker's values were there */
      const visitLarge = async (label: string, params: Record<string, string>, targetS: number) => {
        const start = performance.now();
        const visit = await time(label, () => visitStudyDashboard("bench", params), figures, targetS);
        const key = Object.keys(params).length === 0 ? "{}" : JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))));
        if ("pending" in visit) {
          figures[figures.length - 1].label = `${label}: pending (waited for the worker's values, then answered)`;
          const shown = await rowSeen(key);
          figures.push({
            label: "  the values stored by the worker's first step, from the visit (a background job; the page shows them at its next refresh)",
            ms: shown - start,
          });
        } else {
          figures[figures.length - 1].label = `${label}: the worker's values within the visit's wait`;
        }
        return visit;
      };
      if (large) {
        await visitLarge("dashboard, default view, first visit, no row (nothing stored: the worker reads the answers)", {}, 2);
        await time("  the worker's intervals step after it (every interval)", () => workerIdle(), figures);
      } else if (!EXPORTS_ONLY) {
        d = await time("dashboard, default view, first computation (snapshot + every section)", () => getStudyDashboard("bench", {}), figures, 2);
      }
      if (!EXPORTS_ONLY) {
        // the first computation stored the snapshot in compact form (after it): a process that holds
        // nothing (another instance, the worker after a restart) reads that at this data version
        if (!large) await time("snapshot stored in compact form (in the background, after the first computation)", () => snapshotStoresSettled(), figures);
        let stored = await client.query<{ version: string; parts: number }>(`SELECT version, parts FROM "DashboardSnapshot" WHERE "studyId" = $1`, [studyId]);
        for (let tries = 0; stored.rows.length === 0 && tries < 600; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          stored = await client.query<{ version: string; parts: number }>(`SELECT version, parts FROM "DashboardSnapshot" WHERE "studyId" = $1`, [studyId]);
        }
        if (stored.rows.length !== 1) throw new Error("the first computation stored no snapshot");
        // the same first computation in a process holding nothing but the stored snapshot (the worker
        // after a restart): the default view's row is set aside for it, and put back after
        await client.query(`CREATE TEMP TABLE kept_view AS SELECT * FROM "DashboardIntervals" WHERE "studyId" = $1 AND "viewKey" = '{}'`, [studyId]);
        await client.query(`DELETE FROM "DashboardIntervals" WHERE "studyId" = $1 AND "viewKey" = '{}'`, [studyId]);
        const child = spawnSync(
          process.execPath,
          ["--max-old-space-size=6000", "--conditions=react-server", "--import", "tsx", "bench/dashboard-cold-view.ts", "bench"],
          { env: { ...process.env, DATABASE_URL: url.toString() }, encoding: "utf8" },
        );
        // (the child's computation asked the queue for the view again: whatever the worker did with
        // that, the row the worker first stored is put back as it was)
        if (large) await workerIdle();
        await client.query(`DELETE FROM "DashboardIntervals" WHERE "studyId" = $1 AND "viewKey" = '{}'`, [studyId]);
        await client.query(`INSERT INTO "DashboardIntervals" SELECT * FROM kept_view`);
        await client.query(`DROP TABLE kept_view`);
        const line = child.stdout.trim().split("\n").pop() ?? "";
        if (child.status !== 0 || !line.startsWith("{")) throw new Error(`bench/dashboard-cold-view.ts failed: ${child.stderr}`);
        const cold = JSON.parse(line) as { ms: number; snapshotMs: number; snapshotFrom: string };
        if (cold.snapshotFrom !== "stored") throw new Error("the process holding nothing did not find the stored snapshot");
        figures.push({ label: `snapshot read from its stored form (${stored.rows[0].parts} MiB parts), in a process holding nothing`, ms: cold.snapshotMs });
        figures.push({
          label: `${large ? "  the worker's first step" : "dashboard, default view, first computation"} in a process holding nothing but the stored snapshot`,
          ms: cold.ms,
          targetS: large ? undefined : 2,
        });
      }
      if (large) {
        d = (await time("dashboard, default view, visit (its row)", () => visitStudyDashboard("bench", {}), figures, 2)) as Awaited<
          ReturnType<typeof getStudyDashboard>
        >;
        if ("pending" in d || d.intervals.state !== "ready") throw new Error("the default view's row was not served");
      }
      if (!EXPORTS_ONLY) await time(`dashboard, default view, warm`, () => visitStudyDashboard("bench", {}), figures, 0.3);
      // each other view's first visit, the worker idle and holding what its last jobs left in memory
      // (the snapshot, the prepared units of the default encoding): in a large study the worker
      // computes it, and the visit waits for its values
      for (const view of EXPORTS_ONLY ? [] : views) {
        if (large) {
          await workerIdle();
          await visitLarge(`dashboard, ${view.label}, first visit, no row`, view.params, view.targetS);
        } else {
          await time(`dashboard, ${view.label}, first visit`, () => visitStudyDashboard("bench", view.params), figures, view.targetS);
        }
      }
      if (large) {
        // every view's intervals step (asked by the visits above), then each view read in a process
        // with nothing in memory: its stored row, as any later visit (another instance, after a restart)
        await time(`the worker's remaining jobs of the ${views.length} views (their intervals)`, () => workerIdle(), figures);
        const jobs = await client.query<{ viewKey: string; computeMs: number }>(
          `SELECT "viewKey", "computeMs" FROM "DashboardIntervals" ORDER BY "computedAt"`,
        );
        for (const job of jobs.rows)
          figures.push({ label: `  job of the view ${job.viewKey.replace(users[0].id, "A")} (both steps' compute time)`, ms: job.computeMs });
        clearDashboardCaches();
        const ready = await time("dashboard, default view, cold process (its stored view)", () => visitStudyDashboard("bench", {}), figures, 2);
        if ("pending" in ready || ready.intervals.state !== "ready") throw new Error(`the default view's intervals are not ready after the job ran`);
        await time("dashboard, default view, warm (stored view)", () => visitStudyDashboard("bench", {}), figures, 0.3);
        for (const view of views) {
          const later = await time(
            `dashboard, ${view.label}, cold process (its stored view)`,
            () => visitStudyDashboard("bench", view.params),
            figures,
            view.targetS,
          );
          if ("pending" in later || later.intervals.state !== "ready") throw new Error(`the view ${view.label} is not ready after its job ran`);
        }
      }
      if (!EXPORTS_ONLY && !inlineIntervals) {
        // the job worker's refresh (lib/dashboard/view-refresh.ts): after a write (one answer
        // written again as it was: the data version moves, the figures stay), its pass asks for the
        // default view and each other encoding's (the min-age rule set aside), the jobs compute them,
        // and each is read in a process holding nothing: what opening a large study's dashboard, or
        // choosing another encoding there, costs when the worker runs
        const { refreshStudyViews } = await import("@/lib/dashboard/view-refresh");
        await client.query(`UPDATE "Response" SET "wallMs" = "wallMs" WHERE id = (SELECT id FROM "Response" ORDER BY id LIMIT 1)`);
        const asked = await time(
          "the worker's refresh pass after a write (asks for the default view and each other encoding's)",
          () => refreshStudyViews({ now: Date.now() + 365 * 86_400_000 }),
          figures,
        );
        const refreshedKeys = ["{}", ...views.filter((v) => v.params.encoding).map((v) => JSON.stringify(v.params))];
        if (JSON.stringify(asked.map((a) => a.viewKey).sort()) !== JSON.stringify(refreshedKeys.sort()))
          throw new Error(`the refresh pass asked for ${JSON.stringify(asked)}`);
        clearDashboardCaches();
        await time(`  its jobs in the worker (${asked.length} views, every interval; one after another)`, () => workerIdle(), figures);
        const refreshedJobs = await client.query<{ viewKey: string; computeMs: number }>(
          `SELECT "viewKey", "computeMs" FROM "DashboardIntervals" WHERE "viewKey" = ANY($1) ORDER BY "computedAt"`,
          [refreshedKeys],
        );
        for (const job of refreshedJobs.rows) figures.push({ label: `    job of the view ${job.viewKey} (its own compute time)`, ms: job.computeMs });
        clearDashboardCaches();
        const refreshed = await time(
          "dashboard, default view, cold process after a write and the refresh (its stored view)",
          () => visitStudyDashboard("bench", {}),
          figures,
          2,
        );
        if ("pending" in refreshed || refreshed.intervals.state !== "ready" || refreshed.intervals.behind)
          throw new Error("the refreshed default view is not current");
        for (const view of views.filter((v) => v.params.encoding)) {
          clearDashboardCaches();
          const other = await time(
            `dashboard, ${view.label}, cold process after a write and the refresh (its stored view)`,
            () => visitStudyDashboard("bench", view.params),
            figures,
            view.targetS,
          );
          if ("pending" in other || other.intervals.state !== "ready" || other.intervals.behind)
            throw new Error(`the refreshed view ${view.label} is not current`);
        }
      }
    } finally {
      await worker?.stop();
    }
    if (!EXPORTS_ONLY && !inlineIntervals) {
      // the worker read the answers anew (the version moved) and stores that snapshot after its job
      const version = await snapshotVersion(studyId);
      for (let tries = 0; tries < 600; tries++) {
        if ((await client.query(`SELECT 1 FROM "DashboardSnapshot" WHERE "studyId" = $1 AND version = $2`, [studyId, version])).rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await time("snapshot again (the caches were emptied above: read from its stored form)", () => loadSnapshotIntoCache(), figures);
    }
    if (!EXPORTS_ONLY) await time("annotators tab (warm snapshot)", () => getAnnotatorsOverview("bench", {}), figures);
    /**
     * reads an export whole: its bytes, a digest, and the time from the call to its first byte;
     * csvFrom "records" is the CSV written in Node from the records (the way before the CSV was built in the database)
     */
    const exportBytes = async (what: "responses" | "events", rows: Figure[], targetS: number, csvFrom: "copy" | "database" | "records") => {
      const start = performance.now();
      const { stream } = await createStudyExport("bench", what, "csv", {}, { csvFrom });
      const responseMs = performance.now() - start; // the route answers (headers out, the download starts) here
      const hash = createHash("sha256");
      const reader = stream.getReader();
      let bytes = 0;
      let firstMs = -1;
      let firstRecordMs = -1;
      let chunks = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (firstMs < 0 && value.byteLength > 0) firstMs = performance.now() - start;
        // the header row is the stream's first piece; the records follow it
        if (++chunks === 2) firstRecordMs = performance.now() - start;
        bytes += value.byteLength;
        hash.update(value);
      }
      const ms = performance.now() - start;
      const how = { copy: "COPY, written in Node", database: "built in the database", records: "written in Node from records" }[csvFrom];
      rows.push({ label: `export ${what}.csv (${how})`, ms, targetS, note: `${(bytes / 1e6).toFixed(1)} MB, ${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s` });
      rows.push({ label: `export ${what}.csv (${how}), time to the response (headers)`, ms: responseMs, targetS: 0.2 });
      rows.push({ label: `export ${what}.csv (${how}), time to first byte`, ms: firstMs, targetS: 0.2 });
      rows.push({ label: `export ${what}.csv (${how}), time to the first record (after the header)`, ms: firstRecordMs });
      return { bytes, digest: hash.digest("hex") };
    };
    const responses = await exportBytes("responses", figures, 4, "copy");
    const events = await exportBytes("events", figures, 6, "copy");
    const responsesSql = await exportBytes("responses", figures, 4, "database");
    const eventsSql = await exportBytes("events", figures, 6, "database");
    const responsesBefore = await exportBytes("responses", figures, 4, "records");
    const eventsBefore = await exportBytes("events", figures, 6, "records");
    const same =
      [responsesSql, responsesBefore].every((r) => r.digest === responses.digest) && [eventsSql, eventsBefore].every((e) => e.digest === events.digest);
    const responseBytes = responses.bytes;
    const eventBytes = events.bytes;
    const loadAtEnd = os.loadavg();

    console.log(
      `\nYardstick dashboard bench: ${ITEMS.toLocaleString("en-US")} items x ${ANNOTATORS} annotators = ${Number(count).toLocaleString("en-US")} responses, ${eventCount.toLocaleString("en-US")} events`,
    );
    console.log(
      `(seeded in ${(seedMs / 1000).toFixed(1)} s; ${snapshot ? `snapshot holds ${snapshot.responses.count.toLocaleString("en-US")} answers` : "dashboard views skipped (--exports-only)"}; node ${process.version}; ${os.cpus().length} cores, load average ${loadAtStart[0].toFixed(1)} at the start, ${loadAtEnd[0].toFixed(1)} at the end)\n`,
    );
    console.log(
      `  reference: SELECT count(*) FROM "Response" (pg client) = ${countMs.toFixed(1)} ms, the median of ${countTimes.map((t) => t.toFixed(0)).join(", ")} ms`,
    );
    console.log(`  x count: the figure over the reference; target: the target's seconds at 100,000 x 5 over its ${ISSUE_COUNT_MS} ms count\n`);
    const width = Math.max(...figures.map((f) => f.label.length));
    console.log(`  ${"figure".padEnd(width)}  ${"ms".padStart(9)}  ${"x count".padStart(8)}  ${"target x".padStart(8)}`);
    for (const f of figures) {
      const ratio = f.ms / countMs;
      const target = f.targetS === undefined ? "" : ((f.targetS * 1000) / ISSUE_COUNT_MS).toFixed(1);
      const verdict = f.targetS === undefined ? "" : ratio <= (f.targetS * 1000) / ISSUE_COUNT_MS ? "  ok" : "  over";
      console.log(
        `  ${f.label.padEnd(width)}  ${f.ms.toFixed(0).padStart(9)}  ${ratio.toFixed(1).padStart(8)}  ${target.padStart(8)}${verdict}${f.note ? `  (${f.note})` : ""}`,
      );
    }
    console.log(
      `\n  responses.csv ${(responseBytes / 1e6).toFixed(1)} MB, events.csv ${(eventBytes / 1e6).toFixed(1)} MB; by COPY, built in the database and written from records: ${same ? "the same bytes (sha256)" : "DIFFERENT BYTES"}`,
    );
    if (d)
      console.log(
        `  headline: alpha (${d.agreement?.level}, ${d.agreement?.encoding.id}) = ${d.agreement?.overall.alpha?.toFixed(4)} ${d.agreement?.overall.ci ? `[${d.agreement.overall.ci.map((x) => x.toFixed(4)).join(", ")}]` : ""}; heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
      );
    await client.end();
    await stopBoss();
    await disconnectDb();
  } finally {
    if (KEEP) console.log(`\n  kept database ${url.toString()}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
