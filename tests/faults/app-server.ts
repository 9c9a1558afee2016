import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { freePort } from "./ports";

/**
 * The production build (`next build` into NEXT_DIST_DIR, default .next) served as in production
 * (scripts/serve.mjs: `next start` in one worker per core) on a port of its own with a database of
 * its own, for tests that kill it, starve it or restart what it depends on. Killing the process
 * kills the primary; its workers notice and exit, as one process would.
 */
export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const DIST_DIR = process.env.NEXT_DIST_DIR ?? ".next";
export const SECRET = "fault-tests-secret-not-for-production-0123456789";

export function assertBuilt(): void {
  if (!existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) {
    throw new Error(`no production build in ${DIST_DIR}: run \`npx next build\` first (NEXT_DIST_DIR=${DIST_DIR}); scripts/test.sh does`);
  }
}

export interface AppServer {
  port: number;
  baseUrl: string;
  process: ChildProcess;
  /** everything the server printed (stdout and stderr) */
  output(): string;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startAppServer(options: { databaseUrl: string; port?: number; env?: Record<string, string> }): Promise<AppServer> {
  assertBuilt();
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = "";
  const server: AppServer = {
    port,
    baseUrl,
    process: undefined as unknown as ChildProcess,
    output: () => log,
    async start() {
      const child = spawn(process.execPath, [path.join(ROOT, "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: "production",
          NEXT_DIST_DIR: DIST_DIR,
          DATABASE_URL: options.databaseUrl,
          NEXTAUTH_SECRET: SECRET,
          NEXTAUTH_URL: baseUrl,
          NEXT_TELEMETRY_DISABLED: "1",
          ...options.env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout?.on("data", (chunk: Buffer) => void (log += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => void (log += chunk.toString()));
      server.process = child;
      const deadline = Date.now() + 90_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${log.slice(-3000)}`);
        try {
          const response = await fetch(`${baseUrl}/signin`, { signal: AbortSignal.timeout(5000) });
          if (response.status === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`next start did not answer within 90 s:\n${log.slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async kill(signal = "SIGTERM") {
      const child = server.process;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill(signal);
      await exited;
    },
  };
  await server.start();
  return server;
}

/** A session cookie as next-auth sets it after signing in (`sub` = the user id), minted with the server's secret. */
export async function sessionCookie(userId: string): Promise<string> {
  return `next-auth.session-token=${await encode({ token: { sub: userId }, secret: SECRET })}`;
}
