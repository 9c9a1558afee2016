import { mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * Where the database is. With DATABASE_URL set, that PostgreSQL. Without it, an embedded
 * PostgreSQL (PGlite, PostgreSQL compiled to WebAssembly) whose data lives in .yardstick/pgdata
 * and which is served on 127.0.0.1:YARDSTICK_PGLITE_PORT (default 54329) by the process that
 * opened it, so that the Next.js server, the CLI and migrations all speak ordinary PostgreSQL.
 */
export const DATA_DIR = path.resolve(process.env.YARDSTICK_DATA_DIR ?? path.join(process.cwd(), ".yardstick"));
export { PGLITE_PORT, embeddedDatabaseUrl } from "@/lib/db/embedded-url";
import { PGLITE_PORT, embeddedDatabaseUrl } from "@/lib/db/embedded-url";

export interface OpenDatabase {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Opens the configured database, creating DATABASE_URL's database when the server has none of
 * that name. For the embedded one, reuses a server that another Yardstick
 * process already serves on the port (never two PGlite instances on one data folder).
 */
export async function openDatabase(): Promise<OpenDatabase> {
  if (process.env.DATABASE_URL) {
    const { ensureDatabase } = await import("@/lib/db/ensure-database");
    if ((await ensureDatabase(process.env.DATABASE_URL)) === "created") console.log("Created the database DATABASE_URL names");
    return { url: process.env.DATABASE_URL, embedded: false, close: async () => {} };
  }
  const url = embeddedDatabaseUrl();
  if (await portAnswers(PGLITE_PORT)) return { url, embedded: true, close: async () => {} };

  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const dataDir = path.join(DATA_DIR, "pgdata");
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  // maxConnections > 1: with one connection, pg's pool loses it after any query error (STACK-NOTES)
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: PGLITE_PORT, maxConnections: 10 });
  await server.start();
  return {
    url,
    embedded: true,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
