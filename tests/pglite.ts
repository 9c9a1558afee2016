import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { afterAll, beforeAll } from "vitest";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";
import { applyMigrations } from "@/lib/db/schema-engine";
import { freePort } from "@/tests/faults/ports";

/**
 * The file's tests run on an embedded PGlite served over the wire (as `npm run demo` runs the app),
 * with every migration applied: DATABASE_URL points at it before the file first uses the database.
 */
export function runOnMigratedPglite(): void {
  let pglite: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  beforeAll(async () => {
    pglite = await PGlite.create();
    const port = await freePort();
    server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port, maxConnections: 10 });
    await server.start();
    const url = embeddedDatabaseUrl(port);
    await applyMigrations(url);
    process.env.DATABASE_URL = url; // before the first use of db in this file's module graph
  }, 300_000);
  afterAll(async () => {
    const { disconnectDb } = await import("@/lib/db");
    const { disconnectReadDb } = await import("@/lib/db/read");
    await disconnectDb();
    await disconnectReadDb();
    await server?.stop();
    await pglite?.close();
  });
}
