#!/usr/bin/env node
/**
 * The production server: `next start` in several worker processes that share one port
 * (node:cluster). Node runs an app's JavaScript on one core, and the annotation API is bound by
 * that core long before PostgreSQL is busy (bench/load/RESULTS.md), so one worker per core is what
 * lets a 2-core machine use both. Nothing is shared in memory between workers that correctness
 * needs: assignment, sign-in throttling and scoring jobs coordinate in PostgreSQL (locks, unique
 * keys, SKIP LOCKED); caches per worker only save work.
 *
 *   node scripts/serve.mjs [next start's arguments: -p 3000 -H 0.0.0.0 ...]
 *
 * YARDSTICK_WORKERS: the number of workers (default: the cores, at most 4); 1 runs `next start` in
 * this process. A worker that dies is replaced (at most 5 times a minute); SIGTERM or SIGINT stops
 * them all; if this process is killed, the workers notice and exit.
 */
import cluster from "node:cluster";
import http from "node:http";
import https from "node:https";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startJobWorkerProcess } from "./job-worker-process.mjs";
import { installRequestGuard } from "./request-guard.mjs";

const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");

function workerCount() {
  const configured = process.env.YARDSTICK_WORKERS;
  if (configured !== undefined && configured.trim() !== "") {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 1) {
      console.error(`YARDSTICK_WORKERS must be a whole number of at least 1, not ${JSON.stringify(configured)}`);
      process.exit(2);
    }
    return n;
  }
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/**
 * The TCP peer of every request, as a header Next.js passes on to the app (lib/auth/login-throttle.ts
 * PEER_HEADER: the client address of the sign-in limits). A value a client sent is overwritten;
 * X-Forwarded-For is left as it came, and believed only as far as TRUST_PROXY says.
 */
const PEER_HEADER = "x-yardstick-peer-address";

function tagPeerAddress() {
  const http = require("node:http");
  const createServer = http.createServer;
  http.createServer = function (...args) {
    const index = args.findIndex((arg) => typeof arg === "function");
    if (index >= 0) {
      const listener = args[index];
      args[index] = function (request, response) {
        request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
        return listener.call(this, request, response);
      };
    }
    return createServer.apply(this, args);
  };
}

function runNextStart() {
  tagPeerAddress();
  // malformed percent-encoding in a path: 400 with the security headers, not Next.js's bare 500
  installRequestGuard(http, https);
  process.argv = [process.argv[0], nextBin, "start", ...process.argv.slice(2)];
  require(nextBin);
}

const workers = workerCount();

/**
 * The job worker (imports, scoring, exports, dashboard views): a process of its own beside the
 * app (scripts/job-worker-process.mjs) unless YARDSTICK_JOB_WORKER is "off" (workers run apart:
 * `npm run worker`) or "app" (each app process runs one, as `next dev` does). The app processes
 * are told to run none.
 */
function startJobWorker() {
  const mode = process.env.YARDSTICK_JOB_WORKER;
  if (mode === "off" || mode === "app") return null;
  const worker = startJobWorkerProcess({ root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..") });
  process.env.YARDSTICK_JOB_WORKER = "off";
  return worker;
}

if (cluster.isWorker) {
  // the primary is gone (killed without a chance to stop us): stop too, as a single process would
  process.on("disconnect", () => process.exit(0));
  runNextStart();
} else if (workers === 1) {
  // the worker process has an IPC channel to this one: it stops when this process ends
  startJobWorker();
  runNextStart();
} else {
  const jobWorker = startJobWorker();
  let stopping = false;
  const restarts = [];
  const fork = () => cluster.fork();
  for (let i = 0; i < workers; i++) fork();
  console.log(`Yardstick: ${workers} workers (YARDSTICK_WORKERS), one port`);

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && now - restarts[0] > 60_000) restarts.shift();
    if (restarts.length >= 5) {
      console.error(`Yardstick: worker ${worker.process.pid} exited (${signal ?? code}); 5 restarts within a minute, giving up`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      void jobWorker?.stop();
      process.exitCode = 1;
      return;
    }
    restarts.push(now);
    console.error(`Yardstick: worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });

  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const alive = Object.values(cluster.workers ?? {});
      void jobWorker?.stop();
      if (alive.length === 0) process.exit(0);
      for (const worker of alive) worker?.process.kill(signal);
      // a worker that does not stop within 10 s is killed
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
        process.exit(0);
      }, 10_000).unref();
    });
  }
}
