/**
 * Times one study's dashboard computed anew (every cache emptied before each run) N times, on a
 * database seeded by bench/dashboard.ts --seed-only (its study "bench"), in the tree it is run from:
 * run in two trees in turn on one database, it compares two commits (bench/dashboard-RESULTS.md).
 *
 *   node --conditions=react-server --import tsx bench/dashboard-port.ts <database url> [runs]
 */
const [databaseUrl, runsArg] = process.argv.slice(2);
if (!databaseUrl) throw new Error("usage: bench/dashboard-port.ts <database url> [runs]");
process.env.DATABASE_URL = databaseUrl;
process.env.YARDSTICK_DASHBOARD_REFRESH_SECONDS = "0";
const runs = Number(runsArg ?? 5);

async function main(): Promise<void> {
  const { clearDashboardCaches } = await import("@/lib/dashboard/snapshot");
  const { getStudyDashboard } = await import("@/lib/dashboard/study-dashboard");
  const { disconnectDb } = await import("@/lib/db");
  const { disconnectReadDb } = await import("@/lib/db/read");
  // one run first: module loading and the connections are not the dashboard's cost
  await getStudyDashboard("bench", {});
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    clearDashboardCaches();
    const start = performance.now();
    await getStudyDashboard("bench", {});
    times.push(performance.now() - start);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(JSON.stringify({ runs, medianMs: sorted[Math.floor(sorted.length / 2)], minMs: sorted[0], times: times.map((t) => Math.round(t)) }));
  await disconnectReadDb();
  await disconnectDb();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
