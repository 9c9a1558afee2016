/**
 * One dashboard view's first computation in a process that holds nothing (bench/dashboard.ts runs
 * it as a child process): prints {"ms": ..., "snapshotMs": ..., "snapshotFrom": "stored" | "answers"}.
 *
 *   DATABASE_URL=... node --conditions=react-server --import tsx bench/dashboard-cold-view.ts <slug>
 */
export {};
process.env.YARDSTICK_JOB_WORKER = "off";
const slug = process.argv[2] ?? "bench";
const { getStudyDashboard } = await import("@/lib/dashboard/study-dashboard");
const { loadSnapshot, snapshotVersion, clearDashboardCaches } = await import("@/lib/dashboard/snapshot");
const { db, disconnectDb } = await import("@/lib/db");
const study = await db.study.findUniqueOrThrow({ where: { slug }, select: { id: true } });
await db.$queryRaw`SELECT 1`; // connect first: not part of the figure
// which way a process holding nothing reads the snapshot now, and how long that takes alone
const version = await snapshotVersion(study.id);
let snapshotFrom = "stored";
let start = performance.now();
await loadSnapshot(study.id, version, "stored").catch(async () => {
  snapshotFrom = "answers";
  await loadSnapshot(study.id, version, "copy");
});
const snapshotMs = performance.now() - start;
clearDashboardCaches();
start = performance.now();
await getStudyDashboard(slug, {});
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, snapshotMs, snapshotFrom }));
await disconnectDb();
process.exit(0);
