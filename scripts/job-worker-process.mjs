/**
 * The app's job worker as a process of its own beside the app server (scripts/serve.mjs): the
 * same program as `npm run worker` (scripts/worker.ts), started and supervised by the server.
 *
 * Why a process: a job holds its process's CPU while it computes (a large study's dashboard view
 * computes for seconds over every answer), and in the app's own process every request, the
 * participants' answers included, would wait that long. Apart, the app answers while the job
 * computes, and the worker runs the queues' periodic work too (the refresh of large studies'
 * dashboard views, lib/dashboard/view-refresh.ts), which the app's own worker never ran.
 *
 * The worker is restarted when it exits (at most 5 times a minute); it has an IPC channel to the
 * server and stops when the server goes, even killed without a chance to stop it.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * Starts the worker process in `root` (the project) with this process's environment; returns a
 * handle whose stop() ends it (SIGTERM, then SIGKILL after `graceMs`).
 */
export function startJobWorkerProcess({ root, graceMs = 10_000, log = console } = {}) {
  let child = null;
  let stopping = false;
  const restarts = [];

  const start = () => {
    child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts", "worker.ts")], {
      cwd: root,
      env: process.env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const current = child;
    current.on("exit", (code, signal) => {
      if (stopping || current !== child) return;
      const now = Date.now();
      while (restarts.length > 0 && now - restarts[0] > 60_000) restarts.shift();
      if (restarts.length >= MAX_RESTARTS_PER_MINUTE) {
        log.error(
          `Yardstick: the job worker exited (${signal ?? code}); ${MAX_RESTARTS_PER_MINUTE} restarts within a minute, giving up (jobs wait for a worker: npm run worker)`,
        );
        child = null;
        return;
      }
      restarts.push(now);
      log.error(`Yardstick: the job worker exited (${signal ?? code}); starting another`);
      start();
    });
  };
  start();

  return {
    get pid() {
      return child?.pid;
    },
    stop() {
      stopping = true;
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => current.kill("SIGKILL"), graceMs);
        timer.unref?.();
        current.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        current.kill("SIGTERM");
      });
    },
  };
}
