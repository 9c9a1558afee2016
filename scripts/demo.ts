/**
 * `npm run demo`: Yardstick on http://localhost:3000 with a demo study, in one command.
 * Without DATABASE_URL it runs an embedded PostgreSQL (PGlite) whose data lives in .yardstick/
 * and survives restarts; this process serves it to the app for as long as it runs.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { DATA_DIR, openDatabase } from "@/lib/db/database-url";
import { applyMigrations } from "@/lib/db/schema-engine";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? 3000);

function sessionSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(DATA_DIR, "nextauth-secret");
  if (!existsSync(file)) {
    mkdirSync(DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/** The key of stored secrets (Prolific tokens, lib/security/secret-box.ts): YARDSTICK_SECRET_KEY, or one generated once in the data folder. */
function secretKey(): string {
  if (process.env.YARDSTICK_SECRET_KEY) return process.env.YARDSTICK_SECRET_KEY;
  const file = path.join(DATA_DIR, "secret-key");
  if (!existsSync(file)) {
    mkdirSync(DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

function newestSourceTime(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "generated" || entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of ["app", "components", "lib", "config"]) if (existsSync(path.join(root, dir))) walk(path.join(root, dir));
  for (const file of ["next.config.js", "package.json", "app/globals.css"])
    if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  return newest;
}

/**
 * `next build` with its progress lines as they come, without its route table (a line per route
 * says nothing to someone starting the demo), and the seconds it took.
 */
async function buildIfNeeded() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newestSourceTime()) return;
  console.log("Building the app (next build), once: about 3 minutes on 2 cores; later starts reuse the build…");
  const started = Date.now();
  const build = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const table: string[] = [];
  const lines = createInterface({ input: build.stdout });
  lines.on("line", (line) => {
    if (table.length > 0 || /^Route \(/.test(line)) table.push(line);
    else console.log(line);
  });
  const status = await new Promise<number | null>((resolve) => build.on("close", resolve));
  if (status !== 0) {
    console.log(table.join("\n"));
    throw new Error("next build failed");
  }
  const routes = table.filter((line) => /^[┌├└]/.test(line)).length;
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s (${routes} routes).`);
}

const database = await openDatabase();
console.log(database.embedded ? `Embedded PostgreSQL (PGlite) in ${path.join(DATA_DIR, "pgdata")}` : "PostgreSQL from DATABASE_URL");
const applied = await applyMigrations(database.url);
if (applied.length) console.log(`Applied ${applied.length} migration(s)`);
process.env.DATABASE_URL = database.url;

const { seedDemo, demoLogins } = await import("./demo-data/seed-demo");
const seeded = await seedDemo();
console.log(seeded);
const { disconnectDb } = await import("@/lib/db");
await disconnectDb();

await buildIfNeeded();

const server = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", String(port)], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: sessionSecret(),
    YARDSTICK_SECRET_KEY: secretKey(),
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    NEXT_TELEMETRY_DISABLED: "1",
    // the embedded database runs in this process, one session for every connection: more app workers
    // would only queue on it, and two connections' queries would interleave in that one session
    ...(database.embedded && !process.env.YARDSTICK_WORKERS ? { YARDSTICK_WORKERS: "1" } : {}),
    ...(database.embedded && !process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: "1" } : {}),
    // and the job worker in the app's process (not a process of its own: scripts/job-worker-process.mjs), for the same reason
    ...(database.embedded && !process.env.YARDSTICK_JOB_WORKER ? { YARDSTICK_JOB_WORKER: "app" } : {}),
  },
});
let announced = false;
server.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && /Ready|started server/i.test(chunk.toString())) {
    announced = true;
    console.log(`\nYardstick is running on http://localhost:${port}\n\nDemo logins (password for each):`);
    for (const login of demoLogins) console.log(`  ${login.role.padEnd(10)} ${login.email.padEnd(32)} ${login.password}`);
    console.log(
      `\nPress Ctrl+C to stop. The data stays ${database.embedded ? `in ${DATA_DIR.startsWith(process.cwd() + path.sep) ? path.relative(process.cwd(), DATA_DIR) : DATA_DIR}/` : "in the DATABASE_URL database"}.`,
    );
  }
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 300));
  await database.close();
  process.exit(code);
}
server.on("exit", (code) => void stop(code ?? 0));
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
