/**
 * `npm run worker`: the job worker (imports, LLM scoring; lib/jobs/worker.ts) apart from the app
 * servers, on DATABASE_URL (or the embedded database of a running `npm run demo`). Run the app with
 * YARDSTICK_JOB_WORKER=off to leave all background work to such workers; any number may run, and
 * each job is handled by exactly one. SIGTERM or SIGINT stops it: a job in hand is abandoned and
 * retried by another worker once its heartbeat is a minute old. Started by the app server
 * (scripts/job-worker-process.mjs), it also stops when the server goes (its IPC channel closes).
 */
import { stopBoss } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/worker";

type Worker = Awaited<ReturnType<typeof startWorker>>;
let worker: Worker | null = null;
let stopping = false;

async function exitCleanly(): Promise<never> {
  await worker?.stop();
  await stopBoss();
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
  process.exit(0);
}

const stop = () => {
  if (stopping) return;
  stopping = true;
  // still starting: the start sees `stopping` and exits once it is done
  if (worker) void exitCleanly();
};
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, stop);
// started by the app server: its channel closes when the server ends, however it ended (listened
// to before the slow start, so that a server gone meanwhile is not missed)
if (process.send) {
  process.on("disconnect", stop);
  if (!process.connected) stop();
}

/** The database may not answer yet (a server starting beside it): try again every 10 s. */
async function startWhenReachable(): Promise<Worker | null> {
  while (!stopping) {
    try {
      return await startWorker();
    } catch (error) {
      console.error("job worker: could not start (trying again in 10 s):", error instanceof Error ? error.message : error);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
    }
  }
  return null;
}

worker = await startWhenReachable();
if (stopping) await exitCleanly();
console.log(`Yardstick job worker ${worker!.id} on ${process.env.DATABASE_URL ? "DATABASE_URL" : "the embedded database"}`);
