/**
 * `npm run worker`: the job worker (imports, LLM scoring; lib/jobs/worker.ts) apart from the app
 * servers, on DATABASE_URL (or the embedded database of a running `npm run demo`). Run the app with
 * YARDSTICK_JOB_WORKER=off to leave all background work to such workers; any number may run, and
 * each job is handled by exactly one. SIGTERM or SIGINT stops it: a job in hand is abandoned and
 * retried by another worker once its heartbeat is a minute old.
 */
import { stopBoss } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/worker";

const worker = await startWorker();
console.log(`Yardstick job worker ${worker.id} on ${process.env.DATABASE_URL ? "DATABASE_URL" : "the embedded database"}`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void worker
      .stop()
      .then(stopBoss)
      .then(async () => {
        const { disconnectDb } = await import("@/lib/db");
        await disconnectDb();
        process.exit(0);
      });
  });
}
